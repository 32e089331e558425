/**
 * From one retrieval (candidates and their expanded stories) to ranked origins, with the
 * max_age window applied. Shared by ground and changes.
 *
 * Ranking: each story has the relevance of its candidate (score over the best candidate's
 * score); an origin ranks by 0.75 x its story's relevance + 0.25 x its representative's host
 * trust prior, ties by the story's candidate rank and then by origin id.
 *
 * Window: an origin is inside max_age when its earliest declared publish date is; an origin no
 * member of which declares a publish date is excluded by any window (it cannot be shown to be
 * recent). A fresh copy of old material is therefore not fresh evidence.
 */
import { compareText, round, unique } from './hits.js';
import { buildOrigins, earliestPublishedAt, isDated, representativeOf, type OriginGroup, type PassageReading } from './origins.js';
import type { EvidenceHit, GroundRetrieval } from './types.js';

export const RELEVANCE_WEIGHT = 0.75;
export const TRUST_WEIGHT = 0.25;

/**
 * An origin bears on the objective when its story's relevance is at least this share of the best
 * candidate's, and its candidate holds at least BEARING_COVERAGE of the best-covered candidate's
 * share of the objective's words, rare words weighing more (support.ts `objectiveCoverage`).
 * Otherwise (a page that matched one common word of the question) it neither fills the
 * `require_role` slot nor counts towards the bar: an off-topic university or documentation page
 * must not make a news question sufficient, nor a diet blog's "swap" a second source on a
 * prisoner swap.
 */
export const BEARING_RELEVANCE = 0.25;
export const BEARING_COVERAGE = 0.5;

export function bearsOnObjective(origin: RankedOrigin): boolean {
  return origin.relevance >= BEARING_RELEVANCE && origin.coverage >= BEARING_COVERAGE;
}

export interface RankedOrigin {
  group: OriginGroup;
  representative: PassageReading;
  /** 0-based rank of the origin's story among the candidates. */
  storyRank: number;
  /** 0..1 */
  relevance: number;
  /** 0..1: its story's candidate's share of the objective's words over the best candidate's (1 where not measured). */
  coverage: number;
  rankScore: number;
  dated: boolean;
  earliestPublishedAt: number;
}

export interface Analysis {
  /** Every origin found, ranked. */
  all: RankedOrigin[];
  /** Origins inside the window (all of them without max_age), ranked. */
  eligible: RankedOrigin[];
  /** Dated origins published before the window. */
  older: RankedOrigin[];
  /** Undated origins a window excluded. */
  undated: RankedOrigin[];
  /** Candidate stories, in rank order. */
  stories: string[];
  partial: boolean;
  shardsDown: number;
}

interface StoryStanding {
  rank: number;
  relevance: number;
  coverage: number;
}

function storyRelevance(candidates: EvidenceHit[], coverage: readonly number[] | null): Map<string, StoryStanding> {
  const relevance = new Map<string, StoryStanding>();
  const best = candidates.reduce((max, hit) => Math.max(max, hit.score), 0);
  const bestCoverage = coverage === null ? 0 : Math.max(0, ...coverage);
  candidates.forEach((hit, rank) => {
    if (relevance.has(hit.story_id)) return;
    const value = best > 0 ? hit.score / best : 1 - rank / Math.max(1, candidates.length);
    const covered = coverage === null || bestCoverage <= 0 ? 1 : (coverage[rank] ?? 0) / bestCoverage;
    relevance.set(hit.story_id, { rank, relevance: Math.max(0, Math.min(1, value)), coverage: Math.max(0, Math.min(1, covered)) });
  });
  return relevance;
}

/** `coverage`: each candidate's share of the objective's words (GroundRetrieval.coverage), null where not measured. */
export function rankOrigins(groups: OriginGroup[], candidates: EvidenceHit[], coverage: readonly number[] | null = null): RankedOrigin[] {
  const stories = storyRelevance(candidates, coverage);
  const ranked = groups.map((group): RankedOrigin => {
    const representative = representativeOf(group);
    const story = stories.get(group.storyId) ?? { rank: candidates.length, relevance: 0, coverage: 0 };
    return {
      group,
      representative,
      storyRank: story.rank,
      relevance: round(story.relevance, 4),
      coverage: round(story.coverage, 4),
      rankScore: round(RELEVANCE_WEIGHT * story.relevance + TRUST_WEIGHT * representative.hit.host_rank, 6),
      dated: isDated(group),
      earliestPublishedAt: earliestPublishedAt(group),
    };
  });
  return ranked.sort((left, right) => right.rankScore - left.rankScore || left.storyRank - right.storyRank || compareText(left.group.id, right.group.id));
}

/** Origins of a retrieval, ranked, split by the window starting at `publishedFrom` (null: no window). */
export function analyse(retrieval: GroundRetrieval, publishedFrom: number | null): Analysis {
  const candidates = retrieval.candidates.hits;
  const groups = buildOrigins([...candidates, ...retrieval.expansion.members]);
  const all = rankOrigins(groups, candidates, retrieval.coverage);
  const eligible: RankedOrigin[] = [];
  const older: RankedOrigin[] = [];
  const undated: RankedOrigin[] = [];
  for (const origin of all) {
    if (publishedFrom === null) eligible.push(origin);
    else if (!origin.dated) undated.push(origin);
    else if (origin.earliestPublishedAt < publishedFrom) older.push(origin);
    else eligible.push(origin);
  }
  const stories = unique(candidates.map((hit) => hit.story_id));
  const partial = retrieval.candidates.partial || retrieval.expansion.partial || (retrieval.outside?.older.partial ?? false);
  const shardsDown = Math.max(retrieval.candidates.shardsDown, retrieval.expansion.shardsDown, retrieval.outside?.older.shardsDown ?? 0);
  return { all, eligible, older, undated, stories, partial, shardsDown };
}
