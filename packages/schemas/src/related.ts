/** The related capability: passages connected to a passage through links and stories (SPEC 2.1, 4.8). */
import { z } from 'zod';
import { inList, trimmedText } from './params.js';
import { HitSchema, limitSchema } from './search.js';

/**
 * How a page or story is related to the seed passage's page:
 * - links_to: the seed's page links to it;
 * - linked_from: it links to the seed's page;
 * - co_cited: a page linking to the seed's page links to it too;
 * - same_community: another story of the seed's graph community (community_id).
 */
export const RELATION_KINDS = ['links_to', 'linked_from', 'co_cited', 'same_community'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/** Linked pages considered per kind at most (a hub has thousands; `truncated` says so). */
export const RELATED_PAGES_MAX = 200;
/** Other stories of the community listed at most (the community's best by host trust). */
export const RELATED_COMMUNITY_STORIES_MAX = 100;

export const RelatedParamsSchema = z.object({
  id: trimmedText(1).describe('the seed passage id, page:no'),
  relation: inList(`relations to follow; each one of ${RELATION_KINDS.join(', ')}; default all`, { values: RELATION_KINDS })
    // An empty list (`relation=`) is absent, as for every other list parameter: all relations.
    .refine((kinds) => kinds.every((kind) => (RELATION_KINDS as readonly string[]).includes(kind)), {
      message: `each value must be one of ${RELATION_KINDS.join(', ')}`,
    })
    .transform((kinds) => RELATION_KINDS.filter((kind) => kinds.length === 0 || kinds.includes(kind)))
    .default([...RELATION_KINDS]),
  limit: limitSchema(),
});
export type RelatedParams = z.output<typeof RelatedParamsSchema>;

export const RelatedHitSchema = HitSchema.extend({
  relations: z.array(z.enum(RELATION_KINDS)).describe('every way this passage is related to the seed, in the order of RELATION_KINDS'),
  co_citations: z.number().int().optional().describe('co_cited: how many pages link to both this page and the seed\'s'),
  co_cited_by: z.array(z.string()).optional().describe('co_cited: up to 3 of those pages (URLs, in URL order)'),
});
export type RelatedHit = z.infer<typeof RelatedHitSchema>;

export const RelatedResponseSchema = z.object({
  id: z.string().describe('the seed passage'),
  url: z.string().describe("the seed passage's page"),
  relation: z.array(z.enum(RELATION_KINDS)).describe('the relations followed'),
  results: z.array(RelatedHitSchema).describe(
    'one passage per related page (its first passage the index holds) or community story; links_to, then linked_from, then co_cited (most shared linkers first), then same_community; within a kind by host_rank, then id',
  ),
  total: z.number().int().describe('related passages found, even when limit cut the list or is 0'),
  counts: z.object(Object.fromEntries(RELATION_KINDS.map((kind) => [kind, z.number().int()])) as Record<RelationKind, z.ZodNumber>).describe(
    'related passages per relation (a passage related several ways counts in each)',
  ),
  truncated: z.boolean().describe(`a bound cut the walk: more than ${RELATED_PAGES_MAX} linked pages of one kind, or more than ${RELATED_COMMUNITY_STORIES_MAX} community stories`),
  partial: z.boolean().describe('true when at least one shard did not answer: related passages held there are missing'),
});
export type RelatedResponse = z.infer<typeof RelatedResponseSchema>;
