/**
 * Per-address failure counting as authentication uses it: in memory here, in Redis for a fleet
 * (fleet/redis-address-failures.ts), so a run of failures is refused on every node.
 */
export interface FailureCounter {
  /** Seconds until the address may try again, or null when it is not being refused. */
  refusalRetryAfterSeconds(address: string): number | null | Promise<number | null>;
  recordFailure(address: string): void | Promise<void>;
}

/**
 * Counts keyless and failed authentications per client address in a fixed window that opens at
 * the address's first failure (SPEC 5.7). Past `limit` failures the address is refused until
 * the window closes. Memory is bounded: at most `maxTrackedAddresses` windows are kept.
 */
export class AddressFailureLimiter implements FailureCounter {
  private readonly windowsByAddress = new Map<string, { openedAt: number; failures: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxTrackedAddresses = 100_000,
  ) {}

  /** Seconds until the address may try again, or null when it is not being refused. */
  refusalRetryAfterSeconds(address: string): number | null {
    const window = this.windowsByAddress.get(address);
    if (window === undefined || window.failures < this.limit) return null;
    const closesAt = window.openedAt + this.windowMs;
    const now = this.now();
    if (now >= closesAt) {
      this.windowsByAddress.delete(address);
      return null;
    }
    return Math.max(1, Math.ceil((closesAt - now) / 1000));
  }

  recordFailure(address: string): void {
    const now = this.now();
    const window = this.windowsByAddress.get(address);
    if (window !== undefined && now < window.openedAt + this.windowMs) {
      window.failures += 1;
      return;
    }
    if (window !== undefined) this.windowsByAddress.delete(address);
    if (this.windowsByAddress.size >= this.maxTrackedAddresses) this.evictClosedWindows(now);
    this.windowsByAddress.set(address, { openedAt: now, failures: 1 });
  }

  /** Drops closed windows; if every window is still open, drops the oldest (insertion order). */
  evictClosedWindows(now: number = this.now()): void {
    for (const [address, window] of this.windowsByAddress) {
      if (now >= window.openedAt + this.windowMs) this.windowsByAddress.delete(address);
    }
    while (this.windowsByAddress.size >= this.maxTrackedAddresses) {
      const oldest = this.windowsByAddress.keys().next().value as string;
      this.windowsByAddress.delete(oldest);
    }
  }
}
