/**
 * What changed in the evidence for an objective since an instant (SPEC 4.5, 2.7, 3.3). The
 * evidence is built twice, over everything now and over only what had been crawled by `since`
 * (the main thread ran the second retrieval with `fetchedTo = since`), and the two are diffed.
 *
 * - new_evidence: origins of the current evidence whose representative was crawled after
 *   `since`, ranked, under token_budget (one item per origin; a republish is never an item).
 * - origins_gained: current origins absent from the `since` evidence all of whose passages were
 *   crawled after `since` (a ranking difference alone gains nothing).
 * - roles_gained: source roles of gained origins and new items that the `since` evidence lacked.
 * - independent_origins: distinct owners over every origin of each side.
 * - contradictions_gained: new items whose claim_relation is contradicts (with a claim).
 * - status: partial when either side was partial; changed when there is new evidence, a gained
 *   origin, or a known URL removed after `since`; unchanged otherwise.
 */
import type { ChangesResponse, KnownUrl, NextAction, SourceRole } from '@evidence/schemas';
import { analyse, type Analysis, type RankedOrigin } from './analysis.js';
import { originBody, membersOf } from './origins.js';
import { coverageReceipt, distinctOwners, knownGaps, provenance, rolesPresent, type GapInput } from './receipt.js';
import { evidenceItems, ownerCounts, selectEvidence } from './selection.js';
import type { ChangesTask, GroundRetrieval } from './types.js';

/** New evidence items at most (before the budget cuts in). */
export const CHANGES_MAX_ITEMS = 20;

export const CHANGES_LIMITATIONS = [
  'passages removed after since are not reconstructable: the since side holds only what the index still has, so its counts are lower bounds',
  "'as of since' means crawled by then (fetched_at), not published by then",
] as const;

function gapInput(task: ChangesTask, retrieval: GroundRetrieval, analysis: Analysis, evidence: RankedOrigin[], skipped: RankedOrigin[]): GapInput {
  return {
    objective: task.params.objective,
    mode: task.params.mode,
    vertical: task.params.vertical ?? null,
    safe: task.params.safe,
    maxAge: null,
    retrieval,
    analysis,
    evidence,
    shardsConfigured: task.shardsConfigured,
    requireRole: [],
    minIndependentOrigins: 0,
    skippedForBudget: skipped,
    tokenBudget: task.params.token_budget,
  };
}

function removedAfter(knownUrls: KnownUrl[] | null, since: number): KnownUrl[] {
  return (knownUrls ?? []).filter((entry) => entry.status === 'removed' && (entry.removed_at ?? 0) > since);
}

export function changesResponse(task: ChangesTask): ChangesResponse {
  const { params } = task;
  const since = params.since;
  const after = analyse(task.after, null);
  const before = analyse(task.before, null);
  const beforeIds = new Set(before.all.map((origin) => origin.group.id));

  const originsGained = after.all.filter(
    (origin) => !beforeIds.has(origin.group.id) && membersOf(origin.group).every((member) => member.hit.fetched_at > since),
  );
  const fresh = after.all.filter((origin) => origin.representative.hit.fetched_at > since);
  const selection = selectEvidence(fresh, {
    requireRole: [],
    minIndependentOrigins: 0,
    tokenBudget: params.token_budget,
    maxItems: CHANGES_MAX_ITEMS,
    stripInstructionLike: false,
  });
  const newEvidence = evidenceItems(selection.selected, {
    now: task.now,
    claim: params.claim,
    storyCount: after.stories.length,
    counts: ownerCounts(after.all),
  });

  const rolesBefore = new Set<SourceRole>(rolesPresent(before.all));
  const rolesGained = rolesPresent([...originsGained, ...selection.selected.map((entry) => entry.origin)]).filter((role) => !rolesBefore.has(role));
  const contradictionsGained = newEvidence.filter((item) => item.claim_relation === 'contradicts').map((item) => item.hit.id);
  const removed = removedAfter(task.knownUrls, since);

  const partial = after.partial || before.partial;
  const changed = newEvidence.length > 0 || originsGained.length > 0 || removed.length > 0;
  const afterInput = gapInput(task, task.after, after, after.all, selection.skippedForBudget);
  const beforeInput = gapInput(task, task.before, before, before.all, []);

  const actions: NextAction[] = [];
  if (partial) {
    actions.push({ action: 'retry', why: 'part of the index did not answer; the diff is incomplete, retry for a complete one' });
  }
  if (task.after.expansion.truncated || task.before.expansion.truncated) {
    actions.push({ action: 'retry', why: 'story expansion was cut short; a retry may count every copy and owner' });
  }
  for (const id of contradictionsGained) {
    actions.push({ action: 'get_document', why: 'new evidence that may contradict the claim: read it in full', target: id });
  }
  for (const item of newEvidence.slice(0, 2)) {
    if (contradictionsGained.includes(item.hit.id)) continue;
    actions.push({ action: 'get_document', why: 'new evidence since the instant: read it before relying on it', target: item.hit.id });
  }
  for (const entry of task.knownUrls ?? []) {
    if (entry.status === 'removed' && entry.superseded_by) {
      actions.push({ action: 'get_document', why: `${entry.url} was superseded: read the passage that replaced it`, target: entry.superseded_by });
    } else if (entry.status === 'removed') {
      actions.push({ action: 'search', why: `${entry.url} left the index (${entry.reason ?? 'removed'}): look for another source`, target: params.objective });
    } else if (entry.status === 'error') {
      actions.push({ action: 'why_not', why: `the presence of ${entry.url} could not be established`, target: entry.url });
    }
  }

  const body: ChangesResponse = {
    status: partial ? 'partial' : changed ? 'changed' : 'unchanged',
    objective: params.objective,
    since,
    new_evidence: newEvidence,
    origins_gained: originsGained.map((origin) => originBody(origin.group)),
    roles_gained: rolesGained,
    independent_origins: { before: distinctOwners(before.all), after: distinctOwners(after.all) },
    coverage: coverageReceipt(afterInput, knownGaps(afterInput)),
    coverage_before: coverageReceipt(beforeInput, knownGaps(beforeInput)),
    budget: {
      token_budget: params.token_budget,
      context_tokens: selection.tokens,
      credits_billed: task.credits,
      story_lookups: task.after.expansion.lookups + task.before.expansion.lookups,
      elapsed_ms: Math.max(0, Date.now() - task.startedAtMs),
    },
    next_actions: actions,
    provenance: provenance(task.now, params.claim !== undefined, CHANGES_LIMITATIONS),
  };
  if (params.claim !== undefined) body.contradictions_gained = contradictionsGained;
  if (task.knownUrls !== null) body.known_urls = task.knownUrls;
  return body;
}
