import { errors } from '@evidence/schemas';
import { accountStatusOf, type AccountStatus } from './account-status.js';
import type { RegistrySnapshot } from './key-registry-snapshot.js';
import type { LedgerWriter } from './ledger-writer.js';
import type { Meter, Reservation, ReserveRequest } from './meter.js';
import type { MonthlyUsage } from './monthly-usage.js';
import type { PerMinuteWindows } from './per-minute-windows.js';
import type { Plan } from './records.js';

class EmbeddedReservation implements Reservation {
  state: 'open' | 'settled' | 'released' = 'open';

  constructor(
    readonly tenant: string,
    readonly route: string,
    readonly requestId: string,
    readonly cost: number,
    /** the minute the cost was taken from; a refund only goes back to that minute */
    readonly minuteIndex: number,
  ) {}
}

/**
 * The single-process meter: windows and monthly counters in memory, plans from the key
 * snapshot (so a plan change applies at the next refresh), the ledger in SQLite through the
 * ledger worker.
 */
export class EmbeddedMeter implements Meter {
  /** Reservations neither settled nor released: the billed calls running now. */
  private openReservations = 0;

  constructor(
    private readonly snapshot: RegistrySnapshot,
    private readonly minuteWindows: PerMinuteWindows,
    private readonly monthlyUsage: MonthlyUsage,
    private readonly ledger: LedgerWriter,
    private readonly now: () => number,
  ) {}

  /** Synchronous inside: no I/O, the promise is only the shared interface's shape. */
  async reserve(request: ReserveRequest): Promise<Reservation> {
    if (!Number.isSafeInteger(request.cost) || request.cost < 1) {
      throw new RangeError(`reserve: cost must be a positive integer, got ${request.cost}`);
    }
    const plan = this.planOf(request.tenant);
    // the month first: an exhausted allowance is final for the month, a spent minute is not
    this.checkMonthlyAllowance(request.tenant, request.cost, plan);
    const minuteIndex = this.minuteWindows.take(request.tenant, request.cost, plan.ratePerMin);
    this.monthlyUsage.hold(request.tenant, request.cost);
    this.openReservations += 1;
    return new EmbeddedReservation(request.tenant, request.route, request.requestId, request.cost, minuteIndex);
  }

  settle(reservation: Reservation, credits: number): Promise<void> {
    const open = this.requireOwnReservation(reservation);
    if (open.state !== 'open') throw new Error(`settle: reservation ${open.requestId} already ${open.state}`);
    if (!Number.isSafeInteger(credits) || credits < 0 || credits > open.cost) {
      throw new RangeError(`settle: credits must be an integer from 0 to ${open.cost}, got ${credits}`);
    }
    open.state = 'settled';
    this.openReservations -= 1;
    this.minuteWindows.refund(open.tenant, open.minuteIndex, open.cost - credits);
    this.monthlyUsage.releaseHold(open.tenant, open.cost);
    if (credits === 0) return Promise.resolve();
    this.monthlyUsage.bill(open.tenant, credits);
    // A row the ledger cannot make durable (the database locked past its busy timeout, a full
    // disk) bills nothing: the call is answered 503 instead, so the month must not count it.
    return this.ledger
      .append({ tenant: open.tenant, route: open.route, credits, at: this.now(), requestId: open.requestId }, this.openReservations > 0)
      .catch((error: unknown) => {
        this.monthlyUsage.unbill(open.tenant, credits);
        throw error;
      });
  }

  async release(reservation: Reservation): Promise<void> {
    const open = this.requireOwnReservation(reservation);
    if (open.state !== 'open') return;
    open.state = 'released';
    this.openReservations -= 1;
    this.minuteWindows.refund(open.tenant, open.minuteIndex, open.cost);
    this.monthlyUsage.releaseHold(open.tenant, open.cost);
  }

  async takeAccountToken(tenant: string): Promise<void> {
    this.minuteWindows.take(tenant, 1, this.planOf(tenant).ratePerMin);
  }

  async remainingThisMinute(tenant: string): Promise<number> {
    return this.minuteWindows.remaining(tenant, this.planOf(tenant).ratePerMin);
  }

  async accountStatus(tenant: string): Promise<AccountStatus> {
    const plan = this.planOf(tenant);
    const periodStartMs = this.monthlyUsage.currentPeriodStartMs();
    const used = this.monthlyUsage.used(tenant);
    return accountStatusOf(tenant, plan, used, periodStartMs);
  }

  flush(): Promise<void> {
    return this.ledger.flush();
  }

  close(): Promise<void> {
    return this.ledger.close();
  }

  /**
   * SPEC 8: a hard cap refuses a call the remaining credits cannot cover in full; without a cap,
   * usage continues past the allowance only with metered billing (a payment method to bill the
   * overage). Without either, the account stops once the allowance is used up; the call that
   * crosses the line still runs, as nothing promised to refuse it.
   */
  private checkMonthlyAllowance(tenant: string, cost: number, plan: Plan): void {
    if (plan.monthlyCredits === 0) return;
    const committed = this.monthlyUsage.used(tenant) + this.monthlyUsage.held(tenant);
    if (plan.hardCap) {
      if (committed + cost > plan.monthlyCredits) throw errors.creditsExhausted();
      return;
    }
    if (plan.meteredBilling) return;
    if (committed >= plan.monthlyCredits) throw errors.creditsExhausted();
  }

  private planOf(tenant: string): Plan {
    const known = this.snapshot.tenant(tenant);
    // callers pass the tenant authenticate() returned, which the snapshot always holds
    if (known === undefined) throw new Error(`meter: unknown tenant ${tenant}`);
    return known.plan;
  }

  private requireOwnReservation(reservation: Reservation): EmbeddedReservation {
    if (!(reservation instanceof EmbeddedReservation)) {
      throw new TypeError('meter: reservation was not made by this meter');
    }
    return reservation;
  }
}
