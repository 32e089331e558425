/**
 * Where the signal benches and trainers find the labelled data, and how they split its
 * development half in two: a tuning half (everything tuned or trained was chosen on it) and a
 * check half (reported, never tuned on). The split hashes a stable key with SHA-256 and takes a
 * byte the data's own dev/held-out split did not use.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** `SIGNALS_DATA`, else `../shared/data/signals` beside the repository. */
export const SIGNALS_DATA = process.env.SIGNALS_DATA ?? join(ROOT, '..', 'shared', 'data', 'signals');

export type Half = 'tune' | 'check';

/** The half of a key: byte `byte` of its SHA-256 even -> tune, odd -> check. */
export function halfOf(key: string, byte: number): Half {
  return createHash('sha256').update(key).digest()[byte] % 2 === 0 ? 'tune' : 'check';
}

/** The lines of a JSONL file under SIGNALS_DATA, parsed; undefined when the file is missing. */
export function readJsonl<T>(relative: string): T[] | undefined {
  const path = join(SIGNALS_DATA, relative);
  if (!existsSync(path)) return undefined;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Macro-F1 over `labels` of (truth, prediction) pairs; per-label F1 too. */
export function macroF1(pairs: ReadonlyArray<[string, string]>, labels: readonly string[]): { macro: number; perLabel: Record<string, number> } {
  const perLabel: Record<string, number> = {};
  for (const label of labels) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const [truth, predicted] of pairs) {
      if (predicted === label && truth === label) tp++;
      else if (predicted === label) fp++;
      else if (truth === label) fn++;
    }
    perLabel[label] = tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  const macro = labels.reduce((sum, label) => sum + perLabel[label], 0) / labels.length;
  return { macro, perLabel };
}
