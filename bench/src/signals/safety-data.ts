/**
 * The labelled hosts of `shared/data/signals/safety`, each with its half (SHA-256 of the host,
 * second byte's parity: the data's own development/held-out split used the first byte), and the
 * background negatives the safety model also learns from: the hosts of the source_role and
 * vertical sets (news, government, universities, forums, documentation; Curlie's businesses,
 * shops, arts and health sites) and TUNE_HALF of the published_at set's hosts (the hosts of real
 * news and blog pages a crawl meets), less every host of the safety set, so that no host of the
 * half the bench reports as not tuned on is seen in training. The published_at set's other half
 * is the bench's check of ordinary hosts called explicit.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { signalsDataDir } from './data-dir.js';

/** The half the rules were tuned on and the model is trained on. */
export const TUNE_HALF = 1;

export interface SafetyRecord {
  host: string;
  explicit: boolean | null;
  level: 'host' | 'page';
  url?: string;
  hard_case?: string;
}

export function safetyHalf(host: string): number {
  return createHash('sha256').update(host).digest()[1] % 2;
}

function jsonl<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

export function readSafetyRecords(): SafetyRecord[] {
  return jsonl<SafetyRecord>(`${signalsDataDir()}/safety/records.jsonl`);
}

export function isHardNegative(record: SafetyRecord): boolean {
  return record.hard_case === 'lingerie' || record.hard_case === 'sexual_education';
}

function bare(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}

/** The hosts of the published_at set's pages (real news and blog pages) in `part`, less the safety set's. */
export function crawledHosts(safety: readonly SafetyRecord[], part: number): string[] {
  const taken = new Set(safety.map((record) => record.host));
  const hosts = new Set(jsonl<{ host: string }>(`${signalsDataDir()}/published_at/records.jsonl`).map((record) => bare(record.host ?? '')));
  return [...hosts].filter((host) => host !== '' && !taken.has(host) && safetyHalf(host) === part).sort();
}

/** The URLs of the published_at set's pages (real news and blog pages) whose host is in `part`, less the safety set's hosts. */
export function crawledPages(safety: readonly SafetyRecord[], part: number): Array<{ host: string; url: string }> {
  const taken = new Set(safety.map((record) => record.host));
  return jsonl<{ host?: string; url?: string }>(`${signalsDataDir()}/published_at/records.jsonl`)
    .map((record) => ({ host: bare(record.host ?? ''), url: record.url ?? '' }))
    .filter((page) => page.host !== '' && page.url !== '' && !taken.has(page.host) && safetyHalf(page.host) === part);
}

/** Hosts of the source_role and vertical sets and TUNE_HALF of the published_at set's, that the safety set does not hold, sorted. */
export function backgroundNegatives(safety: readonly SafetyRecord[]): string[] {
  const taken = new Set(safety.map((record) => record.host));
  const hosts = new Set<string>(crawledHosts(safety, TUNE_HALF));
  for (const record of jsonl<{ host: string }>(`${signalsDataDir()}/source_role/hosts.jsonl`)) hosts.add(bare(record.host));
  for (const record of jsonl<{ host: string }>(`${signalsDataDir()}/vertical/records.jsonl`)) hosts.add(bare(record.host));
  return [...hosts].filter((host) => host !== '' && !taken.has(host)).sort();
}
