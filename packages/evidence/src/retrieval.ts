/**
 * What ground, changes, assemble_context and corroborate retrieve, asked of the shard pool from the
 * evidence worker (through the `ShardSearcher` the server hands the evidence pool): each round is
 * one scatter, and the hits are decoded here, where they are used.
 *
 * 1. Candidates: the objective's top CANDIDATE_HITS hits, one kept per story (near-duplicate
 *    cluster), at most CANDIDATE_STORIES, inside the max_age window when one is given; outside semantic mode only
 *    those sharing a word with the objective (support.ts, the engine's analyser), and the real count
 *    of passages matching its terms. In parallel, with a named
 *    vertical, every vertical the index holds (what the receipt lists as not searched) and the
 *    objective's matches in each, and with
 *    max_age, what the window leaves out (the most relevant older matches, the newest older one,
 *    and counts that tell dated from undated matches).
 *    All of step 1 is one scatter.
 * 2. Story expansion: every passage of the candidates' stories (copies, republishes, other
 *    owners), STORIES_PER_LOOKUP stories per search, all searches in one scatter, until
 *    latency_budget_ms after the call started: a search the budget cuts short leaves its stories
 *    unexpanded (story_expansion_truncated), not the answer partial.
 *
 * Changes runs two retrievals at once (the before side with `fetchedTo = since`) and looks its
 * known URLs up meanwhile: their rounds go out together (`PortSearcher` sends the scatters asked
 * for in one turn as one).
 *
 * Errors from step 1 mean the call did not run (released, not billed); an error after it is a
 * call that ran and failed (billed its failure cost).
 */
import { decodeDocument, type NativeHit, type SearchFilters } from '@evidence/native';
import { gatherSearch, type PoolSearchResult, type ScatterRequest } from '@evidence/pool';
import { errors, formatDuration, ranAndFailed, type KnownUrl, type SearchParams } from '@evidence/schemas';
import { STALE_EXAMPLES } from './ground.js';
import { PARAPHRASE_CANDIDATES, paraphraseQuery, selectParaphrases, type CorroborateTask } from './corroboration.js';
import type { HiddenTextIndex } from './hidden-text-index.js';
import type { ShardSearcher } from './shard-searcher.js';
import { objectiveCoverage, supportedHits } from './support.js';
import type { CorroborateCall, GroundRetrieval, RetrievedHits, StoryExpansion } from './types.js';
import { firstPassageOfEachUrl, knownUrlOf, normaliseUrl, urlLookupRequest, urlPresencesOf, type UrlLedgerState, type UrlLookup } from './urls.js';

/** Stories a grounding answer considers at most. */
export const CANDIDATE_STORIES = 30;
/**
 * Hits fetched to find them: uncollapsed, then one per story kept here (the first, best-ranked,
 * as the engine's story collapse would keep), which costs the engine markedly less than
 * collapsing (measured on the demo corpus: about 10 ms against 17 ms for a hybrid query).
 */
export const CANDIDATE_HITS = 2 * CANDIDATE_STORIES;
/** Stories expanded per search (the expansion's searches go out in one scatter). */
export const STORIES_PER_LOOKUP = 10;
/** Passages one expansion search may bring back (stories beyond it keep their real counts). */
export const LOOKUP_LIMIT = 1000;
/** Story-collapsed candidates a context pack is chosen from. */
export const CONTEXT_CANDIDATES = 50;

/** What a retrieval runs against: the shards, the hidden-text record, and the node's settings. */
export interface RetrievalContext {
  searcher: ShardSearcher;
  hiddenText: HiddenTextIndex;
  /** The node's search timeout (SEARCH_TIMEOUT_MS), ms. */
  searchTimeoutMs: number;
  /** Whether a neighbour found by its vector alone matches (a model's vectors; see support.ts). */
  vectorsMatch: boolean;
}

export interface RetrievalOptions {
  objective: string;
  /** The mode the node runs (keyword when it serves no vectors). */
  mode: SearchParams['mode'];
  vertical?: string;
  lang?: string;
  safe: boolean;
  /** Seconds: only material published inside this window is evidence. */
  maxAge?: number;
  /** Only what was crawled by this instant (changes' before side). */
  fetchedTo?: number;
  /** Unix seconds of the call. */
  now: number;
  /** Epoch ms the call started (the latency budget counts from here). */
  startedAtMs: number;
  latencyBudgetMs?: number;
}

/** One scatter of several searches, each gathered. */
export async function searchAll(context: RetrievalContext, requests: ScatterRequest[], timeoutMs: number): Promise<PoolSearchResult[]> {
  const answers = await context.searcher.scatter(requests, timeoutMs);
  return requests.map((request, index) => gatherSearch(request, answers[index]));
}

/** Marks hits whose page hid text from its readers, so `hidden_text` is raised on them. */
export async function markHiddenOnPage(hiddenText: HiddenTextIndex, ...hitLists: NativeHit[][]): Promise<void> {
  const hiding = await hiddenText.hidingPages(hitLists.flatMap((hits) => hits.map((hit) => hit.page_id)));
  if (hiding.size === 0) return;
  for (const hits of hitLists) {
    for (const hit of hits) if (hiding.has(hit.page_id)) hit.hidden_on_page = true;
  }
}

function filtersApplied(options: RetrievalOptions): string[] {
  const applied = [`safe=${options.safe}`];
  if (options.vertical) applied.push(`vertical=${options.vertical}`);
  if (options.lang) applied.push(`lang=${options.lang}`);
  if (options.maxAge !== undefined) applied.push(`max_age=${formatDuration(options.maxAge)} (published_from=${options.now - options.maxAge})`);
  if (options.fetchedTo !== undefined) applied.push(`crawled_by=${options.fetchedTo}`);
  return applied;
}

/** The first hit of each story, in order, at most `limit` of them. */
function firstOfEachStory(hits: NativeHit[], limit: number): NativeHit[] {
  const kept: NativeHit[] = [];
  const seen = new Set<string>();
  for (const hit of hits) {
    if (seen.has(hit.story_id)) continue;
    seen.add(hit.story_id);
    if (kept.length < limit) kept.push(hit);
  }
  return kept;
}

async function expandStories(context: RetrievalContext, options: RetrievalOptions, storyIds: string[]): Promise<StoryExpansion> {
  const expansion: StoryExpansion = {
    members: [],
    expandedStoryIds: [],
    notExpandedStoryIds: [],
    truncated: false,
    lookups: 0,
    copies: 0,
    partial: false,
    shardsDown: 0,
  };
  if (storyIds.length === 0) return expansion;
  const searchTimeoutMs = context.searchTimeoutMs;
  const remainingMs = options.latencyBudgetMs === undefined ? searchTimeoutMs : options.startedAtMs + options.latencyBudgetMs - Date.now();
  if (remainingMs <= 0) {
    expansion.truncated = true;
    expansion.notExpandedStoryIds = [...storyIds];
    return expansion;
  }
  const timeoutMs = Math.max(1, Math.min(searchTimeoutMs, remainingMs));
  const boundedByBudget = timeoutMs < searchTimeoutMs;
  const batches: string[][] = [];
  for (let start = 0; start < storyIds.length; start += STORIES_PER_LOOKUP) batches.push(storyIds.slice(start, start + STORIES_PER_LOOKUP));
  const filters: SearchFilters = { storyIds: [], safe: options.safe, fetchedTo: options.fetchedTo };
  const results = await searchAll(
    context,
    batches.map((batch): ScatterRequest => ({ query: '', mode: 'keyword', limit: LOOKUP_LIMIT, filters: { ...filters, storyIds: batch } })),
    timeoutMs,
  );
  expansion.lookups = batches.length;
  results.forEach((result, index) => {
    expansion.members.push(...result.hits);
    expansion.copies += result.total;
    if (result.partial && boundedByBudget) {
      // The budget, not a broken shard, stopped this scatter: its stories count as not expanded.
      expansion.truncated = true;
      expansion.notExpandedStoryIds.push(...batches[index]);
      return;
    }
    if (result.partial) {
      expansion.partial = true;
      expansion.shardsDown = Math.max(expansion.shardsDown, result.shardsDown);
    }
    expansion.expandedStoryIds.push(...batches[index]);
  });
  return expansion;
}

/** One evidence retrieval (see the module comment). */
export async function retrieveEvidence(context: RetrievalContext, options: RetrievalOptions): Promise<GroundRetrieval> {
  const mode = options.mode;
  const base: SearchFilters = {
    vertical: options.vertical,
    langs: options.lang ? [options.lang] : undefined,
    safe: options.safe,
    fetchedTo: options.fetchedTo,
  };
  const publishedFrom = options.maxAge === undefined ? undefined : options.now - options.maxAge;
  const query = options.objective;

  // Step 1, one scatter: each search's place in it.
  const requests: ScatterRequest[] = [{ query, mode, limit: CANDIDATE_HITS, filters: { ...base, publishedFrom } }];
  const place = (request: ScatterRequest) => requests.push(request) - 1;
  // The real number of passages matching the objective's terms (vector ranking matches everything).
  const lexicalAt = mode === 'semantic' ? null : place({ query, mode: 'keyword', limit: 0, filters: { ...base, publishedFrom } });
  const countsAt = options.vertical
    ? place({ query, mode: 'keyword', limit: 0, filters: { ...base, vertical: undefined, publishedFrom }, verticalCounts: true })
    : null;
  // Every vertical the deployment holds (as /describe lists them: explicit content included).
  const heldAt = options.vertical ? place({ query: '', mode: 'keyword', limit: 0, filters: { safe: false }, verticalCounts: true }) : null;
  const outsideAt =
    publishedFrom === undefined
      ? null
      : [
          place({ query, mode, limit: 3 * STALE_EXAMPLES, filters: { ...base, publishedTo: publishedFrom - 1 } }),
          place({ query, mode: 'keyword', limit: 1, filters: { ...base, publishedTo: publishedFrom - 1 }, sort: 'published' }),
          // Counts in one mode, so that all - inside - older is the undated remainder.
          place({ query, mode: 'keyword', limit: 0, filters: base }),
          place({ query, mode: 'keyword', limit: 0, filters: { ...base, publishedFrom } }),
          place({ query, mode: 'keyword', limit: 0, filters: { ...base, publishedTo: publishedFrom - 1 } }),
        ];
  const results = await searchAll(context, requests, context.searchTimeoutMs);
  const searched = results[0];
  const lexical = lexicalAt === null ? null : results[lexicalAt];
  const counts = countsAt === null ? null : results[countsAt];
  const held = heldAt === null ? null : results[heldAt];
  const outside = outsideAt === null ? null : outsideAt.map((index) => results[index]);

  // The searches ran: from here on a failure is a call that ran and failed.
  try {
    const vectorsMatch = context.vectorsMatch;
    const supported = supportedHits(query, mode, searched.hits, vectorsMatch);
    const stories = firstOfEachStory(supported.hits, CANDIDATE_STORIES);
    const candidates: RetrievedHits = {
      hits: stories,
      total: lexical ? lexical.total : searched.total,
      partial: searched.partial || (lexical?.partial ?? false),
      shardsDown: Math.max(searched.shardsDown, lexical?.shardsDown ?? 0),
    };
    const expansion = await expandStories(context, options, stories.map((hit) => hit.story_id));
    const retrieval: GroundRetrieval = {
      candidates,
      candidatesCut: searched.hits.length >= CANDIDATE_HITS || new Set(supported.hits.map((hit) => hit.story_id)).size > CANDIDATE_STORIES,
      unsupported: supported.dropped,
      coverage: objectiveCoverage(query, mode, stories, vectorsMatch),
      expansion,
      outside: null,
      verticalsExcluded: held?.verticalCounts
        ? Object.entries(held.verticalCounts)
            .filter(([vertical, count]) => count > 0 && vertical !== options.vertical)
            .map(([vertical]) => vertical)
            .sort()
        : [],
      verticalMatches: {},
      filtersApplied: filtersApplied(options),
      vectorCoverage: mode === 'keyword' ? null : { embedded: searched.embedded, passages: searched.passages },
    };
    if (outside && publishedFrom !== undefined) {
      const [older, newest, all, inside, olderCount] = outside;
      retrieval.outside = {
        publishedFrom,
        older: {
          hits: firstOfEachStory(supportedHits(query, mode, older.hits, vectorsMatch).hits, STALE_EXAMPLES),
          total: olderCount.total,
          partial: older.partial || olderCount.partial || all.partial || inside.partial,
          shardsDown: Math.max(older.shardsDown, olderCount.shardsDown, all.shardsDown, inside.shardsDown),
        },
        newestOlder: newest.hits[0] ?? null,
        undated: Math.max(0, all.total - inside.total - olderCount.total),
      };
    }
    for (const vertical of retrieval.verticalsExcluded) retrieval.verticalMatches[vertical] = counts?.verticalCounts?.[vertical] ?? 0;
    if (counts?.partial || held?.partial) retrieval.candidates.partial = true;
    await markHiddenOnPage(context.hiddenText, retrieval.candidates.hits, retrieval.expansion.members, retrieval.outside?.older.hits ?? []);
    return retrieval;
  } catch (error) {
    throw ranAndFailed(error);
  }
}

/** A context pack's candidates: one story-collapsed search (assemble_context). */
export async function retrieveContextCandidates(context: RetrievalContext, query: string, mode: SearchParams['mode']): Promise<RetrievedHits> {
  const [result] = await searchAll(context, [{ query, mode, limit: CONTEXT_CANDIDATES, filters: { safe: true }, collapse: 'story' }], context.searchTimeoutMs);
  try {
    await markHiddenOnPage(context.hiddenText, result.hits);
  } catch (error) {
    throw ranAndFailed(error);
  }
  return { hits: result.hits, total: result.total, partial: result.partial, shardsDown: result.shardsDown };
}

/** The admission ledger's state of URLs (the main thread follows the ledger; a worker asks over its port). */
export interface LedgerStates {
  ledgerStates(urls: string[]): Promise<(UrlLedgerState | undefined)[]>;
}

/**
 * Changes' known URLs: each one's presence from one index lookup of the valid ones (one search,
 * the first passage of each URL) and the admission ledger, asked at once.
 */
export async function retrieveKnownUrls(context: RetrievalContext, ledger: LedgerStates, urls: string[]): Promise<KnownUrl[]> {
  const request = urlLookupRequest(urls.filter((url) => normaliseUrl(url) !== null));
  const [indexed, states] = await Promise.all([
    request
      ? searchAll(context, [request], context.searchTimeoutMs).then(([result]): UrlLookup => ({ byUrl: firstPassageOfEachUrl(result.hits), partial: result.partial }))
      : Promise.resolve<UrlLookup>({ byUrl: new Map(), partial: false }),
    ledger.ledgerStates(urls),
  ]);
  return urlPresencesOf(urls, states, indexed).map((presence, index) => knownUrlOf(urls[index], presence));
}

const NOTHING: RetrievedHits = { hits: [], total: 0, partial: false, shardsDown: 0 };

function retrieved(result: PoolSearchResult): RetrievedHits {
  return { hits: result.hits, total: result.total, partial: result.partial, shardsDown: result.shardsDown };
}

/**
 * What corroborate looks at: the passage (by id, from whichever shard holds it); then one
 * scatter: every passage of its story, its page, and the near-paraphrase search (the passage's
 * content words, keyword mode, explicit content left out); then one scatter: every passage of
 * the kept paraphrase stories. A passage no shard holds is a 404 (a 503 when a shard did not
 * answer); errors up to the first scatter's answers mean the call did not run.
 */
export async function retrieveCorroboration(context: RetrievalContext, call: Omit<CorroborateCall, 'settings'>): Promise<CorroborateTask> {
  const timeoutMs = context.searchTimeoutMs;
  const { bytes, partial: seedPartial } = await context.searcher.documentBytes(call.id, timeoutMs);
  if (!bytes) {
    if (seedPartial) throw errors.noShard();
    throw errors.notFound(`no passage with id ${call.id}`);
  }
  const document = decodeDocument(bytes);
  const query = paraphraseQuery({ snippet: document.text });
  const lookups: ScatterRequest[] = [
    { query: '', mode: 'keyword', limit: LOOKUP_LIMIT, filters: { storyIds: [document.story_id], safe: false } },
    { query: '', mode: 'keyword', limit: LOOKUP_LIMIT, filters: { urls: [document.url], safe: false } },
  ];
  if (query !== '') lookups.push({ query, mode: 'keyword', limit: PARAPHRASE_CANDIDATES, filters: { safe: true } });
  const [story, page, search = null] = await searchAll(context, lookups, timeoutMs);
  // The searches ran: from here on a failure is a call that ran and failed.
  try {
    const seed = [...story.hits, ...page.hits].find((hit) => hit.id === call.id);
    if (!seed) throw new Error(`passage ${call.id} was found by id but not by its story or page`);
    const paraphrases = selectParaphrases(seed, query, search?.hits ?? []);
    let members = NOTHING;
    if (paraphrases.kept.length > 0) {
      const storyIds = paraphrases.kept.map((paraphrase) => paraphrase.storyId);
      const [result] = await searchAll(context, [{ query: '', mode: 'keyword', limit: LOOKUP_LIMIT, filters: { storyIds, safe: false } }], timeoutMs);
      members = retrieved(result);
    }
    return {
      id: call.id,
      claim: call.claim,
      seed,
      story: { ...retrieved(story), partial: story.partial || page.partial || seedPartial, shardsDown: Math.max(story.shardsDown, page.shardsDown, search?.shardsDown ?? 0) },
      paraphrases,
      paraphraseMembers: members,
      searchPartial: search?.partial ?? false,
      now: Math.floor(Date.now() / 1000),
      shardsConfigured: call.shardsConfigured,
      credits: call.credits,
    };
  } catch (error) {
    throw ranAndFailed(error);
  }
}
