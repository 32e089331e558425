import { errors, ServiceError, SimilarParamsSchema, WebSearchResponseSchema, type WebSearchResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { responseOf } from '../retrieval/search-request.js';

/**
 * GET /similar, tool similar (SPEC 4.3): semantic neighbours of a passage, never the passage
 * itself. `total` counts the neighbours found within the search depth across shards.
 */
export const similarCapability: Capability<typeof SimilarParamsSchema, WebSearchResponse> = {
  name: 'similar',
  cost: 1,
  failureCost: 1,
  params: SimilarParamsSchema,
  response: WebSearchResponseSchema,
  async run(params, services) {
    if (services.config.embedder === 'none') {
      throw new ServiceError('no_embedder', 'similar needs vectors: this node has no embedder configured (EMBEDDER=none)');
    }
    const timeoutMs = services.config.searchTimeoutMs;
    const seed = await services.pool.passageVector(params.id, timeoutMs);
    let vector = seed.vector;
    if (!vector && services.vectors.queries) {
      // A model's index: the passage may be waiting for the background embedder.
      const found = await services.pool.document(params.id, timeoutMs);
      if (found.document) vector = await services.vectors.queries.passageVectorOf(found.document.title, found.document.text);
    }
    if (!vector) {
      if (seed.partial) throw errors.noShard();
      throw errors.notFound(`no passage with id ${params.id}`);
    }
    const result = await services.pool.search({
      query: '',
      vector,
      mode: 'semantic',
      limit: params.limit,
      filters: { excludeIds: [params.id] },
      timeoutMs,
    });
    return responseOf(result, { mode: 'semantic', routed: false, vertical: null });
  },
};
