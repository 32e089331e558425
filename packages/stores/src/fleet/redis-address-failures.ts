import type { FailureCounter } from '../address-failure-limiter.js';
import { asStoreError, type MeterRedis } from './redis-connection.js';

/**
 * Keyless and failed authentications per client address, counted in Redis for the whole
 * fleet (SPEC 5.7): a run of failures spread over every node is refused on every node. Same
 * window as the embedded limiter: it opens at the address's first failure.
 */
export class RedisAddressFailures implements FailureCounter {
  constructor(
    private readonly redis: MeterRedis,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async refusalRetryAfterSeconds(address: string): Promise<number | null> {
    let ttlMs: number;
    try {
      ttlMs = Number(await this.redis.failureRefusal(keyOf(address), this.limit));
    } catch (error) {
      throw asStoreError(error, 'Redis (address failures)');
    }
    return ttlMs < 0 ? null : Math.max(1, Math.ceil(ttlMs / 1000));
  }

  async recordFailure(address: string): Promise<void> {
    try {
      await this.redis.failureRecord(keyOf(address), this.windowMs);
    } catch (error) {
      throw asStoreError(error, 'Redis (address failures)');
    }
  }
}

function keyOf(address: string): string {
  return `esm:authfail:${address}`;
}
