/**
 * The Curlie-labelled sites of `shared/data/signals/vertical`, each with its half: SHA-256 of the
 * host, second byte's parity (the data's own development/held-out split used the first byte, so
 * the second splits this half again). The model is trained on TRAIN_HALF only; the bench reports
 * both halves, the other one as not trained on.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DERIVED_VERTICALS, GENERAL_VERTICAL } from '@evidence/schemas';
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

/** Each derived vertical's Curlie top-level topic. */
export const CURLIE_OF = new Map(DERIVED_VERTICALS.map((vertical) => [vertical.name, vertical.curlie]));

export interface VerticalScore {
  /** Sites given a vertical other than the default. */
  assigned: number;
  /** Of those, sites whose Curlie topics include the vertical's. */
  hits: number;
  sites: number;
}

/** How a choice of vertical per site scores against the sites' Curlie topics. */
export function scoreVerticals<Site extends Pick<VerticalSite, 'topics'>>(sites: readonly Site[], choose: (site: Site) => string): VerticalScore {
  let assigned = 0;
  let hits = 0;
  for (const site of sites) {
    const vertical = choose(site);
    if (vertical === GENERAL_VERTICAL) continue;
    assigned++;
    if (site.topics.includes(CURLIE_OF.get(vertical) ?? '')) hits++;
  }
  return { assigned, hits, sites: sites.length };
}
