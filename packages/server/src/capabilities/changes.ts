import { failedBeforeSearching } from '@evidence/evidence';
import { ChangesParamsSchema, ChangesResponseSchema, ranAndFailed, type ChangesResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { effectiveMode, retrievalSettings } from '../services.js';

export const CHANGES_COST = 10;

/**
 * GET /changes, tool evidence_changes (SPEC 4.5, 2.7): the evidence built twice, over
 * everything and over only what had been crawled by `since`, and diffed, by an evidence worker;
 * the worker also checks known_urls against the index and (over its port) the admission ledger.
 */
export const changesCapability: Capability<typeof ChangesParamsSchema, ChangesResponse> = {
  name: 'changes',
  cost: CHANGES_COST,
  gated: true,
  failureCost: 1,
  aliases: { q: 'objective' },
  params: ChangesParamsSchema,
  response: ChangesResponseSchema,
  async run(params, services) {
    const startedAtMs = Date.now();
    const now = Math.floor(startedAtMs / 1000);
    const mode = effectiveMode(services, params.mode);
    try {
      return await services.evidence.changes(
        {
          params: { ...params, mode },
          retrieval: { objective: params.objective, mode, vertical: params.vertical, lang: params.lang, safe: params.safe, now, startedAtMs },
          settings: retrievalSettings(services),
          now,
          startedAtMs,
          shardsConfigured: services.pool.shards,
          credits: CHANGES_COST,
        },
        services.pool,
        services.ledger,
      );
    } catch (error) {
      throw failedBeforeSearching(error) ? error : ranAndFailed(error);
    }
  },
};
