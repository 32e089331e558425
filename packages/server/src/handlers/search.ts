import { SearchParamsSchema, WebSearchResponseSchema, type WebSearchResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';

/** GET /search, tool web_search: keyword ranking across every shard (SPEC 4.1). */
export const searchCapability: Capability<typeof SearchParamsSchema, WebSearchResponse> = {
  name: 'search',
  cost: 1,
  failureCost: 1,
  params: SearchParamsSchema,
  response: WebSearchResponseSchema,
  async run(params, services) {
    const result = await services.pool.search({
      query: params.q,
      limit: params.limit,
      timeoutMs: services.config.searchTimeoutMs,
    });
    return {
      results: result.hits,
      total: result.total,
      // Only keyword ranking exists so far; the mode actually used is reported.
      mode: 'keyword',
      routed: true,
      vertical: null,
      partial: result.partial,
    };
  },
};
