/** The search capability: its parameters and its response (SPEC 4.1, 2.1, 2.2). */
import { z } from 'zod';

export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_LIMIT_DEFAULT = 10;

export const SearchModeSchema = z.enum(['keyword', 'semantic', 'hybrid']);

export const SearchParamsSchema = z.object({
  q: z.string().trim().min(1).describe('a non-empty query: terms, AND, OR, -term, "exact phrase"'),
  limit: z.coerce
    .number()
    .int()
    .min(0)
    .default(SEARCH_LIMIT_DEFAULT)
    .transform((limit) => Math.min(limit, SEARCH_LIMIT_MAX))
    .describe(`an integer >= 0 (default ${SEARCH_LIMIT_DEFAULT}; above ${SEARCH_LIMIT_MAX} is clamped; 0 returns only the count)`),
  mode: SearchModeSchema.default('hybrid').describe('one of keyword, semantic, hybrid'),
});
export type SearchParams = z.output<typeof SearchParamsSchema>;

export const HitSchema = z.object({
  id: z.string().describe('passage id, page:no'),
  url: z.string(),
  host: z.string(),
  title: z.string(),
  vertical: z.string(),
  host_rank: z.number().describe('host trust prior, 0..1'),
  quality: z.number().int(),
  fetched_at: z.number().int().describe('unix seconds when crawled'),
  source: z.enum(['cc', 'delta']),
  story_id: z.string().describe('near-duplicate cluster'),
  score: z.number(),
  snippet: z.string().describe('the passage text'),
  authority: z.string().optional(),
  centrality: z.number().optional(),
  community_id: z.string().optional(),
  content_type: z.string().optional(),
  group_size: z.number().int().optional(),
  in_degree: z.number().int().optional(),
  independent_sources: z.number().int().optional(),
  published_at: z.number().int().optional(),
  safety: z.string().optional(),
  tld: z.string().optional(),
  topics: z.array(z.string()).optional(),
  word_count: z.number().int().optional(),
});
export type Hit = z.infer<typeof HitSchema>;

export const WebSearchResponseSchema = z.object({
  results: z.array(HitSchema),
  total: z.number().int().describe('real match count, even when limit clamped or is 0'),
  mode: SearchModeSchema.describe('mode actually used'),
  routed: z.boolean().describe('true when the router chose the vertical, false when the caller named it'),
  vertical: z.string().nullable().optional(),
  partial: z.boolean().optional().describe('true when at least one shard failed or timed out'),
});
export type WebSearchResponse = z.infer<typeof WebSearchResponseSchema>;
