import { ContextPackSchema, ContextParamsSchema, ranAndFailed, type ContextPack } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { markHiddenOnPage } from '../retrieval/hidden-text.js';
import { effectiveMode } from '../retrieval/evidence-retrieval.js';

export const CONTEXT_COST = 3;
/** Story-collapsed candidates a context pack is chosen from. */
export const CONTEXT_CANDIDATES = 50;

/**
 * GET /assemble_context, tool assemble_context (SPEC 4.4, 2.4): corroborated,
 * story-deduplicated, trust-ranked passages packed under a token budget, each with the reason it
 * earned its place. One story-collapsed search; an evidence worker ranks and packs.
 */
export const assembleContextCapability: Capability<typeof ContextParamsSchema, ContextPack> = {
  name: 'assemble_context',
  cost: CONTEXT_COST,
  gated: true,
  failureCost: 1,
  params: ContextParamsSchema,
  response: ContextPackSchema,
  async run(params, services) {
    const mode = effectiveMode(services, params.mode);
    const result = await services.pool.search({
      query: params.q,
      mode,
      limit: CONTEXT_CANDIDATES,
      filters: { safe: true },
      collapse: 'story',
      timeoutMs: services.config.searchTimeoutMs,
    });
    try {
      await markHiddenOnPage(services, result.hits);
      return await services.evidence.context({
        params: { ...params, mode },
        vectorsMatch: services.vectors.spec.runs === 'model',
        candidates: { hits: result.hits, total: result.total, partial: result.partial, shardsDown: result.shardsDown },
      });
    } catch (error) {
      throw ranAndFailed(error);
    }
  },
};
