/**
 * The words of the evidence layer (SPEC 2.6, 3.2) as /describe reports them: source roles,
 * origin types, risk flags, claim relations, grounding statuses, suggestible next actions and
 * the independence rule. They are contract values, not index data, so they are constants.
 * When the grounding capability lands with its zod schemas, these lists should be read from
 * those schemas' enums instead (one source of truth); the descriptions stay here.
 */

export const SOURCE_ROLES = {
  official: 'government, regulator, court or university host',
  primary: "documentation, academic paper, code, published document or an organisation's own release",
  secondary: 'reporting or reference about the subject',
  aggregator: 'collects and republishes material from other sources',
  ugc: 'user-generated: forums, Q&A, social',
  unknown: 'the role could not be determined',
} as const;

export const ORIGIN_TYPES = {
  original: 'first publication of the material',
  wire: 'a wire-service story',
  press_release: "an organisation's press release",
  republish: 'a later copy of an origin already in the set; never an evidence item',
  unknown: 'the origin type could not be determined',
} as const;

export const RISK_FLAGS = {
  instruction_like: 'the text addresses an AI system rather than the reader',
  hidden_text: 'the page hides text from human readers',
  role_markers: 'the text carries chat role markers (system:, assistant:, ...)',
  low_trust_source: 'the host has a low trust prior',
} as const;

export const CLAIM_RELATIONS = {
  supports: 'the passage supports the claim',
  contradicts: 'the passage contradicts the claim',
  qualifies: 'the passage supports the claim only in part or under conditions',
  unresolved: 'the relation could not be decided',
} as const;

export const GROUND_STATUSES = {
  sufficient: 'enough independent origins (at least min_independent_origins) and at least one source role from require_role present',
  insufficient: 'evidence exists but does not meet the bar; next_actions says what would',
  stale: 'nothing inside max_age; stale_evidence shows what older material exists',
  partial: 'part of the index was unreachable; never treat as complete',
  empty: 'nothing found',
} as const;

export const NEXT_ACTIONS = {
  retry: 'try again: part of the index was unreachable or the time budget cut expansion short',
  widen_max_age: 'allow older evidence (a longer max_age)',
  search: 'run a search with the suggested query (target) to find more material',
  why_not: 'ask whether a URL (target) is in the index and, if not, why',
  corroborate: 'look for independent confirmation of an item (target)',
  get_document: 'read the full text of a passage (target)',
} as const;

export const GROUND_DEFAULTS = {
  min_independent_origins: 2,
  require_role: ['primary', 'official'],
  token_budget: 3000,
  mode: 'hybrid',
  safe: true,
  strip_instruction_like: false,
} as const;

export const INDEPENDENCE_RULE = {
  counted_by: 'owner: the wire service, media group or registrable domain behind an origin',
  scores: {
    '1.0': 'the only origin with this owner in the evidence set',
    '0.5': 'another origin in the set shares the owner',
    '0.0': 'a republish (a later copy of an origin already in the set)',
  },
  independent_origins: 'origins with distinct owners across the evidence set',
} as const;
