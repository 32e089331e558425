import { SearchParamsSchema, WebSearchResponseSchema, type WebSearchResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { poolRequestOf, responseOf } from './search-request.js';
import { chooseVertical, ROUTE_PROBE } from './router.js';

/**
 * GET /search, tool web_search (SPEC 4.1): keyword (BM25), semantic (HNSW over the embedder's
 * vectors) or hybrid (weighted reciprocal-rank fusion of both) across every shard, with the
 * vertical router when no vertical is named.
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
    const shape = { mode, fields: params.fields };
    if (params.vertical) {
      const result = await services.pool.search(poolRequestOf(params, mode, params.vertical, params.limit, timeoutMs));
      return responseOf(result, { ...shape, routed: false, vertical: params.vertical });
    }
    const probeLimit = Math.max(params.limit, ROUTE_PROBE);
    const everywhere = await services.pool.search(poolRequestOf(params, mode, undefined, probeLimit, timeoutMs));
    const vertical = chooseVertical(everywhere.hits);
    if (vertical === null) {
      everywhere.hits = everywhere.hits.slice(0, params.limit);
      return responseOf(everywhere, { ...shape, routed: true, vertical: null });
    }
    const allSeenAndInside = everywhere.hits.length === everywhere.total && everywhere.hits.every((hit) => hit.vertical === vertical);
    if (allSeenAndInside) {
      everywhere.hits = everywhere.hits.slice(0, params.limit);
      return responseOf(everywhere, { ...shape, routed: true, vertical });
    }
    const routed = await services.pool.search(poolRequestOf(params, mode, vertical, params.limit, timeoutMs));
    routed.partial = routed.partial || everywhere.partial;
    return responseOf(routed, { ...shape, routed: true, vertical });
  },
};
