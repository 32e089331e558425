/**
 * The closed vocabularies of the ingest input: a value outside one of these lists makes the
 * line malformed rather than silently indexing a filter value nobody can ask for.
 */

/**
 * Content types (SPEC 2.1), sources, safety levels and removal reasons are the API's own lists
 * (`@evidence/schemas`): ingest refuses what search could never name. `superseded` is also what
 * ingest records for a re-crawl.
 */
export { CONTENT_TYPES, REMOVAL_REASONS, SAFETY_LEVELS, SOURCES } from '@evidence/schemas';
import type { ContentTypeName, RemovalReason, SafetyLevel, SourceName } from '@evidence/schemas';
export type ContentType = ContentTypeName;
export type Source = SourceName;
export type Safety = SafetyLevel;
export type { RemovalReason };

export const DEFAULT_SOURCE: Source = 'cc';
// Vertical, safety, host_rank and quality have no default here: each is derived from the page
// when the record does not give it (`signals/`), and the signal says what it falls back to.
