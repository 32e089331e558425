/**
 * The closed vocabularies of the ingest input: a value outside one of these lists makes the
 * line malformed rather than silently indexing a filter value nobody can ask for.
 */

/** Content types named for the content_type filter (SPEC 2.1). */
export const CONTENT_TYPES = [
  'article',
  'news',
  'docs',
  'reference',
  'qa',
  'forum',
  'academic',
  'product',
  'code',
  'how-to',
  'opinion',
  'video',
  'document',
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** Why the crawler dropped a URL; `superseded` is also what ingest records for a re-crawl. */
export const REMOVAL_REASONS = [
  'access-starved',
  'lost-replacement',
  'tombstoned-source',
  'stale',
  'redundant',
  'superseded',
] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

/** `cc`: the public web-crawl corpus; `delta`: freshly crawled. */
export const SOURCES = ['cc', 'delta'] as const;
export type Source = (typeof SOURCES)[number];

/** `explicit` passages are what the `safe` search parameter drops. */
export const SAFETY_LEVELS = ['safe', 'explicit'] as const;
export type Safety = (typeof SAFETY_LEVELS)[number];

export const DEFAULT_SOURCE: Source = 'cc';
export const DEFAULT_VERTICAL = 'general';
export const DEFAULT_SAFETY: Safety = 'safe';
export const DEFAULT_HOST_RANK = 0.5;
export const DEFAULT_QUALITY = 50;
