/**
 * The grounding response (SPEC 4.7, 2.6): the smallest defensible evidence set for an objective,
 * its origins, the coverage receipt, the budget, what to do next and the provenance. A pure
 * function of the task: the same retrieval gives the same evidence.
 */
import type { GroundResponse, StaleEvidence } from '@evidence/schemas';
import { analyse, type Analysis } from './analysis.js';
import { ageSeconds } from './hits.js';
import { originBody } from './origins.js';
import {
  claimSummary,
  coverageReceipt,
  groundStatus,
  knownGaps,
  nextActions,
  provenance,
  suggestedMaxAge,
  type GapInput,
} from './receipt.js';
import { EVIDENCE_MAX_ITEMS, evidenceItems, selectEvidence } from './selection.js';
import type { EvidenceHit, GroundTask } from './types.js';

/** Examples of older material in stale_evidence. */
export const STALE_EXAMPLES = 5;

function staleEvidence(task: GroundTask, analysis: Analysis): StaleEvidence | undefined {
  const outside = task.retrieval.outside;
  if (!outside || task.params.max_age === undefined) return undefined;
  const seen = new Set<string>();
  const examples: EvidenceHit[] = [];
  const add = (hit: EvidenceHit) => {
    if (seen.has(hit.id) || examples.length >= STALE_EXAMPLES) return;
    seen.add(hit.id);
    examples.push(hit);
  };
  for (const origin of [...analysis.older, ...analysis.undated]) add(origin.representative.hit);
  for (const hit of outside.older.hits) add(hit);
  const dated = [
    ...analysis.older.map((origin) => origin.earliestPublishedAt),
    ...outside.older.hits.map((hit) => hit.published_at).filter((value): value is number => value !== undefined),
    ...(outside.newestOlder?.published_at !== undefined ? [outside.newestOlder.published_at] : []),
  ];
  const newest = dated.length > 0 ? Math.max(...dated) : null;
  return {
    max_age: task.params.max_age,
    suggested_max_age: newest !== null ? suggestedMaxAge(task.now, newest) : `${task.params.max_age}s`,
    older_passages: outside.older.total,
    undated_passages: outside.undated,
    newest_published_at: newest,
    oldest_published_at: dated.length > 0 ? Math.min(...dated) : null,
    examples: examples.map((hit) => ({
      id: hit.id,
      url: hit.url,
      host: hit.host,
      title: hit.title,
      published_at: hit.published_at ?? null,
      age_secs: ageSeconds(hit, task.now),
    })),
  };
}

export function groundResponse(task: GroundTask): GroundResponse {
  const { params, retrieval } = task;
  const maxAge = params.max_age ?? null;
  const analysis = analyse(retrieval, retrieval.outside?.publishedFrom ?? null);
  const selection = selectEvidence(analysis.eligible, {
    requireRole: params.require_role,
    minIndependentOrigins: params.min_independent_origins,
    tokenBudget: params.token_budget,
    maxItems: EVIDENCE_MAX_ITEMS,
    stripInstructionLike: params.strip_instruction_like,
  });
  const chosen = selection.selected.map((entry) => entry.origin);
  const evidence = evidenceItems(selection.selected, { now: task.now, claim: params.claim, storyCount: analysis.stories.length });
  const receiptInput: GapInput = {
    objective: params.objective,
    mode: params.mode,
    vertical: params.vertical ?? null,
    safe: params.safe,
    maxAge,
    retrieval,
    analysis,
    evidence: chosen,
    shardsConfigured: task.shardsConfigured,
    requireRole: params.require_role,
    minIndependentOrigins: params.min_independent_origins,
    skippedForBudget: selection.skippedForBudget,
    tokenBudget: params.token_budget,
    ...(params.claim !== undefined ? { claim: claimSummary(params.claim, evidence) } : {}),
  };
  const status = groundStatus({ analysis, retrieval, maxAge, evidence: chosen, requireRole: params.require_role, minIndependentOrigins: params.min_independent_origins });
  const gaps = knownGaps(receiptInput);
  const body: GroundResponse = {
    status,
    objective: params.objective,
    evidence,
    // The origins of the evidence set, in its order (each with every passage that carries it).
    origins: chosen.map((origin) => originBody(origin.group)),
    contradictions: evidence.filter((item) => item.claim_relation === 'contradicts').map((item) => item.hit.id),
    coverage: coverageReceipt(receiptInput, gaps),
    budget: {
      token_budget: params.token_budget,
      context_tokens: selection.tokens,
      credits_billed: task.credits,
      story_lookups: retrieval.expansion.lookups,
      elapsed_ms: Math.max(0, Date.now() - task.startedAtMs),
    },
    next_actions: nextActions({
      ...receiptInput,
      status,
      now: task.now,
      itemIds: evidence.map((item) => item.hit.id),
      latencyBudgetMs: params.latency_budget_ms,
    }),
    provenance: provenance(task.now, params.claim !== undefined),
  };
  if (status === 'stale') body.stale_evidence = staleEvidence(task, analysis);
  return body;
}

