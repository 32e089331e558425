/** The search capability and its siblings browse and similar (SPEC 4.1, 4.3, 4.8, 2.1, 2.2). */
import { z } from 'zod';
import { allBut, flag, inList, numericParam, optionalQueryText, queryText, trimmedText } from './params.js';
import { COLLAPSES, CONTENT_TYPES, SAFETY_LEVELS, SEARCH_MODES, SEARCH_SORTS, SOURCES } from './vocabulary.generated.js';

export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_LIMIT_DEFAULT = 10;

/** Browse lists, it does not rank: every sort but relevance. */
export const BROWSE_SORTS = allBut(SEARCH_SORTS, 'relevance');
export const SearchModeSchema = z.enum(SEARCH_MODES);

export const HitSchema = z.object({
  id: z.string().describe('passage id, page:no'),
  url: z.string(),
  host: z.string(),
  title: z.string(),
  vertical: z.string(),
  host_rank: z.number().describe('host trust prior, 0..1'),
  quality: z.number().int(),
  fetched_at: z.number().int().describe('unix seconds when crawled'),
  source: z.enum(SOURCES),
  story_id: z.string().describe('near-duplicate cluster'),
  score: z.number(),
  snippet: z.string().describe('the passage text'),
  authority: z.string().optional(),
  centrality: z.number().optional(),
  community_id: z.string().optional(),
  content_type: z.enum(CONTENT_TYPES).optional(),
  group_size: z.number().int().optional().describe('present when collapse folded rows: how many rows the group had'),
  in_degree: z.number().int().optional(),
  independent_sources: z.number().int().optional(),
  published_at: z.number().int().optional(),
  safety: z.enum(SAFETY_LEVELS).optional(),
  tld: z.string().optional(),
  topics: z.array(z.string()).optional(),
  word_count: z.number().int().optional(),
});
export type Hit = z.infer<typeof HitSchema>;
/** The fields of a hit, in the API's order (what `fields` may name). */
export const HIT_FIELDS = HitSchema.keyof().options;
export type HitField = (typeof HIT_FIELDS)[number];
const HIT_FIELD_NAMES: ReadonlySet<string> = new Set(HIT_FIELDS);

/** Whether `name` is a field of a hit (what narrows a validated `fields` list to HitField). */
export function isHitField(name: string): name is HitField {
  return HIT_FIELD_NAMES.has(name);
}


function oneOf(values: readonly string[]): string {
  return `one of ${values.join(', ')}`;
}

export function limitSchema() {
  return numericParam(
    z
      .number()
      .int()
      .min(0)
      .default(SEARCH_LIMIT_DEFAULT)
      .transform((limit) => Math.min(limit, SEARCH_LIMIT_MAX))
      .describe(`an integer >= 0 (default ${SEARCH_LIMIT_DEFAULT}; above ${SEARCH_LIMIT_MAX} is clamped; 0 returns only the count)`),
  );
}

const unixSeconds = (meaning: string) => numericParam(z.number().int().optional().describe(`unix seconds: ${meaning}`));
const listOf = (values: readonly string[], meaning: string) =>
  inList(`${meaning}; each ${oneOf(values)}`, { values }).refine((items) => items.every((item) => values.includes(item)), {
    message: `each value must be ${oneOf(values)}`,
  });

/** Filters shared by search and its siblings. */
const filterShape = {
  vertical: trimmedText(1).optional().describe('one vertical, e.g. code, cooking, science; omit to let the router choose'),
  site: trimmedText(1).optional().describe('an exact host, e.g. www.example.org'),
  exclude_site: inList('hosts to exclude').optional(),
  tld: inList('top-level domains, e.g. edu,gov').optional(),
  lang: trimmedText(2).optional().describe('a single language code, e.g. en'),
  langs: inList('language codes').optional(),
  content_type: listOf(CONTENT_TYPES, 'content types').optional(),
  authority: inList('publisher authorities, e.g. high,medium').optional(),
  topic: inList('topic tags').optional(),
  community: inList('graph community ids').optional(),
  source: z.enum(SOURCES).optional().describe(oneOf(SOURCES)),
  from: unixSeconds('fetched at or after'),
  to: unixSeconds('fetched at or before'),
  published_from: unixSeconds('published at or after (content date, not crawl time)'),
  published_to: unixSeconds('published at or before'),
  min_host_rank: numericParam(z.number().min(0).max(1).optional().describe('a number within 0..1: host trust floor')),
  min_quality: numericParam(z.number().int().optional().describe('an integer quality floor')),
  min_words: numericParam(z.number().int().min(0).optional().describe('an integer >= 0: passage length floor in words')),
  max_words: numericParam(z.number().int().min(0).optional().describe('an integer >= 0: passage length ceiling in words')),
  min_centrality: numericParam(z.number().min(0).optional().describe('a number >= 0: graph centrality floor')),
  min_independent_sources: numericParam(z.number().int().min(0).optional().describe('an integer >= 0: only stories asserted by at least this many distinct hosts')),
  term: optionalQueryText('an exact needle: only passages carrying this term'),
  safe: flag('true drops explicit content; false allows everything').default(true),
};

type Bounded = { from?: number; to?: number; published_from?: number; published_to?: number; min_words?: number; max_words?: number };

/** A lower bound above its upper bound is a 400 naming the lower one. */
function checkBounds(params: Bounded, context: z.RefinementCtx): void {
  const pairs: [keyof Bounded, keyof Bounded][] = [['from', 'to'], ['published_from', 'published_to'], ['min_words', 'max_words']];
  for (const [lower, upper] of pairs) {
    const low = params[lower];
    const high = params[upper];
    if (low !== undefined && high !== undefined && low > high) {
      context.addIssue({ code: 'custom', path: [lower], message: `${lower} must not be above ${upper}` });
    }
  }
}

export const SearchParamsSchema = z
  .object({
    q: queryText('a non-empty query: terms (OR-ed, ranked), AND, OR, -term, "exact phrase"'),
    mode: SearchModeSchema.default('hybrid').describe(oneOf(SEARCH_MODES)),
    sort: z.enum(SEARCH_SORTS).default('relevance').describe(oneOf(SEARCH_SORTS)),
    collapse: z.enum(COLLAPSES).default('none').describe(`${oneOf(COLLAPSES)}: one result per host, page or story`),
    limit: limitSchema(),
    ...filterShape,
    prefer_recent: flag('soft rerank toward recent passages, not a filter').default(false),
    prefer_authority: flag('soft rerank toward higher-authority hosts').default(false),
    facets: flag('also return facet counts and a publish-year histogram').default(false),
    fields: listOf(HIT_FIELDS, 'project hits to these fields').optional(),
  })
  .superRefine(checkBounds);
export type SearchParams = z.output<typeof SearchParamsSchema>;

export const BrowseParamsSchema = z.object({
  limit: limitSchema(),
  sort: z.enum(BROWSE_SORTS).default('recency').describe(oneOf(BROWSE_SORTS)),
  vertical: filterShape.vertical.describe('one vertical; omit for all'),
  safe: filterShape.safe,
});
export type BrowseParams = z.output<typeof BrowseParamsSchema>;

export const SimilarParamsSchema = z.object({
  id: trimmedText(1).describe('the seed passage id, page:no'),
  limit: limitSchema(),
});
export type SimilarParams = z.output<typeof SimilarParamsSchema>;

const FacetValueSchema = z.object({ value: z.string(), count: z.number().int() });
export const FacetsSchema = z.object({
  host: z.array(FacetValueSchema).describe('the 50 hosts with most matches, most first (exact counts)'),
  vertical: z.array(FacetValueSchema),
  source: z.array(FacetValueSchema),
  content_type: z.array(FacetValueSchema),
  published_year: z.array(z.object({ year: z.number().int(), count: z.number().int() })).describe('publish-year histogram, oldest first; undated passages are not counted'),
});
export type Facets = z.infer<typeof FacetsSchema>;

export const WebSearchResponseSchema = z.object({
  results: z.array(HitSchema.partial().describe('a hit, projected to `fields` when given')),
  total: z.number().int().describe('real match count, even when limit clamped or is 0'),
  mode: SearchModeSchema.describe('mode actually used'),
  routed: z.boolean().describe('true when the router chose the vertical, false when the caller named it'),
  vertical: z.string().nullable().optional().describe('vertical actually queried; null when all were searched'),
  partial: z.boolean().optional().describe('true when at least one shard failed or timed out'),
  facets: FacetsSchema.optional(),
  semantic_coverage: z
    .object({
      embedded: z.number().int().describe('passages that have a vector: the only ones a semantic ranking can reach'),
      passages: z.number().int().describe('live passages of the shards that answered'),
    })
    .optional()
    .describe(
      'present in semantic and hybrid answers while the background embedder is still making vectors for recently ingested passages: the vector half of the ranking saw only `embedded` of `passages` (the keyword half of hybrid sees them all)',
    ),
});
export type WebSearchResponse = z.infer<typeof WebSearchResponseSchema>;
