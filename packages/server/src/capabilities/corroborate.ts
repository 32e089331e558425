/**
 * GET /corroborate, tool corroborate (SPEC 2.1, 4.8): whether independent origins confirm what a
 * passage says. An evidence worker looks up (the passage, every passage of its story, a search
 * for near-paraphrases in other stories, then every passage of those stories: packages/evidence
 * retrieval.ts) and builds the answer (corroboration.ts) with ground's own functions.
 */
import { failedBeforeSearching } from '@evidence/evidence';
import { CorroborateParamsSchema, CorroborateResponseSchema, ranAndFailed, type CorroborateResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { retrievalSettings } from '../services.js';

export const CORROBORATE_COST = 3;

export const corroborateCapability: Capability<typeof CorroborateParamsSchema, CorroborateResponse> = {
  name: 'corroborate',
  cost: CORROBORATE_COST,
  failureCost: 1,
  gated: true,
  params: CorroborateParamsSchema,
  response: CorroborateResponseSchema,
  async run(params, services) {
    try {
      return await services.evidence.corroborate(
        { id: params.id, claim: params.claim, settings: retrievalSettings(services), shardsConfigured: services.pool.shards, credits: CORROBORATE_COST },
        services.pool,
      );
    } catch (error) {
      throw failedBeforeSearching(error) ? error : ranAndFailed(error);
    }
  },
};
