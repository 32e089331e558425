/* Generated from the engine's tables (crates/engine/src/typescript.rs) by `cargo test -p evidence-engine --test generated_typescript`; UPDATE_GENERATED=1 rewrites it. Do not edit. */

/** How a search ranks (SPEC 4.1). */
export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** The order of a result: relevance, or a field, largest (newest) first. */
export const SEARCH_SORTS = ['relevance', 'recency', 'host_rank', 'quality', 'published', 'words', 'centrality'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** One result per host, page or story (the best-ranked one), or every row. */
export const COLLAPSES = ['none', 'host', 'page', 'story'] as const;
export type CollapseBy = (typeof COLLAPSES)[number];

/**
 * Where a shard's vectors come from: `hashing` (the engine's model-free embedder, run by the
 * writer for each passage and by the reader for each query text) or `external` (a model
 * outside the engine: passages get theirs later, a query's vector comes with the request).
 */
export const VECTOR_SOURCES = ['hashing', 'external'] as const;
export type VectorSourceName = (typeof VECTOR_SOURCES)[number];

/** Which crawl a passage came from. */
export const SOURCES = ['cc', 'delta'] as const;
export type SourceName = (typeof SOURCES)[number];

/** Content types a passage may carry (SPEC 2.1), the values of the content_type filter. */
export const CONTENT_TYPES = ['article', 'news', 'docs', 'reference', 'qa', 'forum', 'academic', 'product', 'code', 'how-to', 'opinion', 'video', 'document'] as const;
export type ContentTypeName = (typeof CONTENT_TYPES)[number];

/** `explicit` passages are what the `safe` search parameter drops. */
export const SAFETY_LEVELS = ['safe', 'explicit'] as const;
export type SafetyLevel = (typeof SAFETY_LEVELS)[number];

/** What a passage is (SPEC 2.6): a republish is a later copy of an origin already in its story. */
export const ORIGIN_TYPES = ['original', 'wire', 'press_release', 'republish', 'unknown'] as const;
export type OriginType = (typeof ORIGIN_TYPES)[number];

/**
 * Who stands behind a passage (SPEC 2.6): official (government, regulator, court or
 * university host), primary (documentation, academic paper, code, published document or an
 * organisation's own release), secondary (reporting or reference about the subject),
 * aggregator, ugc (forums, Q&A, social), unknown when nothing says.
 */
export const SOURCE_ROLES = ['official', 'primary', 'secondary', 'aggregator', 'ugc', 'unknown'] as const;
export type SourceRole = (typeof SOURCE_ROLES)[number];
