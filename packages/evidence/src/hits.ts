/** SPEC hits from engine hits, and the orderings every evidence computation shares. */
import { HIT_FIELDS, type Hit, type HitField } from '@evidence/schemas';
import type { EvidenceHit } from './types.js';

/** Copies one field of a hit when it has it (the generic key keeps the value's type: no cast). */
function copyField<Field extends HitField>(into: Partial<Hit>, from: Hit, field: Field): void {
  const value = from[field];
  if (value !== undefined) into[field] = value;
}

/**
 * The fields of a SPEC hit (2.1) that `fields` names, in that order, those the hit has (search's
 * `fields`). An engine hit is a SPEC hit plus internal provenance fields: only named ones are copied.
 */
export function projectHit(hit: Hit, fields: readonly HitField[]): Partial<Hit> {
  const projected: Partial<Hit> = {};
  for (const field of fields) copyField(projected, hit, field);
  return projected;
}

/** A SPEC hit (2.1): the engine's hit without its internal provenance fields, in the API's field order. */
export function specHit(hit: Hit): Hit {
  // The required fields are named here so that the result is a whole Hit by its type (a required
  // field added to or dropped from HitSchema fails to compile here); HitSchema lists them first,
  // so the copy below keeps their places and adds the optional fields after them in its order.
  const projected: Hit = {
    id: hit.id,
    url: hit.url,
    host: hit.host,
    title: hit.title,
    vertical: hit.vertical,
    host_rank: hit.host_rank,
    quality: hit.quality,
    fetched_at: hit.fetched_at,
    source: hit.source,
    story_id: hit.story_id,
    score: hit.score,
    snippet: hit.snippet,
  };
  for (const field of HIT_FIELDS) copyField(projected, hit, field);
  return projected;
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
