import { BrowseParamsSchema, WebSearchResponseSchema, type WebSearchResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { responseOf } from '../retrieval/search-request.js';

/** GET /browse, tool browse (SPEC 4.8): recent or top passages without a query. */
export const browseCapability: Capability<typeof BrowseParamsSchema, WebSearchResponse> = {
  name: 'browse',
  cost: 1,
  failureCost: 1,
  params: BrowseParamsSchema,
  response: WebSearchResponseSchema,
  async run(params, services) {
    const result = await services.pool.search({
      query: '',
      mode: 'keyword',
      limit: params.limit,
      sort: params.sort,
      filters: { vertical: params.vertical, safe: params.safe },
      timeoutMs: services.config.searchTimeoutMs,
    });
    return responseOf(result, { mode: 'keyword', routed: false, vertical: params.vertical ?? null });
  },
};
