/**
 * GET /corroborate, tool corroborate (SPEC 2.1, 4.8): whether independent origins confirm what a
 * passage says. The main thread looks up (the passage, every passage of its story, a search for
 * near-paraphrases in other stories, then every passage of those stories); an evidence worker
 * builds the answer (packages/evidence corroboration.ts) with ground's own functions.
 */
import { LOOKUP_LIMIT, paraphraseQuery, selectParaphrases, type RetrievedHits } from '@evidence/evidence';
import type { PoolSearchResult } from '@evidence/pool';
import { CorroborateParamsSchema, CorroborateResponseSchema, errors, ranAndFailed, type CorroborateResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';

export const CORROBORATE_COST = 3;
/** Passages of other stories the near-paraphrase search looks at. */
export const PARAPHRASE_CANDIDATES = 50;

function retrieved(result: PoolSearchResult): RetrievedHits {
  return { hits: result.hits, total: result.total, partial: result.partial, shardsDown: result.shardsDown };
}

const NOTHING: RetrievedHits = { hits: [], total: 0, partial: false, shardsDown: 0 };

export const corroborateCapability: Capability<typeof CorroborateParamsSchema, CorroborateResponse> = {
  name: 'corroborate',
  cost: CORROBORATE_COST,
  failureCost: 1,
  gated: true,
  params: CorroborateParamsSchema,
  response: CorroborateResponseSchema,
  async run(params, services) {
    const pool = services.pool;
    const timeoutMs = services.config.searchTimeoutMs;
    const { document, partial: seedPartial } = await pool.document(params.id, timeoutMs);
    if (!document) {
      if (seedPartial) throw errors.noShard();
      throw errors.notFound(`no passage with id ${params.id}`);
    }
    const query = paraphraseQuery({ snippet: document.text });
    const [story, page, search] = await Promise.all([
      pool.search({ query: '', mode: 'keyword', limit: LOOKUP_LIMIT, filters: { storyIds: [document.story_id], safe: false }, timeoutMs }),
      pool.search({ query: '', mode: 'keyword', limit: LOOKUP_LIMIT, filters: { urls: [document.url], safe: false }, timeoutMs }),
      query === '' ? null : pool.search({ query, mode: 'keyword', limit: PARAPHRASE_CANDIDATES, filters: { safe: true }, timeoutMs }),
    ]);
    try {
      const seed = [...story.hits, ...page.hits].find((hit) => hit.id === params.id);
      if (!seed) throw new Error(`passage ${params.id} was found by id but not by its story or page`);
      const paraphrases = selectParaphrases(seed, query, search?.hits ?? []);
      const members =
        paraphrases.kept.length === 0
          ? NOTHING
          : retrieved(
              await pool.search({
                query: '',
                mode: 'keyword',
                limit: LOOKUP_LIMIT,
                filters: { storyIds: paraphrases.kept.map((paraphrase) => paraphrase.storyId), safe: false },
                timeoutMs,
              }),
            );
      return await services.evidence.corroborate({
        id: params.id,
        claim: params.claim,
        seed,
        story: { ...retrieved(story), partial: story.partial || page.partial || seedPartial, shardsDown: Math.max(story.shardsDown, page.shardsDown, search?.shardsDown ?? 0) },
        paraphrases,
        paraphraseMembers: members,
        searchPartial: search?.partial ?? false,
        now: Math.floor(Date.now() / 1000),
        shardsConfigured: pool.shards,
        credits: CORROBORATE_COST,
      });
    } catch (error) {
      throw ranAndFailed(error);
    }
  },
};
