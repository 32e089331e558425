import { SearchParamsSchema, WebSearchResponseSchema, type WebSearchResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { poolRequestOf, responseOf } from '../retrieval/search-request.js';
import { answerFromProbe, chooseVertical, probeLimit } from '../retrieval/vertical-router.js';

/**
 * GET /search, tool web_search (SPEC 4.1): keyword (BM25), semantic (HNSW over the embedder's
 * vectors) or hybrid (score fusion of both) across every shard, with the vertical router when
 * no vertical is named.
 */
export const searchCapability: Capability<typeof SearchParamsSchema, WebSearchResponse> = {
  name: 'search',
  cost: 1,
  failureCost: 1,
  params: SearchParamsSchema,
  response: WebSearchResponseSchema,
  async run(params, services) {
    const timeoutMs = services.config.searchTimeoutMs;
    // Without an embedder there is no vector ranking: the mode actually used is reported.
    const mode = services.config.embedder === 'none' ? 'keyword' : params.mode;
    // An empty list (`fields=`) projects nothing away: it is the parameter left out.
    const shape = { mode, fields: params.fields?.length ? params.fields : undefined };
    if (params.vertical) {
      const result = await services.pool.search(poolRequestOf(params, mode, params.vertical, params.limit, timeoutMs));
      return responseOf(result, { ...shape, routed: false, vertical: params.vertical });
    }
    const probe = await services.pool.search({
      ...poolRequestOf(params, mode, undefined, probeLimit(params.limit), timeoutMs),
      verticalCounts: true,
    });
    const vertical = chooseVertical(probe.hits);
    if (vertical === null) {
      probe.hits = probe.hits.slice(0, params.limit);
      return responseOf(probe, { ...shape, routed: true, vertical: null });
    }
    const fromProbe = answerFromProbe(probe, vertical, params);
    if (fromProbe) return responseOf(fromProbe, { ...shape, routed: true, vertical });
    const routed = await services.pool.search(poolRequestOf(params, mode, vertical, params.limit, timeoutMs));
    routed.partial = routed.partial || probe.partial;
    return responseOf(routed, { ...shape, routed: true, vertical });
  },
};
