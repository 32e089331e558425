import { errors } from '@evidence/schemas';
import { accountStatusOf, type AccountStatus } from '../account-status.js';
import { MINUTE_MS, minuteIndexOf, nextPeriodStartMsOf, periodStartMsOf, secondsUntilNextMinute } from '../billing-period.js';
import type { RegistrySnapshot } from '../key-registry-snapshot.js';
import type { Meter, Reservation, ReserveRequest } from '../meter.js';
import type { Plan } from '../records.js';
import type { PostgresLedger } from './postgres-ledger.js';
import { asStoreError, type MeterRedis } from './redis-connection.js';

const OK = 0;
const ALLOWANCE_REFUSES = 1;
const MINUTE_SPENT = 2;
const NEEDS_SEED = 3;

export interface RedisMeterOptions {
  now: () => number;
  /**
   * How long after a Redis (re)start a missing month total waits before it is re-read from the
   * ledger: longer than any ledger commit can take, so every row settled before the restart is
   * in PostgreSQL (or failed) when it is read. Default: the PostgreSQL timeout plus one second.
   */
  seedGraceMs: number;
  /** a call's hold on the month lapses after this long (a node that died mid-call); default 10 min */
  holdTtlMs?: number;
}

class FleetReservation implements Reservation {
  state: 'open' | 'settled' | 'released' = 'open';

  constructor(
    readonly tenant: string,
    readonly route: string,
    readonly requestId: string,
    readonly cost: number,
    readonly minuteIndex: number,
    readonly periodStartMs: number,
  ) {}

  get holdMember(): string {
    return `${this.requestId}:${this.cost}`;
  }
}

function tenantKey(tenant: string): string {
  return `esm:{${encodeURIComponent(tenant)}}`;
}

const BOOT_KEY = 'esm:boot';

/**
 * How long `x-ratelimit-remaining` may come from this node's last script instead of a read:
 * spares a Redis round trip on every answer; other nodes' calls show up within it.
 */
const REMEMBERED_SPENT_MS = 250;

/**
 * The fleet meter: each tenant's per-minute window, its month total and the holds of its calls
 * under way live in Redis, shared by every node; each reservation is one Lua script, so two
 * nodes together never let a tenant past its rate nor a hard cap past its allowance. The
 * ledger is PostgreSQL (group commit); `settle` resolves once the row is committed there.
 *
 * Order of a billed call: reserve (Redis: minute and hold) -> run -> settle (Redis: the hold
 * becomes billed credits) -> ledger commit (PostgreSQL) -> answer. A ledger failure takes the
 * bill back and answers 503; a node killed between the two leaves Redis counting a call that
 * was never answered (the safe side of a cap).
 */
export class RedisMeter implements Meter {
  private readonly holdTtlMs: number;
  /** the minute's spent credits as this node's last script saw them, for x-ratelimit-remaining */
  private readonly spentThisMinute = new Map<string, { minuteIndex: number; spent: number; atMs: number }>();

  constructor(
    private readonly snapshot: RegistrySnapshot,
    private readonly redis: MeterRedis,
    private readonly ledger: PostgresLedger,
    private readonly options: RedisMeterOptions,
  ) {
    this.holdTtlMs = options.holdTtlMs ?? 10 * MINUTE_MS;
  }

  async reserve(request: ReserveRequest): Promise<Reservation> {
    if (!Number.isSafeInteger(request.cost) || request.cost < 1) {
      throw new RangeError(`reserve: cost must be a positive integer, got ${request.cost}`);
    }
    const plan = this.planOf(request.tenant);
    for (let attempt = 0; ; attempt += 1) {
      const now = this.options.now();
      const reservation = new FleetReservation(
        request.tenant,
        request.route,
        request.requestId,
        request.cost,
        minuteIndexOf(now),
        periodStartMsOf(now),
      );
      const [status, boot, spent] = await this.script('reserve', () =>
        this.redis.reserve(
          ...this.keysOf(reservation.tenant, reservation.minuteIndex, reservation.periodStartMs),
          now,
          request.cost,
          plan.ratePerMin,
          plan.monthlyCredits,
          plan.hardCap ? 1 : 0,
          plan.meteredBilling ? 1 : 0,
          reservation.holdMember,
          now + this.holdTtlMs,
          2 * MINUTE_MS,
          this.holdTtlMs,
        ),
      );
      this.rememberSpent(request.tenant, reservation.minuteIndex, spent, plan.ratePerMin);
      if (status === OK) return reservation;
      if (status === ALLOWANCE_REFUSES) throw errors.creditsExhausted();
      if (status === MINUTE_SPENT) throw errors.rateLimited(secondsUntilNextMinute(now));
      if (attempt >= 2) throw asStoreError(new Error('month total could not be seeded'), 'Redis (meter)');
      await this.seed(request.tenant, reservation.periodStartMs, boot);
    }
  }

  async settle(reservation: Reservation, credits: number): Promise<void> {
    const open = this.requireOwnReservation(reservation);
    if (open.state !== 'open') throw new Error(`settle: reservation ${open.requestId} already ${open.state}`);
    if (!Number.isSafeInteger(credits) || credits < 0 || credits > open.cost) {
      throw new RangeError(`settle: credits must be an integer from 0 to ${open.cost}, got ${credits}`);
    }
    if (credits === 0) {
      await this.release(open);
      return;
    }
    open.state = 'settled';
    let epoch = '';
    for (let attempt = 0; ; attempt += 1) {
      const now = this.options.now();
      const plan = this.planOf(open.tenant);
      const [status, boot, spent] = await this.script('settle', () =>
        this.redis.settle(
          ...this.keysOf(open.tenant, open.minuteIndex, open.periodStartMs),
          now,
          open.holdMember,
          credits,
          open.cost - credits,
          plan.monthlyCredits,
          plan.hardCap ? 1 : 0,
        ),
      );
      epoch = boot;
      this.rememberSpent(open.tenant, open.minuteIndex, spent, plan.ratePerMin);
      if (status === OK) break;
      if (status === ALLOWANCE_REFUSES) throw new Error('settle: the hold was lost (Redis restarted) and the hard cap cannot cover the call');
      if (attempt >= 2) throw new Error('settle: month total could not be seeded');
      await this.seed(open.tenant, open.periodStartMs, boot);
    }
    try {
      await this.ledger.append({ tenant: open.tenant, route: open.route, credits, at: this.options.now(), requestId: open.requestId });
    } catch (error) {
      // not answered, so not billed: take the credits back (only in the Redis that counted them)
      const [, usedKey, , bootKey] = this.keysOf(open.tenant, open.minuteIndex, open.periodStartMs);
      await this.redis.unbill(usedKey, bootKey, credits, epoch).catch(() => {});
      throw error;
    }
  }

  async release(reservation: Reservation): Promise<void> {
    const open = this.requireOwnReservation(reservation);
    if (open.state !== 'open') return;
    open.state = 'released';
    const [minuteKey, , holdsKey] = this.keysOf(open.tenant, open.minuteIndex, open.periodStartMs);
    // a release that cannot reach Redis leaves the hold to lapse on its own
    const spent = await this.redis.release(minuteKey, holdsKey, open.holdMember, open.cost).catch(() => -1);
    const plan = this.snapshot.tenant(open.tenant)?.plan;
    if (plan !== undefined) this.rememberSpent(open.tenant, open.minuteIndex, Number(spent), plan.ratePerMin);
  }

  async takeAccountToken(tenant: string): Promise<void> {
    const now = this.options.now();
    const [minuteKey] = this.keysOf(tenant, minuteIndexOf(now), periodStartMsOf(now));
    const rate = this.planOf(tenant).ratePerMin;
    const [status, , spent] = await this.script('take', () => this.redis.takeMinute(minuteKey, 1, rate, 2 * MINUTE_MS));
    this.rememberSpent(tenant, minuteIndexOf(now), spent, rate);
    if (status === MINUTE_SPENT) throw errors.rateLimited(secondsUntilNextMinute(now));
  }

  async remainingThisMinute(tenant: string): Promise<number> {
    const now = this.options.now();
    const [minuteKey] = this.keysOf(tenant, minuteIndexOf(now), periodStartMsOf(now));
    const rate = this.planOf(tenant).ratePerMin;
    const remembered = this.spentThisMinute.get(tenant);
    // the header of an answer this node just metered: the minute as its last script left it
    if (
      remembered !== undefined &&
      remembered.minuteIndex === minuteIndexOf(now) &&
      now - remembered.atMs <= REMEMBERED_SPENT_MS
    ) {
      return Math.max(0, rate - remembered.spent);
    }
    try {
      const spent = Number((await this.redis.redis.get(minuteKey)) ?? 0);
      this.rememberSpent(tenant, minuteIndexOf(now), spent, rate);
      return Math.max(0, rate - spent);
    } catch (error) {
      throw asStoreError(error, 'Redis (meter)');
    }
  }

  async accountStatus(tenant: string): Promise<AccountStatus> {
    const plan = this.planOf(tenant);
    const now = this.options.now();
    const periodStartMs = periodStartMsOf(now);
    let used = 0;
    for (let attempt = 0; ; attempt += 1) {
      let reply: unknown[];
      try {
        reply = (await this.redis.status(...this.keysOf(tenant, minuteIndexOf(now), periodStartMs), now)) as unknown[];
      } catch (error) {
        throw asStoreError(error, 'Redis (meter status)');
      }
      if (Number(reply[0]) === OK) {
        used = Number(reply[2]);
        break;
      }
      if (attempt >= 2) throw asStoreError(new Error('month total could not be seeded'), 'Redis (meter)');
      await this.seed(tenant, periodStartMs, String(reply[1]));
    }
    return accountStatusOf(tenant, plan, used, periodStartMs);
  }

  flush(): Promise<void> {
    return this.ledger.flush();
  }

  close(): Promise<void> {
    return this.ledger.close();
  }

  /**
   * The month total is missing from Redis (first use this month, or Redis restarted): read it
   * from the ledger and store it, unless another node did first. After a restart, wait until
   * every ledger commit that began before it has ended, so none is missing from the sum.
   */
  private async seed(tenant: string, periodStartMs: number, boot: string): Promise<void> {
    const waitMs = Number(boot) + this.options.seedGraceMs - this.options.now();
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(waitMs, this.options.seedGraceMs)));
    let used: number;
    try {
      used = await this.ledger.usedSince(tenant, periodStartMs);
    } catch (error) {
      throw asStoreError(error, 'PostgreSQL (month total)');
    }
    const [, usedKey, , bootKey] = this.keysOf(tenant, 0, periodStartMs);
    try {
      await this.redis.seed(usedKey, bootKey, used, nextPeriodStartMsOf(periodStartMs) + 24 * 60 * MINUTE_MS, boot);
    } catch (error) {
      throw asStoreError(error, 'Redis (meter)');
    }
  }

  /** KEYS of the reserve/settle/status scripts: min used holds boot. */
  private keysOf(tenant: string, minuteIndex: number, periodStartMs: number): [string, string, string, string] {
    const prefix = tenantKey(tenant);
    return [`${prefix}:min:${minuteIndex}`, `${prefix}:used:${periodStartMs}`, `${prefix}:holds:${periodStartMs}`, BOOT_KEY];
  }

  /** Status, boot (epoch) and the minute's spent credits (-1 when the script did not read it). */
  private async script(what: string, run: () => Promise<unknown>): Promise<[number, string, number]> {
    let reply: unknown;
    try {
      reply = await run();
    } catch (error) {
      throw asStoreError(error, `Redis (meter ${what})`);
    }
    if (Array.isArray(reply)) return [Number(reply[0]), String(reply[1]), reply[2] === undefined ? -1 : Number(reply[2])];
    return [Number(reply), '', -1];
  }

  private rememberSpent(tenant: string, minuteIndex: number, spent: number, ratePerMin: number): void {
    if (!(spent >= 0) || minuteIndex !== minuteIndexOf(this.options.now())) return;
    // bounded: a node meters at most its active tenants; forget them all past a size
    if (this.spentThisMinute.size >= 100_000) this.spentThisMinute.clear();
    this.spentThisMinute.set(tenant, { minuteIndex, spent: Math.min(spent, ratePerMin), atMs: this.options.now() });
  }

  private planOf(tenant: string): Plan {
    const known = this.snapshot.tenant(tenant);
    if (known === undefined) throw new Error(`meter: unknown tenant ${tenant}`);
    return known.plan;
  }

  private requireOwnReservation(reservation: Reservation): FleetReservation {
    if (!(reservation instanceof FleetReservation)) throw new TypeError('meter: reservation was not made by this meter');
    return reservation;
  }
}
