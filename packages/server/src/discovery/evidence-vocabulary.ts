/**
 * The words of the evidence layer (SPEC 2.6, 3.2) as /describe reports them: source roles,
 * origin types, risk flags, claim relations, grounding statuses, suggestible next actions, the
 * grounding defaults and the independence rule. The values (and their order) are read from the
 * zod schemas, the one source of truth; only the descriptions live here, and the compiler
 * insists on one for every value.
 */
import {
  CHAIN_STEPS as CHAIN_STEP_VALUES,
  CORROBORATION_RULE,
  CORROBORATION_VERDICTS as CORROBORATION_VERDICT_VALUES,
  PARAPHRASE_MIN_OVERLAP,
  PATH_DEPTH_DEFAULT,
  PATH_DEPTH_MAX,
  PATH_MAX_EDGES,
  RELATED_COMMUNITY_STORIES_MAX,
  RELATED_PAGES_MAX,
  RELATION_KINDS as RELATION_KIND_VALUES,
  CLAIM_RELATIONS as CLAIM_RELATION_VALUES,
  GROUND_DEFAULTS as SCHEMA_GROUND_DEFAULTS,
  GROUND_STATUSES as GROUND_STATUS_VALUES,
  NEXT_ACTIONS as NEXT_ACTION_VALUES,
  ORIGIN_TYPES as ORIGIN_TYPE_VALUES,
  RiskFlagSchema,
  SOURCE_ROLES as SOURCE_ROLE_VALUES,
} from '@evidence/schemas';

/** `values` in schema order, each with its description. */
function described<const Values extends readonly string[]>(values: Values, descriptions: Record<Values[number], string>): Record<Values[number], string> {
  return Object.fromEntries(values.map((value) => [value, descriptions[value as Values[number]]])) as Record<Values[number], string>;
}

export const SOURCE_ROLES = described(SOURCE_ROLE_VALUES, {
  official: 'government, regulator, court or university host',
  primary: "documentation, academic paper, code, published document or an organisation's own release",
  secondary: 'reporting or reference about the subject',
  aggregator: 'collects and republishes material from other sources',
  ugc: 'user-generated: forums, Q&A, social',
  unknown: 'the role could not be determined',
});

export const ORIGIN_TYPES = described(ORIGIN_TYPE_VALUES, {
  original: 'first publication of the material',
  wire: 'a wire-service story',
  press_release: "an organisation's press release",
  republish: 'a later copy of an origin already in the set; never an evidence item',
  unknown: 'the origin type could not be determined (for example a copy whose source is not in the index)',
});

export const RISK_FLAGS = described(RiskFlagSchema.options, {
  instruction_like: 'the text addresses an AI system rather than the reader',
  hidden_text: 'the page hides text from human readers',
  role_markers: 'the text carries chat role markers (system:, assistant:, ...)',
  low_trust_source: 'the host has a low trust prior',
});

export const CLAIM_RELATIONS = described(CLAIM_RELATION_VALUES, {
  supports: 'the passage supports the claim',
  contradicts: 'the passage contradicts the claim',
  qualifies: 'the passage supports the claim only in part or under conditions',
  unresolved: 'no sentence of the passage bears on the claim, or its cues could not decide the relation',
});

export const GROUND_STATUSES = described(GROUND_STATUS_VALUES, {
  sufficient: 'enough independent origins (at least min_independent_origins) and at least one source role from require_role present',
  insufficient: 'evidence exists but does not meet the bar; next_actions says what would',
  stale: 'nothing inside max_age; stale_evidence shows what older material exists',
  partial: 'part of the index was unreachable; never treat as complete',
  empty: 'nothing found',
});

export const NEXT_ACTIONS = described(NEXT_ACTION_VALUES, {
  retry: 'try again: part of the index was unreachable, the time budget cut expansion short, or token_budget left origins out (target says what to change)',
  widen_max_age: 'allow older evidence (target: a max_age that admits it)',
  search: 'run a search with the suggested query (target) to find more material; why names filters that may help',
  why_not: 'ask whether a URL (target) is in the index and, if not, why',
  corroborate: 'look for independent confirmation of an item: call corroborate with id = target',
  get_document: 'read the full text of a passage (target)',
});

export const GROUND_DEFAULTS = SCHEMA_GROUND_DEFAULTS;

export const INDEPENDENCE_RULE = {
  counted_by: 'owner: the wire service, media group or registrable domain behind an origin',
  scores: {
    '1.0': 'the only origin with this owner in the evidence set',
    '0.5': 'another origin in the set shares the owner',
    '0.0': 'a republish (a later copy of an origin already in the set); republishes are never evidence items',
  },
  independent_origins: 'origins with distinct owners across the evidence set',
  origins:
    'an origin is the first publication of a story (a cluster of near-duplicate passages) by an owner; outlets carrying a wire story or a release are members of its origin, later copies by others are republishes',
} as const;

/** The graph tools' words (related, corroborate, path). */
export const GRAPH_VOCABULARY = {
  relations: described(RELATION_KIND_VALUES, {
    links_to: "the seed passage's page links to this page",
    linked_from: "this page links to the seed passage's page",
    co_cited: "a page linking to the seed passage's page links to this one too (co_citations: how many)",
    same_community: "another story of the seed passage's graph community (community_id)",
  }),
  related_bounds: { linked_pages_per_kind: RELATED_PAGES_MAX, community_stories: RELATED_COMMUNITY_STORIES_MAX },
  corroboration_verdicts: described(CORROBORATION_VERDICT_VALUES, {
    corroborated: 'an origin of another owner than the passage\'s own supports or qualifies it',
    contested: 'an origin of another owner contradicts it',
    single_origin: 'no origin of another owner confirms it',
    partial: 'part of the index was unreachable; never treat as complete',
  }),
  corroboration_rule: CORROBORATION_RULE,
  paraphrase_min_overlap: PARAPHRASE_MIN_OVERLAP,
  chain_steps: described(CHAIN_STEP_VALUES, {
    origin: 'the first passage of the origin',
    carrier: 'a later passage of the same origin: an outlet carrying the wire story or release, or the owner again',
    republish: 'a later copy by someone else, folded into the origin',
  }),
  path_bounds: { max_depth_default: PATH_DEPTH_DEFAULT, max_depth: PATH_DEPTH_MAX, links_looked_at: PATH_MAX_EDGES },
};
