/**
 * The Curlie-labelled sites of `shared/data/signals/vertical`, each with its half: SHA-256 of the
 * host, second byte's parity (the data's own development/held-out split used the first byte, so
 * the second splits this half again). The model is trained on TRAIN_HALF only; the bench reports
 * both halves, the other one as not trained on.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { signalsDataDir } from './data-dir.js';

export const TRAIN_HALF = 1;

export interface VerticalSite {
  host: string;
  title: string;
  text: string;
  topics: string[];
  crowd_votes: Record<string, number>;
  half: number;
  /** The site's dense vector (`verticalText` embedded), when the caller computed one. */
  vector?: Float32Array;
}

export function hostHalf(host: string): number {
  return createHash('sha256').update(host).digest()[1] % 2;
}

export function readVerticalSites(): VerticalSite[] {
  const lines = readFileSync(`${signalsDataDir()}/vertical/records.jsonl`, 'utf8').split('\n');
  return lines
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const record = JSON.parse(line) as Omit<VerticalSite, 'half'>;
      return { host: record.host, title: record.title ?? '', text: record.text ?? '', topics: record.topics ?? [], crowd_votes: record.crowd_votes ?? {}, half: hostHalf(record.host) };
    });
}
