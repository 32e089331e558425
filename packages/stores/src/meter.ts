import type { AccountStatus } from './account-status.js';

export interface ReserveRequest {
  tenant: string;
  /** the route or tool billed, written to the ledger */
  route: string;
  requestId: string;
  /** the full price of the call in credits */
  cost: number;
}

/** Credits held for one call between `reserve` and `settle` or `release`. */
export interface Reservation {
  readonly tenant: string;
  readonly route: string;
  readonly requestId: string;
  readonly cost: number;
}

/**
 * Credits, per-minute windows and the monthly allowance (SPEC 8), behind one interface so a
 * fleet implementation (shared windows and counters in Redis, ledger in PostgreSQL) can replace
 * the embedded one without touching routes.
 *
 * A priced call: `reserve` before it runs (throws 429 errors), then exactly one of `settle`
 * (it ran; bill what it costs, at most the reserved cost) or `release` (it never ran).
 */
export interface Meter {
  /**
   * Holds `cost` from the current minute and the month. Throws `errors.creditsExhausted()`
   * when the monthly allowance refuses the call (a hard cap that cannot cover it in full, or an
   * allowance used up without metered billing), else `errors.rateLimited(s)` when the minute
   * cannot cover it. Async: the fleet meter asks Redis (one script per reservation); a store
   * it cannot reach throws `errors.storeUnavailable(s)` (503, retry-after), never a free call.
   */
  reserve(request: ReserveRequest): Promise<Reservation>;
  /**
   * Bills `credits` (0 to the reserved cost) and refunds the rest to the minute. Resolves once
   * the ledger row is durable. Throws if the reservation was already settled or released.
   */
  settle(reservation: Reservation, credits: number): Promise<void>;
  /** Returns everything held; a no-op for a reservation already settled or released. Never rejects. */
  release(reservation: Reservation): Promise<void>;
  /** /account's one per-minute token: the minute only, never the month (SPEC 4.6). */
  takeAccountToken(tenant: string): Promise<void>;
  /** For the `x-ratelimit-remaining` header. */
  remainingThisMinute(tenant: string): Promise<number>;
  accountStatus(tenant: string): Promise<AccountStatus>;
  /** Resolves when every row settled so far is durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
