/**
 * The grounding capability (SPEC 4.7, 2.6, 3.2) and the evidence shapes changes reuses: the
 * vocabularies (source roles, origin types, claim relations, statuses, next actions), the
 * parameters of `ground`, and EvidenceItem, Origin, CoverageReceipt, Budget, NextAction and
 * Provenance.
 */
import { z } from 'zod';
import { parseDurationSeconds } from './durations.js';
import { RiskFlagSchema } from './document.js';
import { allBut, flag, inList, numericParam, optionalQueryText, queryText, trimmedText } from './params.js';
import { HitSchema, SearchModeSchema } from './search.js';
import { ORIGIN_TYPES, SEARCH_MODES, SOURCE_ROLES } from './vocabulary.generated.js';

// ------------------------------------------------------------------ vocabularies

/** Roles `require_role` may name (every role but `unknown`). */
export const REQUIRABLE_ROLES = allBut(SOURCE_ROLES, 'unknown');
export type RequirableRole = (typeof REQUIRABLE_ROLES)[number];

/** Kinds of an origin: a republish is never an origin of its own. */
export const ORIGIN_KINDS = allBut(ORIGIN_TYPES, 'republish');
export type OriginKind = (typeof ORIGIN_KINDS)[number];

export const CLAIM_RELATIONS = ['supports', 'contradicts', 'qualifies', 'unresolved'] as const;
export type ClaimRelation = (typeof CLAIM_RELATIONS)[number];
export const RELATION_BASES = ['passage', 'snippet'] as const;

export const GROUND_STATUSES = ['sufficient', 'insufficient', 'stale', 'partial', 'empty'] as const;
export type GroundStatus = (typeof GROUND_STATUSES)[number];

export const NEXT_ACTIONS = ['retry', 'widen_max_age', 'search', 'why_not', 'corroborate', 'get_document'] as const;
export type NextActionName = (typeof NEXT_ACTIONS)[number];

export const GROUND_DEFAULTS = {
  min_independent_origins: 2,
  require_role: ['primary', 'official'] as RequirableRole[],
  token_budget: 3000,
  mode: 'hybrid' as (typeof SEARCH_MODES)[number],
  safe: true,
  strip_instruction_like: false,
} as const;

/** Ceiling of token_budget (and of assemble_context's budget). */
export const TOKEN_BUDGET_MAX = 100_000;
/** Ceiling of latency_budget_ms. */
export const LATENCY_BUDGET_MAX_MS = 60_000;

function oneOf(values: readonly string[]): string {
  return `one of ${values.join(', ')}`;
}

// ------------------------------------------------------------------ shared parameter shapes

export function tokenBudgetSchema(fallback: number, meaning: string) {
  return numericParam(
    z
      .number()
      .int()
      .min(1)
      .max(TOKEN_BUDGET_MAX)
      .default(fallback)
      .describe(`an integer within 1..${TOKEN_BUDGET_MAX} (default ${fallback}): ${meaning}`),
  );
}

const MAX_AGE_ACCEPTS = 'a positive duration: seconds (3600), or a number with a unit s, m, h, d or w (30m, 6h, 7d, 2w)';

/**
 * The text forms of a max_age the server accepts, as a JSON Schema pattern: a positive whole
 * number, a unit or none, and at most the digits whose seconds stay a safe integer.
 */
export const MAX_AGE_PATTERN = '^([1-9][0-9]{0,11} *[sSmMhH]?|[1-9][0-9]{0,10} *[dD]|[1-9][0-9]{0,9} *[wW])$';

export function maxAgeSchema() {
  return z
    .union([z.number(), z.string().meta({ pattern: MAX_AGE_PATTERN })])
    .transform((value, context) => {
      const seconds = parseDurationSeconds(value);
      if (seconds === null || seconds <= 0) {
        context.addIssue({ code: 'custom', message: MAX_AGE_ACCEPTS });
        return z.NEVER;
      }
      return seconds;
    })
    .describe(`${MAX_AGE_ACCEPTS}; evidence older than this is never substituted silently (status stale, stale_evidence)`);
}

export function requireRoleSchema() {
  return inList(`source roles of which at least one must be present for status sufficient; each ${oneOf(REQUIRABLE_ROLES)}; empty for no requirement; default ${GROUND_DEFAULTS.require_role.join(',')}`, { values: REQUIRABLE_ROLES })
    .refine((roles) => roles.every((role) => (REQUIRABLE_ROLES as readonly string[]).includes(role)), {
      message: `each value must be ${oneOf(REQUIRABLE_ROLES)} (empty for no requirement)`,
    })
    .transform((roles) => [...new Set(roles)] as RequirableRole[])
    .default([...GROUND_DEFAULTS.require_role]);
}

export const GroundParamsSchema = z.object({
  objective: queryText('a non-empty question, task or claim to find evidence for'),
  claim: optionalQueryText(
    'experimental: a claim to relate each item to: supports or contradicts when the sentences of the item that bear on the claim decide it, unresolved when none bears on it or their cues cannot tell (relation_sentences, relation_confidence)',
  ),
  lang: trimmedText(2).optional().describe('a single language code, e.g. en'),
  latency_budget_ms: numericParam(
    z
      .number()
      .int()
      .min(1)
      .max(LATENCY_BUDGET_MAX_MS)
      .optional()
      .describe(`an integer within 1..${LATENCY_BUDGET_MAX_MS}: milliseconds story expansion may take; when it cuts in, coverage.not_searched.story_expansion_truncated is true`),
  ),
  max_age: maxAgeSchema().optional(),
  min_independent_origins: numericParam(
    z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(GROUND_DEFAULTS.min_independent_origins)
      .describe(`an integer within 1..50 (default ${GROUND_DEFAULTS.min_independent_origins}): origins with distinct owners needed for status sufficient`),
  ),
  mode: SearchModeSchema.default(GROUND_DEFAULTS.mode).describe(oneOf(SEARCH_MODES)),
  require_role: requireRoleSchema(),
  safe: flag('true drops explicit content; false allows everything').default(GROUND_DEFAULTS.safe),
  strip_instruction_like: flag('replace instruction-like sentences in snippets with a marker instead of only flagging them').default(
    GROUND_DEFAULTS.strip_instruction_like,
  ),
  token_budget: tokenBudgetSchema(GROUND_DEFAULTS.token_budget, 'ceiling on the evidence returned, in estimated tokens'),
  vertical: trimmedText(1).optional().describe('restrict to one vertical; the receipt lists every other vertical the deployment holds as not searched, with its matches'),
});
export type GroundParams = z.output<typeof GroundParamsSchema>;

// ------------------------------------------------------------------ response shapes

export const SourceRoleSchema = z.enum(SOURCE_ROLES);
export const OriginTypeSchema = z.enum(ORIGIN_TYPES);
export const ClaimRelationSchema = z.enum(CLAIM_RELATIONS);

export const RelationSentenceSchema = z.object({
  start: z.number().int().describe('offset of the sentence\'s first character in the passage as stored'),
  end: z.number().int().describe('offset just past its last character'),
  text: z.string().describe('the sentence, verbatim'),
});
export type RelationSentence = z.infer<typeof RelationSentenceSchema>;

export const EvidenceItemSchema = z.object({
  hit: HitSchema,
  reason: z.string().describe('why this passage is in the evidence set'),
  source_role: SourceRoleSchema.describe(
    'official: government, regulator, court or university host; primary: documentation, academic paper, code, published document or an organisation\'s own release; ' +
      'secondary: reporting or reference about the subject; aggregator: collects material from others; ugc: forums, Q&A, social',
  ),
  role_confidence: z.number().describe('0..1'),
  origin_type: OriginTypeSchema.describe('never republish: a republish is a later copy of an origin already in the set and is never an evidence item'),
  origin: z.string().describe('origin id; see origins'),
  owner: z.string().describe('wire service, media group or registrable domain'),
  independence_score: z.number().describe('1.0: the only origin with this owner in the set; 0.5: another origin in the set shares the owner; 0.0: a republish'),
  risk_flags: z.array(RiskFlagSchema).describe('instruction_like: the text addresses an AI system rather than the reader'),
  age_secs: z.number().int().optional().describe('seconds since publication, or since crawl when no publish date is declared'),
  claim_relation: ClaimRelationSchema.optional().describe(
    'present when a claim was given (experimental): supports or contradicts as decided from the item\'s sentences that bear on the claim (relation_sentences) ' +
      'by a model over negation, antonym, direction-word and restatement cues; unresolved when no sentence bears on the claim or the cues cannot tell; qualifies is not asserted by the current model',
  ),
  relation_basis: z.enum(RELATION_BASES).optional().describe('the text the relation was judged on: passage, the passage as stored (before strip_instruction_like)'),
  relation_confidence: z
    .number()
    .optional()
    .describe('0..1: for supports or contradicts, how often the model\'s assertion of that relation was right on the claims it was tuned on (SciFact train claims; the README has the held-out figure); 0 for unresolved'),
  relation_sentences: z
    .array(RelationSentenceSchema)
    .optional()
    .describe('present when the item bears on the claim: the sentences the relation rests on, best first, with their offsets in the passage as stored (hit.snippet unless strip_instruction_like replaced a sentence), to quote'),
});
export type EvidenceItem = z.infer<typeof EvidenceItemSchema>;

export const OriginSchema = z.object({
  id: z.string(),
  story_id: z.string(),
  kind: z.enum(ORIGIN_KINDS),
  owner: z.string(),
  hosts: z.array(z.string()).describe('hosts carrying the origin, republishers included'),
  registrable_domains: z.array(z.string()),
  members: z.array(z.string()).describe('passage ids, earliest first'),
  representative: z.string().describe('the member that stands for the origin in the evidence'),
  earliest_published_at: z.number().int().describe('unix seconds: earliest publish date of a member (its crawl time when no member declares one)'),
  confidence: z.number().describe('0..1: how sure the grouping and kind are'),
});
export type Origin = z.infer<typeof OriginSchema>;

export const CoverageReceiptSchema = z.object({
  complete: z.boolean().describe('false whenever any part of the index was unreachable or expansion was cut short'),
  partial: z.boolean(),
  searched: z.object({
    filters_applied: z.array(z.string()),
    mode: SearchModeSchema,
    objective: z.string(),
    pool: z.number().int().describe('story-collapsed candidates retrieved'),
    routed: z.boolean().describe('true when the router chose the vertical'),
    stories: z.number().int(),
    stories_expanded: z.number().int(),
    vertical: z.string().nullable(),
  }),
  not_searched: z.object({
    explicit_dropped: z.boolean(),
    shards_configured: z.number().int(),
    shards_down: z.number().int(),
    stories_not_expanded: z.number().int(),
    story_expansion_truncated: z.boolean(),
    verticals_excluded: z.array(z.string()).describe('with `vertical` named: every other vertical the deployment holds (as /describe lists them), whether or not it has matches'),
    vertical_matches: z
      .record(z.string(), z.number().int())
      .optional()
      .describe('with `vertical` named: the objective\'s matching passages in each of verticals_excluded'),
  }),
  freshness: z.object({
    max_age: z.number().int().describe('seconds; 0 when no max_age was given'),
    newest_published_at: z.number().int().describe('unix seconds; 0 when no evidence declares a publish date'),
    oldest_published_at: z.number().int().describe('unix seconds; 0 when no evidence declares a publish date'),
    undated_excluded: z.boolean().describe('a max_age window excluded passages with no publish date'),
    within_max_age: z.boolean(),
  }),
  independent_origins: z.number().int().describe('origins with distinct owners across the evidence set'),
  origins: z.number().int(),
  hosts: z.number().int(),
  copies: z.number().int().describe('passages seen across every expanded story, republishes included'),
  source_roles_present: z.array(SourceRoleSchema),
  source_roles_missing: z.array(SourceRoleSchema),
  known_gaps: z.array(z.string()).describe('plain-language gaps'),
});
export type CoverageReceipt = z.infer<typeof CoverageReceiptSchema>;

export const BudgetSchema = z.object({
  token_budget: z.number().int(),
  context_tokens: z.number().int().describe('estimated tokens of the evidence returned'),
  credits_billed: z.number().int().describe('credits when the call succeeds; a failed call costs 1'),
  story_lookups: z.number().int(),
  elapsed_ms: z.number().int(),
});
export type Budget = z.infer<typeof BudgetSchema>;

export const NextActionSchema = z.object({
  action: z.enum(NEXT_ACTIONS),
  why: z.string(),
  target: z.string().optional(),
});
export type NextAction = z.infer<typeof NextActionSchema>;

export const ProvenanceSchema = z.object({
  method: z.string().describe('always deterministic'),
  generated_at: z.number().int(),
  limitations: z.array(z.string()).describe('what the answer structurally cannot know'),
  experimental: z.array(z.string()),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const StaleEvidenceSchema = z.object({
  max_age: z.number().int().describe('the window that excluded this material, seconds'),
  suggested_max_age: z.string().describe('a max_age that would admit the newest of it'),
  older_passages: z.number().int().describe('matching passages published before the window'),
  undated_passages: z.number().int().describe('matching passages with no publish date, which any window excludes'),
  newest_published_at: z.number().int().nullable(),
  oldest_published_at: z.number().int().nullable(),
  examples: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      host: z.string(),
      title: z.string(),
      published_at: z.number().int().nullable().describe('null for an undated passage'),
      age_secs: z.number().int(),
    }),
  ),
});
export type StaleEvidence = z.infer<typeof StaleEvidenceSchema>;

export const GroundResponseSchema = z.object({
  status: z.enum(GROUND_STATUSES).describe('read first: sufficient, insufficient, stale, partial (never treat as complete) or empty'),
  objective: z.string(),
  evidence: z.array(EvidenceItemSchema),
  origins: z.array(OriginSchema),
  contradictions: z.array(z.string()).describe('ids of evidence items whose claim_relation is contradicts'),
  coverage: CoverageReceiptSchema,
  budget: BudgetSchema,
  next_actions: z.array(NextActionSchema),
  provenance: ProvenanceSchema,
  stale_evidence: StaleEvidenceSchema.optional().describe('older material, when status is stale'),
});
export type GroundResponse = z.infer<typeof GroundResponseSchema>;

