import { failedBeforeSearching } from '@evidence/evidence';
import { ContextPackSchema, ContextParamsSchema, ranAndFailed, type ContextPack } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { effectiveMode, retrievalSettings } from '../services.js';

export const CONTEXT_COST = 3;

/**
 * GET /assemble_context, tool assemble_context (SPEC 4.4, 2.4): corroborated,
 * story-deduplicated, trust-ranked passages packed under a token budget, each with the reason it
 * earned its place. An evidence worker runs the one story-collapsed search, ranks and packs.
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
    try {
      return await services.evidence.context({ params: { ...params, mode }, settings: retrievalSettings(services) }, services.pool);
    } catch (error) {
      throw failedBeforeSearching(error) ? error : ranAndFailed(error);
    }
  },
};
