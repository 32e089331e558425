import { timingSafeEqual } from 'node:crypto';
import { errors } from '@evidence/schemas';
import type { FailureCounter } from './address-failure-limiter.js';
import { hashApiKey, isWellFormedApiKey, lookupIdOf } from './api-key-format.js';
import type { RegistrySnapshot } from './key-registry-snapshot.js';

/** The two header spellings of SPEC 5.2, copied off the request by the transport. */
export interface CredentialHeaders {
  xApiKey?: string | null;
  authorization?: string | null;
}

export interface AuthenticatedCaller {
  tenant: string;
  plan: string;
}

const BEARER_PREFIX = 'Bearer ';

/** `x-api-key` wins when both are sent; the Bearer prefix is case-sensitive with its space. */
export function presentedApiKey(headers: CredentialHeaders): string | null {
  if (headers.xApiKey) return headers.xApiKey;
  const authorization = headers.authorization;
  if (!authorization || !authorization.startsWith(BEARER_PREFIX)) return null;
  return authorization.slice(BEARER_PREFIX.length);
}

/**
 * Authenticates against the in-memory snapshot. Missing, unknown and revoked keys answer the
 * same 401 so probing reveals nothing; an address that keeps failing is refused with 429 for
 * every call that does not authenticate. A live key is served from that address too: behind
 * one NAT or proxy, one tenant's failing client must not lock every other tenant out (guessing
 * a key is no way in: 160 of its bits are secret).
 */
export class Authenticator {
  constructor(
    private readonly snapshot: RegistrySnapshot,
    private readonly failureLimiter: FailureCounter,
  ) {}

  async authenticate(headers: CredentialHeaders, address: string): Promise<AuthenticatedCaller> {
    const tenantName = this.tenantOfKey(presentedApiKey(headers));
    const tenant = tenantName === null ? undefined : this.snapshot.tenant(tenantName);
    if (tenantName === null || tenant === undefined) {
      const retryAfterSeconds = await this.failureLimiter.refusalRetryAfterSeconds(address);
      if (retryAfterSeconds !== null) throw errors.authFlood(retryAfterSeconds);
      await this.failureLimiter.recordFailure(address);
      throw errors.unauthenticated();
    }
    if (tenant.suspended) throw errors.suspended();
    return { tenant: tenantName, plan: tenant.plan.name };
  }

  private tenantOfKey(apiKey: string | null): string | null {
    if (apiKey === null || !isWellFormedApiKey(apiKey)) return null;
    const presentedHash = hashApiKey(apiKey);
    // the lookup id is not secret; only the hash comparison touches the secret part
    for (const candidate of this.snapshot.candidatesFor(lookupIdOf(apiKey))) {
      if (candidate.keySha256.length !== presentedHash.length) continue;
      if (timingSafeEqual(candidate.keySha256, presentedHash)) return candidate.tenant;
    }
    return null;
  }
}
