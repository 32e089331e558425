/**
 * The context pack (SPEC 4.4, 2.4): story-deduplicated candidates (one per story) with lexical
 * support for the query (see support.ts), ranked by a trust-weighted relevance and packed
 * greedily under the token budget.
 *
 * value = 0.5 x relevance (score over the best score) + 0.3 x host trust prior
 *       + 0.2 x corroboration (hosts carrying the story beyond the first: independent_sources,
 *         saturating at 3 more; a story's copies on one host, such as a site's teasers of its
 *         own article, corroborate nothing, so collapse's group_size is not read)
 *       - 0.1 for a passage that is itself a republish (a copy of another origin).
 * Ties by id. A passage that does not fit what is left of the budget is skipped and the next one
 * tried, so the budget is a ceiling and the pack is as full as the ranking allows.
 */
import type { ContextPack } from '@evidence/schemas';
import { compareText, round, specHit } from './hits.js';
import { readPassage, type PassageReading } from './origins.js';
import { riskFlags } from './risk.js';
import { supportedHits } from './support.js';
import { hitTokens } from './tokens.js';
import type { ContextTask, EvidenceHit } from './types.js';

export const CONTEXT_WEIGHTS = { relevance: 0.5, trust: 0.3, corroboration: 0.2, republishPenalty: 0.1 } as const;

interface Ranked {
  reading: PassageReading;
  relevance: number;
  corroborating: number;
  value: number;
}

function corroboratingHosts(hit: EvidenceHit): number {
  return hit.independent_sources ?? 1;
}

function reasonOf(entry: Ranked, position: number): string {
  const hit = entry.reading.hit;
  const parts = [
    `rank ${position} by trust-weighted relevance (relevance ${round(entry.relevance)}, host trust ${round(hit.host_rank)}, ${entry.reading.role} source)`,
    entry.corroborating > 1 ? `corroborated: its story is carried by ${entry.corroborating} independent hosts` : 'no other host carries its story',
  ];
  if (entry.reading.originType === 'republish') parts.push('a republished copy: its origin is not among the matches');
  const flags = riskFlags(hit.snippet, { hostRank: hit.host_rank, hiddenOnPage: hit.hidden_on_page === true });
  if (flags.length > 0) parts.push(`caution: ${flags.join(', ')}`);
  return parts.join('; ');
}

export function contextPack(task: ContextTask): ContextPack {
  const hits = supportedHits(task.params.q, task.params.mode, task.candidates.hits, task.vectorsMatch).hits;
  const best = hits.reduce((max, hit) => Math.max(max, hit.score), 0);
  const seenStories = new Set<string>();
  const ranked: Ranked[] = [];
  hits.forEach((hit, rank) => {
    if (seenStories.has(hit.story_id)) return;
    seenStories.add(hit.story_id);
    const reading = readPassage(hit);
    const relevance = best > 0 ? hit.score / best : 1 - rank / Math.max(1, hits.length);
    const corroborating = corroboratingHosts(hit);
    const value =
      CONTEXT_WEIGHTS.relevance * relevance +
      CONTEXT_WEIGHTS.trust * hit.host_rank +
      CONTEXT_WEIGHTS.corroboration * Math.min(1, (corroborating - 1) / 3) -
      (reading.originType === 'republish' ? CONTEXT_WEIGHTS.republishPenalty : 0);
    ranked.push({ reading, relevance, corroborating, value: round(value, 6) });
  });
  ranked.sort((left, right) => right.value - left.value || compareText(left.reading.hit.id, right.reading.hit.id));

  const items: ContextPack['items'] = [];
  let tokens = 0;
  ranked.forEach((entry, index) => {
    const hit = specHit(entry.reading.hit);
    const cost = hitTokens(hit);
    if (tokens + cost > task.params.budget) return;
    tokens += cost;
    items.push({ hit, reason: reasonOf(entry, index + 1) });
  });
  const pack: ContextPack = { query: task.params.q, token_budget: task.params.budget, estimated_tokens: tokens, items };
  if (task.candidates.partial) pack.partial = true;
  return pack;
}
