/**
 * What the evidence computations take: the hits a retrieval gathered from the shards (engine
 * hits with their internal provenance fields) and the facts of the retrieval (partial answers,
 * shards down, expansion cut short); and the calls the evidence workers take from the main
 * thread (what to retrieve, plain data: the hits come to the worker as the shards' bytes).
 */
import type { NativeHit } from '@evidence/native';
import type { ChangesParams, ContextParams, GroundParams, KnownUrl } from '@evidence/schemas';
import type { CorroborateTask } from './corroboration.js';
import type { RetrievalOptions } from './retrieval.js';

export type EvidenceHit = NativeHit;

/** One scatter across the shards, as the evidence layer needs it. */
export interface RetrievedHits {
  hits: EvidenceHit[];
  /** Real match count across the reachable shards. */
  total: number;
  partial: boolean;
  shardsDown: number;
}

/** Story expansion: every passage of the stories the candidates belong to. */
export interface StoryExpansion {
  /** Passages of the expanded stories (candidates' stories), in any order. */
  members: EvidenceHit[];
  expandedStoryIds: string[];
  notExpandedStoryIds: string[];
  /** The latency budget stopped expansion before every candidate story was looked up. */
  truncated: boolean;
  /** Searches spent on expansion (STORIES_PER_LOOKUP stories each; the receipt's story_lookups). */
  lookups: number;
  /** Passages the expanded stories hold (real counts, even beyond what was fetched). */
  copies: number;
  /** An expansion search came back partial while running under the full search timeout. */
  partial: boolean;
  shardsDown: number;
}

/** What a max_age window left out (only when max_age was given). */
export interface OutsideWindow {
  /** Cut-off: passages published before this are outside the window. */
  publishedFrom: number;
  /** Most relevant matches published before the window (story-collapsed). */
  older: RetrievedHits;
  /** The newest match published before the window, when there is one. */
  newestOlder: EvidenceHit | null;
  /** Matches with no publish date (excluded by any window). */
  undated: number;
}

/** One evidence retrieval: candidates, expansion and, with max_age, what the window left out. */
export interface GroundRetrieval {
  /** Candidates in rank order, one per story (inside the window when max_age was given). */
  candidates: RetrievedHits;
  /** The candidate list was cut at its limit: lower-ranked stories exist and were not considered. */
  candidatesCut: boolean;
  /** Candidates left out for sharing no word with the objective (see support.ts). */
  unsupported: number;
  /**
   * For each candidate (same order), the rarity-weighted share of the objective's words it holds
   * (support.ts `objectiveCoverage`); null where the word test does not apply.
   */
  coverage: number[] | null;
  expansion: StoryExpansion;
  outside: OutsideWindow | null;
  /** Every other vertical the index holds, when a vertical was named (SPEC 4.7), in name order. */
  verticalsExcluded: string[];
  /** The objective's matches in each of those verticals. */
  verticalMatches: Record<string, number>;
  /** Filters as applied, `name=value`. */
  filtersApplied: string[];
  /**
   * Passages the vector half of the candidate search could reach (those with a vector) of all
   * live passages, when vectors ranked the candidates; null in keyword mode.
   */
  vectorCoverage: { embedded: number; passages: number } | null;
}

export interface GroundTask {
  params: GroundParams;
  retrieval: GroundRetrieval;
  /** Unix seconds the call is answered at (ages, generated_at). */
  now: number;
  /** Epoch ms the call started (elapsed_ms). */
  startedAtMs: number;
  shardsConfigured: number;
  credits: number;
}

export interface ChangesTask {
  params: ChangesParams;
  after: GroundRetrieval;
  before: GroundRetrieval;
  knownUrls: KnownUrl[] | null;
  now: number;
  startedAtMs: number;
  shardsConfigured: number;
  credits: number;
}

export interface ContextTask {
  /** `mode` is the mode actually used. */
  params: ContextParams;
  /** Whether a neighbour found by its vector alone matches (a model's vectors; see support.ts). */
  vectorsMatch: boolean;
  candidates: RetrievedHits;
}

/** The node's settings a retrieval needs (the shards it reaches through the task's port). */
export interface RetrievalSettings {
  /** SEARCH_TIMEOUT_MS. */
  searchTimeoutMs: number;
  /** Whether a neighbour found by its vector alone matches (a model's vectors; see support.ts). */
  vectorsMatch: boolean;
}

/** A ground call: what to retrieve, then the answer's facts. `params.mode` is the mode the node runs. */
export interface GroundCall extends Omit<GroundTask, 'retrieval'> {
  retrieval: RetrievalOptions;
  settings: RetrievalSettings;
}

/**
 * A changes call: the retrieval over everything (the before side adds `fetchedTo = since`); the
 * known URLs (`params.known_urls`) are looked up in the index and, over the port, the ledger.
 */
export interface ChangesCall extends Omit<ChangesTask, 'after' | 'before' | 'knownUrls'> {
  retrieval: RetrievalOptions;
  settings: RetrievalSettings;
}

/** An assemble_context call. */
export interface ContextCall {
  params: ContextParams;
  settings: RetrievalSettings;
}

/** A corroborate call: the passage (and the claim, when given) whose origins are looked for. */
export interface CorroborateCall extends Pick<CorroborateTask, 'id' | 'claim' | 'shardsConfigured' | 'credits'> {
  settings: RetrievalSettings;
}

export type EvidenceTask =
  | { op: 'ground'; call: GroundCall }
  | { op: 'changes'; call: ChangesCall }
  | { op: 'context'; call: ContextCall }
  | { op: 'corroborate'; call: CorroborateCall };
