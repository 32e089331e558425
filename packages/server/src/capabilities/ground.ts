import { failedBeforeSearching } from '@evidence/evidence';
import { GroundParamsSchema, GroundResponseSchema, ranAndFailed, type GroundResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { effectiveMode, retrievalSettings } from '../services.js';

export const GROUND_COST = 5;

/**
 * GET /ground, tool ground (SPEC 4.7, 2.6): the smallest defensible evidence set for an
 * objective with its provenance and a coverage receipt. An evidence worker retrieves (candidates,
 * story expansion, through the shard pool) and builds the answer.
 */
export const groundCapability: Capability<typeof GroundParamsSchema, GroundResponse> = {
  name: 'ground',
  cost: GROUND_COST,
  gated: true,
  failureCost: 1,
  params: GroundParamsSchema,
  response: GroundResponseSchema,
  async run(params, services) {
    const startedAtMs = Date.now();
    const now = Math.floor(startedAtMs / 1000);
    const mode = effectiveMode(services, params.mode);
    try {
      return await services.evidence.ground(
        {
          params: { ...params, mode },
          retrieval: {
            objective: params.objective,
            mode,
            vertical: params.vertical,
            lang: params.lang,
            safe: params.safe,
            maxAge: params.max_age,
            now,
            startedAtMs,
            latencyBudgetMs: params.latency_budget_ms,
          },
          settings: retrievalSettings(services),
          now,
          startedAtMs,
          shardsConfigured: services.pool.shards,
          credits: GROUND_COST,
        },
        services.pool,
      );
    } catch (error) {
      throw failedBeforeSearching(error) ? error : ranAndFailed(error);
    }
  },
};
