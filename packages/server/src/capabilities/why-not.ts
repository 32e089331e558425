import { ServiceError, WhyNotParamsSchema, WhyNotResponseSchema, type WhyNotResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import { urlPresences } from '../retrieval/url-presence.js';

/**
 * GET /why_not, tool why_not (SPEC 4.8, 2.5): whether a URL is in the index (present, with its
 * first passage as hit) and, if not, why: removed (with the ledger's reason, when, and the
 * replacing passage) or unknown (never admitted, never seen).
 */
export const whyNotCapability: Capability<typeof WhyNotParamsSchema, WhyNotResponse> = {
  name: 'why_not',
  cost: 1,
  failureCost: 1,
  params: WhyNotParamsSchema,
  response: WhyNotResponseSchema,
  async run(params, services) {
    const [presence] = await urlPresences(services, [params.url]);
    if (!presence) {
      throw new ServiceError('no_shard', 'part of the index did not answer and the admission ledger has no record of this url: its presence cannot be told');
    }
    return presence;
  },
};
