/**
 * The corroborate capability: whether independent origins confirm what a passage says (SPEC 2.1,
 * 2.6, 4.8). Items are EvidenceItems computed exactly as ground computes them.
 */
import { z } from 'zod';
import { optionalQueryText, trimmedText } from './params.js';
import { EvidenceItemSchema, NextActionSchema, OriginSchema, ProvenanceSchema } from './ground.js';

export const CORROBORATION_VERDICTS = ['corroborated', 'contested', 'single_origin', 'partial'] as const;
export type CorroborationVerdict = (typeof CORROBORATION_VERDICTS)[number];

/** Share of the passage's content words a passage of another story must hold to count as a near-paraphrase. */
export const PARAPHRASE_MIN_OVERLAP = 0.5;
/** Other stories a corroboration considers at most. */
export const PARAPHRASE_STORIES_MAX = 10;
/** Evidence items returned at most (the seed's origin first). */
export const CORROBORATION_MAX_ITEMS = 20;

export const CORROBORATION_RULE =
  'partial when a shard did not answer; else contested when an origin of another owner than the passage\'s own contradicts the claim; ' +
  'else corroborated when an origin of another owner supports or qualifies it; else single_origin. Each item is related (claim_relation, ' +
  'heuristic) to `claim` when given, otherwise to the sentence of the passage it shares most content words with.';

export const CorroborateParamsSchema = z.object({
  id: trimmedText(1).describe('the passage id, page:no, whose statement to corroborate'),
  claim: optionalQueryText("the statement to check; default the passage's own text"),
});
export type CorroborateParams = z.output<typeof CorroborateParamsSchema>;

export const CorroborationReceiptSchema = z.object({
  complete: z.boolean().describe('false when a shard did not answer or a lookup bound cut the search'),
  partial: z.boolean(),
  searched: z.object({
    story_id: z.string().describe("the passage's story: its other origins were all looked at"),
    story_passages: z.number().int().describe('passages the story holds'),
    paraphrase_query: z.string().describe('the content words searched for near-paraphrases in other stories'),
    paraphrase_candidates: z.number().int().describe('passages of other stories that search returned'),
    min_overlap: z.number().describe('share of the passage\'s content words a near-paraphrase holds at least'),
    paraphrase_stories: z.number().int().describe('other stories kept as near-paraphrases, each expanded to all its passages'),
  }),
  not_searched: z.object({
    explicit_dropped: z.boolean().describe('explicit content is never offered as a paraphrase'),
    shards_configured: z.number().int(),
    shards_down: z.number().int(),
    paraphrase_stories_cut: z.number().int().describe(`near-paraphrase stories beyond the ${PARAPHRASE_STORIES_MAX} considered`),
    passages_not_fetched: z.number().int().describe('passages of the looked-up stories beyond what one lookup returns'),
  }),
  independent_origins: z.number().int().describe('distinct owners among the evidence'),
  origins: z.number().int().describe('origins found (the evidence holds at most ' + CORROBORATION_MAX_ITEMS + ')'),
  hosts: z.number().int(),
  known_gaps: z.array(z.string()),
});
export type CorroborationReceipt = z.infer<typeof CorroborationReceiptSchema>;

export const CorroborateResponseSchema = z.object({
  id: z.string(),
  claim: z.string().describe('the statement checked: `claim`, or the passage\'s text'),
  verdict: z.enum(CORROBORATION_VERDICTS).describe('read first: corroborated, contested, single_origin or partial (never treat as complete)'),
  rule: z.string().describe('how the verdict was reached'),
  seed: z.object({
    origin: z.string().describe("the passage's origin id"),
    owner: z.string(),
    origin_type: z.string().describe('the kind of the passage\'s origin'),
    story_id: z.string(),
  }),
  evidence: z.array(EvidenceItemSchema).describe("one item per origin: the passage's own origin first, then its story's other origins, then near-paraphrases (most overlap first)"),
  origins: z.array(OriginSchema),
  coverage: CorroborationReceiptSchema,
  next_actions: z.array(NextActionSchema),
  provenance: ProvenanceSchema,
  credits_billed: z.number().int(),
});
export type CorroborateResponse = z.infer<typeof CorroborateResponseSchema>;
