import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Stores } from '../src/index.js';
import {
  FLEET_AVAILABLE,
  FLEET_SKIPPED,
  manualClock,
  openBackendStores,
  openTestStores,
  serviceErrorOf,
  temporaryDataDir,
  type Backend,
} from './helpers.js';

async function tenantOnPlan(
  stores: Stores,
  plan: { ratePerMin: number; monthlyCredits: number; hardCap: boolean; meteredBilling: boolean },
): Promise<string> {
  await stores.admin.setPlan({ name: 'test-plan', ...plan });
  await stores.admin.createKey({ tenant: 'acme', label: 'ci', plan: 'test-plan' });
  await stores.refreshKeys();
  return 'acme';
}

function ledgerRowCount(dataDir: string): number {
  // a fresh connection sees only what was committed
  const database = new BetterSqlite3(join(dataDir, 'accounts.sqlite'), { readonly: true });
  try {
    return (database.prepare('SELECT COUNT(*) AS count FROM usage_ledger').get() as { count: number }).count;
  } finally {
    database.close();
  }
}

let requestNumber = 0;
function call(route: string, cost: number) {
  requestNumber += 1;
  return { route, cost, requestId: `request-${requestNumber}` };
}

/**
 * One suite, two implementations: the embedded meter (SQLite, windows in memory) and the fleet
 * meter (Redis scripts, PostgreSQL ledger) must answer every call the same way.
 */
function meterSuite(backend: Backend): void {
  describe(`per-minute window (${backend})`, () => {
    it('answers 429 with retry-after to the next minute once the minute is spent', async () => {
      const clock = manualClock('2031-05-14T10:20:30.250Z');
      const stores = await openBackendStores(backend, { now: clock.now });
      const tenant = await tenantOnPlan(stores, { ratePerMin: 5, monthlyCredits: 0, hardCap: false, meteredBilling: true });
      for (let index = 0; index < 5; index += 1) {
        await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 1) }), 1);
      }
      expect(await stores.meter.remainingThisMinute(tenant)).toBe(0);
      const refusal = await serviceErrorOf(() => stores.meter.reserve({ tenant, ...call('search', 1) }));
      expect([refusal.status, refusal.kind, refusal.retryAfter]).toEqual([429, 'rate_limited', 30]);
      clock.nowMs = Date.parse('2031-05-14T10:21:00.000Z');
      expect(await stores.meter.remainingThisMinute(tenant)).toBe(5);
      await stores.meter.release(await stores.meter.reserve({ tenant, ...call('search', 1) }));
    });

    it('says retry after at least one second at the very end of a minute', async () => {
      const clock = manualClock('2031-05-14T10:20:59.999Z');
      const stores = await openBackendStores(backend, { now: clock.now });
      const tenant = await tenantOnPlan(stores, { ratePerMin: 1, monthlyCredits: 0, hardCap: false, meteredBilling: true });
      await stores.meter.reserve({ tenant, ...call('search', 1) });
      expect((await serviceErrorOf(() => stores.meter.reserve({ tenant, ...call('search', 1) }))).retryAfter).toBe(1);
    });

    it('refunds to the minute what a call did not cost, and all of a released call', async () => {
      const clock = manualClock();
      const stores = await openBackendStores(backend, { now: clock.now });
      const tenant = await tenantOnPlan(stores, { ratePerMin: 20, monthlyCredits: 0, hardCap: false, meteredBilling: true });
      const failedChanges = await stores.meter.reserve({ tenant, ...call('changes', 10) });
      expect(await stores.meter.remainingThisMinute(tenant)).toBe(10);
      await stores.meter.settle(failedChanges, 1);
      expect(await stores.meter.remainingThisMinute(tenant)).toBe(19);
      const neverRan = await stores.meter.reserve({ tenant, ...call('ground', 5) });
      await stores.meter.release(neverRan);
      await stores.meter.release(neverRan);
      expect(await stores.meter.remainingThisMinute(tenant)).toBe(19);
      expect((await stores.meter.accountStatus(tenant)).credits_used_this_period).toBe(1);
      await expect(Promise.resolve().then(() => stores.meter.settle(neverRan, 5))).rejects.toThrow('already released');
    });

    it('takes one minute token for /account, which still answers when the hard cap is reached', async () => {
      const clock = manualClock();
      const stores = await openBackendStores(backend, { now: clock.now });
      const tenant = await tenantOnPlan(stores, { ratePerMin: 100, monthlyCredits: 3, hardCap: true, meteredBilling: false });
      await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('assemble_context', 3) }), 3);
      expect((await serviceErrorOf(() => stores.meter.reserve({ tenant, ...call('search', 1) }))).kind).toBe('credits_exhausted');
      await stores.meter.takeAccountToken(tenant);
      expect(await stores.meter.remainingThisMinute(tenant)).toBe(96);
      expect(await stores.meter.accountStatus(tenant)).toMatchObject({ credits_used_this_period: 3, credits_remaining: 0 });
    });
  });

  describe(`monthly credits (${backend})`, () => {
    it('refuses with 429 and no retry-after a hard-capped call it cannot cover in full', async () => {
      const clock = manualClock();
      const stores = await openBackendStores(backend, { now: clock.now });
      const tenant = await tenantOnPlan(stores, { ratePerMin: 1_000, monthlyCredits: 10, hardCap: true, meteredBilling: false });
      await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 8) }), 8);
      const refusal = await serviceErrorOf(() => stores.meter.reserve({ tenant, ...call('assemble_context', 3) }));
      expect([refusal.status, refusal.kind, refusal.retryAfter]).toEqual([429, 'credits_exhausted', undefined]);
      // a refused call took nothing from the minute
      expect(await stores.meter.remainingThisMinute(tenant)).toBe(992);
      await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 2) }), 2);
      expect((await stores.meter.accountStatus(tenant)).credits_remaining).toBe(0);
    });

    it('counts credits held by running calls against the hard cap', async () => {
      const stores = await openBackendStores(backend, { now: manualClock().now });
      const tenant = await tenantOnPlan(stores, { ratePerMin: 1_000, monthlyCredits: 10, hardCap: true, meteredBilling: false });
      const running = await stores.meter.reserve({ tenant, ...call('changes', 10) });
      expect((await serviceErrorOf(() => stores.meter.reserve({ tenant, ...call('search', 1) }))).kind).toBe('credits_exhausted');
      await stores.meter.settle(running, 1);
      await stores.meter.reserve({ tenant, ...call('search', 1) });
    });

    it('continues past the allowance without a hard cap (metered overage)', async () => {
      const stores = await openBackendStores(backend, { now: manualClock().now });
      const tenant = await tenantOnPlan(stores, { ratePerMin: 1_000, monthlyCredits: 10, hardCap: false, meteredBilling: true });
      for (let index = 0; index < 3; index += 1) {
        await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 5) }), 5);
      }
      expect(await stores.meter.accountStatus(tenant)).toMatchObject({ credits_used_this_period: 15, credits_remaining: 0 });
    });

    it('stops at the allowance without a hard cap when there is no metered billing to bill overage', async () => {
      const stores = await openBackendStores(backend, { now: manualClock().now });
      const tenant = await tenantOnPlan(stores, { ratePerMin: 1_000, monthlyCredits: 10, hardCap: false, meteredBilling: false });
      await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 8) }), 8);
      // not a hard cap: the call that crosses the allowance still runs
      await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('ground', 5) }), 5);
      const refusal = await serviceErrorOf(() => stores.meter.reserve({ tenant, ...call('search', 1) }));
      expect([refusal.status, refusal.kind, refusal.retryAfter]).toEqual([429, 'credits_exhausted', undefined]);
    });

    it('reports the account view with its deprecated aliases', async () => {
      const clock = manualClock('2031-05-14T10:20:30.000Z');
      const stores = await openBackendStores(backend, { now: clock.now });
      const tenant = await tenantOnPlan(stores, { ratePerMin: 600, monthlyCredits: 10_000, hardCap: true, meteredBilling: false });
      await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('ground', 5) }), 5);
      expect(await stores.meter.accountStatus(tenant)).toEqual({
        tenant: 'acme',
        plan: 'test-plan',
        rate_per_min: 600,
        monthly_credits: 10_000,
        credits_used_this_period: 5,
        credits_remaining: 9_995,
        period_start_unix: Date.parse('2031-05-01T00:00:00Z') / 1000,
        hard_cap: true,
        metered_billing: false,
        monthly_quota: 10_000,
        usage_this_period: 5,
        quota_remaining: 9_995,
      });
    });

    it('reports null remaining credits on an unlimited plan', async () => {
      const stores = await openBackendStores(backend, { now: manualClock().now });
      const key = await stores.ensureDevelopmentKey();
      const caller = await stores.authenticate({ xApiKey: key }, '127.0.0.1');
      expect(await stores.meter.accountStatus(caller.tenant)).toMatchObject({
        plan: 'development',
        monthly_credits: 0,
        credits_remaining: null,
        quota_remaining: null,
      });
    });
  });
}

meterSuite('embedded');
describe.skipIf(!FLEET_AVAILABLE)(`fleet meter on PostgreSQL and Redis${FLEET_SKIPPED}`, () => meterSuite('fleet'));

describe('usage ledger', () => {
  it('has every row committed once settle resolves', async () => {
    const dataDir = temporaryDataDir();
    const stores = await openTestStores({ dataDir, now: manualClock().now });
    const tenant = await tenantOnPlan(stores, { ratePerMin: 10_000, monthlyCredits: 0, hardCap: false, meteredBilling: true });
    const settled = Array.from({ length: 200 }, async (_, index) =>
      stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 1) }), index % 2 === 0 ? 1 : 0),
    );
    await Promise.all(settled);
    // zero-credit settlements bill nothing and write nothing
    expect(ledgerRowCount(dataDir)).toBe(100);
    await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('changes', 10) }), 1);
    expect(ledgerRowCount(dataDir)).toBe(101);
  });

  it('writes tenant, route, credits, time and request id', async () => {
    const dataDir = temporaryDataDir();
    const clock = manualClock('2031-05-14T10:20:30.000Z');
    const stores = await openTestStores({ dataDir, now: clock.now });
    const tenant = await tenantOnPlan(stores, { ratePerMin: 100, monthlyCredits: 0, hardCap: false, meteredBilling: true });
    await stores.meter.settle(await stores.meter.reserve({ tenant, route: 'ground', requestId: 'r-42', cost: 5 }), 1);
    const database = new BetterSqlite3(join(dataDir, 'accounts.sqlite'), { readonly: true });
    expect(database.prepare('SELECT tenant, route, credits, at, request_id FROM usage_ledger').all()).toEqual([
      { tenant: 'acme', route: 'ground', credits: 1, at: clock.nowMs, request_id: 'r-42' },
    ]);
    database.close();
  });

  it('counts this month from the ledger after a restart, and starts a new month at zero', async () => {
    const dataDir = temporaryDataDir();
    const clock = manualClock('2031-05-31T23:59:00.000Z');
    const first = await openTestStores({ dataDir, now: clock.now });
    const tenant = await tenantOnPlan(first, { ratePerMin: 100, monthlyCredits: 50, hardCap: true, meteredBilling: false });
    await first.meter.settle(await first.meter.reserve({ tenant, ...call('changes', 10) }), 10);
    await first.close();

    const reopened = await openTestStores({ dataDir, now: clock.now });
    expect((await reopened.meter.accountStatus(tenant)).credits_used_this_period).toBe(10);
    clock.nowMs = Date.parse('2031-06-01T00:00:01.000Z');
    expect(await reopened.meter.accountStatus(tenant)).toMatchObject({
      credits_used_this_period: 0,
      credits_remaining: 50,
      period_start_unix: Date.parse('2031-06-01T00:00:00Z') / 1000,
    });
    await reopened.close();

    const inJune = await openTestStores({ dataDir, now: clock.now });
    expect((await inJune.meter.accountStatus(tenant)).credits_used_this_period).toBe(0);
  });

  it('gathers the rows that arrive while a commit waits into one next commit', async () => {
    const dataDir = temporaryDataDir();
    const stores = await openTestStores({ dataDir, now: manualClock().now });
    const tenant = await tenantOnPlan(stores, { ratePerMin: 10_000, monthlyCredits: 0, hardCap: false, meteredBilling: true });
    const commits: number[] = [];
    stores.onLedgerCommit((commit) => commits.push(commit.rows));

    // another writer (the console, say) holds the database: the ledger's commit waits for it
    const otherWriter = new BetterSqlite3(join(dataDir, 'accounts.sqlite'));
    otherWriter.pragma('busy_timeout = 5000');
    otherWriter.exec('BEGIN IMMEDIATE');
    const settled: Promise<void>[] = [];
    for (let index = 0; index < 10; index += 1) {
      settled.push(stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 1) }), 1));
      // each row leaves in its own event-loop turn, so each reaches the worker on its own
      await new Promise((resolve) => setImmediate(resolve));
    }
    otherWriter.exec('COMMIT');
    otherWriter.close();

    await Promise.all(settled);
    expect(ledgerRowCount(dataDir)).toBe(10);
    // the first row's commit (alone, or with rows that reached the worker before it began), then the rest together
    expect(commits.reduce((sum, rows) => sum + rows, 0)).toBe(10);
    expect(commits.length).toBeLessThanOrEqual(2);
  });

  /** Stores whose group delay is a minute: a row that waited for it would time the test out. */
  async function storesWithMinuteGroupDelay() {
    const dataDir = temporaryDataDir();
    const stores = await openTestStores({ dataDir, now: manualClock().now, groupCommitDelayMs: 60_000 });
    const tenant = await tenantOnPlan(stores, { ratePerMin: 10_000, monthlyCredits: 0, hardCap: false, meteredBilling: true });
    const commits: number[] = [];
    stores.onLedgerCommit((commit) => commits.push(commit.rows));
    return { dataDir, stores, tenant, commits };
  }

  it('waits for the rows of calls still running, so they share one commit with it', async () => {
    const { dataDir, stores, tenant, commits } = await storesWithMinuteGroupDelay();
    const first = await stores.meter.reserve({ tenant, ...call('search', 1) });
    const second = await stores.meter.reserve({ tenant, ...call('search', 1) });
    const firstSettled = stores.meter.settle(first, 1);
    // the first row reaches the worker while the second call still runs
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(commits).toEqual([]);
    const secondSettled = stores.meter.settle(second, 1);
    await Promise.all([firstSettled, secondSettled]);
    expect(commits).toEqual([2]);
    expect(ledgerRowCount(dataDir)).toBe(2);
  });

  it("commits a lone call's row at once, without waiting for the group delay", async () => {
    const { dataDir, stores, tenant, commits } = await storesWithMinuteGroupDelay();
    // a released call and a zero-credit one leave nothing running behind them
    await stores.meter.release(await stores.meter.reserve({ tenant, ...call('search', 1) }));
    await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 1) }), 0);
    await stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 1) }), 1);
    expect(commits).toEqual([1]);
    expect(ledgerRowCount(dataDir)).toBe(1);
  });

  it('commits what is queued when closed', async () => {
    const dataDir = temporaryDataDir();
    const stores = await openTestStores({ dataDir, now: manualClock().now });
    const tenant = await tenantOnPlan(stores, { ratePerMin: 100, monthlyCredits: 0, hardCap: false, meteredBilling: true });
    const pending = stores.meter.settle(await stores.meter.reserve({ tenant, ...call('search', 1) }), 1);
    await stores.close();
    await pending;
    expect(ledgerRowCount(dataDir)).toBe(1);
  });
});
