/**
 * The path capability: how a passage's text reached its host (the provenance chain within its
 * story), or with `to` the shortest link path between two passages' pages (SPEC 2.1, 4.8).
 */
import { z } from 'zod';
import { numericParam, trimmedText } from './params.js';
import { OriginSchema, OriginTypeSchema } from './ground.js';

export const PATH_DEPTH_DEFAULT = 4;
export const PATH_DEPTH_MAX = 6;
/** Links a link path search looks at, at most (the work bound). */
export const PATH_MAX_EDGES = 100_000;

export const PathParamsSchema = z.object({
  id: trimmedText(1).describe('the passage id, page:no'),
  to: trimmedText(1).optional().describe('another passage id: return the shortest link path between the two pages instead of the provenance chain'),
  max_depth: numericParam(
    z
      .number()
      .int()
      .min(1)
      .max(PATH_DEPTH_MAX)
      .default(PATH_DEPTH_DEFAULT)
      .describe(`an integer within 1..${PATH_DEPTH_MAX} (default ${PATH_DEPTH_DEFAULT}): most link hops a path with \`to\` may take`),
  ),
});
export type PathParams = z.output<typeof PathParamsSchema>;

export const CHAIN_STEPS = ['origin', 'carrier', 'republish'] as const;

export const ChainStepSchema = z.object({
  id: z.string(),
  url: z.string(),
  host: z.string(),
  owner: z.string().describe("the passage's owner: wire service, media group or registrable domain"),
  origin_type: OriginTypeSchema.describe('what this passage is: original, wire, press_release, republish or unknown'),
  step: z.enum(CHAIN_STEPS).describe(
    'origin: the first passage of the origin; carrier: a later passage of the same origin (an outlet carrying the wire story or release, or the owner again); republish: a later copy by someone else, folded into the origin',
  ),
  at: z.number().int().describe('unix seconds the passage appeared: its publish date, else its crawl time'),
  at_basis: z.enum(['published', 'fetched']),
  fetched_at: z.number().int(),
});
export type ChainStep = z.infer<typeof ChainStepSchema>;

const PageRefSchema = z.object({
  url: z.string(),
  id: z.string().nullable().describe('the first passage of the page the index holds; null for a page only known from links'),
});

export const LinkHopSchema = z.object({
  from: PageRefSchema,
  to: PageRefSchema,
  linking_page: z.string().describe('URL of the page that holds the link: `from` when the hop follows a link, `to` when it goes against one'),
  direction: z.enum(['forward', 'backward']).describe('forward: from links to to; backward: to links to from'),
});
export type LinkHop = z.infer<typeof LinkHopSchema>;

export const PathResponseSchema = z.object({
  id: z.string(),
  to: z.string().nullable(),
  kind: z.enum(['provenance', 'link']).describe('provenance without `to`, link with it'),
  provenance: z
    .object({
      story_id: z.string(),
      origin: OriginSchema.describe('the origin the passage belongs to, computed as ground computes origins'),
      chain: z.array(ChainStepSchema).describe('from the origin\'s first passage to this one, earliest first; the last step is this passage'),
      later_copies: z.number().int().describe('passages of the same origin that appeared after this one'),
      other_origins: z.number().int().describe('other origins in the story (other owners telling the same text on their own)'),
      story_passages: z.number().int().describe('passages the story holds'),
      complete: z.boolean().describe('false when the story holds more passages than one lookup returns, or a shard did not answer'),
    })
    .optional(),
  link: z
    .object({
      found: z.boolean(),
      depth: z.number().int().describe('hops of the path found; 0 when none'),
      max_depth: z.number().int(),
      visited: z.number().int().describe('pages whose links were walked'),
      truncated: z.boolean().describe(`max_depth or the work bound (${PATH_MAX_EDGES} links looked at) stopped the search before it could tell whether a path exists`),
      hops: z.array(LinkHopSchema).describe('from the passage\'s page to the other\'s, in order'),
    })
    .optional(),
  partial: z.boolean().describe('true when at least one shard did not answer'),
});
export type PathResponse = z.infer<typeof PathResponseSchema>;
