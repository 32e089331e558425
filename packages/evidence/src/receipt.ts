/**
 * The coverage receipt (SPEC 2.6), the plain-language gaps, the grounding status (SPEC 3.2), the
 * next actions and the provenance block: what an answer rests on and what it could not see.
 */
import {
  formatDuration,
  REQUIRABLE_ROLES,
  SOURCE_ROLES,
  type CoverageReceipt,
  type EvidenceItem,
  type GroundStatus,
  type NextAction,
  type Provenance,
  type RequirableRole,
  type SearchParams,
  type SourceRole,
} from '@evidence/schemas';
import { BEARING_COVERAGE, BEARING_RELEVANCE, bearsOnObjective, type Analysis, type RankedOrigin } from './analysis.js';
import { compareText, unique } from './hits.js';
import { membersOf } from './origins.js';
import { hitTokens } from './tokens.js';
import type { GroundRetrieval } from './types.js';

const DAY = 86_400;

export interface ReceiptInput {
  objective: string;
  mode: SearchParams['mode'];
  vertical: string | null;
  safe: boolean;
  maxAge: number | null;
  retrieval: GroundRetrieval;
  analysis: Analysis;
  /** The evidence set the receipt speaks for. */
  evidence: RankedOrigin[];
  shardsConfigured: number;
}

export function distinctOwners(origins: RankedOrigin[]): number {
  return new Set(origins.map((origin) => origin.group.owner)).size;
}

export function rolesPresent(origins: RankedOrigin[]): SourceRole[] {
  const present = new Set(origins.map((origin) => origin.representative.role));
  return SOURCE_ROLES.filter((role) => present.has(role));
}

export function undatedExcluded(input: Pick<ReceiptInput, 'maxAge' | 'retrieval' | 'analysis'>): boolean {
  return input.maxAge !== null && (input.analysis.undated.length > 0 || (input.retrieval.outside?.undated ?? 0) > 0);
}

export function coverageReceipt(input: ReceiptInput, knownGaps: string[]): CoverageReceipt {
  const { retrieval, analysis, evidence } = input;
  const expansion = retrieval.expansion;
  const present = rolesPresent(evidence);
  const published = evidence.map((origin) => origin.representative.hit.published_at).filter((value): value is number => value !== undefined);
  const cutoff = retrieval.outside?.publishedFrom ?? null;
  const hosts = new Set(evidence.flatMap((origin) => membersOf(origin.group).map((member) => member.hit.host)));
  return {
    complete: !analysis.partial && !expansion.truncated,
    partial: analysis.partial,
    searched: {
      filters_applied: retrieval.filtersApplied,
      mode: input.mode,
      objective: input.objective,
      pool: retrieval.candidates.hits.length,
      routed: false,
      stories: analysis.stories.length,
      stories_expanded: expansion.expandedStoryIds.length,
      vertical: input.vertical,
    },
    not_searched: {
      explicit_dropped: input.safe,
      shards_configured: input.shardsConfigured,
      shards_down: analysis.shardsDown,
      stories_not_expanded: expansion.notExpandedStoryIds.length,
      story_expansion_truncated: expansion.truncated,
      verticals_excluded: retrieval.verticalsExcluded,
      ...(retrieval.verticalsExcluded.length > 0 ? { vertical_matches: { ...retrieval.verticalMatches } } : {}),
    },
    freshness: {
      max_age: input.maxAge ?? 0,
      newest_published_at: published.length > 0 ? Math.max(...published) : 0,
      oldest_published_at: published.length > 0 ? Math.min(...published) : 0,
      undated_excluded: undatedExcluded(input),
      within_max_age:
        cutoff === null || (evidence.length > 0 && evidence.every((origin) => origin.dated && origin.earliestPublishedAt >= cutoff)),
    },
    independent_origins: distinctOwners(evidence),
    origins: analysis.eligible.length,
    hosts: hosts.size,
    copies: expansion.copies,
    source_roles_present: present,
    source_roles_missing: REQUIRABLE_ROLES.filter((role) => !present.includes(role)),
    known_gaps: knownGaps,
  };
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** How the evidence set relates to a claim, when one was given (the items' claim_relation and relation_sentences). */
export interface ClaimSummary {
  claim: string;
  items: number;
  /** Items with sentences that bear on the claim. */
  bearing: number;
  /** Items whose relation is supports or contradicts. */
  decided: number;
  /** The first item that bears on the claim. */
  firstBearing?: string;
}

export function claimSummary(claim: string, evidence: EvidenceItem[]): ClaimSummary {
  const bearing = evidence.filter((item) => (item.relation_sentences?.length ?? 0) > 0);
  return {
    claim,
    items: evidence.length,
    bearing: bearing.length,
    decided: evidence.filter((item) => item.claim_relation === 'supports' || item.claim_relation === 'contradicts').length,
    ...(bearing.length > 0 ? { firstBearing: bearing[0].hit.id } : {}),
  };
}

/** The gap when a claim was given and no item decides it (every claim_relation unresolved). */
export function claimGap(summary: ClaimSummary | undefined): string | null {
  if (!summary || summary.items === 0 || summary.decided > 0) return null;
  if (summary.bearing === 0) {
    return `no returned item bears on the claim: none of the ${plural(summary.items, 'item')} has a sentence holding enough of the claim's content words, so every claim_relation is unresolved`;
  }
  const bear = summary.bearing === 1 ? 'bears' : 'bear';
  return `no returned item decides the claim: ${summary.bearing} of ${plural(summary.items, 'item')} ${bear} on it (relation_sentences) but the cues cannot tell supports from contradicts, so every claim_relation is unresolved`;
}

export interface GapInput extends ReceiptInput {
  requireRole: readonly RequirableRole[];
  minIndependentOrigins: number;
  /** Origins left out because they did not fit the token budget. */
  skippedForBudget: RankedOrigin[];
  tokenBudget: number;
  /** With a claim: how the evidence relates to it. */
  claim?: ClaimSummary;
}

/** Plain-language gaps of one answer, most serious first. */
export function knownGaps(input: GapInput): string[] {
  const { retrieval, analysis, evidence } = input;
  const gaps: string[] = [];
  if (analysis.partial) {
    gaps.push(`${analysis.shardsDown} of ${plural(input.shardsConfigured, 'shard')} did not answer: passages held there were not seen`);
  }
  if (retrieval.expansion.truncated) {
    const missing = retrieval.expansion.notExpandedStoryIds.length;
    gaps.push(`story expansion stopped at latency_budget_ms: ${missing} of ${plural(analysis.stories.length, 'candidate story', 'candidate stories')} not expanded, so their copies and other owners are not counted`);
  }
  if (retrieval.candidates.hits.length === 0 && analysis.all.length === 0 && !(retrieval.outside && (retrieval.outside.older.total > 0 || retrieval.outside.undated > 0))) {
    gaps.push('nothing in the index matches the objective');
    return gaps;
  }
  const unrelated = claimGap(input.claim);
  if (unrelated !== null) gaps.push(unrelated);
  const coverage = retrieval.vectorCoverage;
  if (coverage && coverage.embedded < coverage.passages) {
    gaps.push(`${plural(coverage.passages - coverage.embedded, 'recently ingested passage')} of ${coverage.passages} had no vector yet: the similarity half of the search could not reach them (words still did)`);
  }
  if (retrieval.unsupported > 0) {
    // Keyword mode uses no vectors: its dropped candidates matched the objective's stop words alone.
    gaps.push(
      input.mode === 'keyword'
        ? `${plural(retrieval.unsupported, 'candidate')} matched only stop words or short words of the objective, no content word, and were not considered`
        : `${plural(retrieval.unsupported, 'candidate')} shared no content word with the objective (found by vector similarity, or by its stop words alone) and were not considered`,
    );
  }
  if (retrieval.candidatesCut && retrieval.candidates.total > analysis.stories.length) {
    gaps.push(`${plural(retrieval.candidates.total, 'passage')} match the objective; only the top ${plural(analysis.stories.length, 'story', 'stories')} were considered`);
  }
  if (input.maxAge !== null) {
    const older = (retrieval.outside?.older.total ?? 0) + analysis.older.length;
    if (older > 0) gaps.push(`matching material older than max_age ${formatDuration(input.maxAge)} was left out (${plural(retrieval.outside?.older.total ?? 0, 'passage')} published before the window)`);
    if (undatedExcluded(input)) gaps.push('passages that declare no publish date were left out by max_age');
  }
  const bearing = evidence.filter(bearsOnObjective);
  const ofRole = (origin: RankedOrigin) => (input.requireRole as readonly string[]).includes(origin.representative.role);
  if (input.requireRole.length > 0 && !bearing.some(ofRole)) {
    const weak = evidence.some(ofRole);
    gaps.push(`no ${input.requireRole.join(' or ')} source among the evidence${weak ? ` that bears on the objective (those returned match it at under ${BEARING_RELEVANCE} of the best relevance, or hold under ${BEARING_COVERAGE} of the best match's share of its words)` : ''}`);
  }
  const owners = distinctOwners(bearing);
  if (owners < input.minIndependentOrigins) {
    const weakOwners = distinctOwners(evidence) - owners;
    gaps.push(
      `${plural(owners, 'independent origin')} among the evidence; ${input.minIndependentOrigins} needed${weakOwners > 0 ? ` (${plural(weakOwners, 'other owner')} returned ${weakOwners === 1 ? 'bears' : 'bear'} on it only weakly)` : ''}`,
    );
  }
  if (input.skippedForBudget.length > 0) {
    gaps.push(`${plural(input.skippedForBudget.length, 'further origin')} did not fit token_budget ${input.tokenBudget}`);
  }
  const elsewhere = retrieval.verticalsExcluded.filter((vertical) => (retrieval.verticalMatches[vertical] ?? 0) > 0);
  if (elsewhere.length > 0) {
    gaps.push(`only vertical ${input.vertical} was searched; matches also exist in ${elsewhere.join(', ')}`);
  }
  const derived = evidence.filter((origin) => !origin.representative.roleStored).length;
  if (derived > 0) {
    gaps.push(`source roles of ${plural(derived, 'item')} were derived from host, content type and text markers, not recorded at ingest`);
  }
  return gaps;
}

export interface StatusInput {
  analysis: Analysis;
  retrieval: GroundRetrieval;
  maxAge: number | null;
  evidence: RankedOrigin[];
  requireRole: readonly RequirableRole[];
  minIndependentOrigins: number;
}

/** The bar counts only origins that bear on the objective (analysis.ts, BEARING_RELEVANCE). */
export function meetsBar(all: RankedOrigin[], requireRole: readonly RequirableRole[], minIndependentOrigins: number): boolean {
  const evidence = all.filter(bearsOnObjective);
  if (evidence.length === 0) return false;
  const roleOk = requireRole.length === 0 || evidence.some((origin) => (requireRole as readonly string[]).includes(origin.representative.role));
  return roleOk && distinctOwners(evidence) >= minIndependentOrigins;
}

/** SPEC 3.2: partial first (never complete), then empty, stale, sufficient, insufficient. */
export function groundStatus(input: StatusInput): GroundStatus {
  const { analysis, retrieval } = input;
  if (analysis.partial) return 'partial';
  const outside = retrieval.outside;
  const anything = retrieval.candidates.hits.length > 0 || analysis.all.length > 0 || (outside !== null && (outside.older.total > 0 || outside.undated > 0));
  if (!anything) return 'empty';
  if (input.maxAge !== null && analysis.eligible.length === 0) return 'stale';
  return meetsBar(input.evidence, input.requireRole, input.minIndependentOrigins) ? 'sufficient' : 'insufficient';
}

/** A max_age that admits material published at `publishedAt`: whole days, one day of slack. */
export function suggestedMaxAge(now: number, publishedAt: number): string {
  return formatDuration((Math.ceil(Math.max(0, now - publishedAt) / DAY) + 1) * DAY);
}

export interface ActionInput extends GapInput {
  status: GroundStatus;
  now: number;
  /** Item ids of the evidence, in order. */
  itemIds: string[];
  latencyBudgetMs: number | undefined;
}

const ROLE_SEARCH_HINT: Record<RequirableRole, string> = {
  official: 'tld=gov,edu,int',
  primary: 'content_type=docs,academic,code,document',
  secondary: 'content_type=news,article,reference',
  aggregator: 'content_type=news',
  ugc: 'content_type=forum,qa',
};

/** What would make the answer complete or sufficient, most useful first. */
export function nextActions(input: ActionInput): NextAction[] {
  const actions: NextAction[] = [];
  const { analysis, retrieval } = input;
  if (analysis.partial) {
    actions.push({ action: 'retry', why: `${analysis.shardsDown} of ${plural(input.shardsConfigured, 'shard')} did not answer; retry for a complete answer` });
  }
  if (retrieval.expansion.truncated) {
    const suggestion = Math.min(60_000, Math.max(1000, (input.latencyBudgetMs ?? 0) * 4));
    actions.push({ action: 'retry', why: 'story expansion was cut short by latency_budget_ms; a larger budget counts every copy and owner', target: `latency_budget_ms=${suggestion}` });
  }
  if (input.status === 'empty') {
    actions.push({ action: 'search', why: 'nothing in the index matches; try other terms or a broader objective', target: input.objective });
    actions.push({ action: 'why_not', why: 'if you expected a particular page, why_not says whether it is in the index and, if not, why' });
    return actions;
  }
  if (input.status === 'stale') {
    const newest = newestOutside(input);
    actions.push({
      action: 'widen_max_age',
      why: 'nothing inside max_age; stale_evidence shows the older material a longer window would admit',
      ...(newest !== null ? { target: suggestedMaxAge(input.now, newest) } : {}),
    });
    return actions;
  }
  if (input.status === 'insufficient') {
    const { evidence } = input;
    const owners = distinctOwners(evidence);
    const roleMissing = input.requireRole.length > 0 && !evidence.some((origin) => (input.requireRole as readonly string[]).includes(origin.representative.role));
    if (input.skippedForBudget.length > 0) {
      const needed = input.tokenBudget + input.skippedForBudget.reduce((sum, origin) => sum + hitTokens(origin.representative.hit), 0);
      actions.push({ action: 'retry', why: 'more origins exist than fit token_budget', target: `token_budget=${needed}` });
    }
    if (owners < input.minIndependentOrigins && input.itemIds.length > 0) {
      actions.push({
        action: 'corroborate',
        why: `only ${plural(owners, 'independent origin')} (${input.minIndependentOrigins} needed): corroborate (id = target) looks for independent confirmation of this item`,
        target: input.itemIds[0],
      });
    }
    if (input.maxAge !== null && (analysis.older.length > 0 || (retrieval.outside?.older.total ?? 0) > 0)) {
      const newest = newestOutside(input);
      actions.push({
        action: 'widen_max_age',
        why: 'older material exists outside max_age and may add origins or roles',
        ...(newest !== null ? { target: suggestedMaxAge(input.now, newest) } : {}),
      });
    }
    if (roleMissing) {
      const hints = input.requireRole.map((role) => ROLE_SEARCH_HINT[role]).join(' or ');
      actions.push({ action: 'search', why: `no ${input.requireRole.join(' or ')} source among the evidence; a search filtered with ${hints} may find one`, target: input.objective });
    }
    actions.push({ action: 'why_not', why: 'if a source you expected is missing, why_not says whether its URL is in the index and, if not, why' });
  }
  const claim = input.claim;
  if (claim && claimGap(claim) !== null) {
    if (claim.firstBearing === undefined) {
      actions.push({
        action: 'search',
        why: "no returned item bears on the claim: a search for the claim's own distinctive terms may find passages that state or deny it",
        target: claim.claim,
      });
    } else {
      actions.push({
        action: 'get_document',
        why: 'this item bears on the claim but its cues do not decide it: read its relation_sentences in the full text',
        target: claim.firstBearing,
      });
    }
  }
  for (const id of input.itemIds.slice(0, 2)) {
    if (actions.some((action) => action.action === 'get_document' && action.target === id)) continue;
    actions.push({ action: 'get_document', why: 'read the full text before relying on this item', target: id });
  }
  return actions;
}

function newestOutside(input: ActionInput): number | null {
  const candidates: number[] = [];
  const newestOlder = input.retrieval.outside?.newestOlder?.published_at;
  if (newestOlder !== undefined) candidates.push(newestOlder);
  for (const origin of input.analysis.older) candidates.push(origin.earliestPublishedAt);
  return candidates.length > 0 ? Math.max(...candidates) : null;
}

export const GROUND_LIMITATIONS = [
  'only passages admitted to this index were searched; nothing is crawled on demand, so material elsewhere or newer than the last crawl is not seen',
  'owners are those recorded at ingest (wire service, media group) or else the registrable domain: common ownership not recorded there is invisible, so independence can be overstated',
  'stories are clusters of near-duplicate text: a rewritten copy counts as an origin of its own, and independent reports of one event are separate origins even when they rest on one source',
  'source roles and origin types not recorded at ingest are derived from host, top-level domain, content type and text markers; they are not verified with the publisher',
  'relevance is lexical and vector similarity to the objective: a passage is not checked to answer it',
  'publish dates are as the pages declare them',
] as const;

export const CLAIM_EXPERIMENTAL =
  "claim_relation: a logistic model (trained on SciFact's train claims) over negation, antonym, direction-word, restatement and shared-figure (a token with digits: 26, CD4) cues of the claim against the passage's sentences that share most of its content words (relation_sentences); unresolved when no sentence bears on the claim or the model is not sure enough (thresholds cross-validated on the training claims); not entailment: blind to paraphrase, does not compare the values of numbers, and reads antonyms only from its word lists";

export const RESTATEMENT_EXPERIMENTAL =
  "claim_relation: negation and hedge cues in the sentence sharing most of the passage's content words (a restatement check); not entailment, blind to paraphrase, sarcasm and numbers";

export function provenance(now: number, claimGiven: boolean, extraLimitations: readonly string[] = []): Provenance {
  return {
    method: 'deterministic',
    generated_at: now,
    limitations: [...GROUND_LIMITATIONS, ...extraLimitations],
    experimental: claimGiven ? [CLAIM_EXPERIMENTAL] : [],
  };
}

export function sortedUnique(values: Iterable<string>): string[] {
  return unique(values).sort(compareText);
}
