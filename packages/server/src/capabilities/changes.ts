import { normaliseUrl, type Presence } from '@evidence/evidence';
import { ChangesParamsSchema, ChangesResponseSchema, ranAndFailed, type ChangesResponse, type KnownUrl } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { effectiveMode, retrieveEvidence, type RetrievalOptions } from '../retrieval/evidence-retrieval.js';
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
 * everything and over only what had been crawled by `since`, and diffed by an evidence worker;
 * known_urls are checked against the index and the admission ledger.
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
    const options: RetrievalOptions = {
      objective: params.objective,
      mode: params.mode,
      vertical: params.vertical,
      lang: params.lang,
      safe: params.safe,
      now,
      startedAtMs,
    };
    const [after, before] = await Promise.all([retrieveEvidence(services, options), retrieveEvidence(services, { ...options, fetchedTo: params.since })]);
    try {
      let knownUrls: KnownUrl[] | null = null;
      if (params.known_urls !== undefined) {
        const presences = await urlPresences(services, params.known_urls);
        knownUrls = params.known_urls.map((url, index) => knownUrlOf(url, presences[index], normaliseUrl(url) !== null));
      }
      return await services.evidence.changes({
        params: { ...params, mode: effectiveMode(services, params.mode) },
        after,
        before,
        knownUrls,
        now,
        startedAtMs,
        shardsConfigured: services.pool.shards,
        credits: CHANGES_COST,
      });
    } catch (error) {
      throw ranAndFailed(error);
    }
  },
};
