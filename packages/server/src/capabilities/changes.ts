import { failedBeforeSearching, normaliseUrl, type Presence } from '@evidence/evidence';
import { ChangesParamsSchema, ChangesResponseSchema, ranAndFailed, type ChangesResponse, type KnownUrl } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { effectiveMode, retrievalSettings, type Services } from '../services.js';
import { urlPresences } from '../retrieval/url-presence.js';

export const CHANGES_COST = 10;

function knownUrlOf(url: string, presence: Presence | null, valid: boolean): KnownUrl {
  if (!valid) return { url, status: 'error', reason: 'not an absolute http or https url' };
  if (!presence) return { url, status: 'error', reason: 'part of the index did not answer and the admission ledger has no record of this url' };
  const entry: KnownUrl = { url, status: presence.status };
  if (presence.reason !== undefined) entry.reason = presence.reason;
  if (presence.removed_at !== undefined) entry.removed_at = presence.removed_at;
  if (presence.superseded_by) entry.superseded_by = presence.superseded_by;
  return entry;
}

/**
 * GET /changes, tool evidence_changes (SPEC 4.5, 2.7): the evidence built twice, over
 * everything and over only what had been crawled by `since`, and diffed, by an evidence worker;
 * known_urls are checked against the index and the admission ledger here, meanwhile, and handed
 * to the worker when it asks.
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
    const knownUrls = params.known_urls === undefined ? null : checkKnownUrls(services, params.known_urls);
    // Asked for only once both retrievals ran: a failure before that is the retrieval's.
    knownUrls?.catch(() => undefined);
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
        () => knownUrls ?? Promise.resolve(null),
      );
    } catch (error) {
      throw failedBeforeSearching(error) ? error : ranAndFailed(error);
    }
  },
};

async function checkKnownUrls(services: Services, urls: string[]): Promise<KnownUrl[]> {
  const presences = await urlPresences(services, urls);
  return urls.map((url, index) => knownUrlOf(url, presences[index], normaliseUrl(url) !== null));
}
