/**
 * The closed vocabularies of the ingest input: a value outside one of these lists makes the
 * line malformed rather than silently indexing a filter value nobody can ask for.
 */

/**
 * Content types (SPEC 2.1) and sources are the API's own lists: ingest refuses what search could
 * never name.
 */
export { CONTENT_TYPES, SOURCES } from '@evidence/schemas';
import type { CONTENT_TYPES, SOURCES } from '@evidence/schemas';
export type ContentType = (typeof CONTENT_TYPES)[number];
export type Source = (typeof SOURCES)[number];

/**
 * Why the crawler dropped a URL; `superseded` is also what ingest records for a re-crawl. The
 * same set as why_not's reasons, in the crawler's order (malformed-line messages list it).
 */
export const REMOVAL_REASONS = [
  'access-starved',
  'lost-replacement',
  'tombstoned-source',
  'stale',
  'redundant',
  'superseded',
] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

/** `explicit` passages are what the `safe` search parameter drops. */
export const SAFETY_LEVELS = ['safe', 'explicit'] as const;
export type Safety = (typeof SAFETY_LEVELS)[number];

export const DEFAULT_SOURCE: Source = 'cc';
export const DEFAULT_VERTICAL = 'general';
export const DEFAULT_SAFETY: Safety = 'safe';
export const DEFAULT_HOST_RANK = 0.5;
export const DEFAULT_QUALITY = 50;
