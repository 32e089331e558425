import { nextPeriodStartMsOf, periodStartMsOf } from './billing-period.js';

/**
 * Credits billed per tenant in the current calendar month (loaded from the ledger at startup,
 * then kept here), plus credits held by calls still running, which a hard cap must count.
 */
export class MonthlyUsage {
  private periodStartMs: number;
  private nextPeriodStartMs: number;
  private usedByTenant: Map<string, number>;
  private readonly heldByTenant = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    loadUsedSince: (periodStartMs: number) => Map<string, number>,
  ) {
    const startedAt = now();
    this.periodStartMs = periodStartMsOf(startedAt);
    this.nextPeriodStartMs = nextPeriodStartMsOf(startedAt);
    this.usedByTenant = loadUsedSince(this.periodStartMs);
  }

  /** Start of the current period in unix ms; a new month starts everyone at zero. */
  currentPeriodStartMs(): number {
    const now = this.now();
    // two comparisons on the request path; the calendar is consulted once a month
    if (now >= this.periodStartMs && now < this.nextPeriodStartMs) return this.periodStartMs;
    this.periodStartMs = periodStartMsOf(now);
    this.nextPeriodStartMs = nextPeriodStartMsOf(now);
    this.usedByTenant = new Map();
    return this.periodStartMs;
  }

  used(tenant: string): number {
    this.currentPeriodStartMs();
    return this.usedByTenant.get(tenant) ?? 0;
  }

  held(tenant: string): number {
    return this.heldByTenant.get(tenant) ?? 0;
  }

  hold(tenant: string, credits: number): void {
    this.heldByTenant.set(tenant, this.held(tenant) + credits);
  }

  releaseHold(tenant: string, credits: number): void {
    const remaining = this.held(tenant) - credits;
    if (remaining <= 0) this.heldByTenant.delete(tenant);
    else this.heldByTenant.set(tenant, remaining);
  }

  bill(tenant: string, credits: number): void {
    if (credits <= 0) return;
    this.usedByTenant.set(tenant, this.used(tenant) + credits);
  }

  /** Take back a bill whose ledger row could not be written (the call was not answered). */
  unbill(tenant: string, credits: number): void {
    if (credits <= 0) return;
    const remaining = this.used(tenant) - credits;
    if (remaining <= 0) this.usedByTenant.delete(tenant);
    else this.usedByTenant.set(tenant, remaining);
  }
}
