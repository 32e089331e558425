/**
 * The smallest defensible evidence set: one item per origin (its representative; a republish is
 * never an item), chosen so that the set meets the bar when the material allows, then filled by
 * rank, always under the token budget.
 *
 * 1. Role: the best-ranked origin that bears on the objective (analysis.ts, bearsOnObjective)
 *    and whose role is one of `require_role` (one suffices).
 * 2. Independence: the best-ranked origins bearing on the objective of owners not yet in the set,
 *    until the set has `min_independent_origins` distinct owners.
 * 3. Fill: further origins in rank order, those of owners not yet in the set first, up to
 *    {@link EVIDENCE_MAX_ITEMS} items.
 *
 * An item whose estimated tokens do not fit what is left of the budget is skipped, and the next
 * one tried. The set is returned in rank order. Independence is then scored by SPEC's owner
 * rule over the set: 1.0 for the only origin of its owner, 0.5 when another origin shares it.
 */
import { riskFlags, stripInstructionLike } from './risk.js';
import type { EvidenceItem, Hit, OriginKind, RequirableRole, SourceRole } from '@evidence/schemas';
import { bearsOnObjective, type RankedOrigin } from './analysis.js';
import { judgeClaim } from './claims.js';
import { ageSeconds, round, specHit } from './hits.js';
import { hitTokens } from './tokens.js';

/** Items in one evidence set at most (before the budget cuts in). */
export const EVIDENCE_MAX_ITEMS = 8;

export type SelectionReason = 'role' | 'independent' | 'rank';

export interface SelectedOrigin {
  origin: RankedOrigin;
  hit: Hit;
  tokens: number;
  why: SelectionReason;
}

export interface SelectionOptions {
  requireRole: readonly RequirableRole[];
  minIndependentOrigins: number;
  tokenBudget: number;
  maxItems: number;
  stripInstructionLike: boolean;
}

export interface Selection {
  selected: SelectedOrigin[];
  /** Origins that would have been picked but did not fit the token budget. */
  skippedForBudget: RankedOrigin[];
  tokens: number;
}

/** The hit an item returns: SPEC fields, the snippet stripped of instruction-like sentences when asked. */
export function returnedHit(origin: RankedOrigin, strip: boolean): Hit {
  const hit = specHit(origin.representative.hit);
  if (strip) hit.snippet = stripInstructionLike(hit.snippet).text;
  return hit;
}

export function selectEvidence(eligible: RankedOrigin[], options: SelectionOptions): Selection {
  const selected: SelectedOrigin[] = [];
  const skippedForBudget: RankedOrigin[] = [];
  const taken = new Set<string>();
  const owners = new Set<string>();
  let tokens = 0;
  const tryTake = (origin: RankedOrigin, why: SelectionReason): boolean => {
    if (taken.has(origin.group.id)) return false;
    const hit = returnedHit(origin, options.stripInstructionLike);
    const cost = hitTokens(hit);
    if (tokens + cost > options.tokenBudget) {
      if (!skippedForBudget.includes(origin)) skippedForBudget.push(origin);
      return false;
    }
    taken.add(origin.group.id);
    owners.add(origin.group.owner);
    tokens += cost;
    selected.push({ origin, hit, tokens: cost, why });
    return true;
  };
  const full = () => selected.length >= options.maxItems;

  if (options.requireRole.length > 0) {
    for (const origin of eligible) {
      if (full()) break;
      if (bearsOnObjective(origin) && (options.requireRole as readonly string[]).includes(origin.representative.role) && tryTake(origin, 'role')) break;
    }
  }
  for (const origin of eligible) {
    if (full() || owners.size >= options.minIndependentOrigins) break;
    if (bearsOnObjective(origin) && !owners.has(origin.group.owner)) tryTake(origin, 'independent');
  }
  // Fill: owners not yet in the set first (more independent material), then the rest.
  for (const origin of eligible) {
    if (full()) break;
    if (!owners.has(origin.group.owner)) tryTake(origin, 'rank');
  }
  for (const origin of eligible) {
    if (full()) break;
    tryTake(origin, 'rank');
  }
  const rankOf = new Map(eligible.map((origin, index) => [origin.group.id, index]));
  selected.sort((left, right) => rankOf.get(left.origin.group.id)! - rankOf.get(right.origin.group.id)!);
  return { selected, skippedForBudget: skippedForBudget.filter((origin) => !taken.has(origin.group.id)), tokens };
}

/** Owner -> how many origins of the set it has. */
export function ownerCounts(origins: RankedOrigin[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const origin of origins) counts.set(origin.group.owner, (counts.get(origin.group.owner) ?? 0) + 1);
  return counts;
}

/** SPEC's owner rule: 1.0 for the only origin of its owner in the set, 0.5 when another shares it. */
export function independenceScore(origin: RankedOrigin, counts: Map<string, number>): number {
  return (counts.get(origin.group.owner) ?? 0) > 1 ? 0.5 : 1.0;
}

const ROLE_WORDS: Record<SourceRole, string> = {
  official: 'official source',
  primary: 'primary source',
  secondary: 'secondary source',
  aggregator: 'aggregator',
  ugc: 'user-generated source',
  unknown: 'source of undetermined role',
};

/** Words for each kind an origin can have (a republish is never an origin: every origin type but that one). */
const KIND_WORDS: Record<OriginKind, string> = {
  original: 'original publication',
  wire: 'wire story',
  press_release: 'press release',
  unknown: 'copy whose source is not in the index',
};

function reasonOf(entry: SelectedOrigin, counts: Map<string, number>, storyCount: number): string {
  const { origin } = entry;
  const group = origin.group;
  const representative = origin.representative;
  const parts: string[] = [];
  const words = origin.coverage < 1 ? `, ${round(origin.coverage)} of the best match's share of its words${bearsOnObjective(origin) ? '' : ': bears on it only weakly'}` : '';
  parts.push(`story ranked ${origin.storyRank + 1} of ${storyCount} for the objective (relevance ${round(origin.relevance)}${words})`);
  const role = `${ROLE_WORDS[representative.role]} (${representative.hit.host}, role confidence ${round(representative.roleConfidence)}${representative.roleStored ? '' : ', derived'})`;
  parts.push(role);
  const carriers = group.own.length + group.republishes.length;
  parts.push(carriers > 1 ? `${KIND_WORDS[group.kind]} owned by ${group.owner}, ${carriers} passages carry it` : `${KIND_WORDS[group.kind]} owned by ${group.owner}`);
  if (entry.why === 'role') parts.push('covers a required source role');
  else if (entry.why === 'independent') parts.push('adds an independent owner');
  if ((counts.get(group.owner) ?? 0) > 1) parts.push('shares its owner with another origin in the set');
  return parts.join('; ');
}

export interface ItemOptions {
  now: number;
  claim?: string;
  storyCount: number;
  /** Owner counts of the set independence is scored against (default: the selection itself). */
  counts?: Map<string, number>;
}

/** The SPEC EvidenceItems of a selection, scored against the set itself (or `options.counts`). */
export function evidenceItems(selection: SelectedOrigin[], options: ItemOptions): EvidenceItem[] {
  const counts = options.counts ?? ownerCounts(selection.map((entry) => entry.origin));
  return selection.map((entry) => {
    const { origin } = entry;
    const representative = origin.representative;
    const original = representative.hit.snippet;
    const item: EvidenceItem = {
      hit: entry.hit,
      reason: reasonOf(entry, counts, options.storyCount),
      source_role: representative.role,
      role_confidence: round(representative.roleConfidence),
      origin_type: origin.group.kind,
      origin: origin.group.id,
      owner: origin.group.owner,
      independence_score: independenceScore(origin, counts),
      risk_flags: riskFlags(original, { hostRank: representative.hit.host_rank, hiddenOnPage: representative.hit.hidden_on_page === true }),
      age_secs: ageSeconds(representative.hit, options.now),
    };
    if (options.claim !== undefined) {
      // Judged on the passage as stored, never on a stripped copy.
      const judgement = judgeClaim(options.claim, original);
      item.claim_relation = judgement.relation;
      item.relation_basis = 'passage';
      item.relation_confidence = judgement.confidence;
      if (judgement.sentences.length > 0) item.relation_sentences = judgement.sentences;
    }
    return item;
  });
}
