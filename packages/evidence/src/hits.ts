/** SPEC hits from engine hits, and the orderings every evidence computation shares. */
import { HIT_FIELDS, type Hit } from '@evidence/schemas';
import type { EvidenceHit } from './types.js';

/** A SPEC hit (2.1): the engine's hit without its internal provenance fields. */
export function specHit(hit: EvidenceHit): Hit {
  const projected: Record<string, unknown> = {};
  for (const field of HIT_FIELDS) {
    const value = (hit as unknown as Record<string, unknown>)[field];
    if (value !== undefined) projected[field] = value;
  }
  return projected as Hit;
}

/** When a passage appeared: its declared publish date, else its crawl time. */
export function appearedAt(hit: EvidenceHit): number {
  return hit.published_at ?? hit.fetched_at;
}

/** Earliest first: appearance, then crawl time, then id (a total order: ids are unique). */
export function earliestFirst(left: EvidenceHit, right: EvidenceHit): number {
  return appearedAt(left) - appearedAt(right) || left.fetched_at - right.fetched_at || compareText(left.id, right.id);
}

export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Seconds since publication, or since crawl when no publish date is declared (never negative). */
export function ageSeconds(hit: EvidenceHit, now: number): number {
  return Math.max(0, now - appearedAt(hit));
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Unique values in first-seen order. */
export function unique<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}
