/**
 * Fleet mode with two sets of stores in one process standing for two nodes: each has its own
 * snapshot, its own connections and its own ledger batches, and they share one PostgreSQL
 * database and one Redis (real servers: DATABASE_URL_TEST, REDIS_URL_TEST).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Stores } from '../src/index.js';
import {
  FLEET_AVAILABLE,
  FLEET_REDIS_URL,
  FLEET_SKIPPED,
  freshFleetDatabase,
  freshRedisPrefix,
  openBackendStores,
  serviceErrorOf,
} from './helpers.js';

const CLI_PATH = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

async function twoNodes(options: { authFailLimit?: number; authFailWindowMs?: number } = {}) {
  const databaseUrl = await freshFleetDatabase();
  const redisKeyPrefix = freshRedisPrefix();
  const first = await openBackendStores('fleet', { databaseUrl, redisKeyPrefix, keyRefreshMs: 60_000, ...options });
  const second = await openBackendStores('fleet', { databaseUrl, redisKeyPrefix, keyRefreshMs: 60_000, ...options });
  return { databaseUrl, redisKeyPrefix, first, second };
}

/** What a Redis restart without persistence does to the fleet's keys. */
async function forgetEverything(redisKeyPrefix: string): Promise<void> {
  const redis = new Redis(FLEET_REDIS_URL);
  try {
    const keys = await redis.keys(`${redisKeyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

async function ledgerTotal(databaseUrl: string, tenant: string): Promise<{ rows: number; credits: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query(
      'SELECT COUNT(*)::int AS rows, COALESCE(SUM(credits), 0)::int AS credits FROM usage_ledger WHERE tenant = $1',
      [tenant],
    );
    return result.rows[0];
  } finally {
    await client.end();
  }
}

async function onPlan(stores: Stores, tenant: string, plan: { ratePerMin: number; monthlyCredits: number; hardCap: boolean }) {
  await stores.admin.setPlan({ name: `plan-${tenant}`, meteredBilling: false, ...plan });
  const issued = await stores.admin.createKey({ tenant, label: 'main', plan: `plan-${tenant}` });
  return issued.key;
}

let requestNumber = 0;
function call(tenant: string, cost: number) {
  requestNumber += 1;
  return { tenant, route: 'search', cost, requestId: `fleet-${requestNumber}` };
}

describe.skipIf(!FLEET_AVAILABLE)(`fleet stores: two nodes on one PostgreSQL and one Redis${FLEET_SKIPPED}`, () => {
  it('shares the per-minute window: the 6th credit of a 5-a-minute tenant is refused on either node', async () => {
    const { first, second } = await twoNodes();
    await onPlan(first, 'acme', { ratePerMin: 5, monthlyCredits: 0, hardCap: false });
    await first.refreshKeys();
    await second.refreshKeys();
    for (let index = 0; index < 5; index += 1) {
      const node = index % 2 === 0 ? first : second;
      await node.meter.settle(await node.meter.reserve(call('acme', 1)), 1);
    }
    for (const node of [first, second]) {
      const refusal = await serviceErrorOf(() => node.meter.reserve(call('acme', 1)));
      expect([refusal.status, refusal.kind]).toEqual([429, 'rate_limited']);
      expect(await node.meter.remainingThisMinute('acme')).toBe(0);
    }
  });

  it('spends exactly a hard cap across concurrent calls on both nodes, and the ledger has exactly those', async () => {
    const { databaseUrl, first, second } = await twoNodes();
    await onPlan(first, 'capped', { ratePerMin: 100_000, monthlyCredits: 25, hardCap: true });
    await first.refreshKeys();
    await second.refreshKeys();
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, async (_, index) => {
        const node = index % 2 === 0 ? first : second;
        try {
          const reservation = await node.meter.reserve(call('capped', 1));
          await sleep(5);
          await node.meter.settle(reservation, 1);
          return 'billed';
        } catch (error) {
          return (error as { kind?: string }).kind ?? String(error);
        }
      }),
    );
    expect(outcomes.filter((outcome) => outcome === 'billed')).toHaveLength(25);
    expect(outcomes.filter((outcome) => outcome !== 'billed').every((outcome) => outcome === 'credits_exhausted')).toBe(true);
    expect(await ledgerTotal(databaseUrl, 'capped')).toEqual({ rows: 25, credits: 25 });
    expect((await second.meter.accountStatus('capped')).credits_remaining).toBe(0);
  });

  it('carries a revoke and a suspension made on one node to the other at once (LISTEN/NOTIFY, no refresh timer)', async () => {
    const { first, second } = await twoNodes();
    const key = await onPlan(first, 'acme', { ratePerMin: 100, monthlyCredits: 0, hardCap: false });
    let seen = false;
    for (let attempt = 0; attempt < 100 && !seen; attempt += 1) {
      seen = await second.authenticate({ xApiKey: key }, '10.0.0.1').then(() => true, () => false);
      if (!seen) await sleep(20);
    }
    expect(seen).toBe(true);

    await first.admin.suspendTenant('acme');
    let suspendedStatus = 0;
    for (let attempt = 0; attempt < 100 && suspendedStatus !== 402; attempt += 1) {
      suspendedStatus = (await serviceErrorOf(() => second.authenticate({ xApiKey: key }, '10.0.0.1')).catch(() => ({ status: 200 }))).status;
      if (suspendedStatus !== 402) await sleep(20);
    }
    expect(suspendedStatus).toBe(402);
    await first.admin.unsuspendTenant('acme');
    await first.admin.revokeKey({ tenant: 'acme', label: 'main' });
    let revokedStatus = 0;
    for (let attempt = 0; attempt < 100 && revokedStatus !== 401; attempt += 1) {
      revokedStatus = (await serviceErrorOf(() => second.authenticate({ xApiKey: key }, '10.0.0.1')).catch(() => ({ status: 200 }))).status;
      if (revokedStatus !== 401) await sleep(20);
    }
    expect(revokedStatus).toBe(401);
  });

  it('refuses a backup of the accounts, naming pg_dump: they live in PostgreSQL', async () => {
    const { first } = await twoNodes();
    expect(() => first.admin.backup('/tmp/never-written.sqlite')).toThrow(/PostgreSQL \(DATABASE_URL\): back them up with pg_dump/);
  });

  it('counts failed authentications of an address across nodes', async () => {
    const { first, second } = await twoNodes({ authFailLimit: 4, authFailWindowMs: 60_000 });
    const key = await onPlan(first, 'acme', { ratePerMin: 100, monthlyCredits: 0, hardCap: false });
    await first.refreshKeys();
    await second.refreshKeys();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const node = attempt % 2 === 0 ? first : second;
      expect((await serviceErrorOf(() => node.authenticate({}, '10.9.9.9'))).status).toBe(401);
    }
    for (const node of [first, second]) {
      const flood = await serviceErrorOf(() => node.authenticate({}, '10.9.9.9'));
      expect([flood.status, flood.kind]).toEqual([429, 'auth_flood']);
      expect(flood.retryAfter).toBeGreaterThan(55);
      // a live key from that address is still served, on every node
      expect((await node.authenticate({ xApiKey: key }, '10.9.9.9')).tenant).toBe('acme');
    }
    expect((await serviceErrorOf(() => first.authenticate({}, '10.9.9.10'))).status).toBe(401);
  });

  it('after Redis loses everything, re-reads the month from the ledger and still holds the hard cap', async () => {
    const { databaseUrl, redisKeyPrefix, first, second } = await twoNodes();
    await onPlan(first, 'capped', { ratePerMin: 1_000, monthlyCredits: 10, hardCap: true });
    await first.refreshKeys();
    await second.refreshKeys();
    await first.meter.settle(await first.meter.reserve(call('capped', 6)), 6);
    const inFlight = await first.meter.reserve(call('capped', 3));

    await forgetEverything(redisKeyPrefix); // Redis restarted empty: windows, totals, holds gone
    expect((await second.meter.accountStatus('capped')).credits_used_this_period).toBe(6);
    await second.meter.settle(await second.meter.reserve(call('capped', 4)), 4);
    expect((await serviceErrorOf(() => second.meter.reserve(call('capped', 1)))).kind).toBe('credits_exhausted');
    // the call running across the restart lost its hold; billing it now would pass the cap, so
    // its settle fails (the call is answered 503 and not billed)
    await expect(first.meter.settle(inFlight, 3)).rejects.toThrow(/hard cap/);
    expect(await ledgerTotal(databaseUrl, 'capped')).toEqual({ rows: 2, credits: 10 });
    expect((await first.meter.accountStatus('capped')).credits_used_this_period).toBe(10);
  });

  it('runs the console (npm run keys) against PostgreSQL when DATABASE_URL is set', async () => {
    const { databaseUrl, second } = await twoNodes();
    const keys = (...args: string[]) =>
      spawnSync(process.execPath, [CLI_PATH, ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: '/nonexistent-not-used' },
        encoding: 'utf8',
      });
    const created = keys('create', '--tenant', 'globex', '--label', 'ci', '--json');
    expect(created.status, created.stderr).toBe(0);
    const issued = JSON.parse(created.stdout);
    let tenant = '';
    for (let attempt = 0; attempt < 100 && tenant === ''; attempt += 1) {
      tenant = await second.authenticate({ xApiKey: issued.key }, '10.0.0.1').then((caller) => caller.tenant, () => '');
      if (tenant === '') await sleep(20);
    }
    expect(tenant).toBe('globex');
    expect(keys('list').stdout).toContain(issued.last4);
    const duplicate = keys('create', '--tenant', 'globex', '--label', 'ci');
    expect([duplicate.status, duplicate.stderr]).toEqual([1, expect.stringContaining('already has a live key labelled ci')]);
    expect(keys('revoke', '--tenant', 'globex', '--label', 'ci').status).toBe(0);
    expect(keys('tenant', 'list', '--json').stdout).toContain('"globex"');
  });

  it('commits a row that finds no commit in flight at once, and gathers the rows behind it into one', async () => {
    const databaseUrl = await freshFleetDatabase();
    // a gathering time no run of this test comes near: a row that waited for it would share a commit
    const node = await openBackendStores('fleet', { databaseUrl, groupCommitDelayMs: 60_000 });
    await onPlan(node, 'gathered', { ratePerMin: 1_000, monthlyCredits: 0, hardCap: false });
    await node.refreshKeys();
    const commits: number[] = [];
    node.onLedgerCommit((commit) => commits.push(commit.rows));

    // another session holds the ledger table: the first row's INSERT waits for it, in flight
    const otherSession = new pg.Client({ connectionString: databaseUrl });
    await otherSession.connect();
    const settled: Promise<void>[] = [];
    try {
      await otherSession.query('BEGIN');
      await otherSession.query('LOCK TABLE usage_ledger IN SHARE ROW EXCLUSIVE MODE');
      for (let index = 0; index < 10; index += 1) {
        const reservation = await node.meter.reserve(call('gathered', 1));
        settled.push(node.meter.settle(reservation, 1));
      }
      // A settle reaches the ledger right after its Redis half: wait until Redis counts all ten
      // (on a loaded machine the last could still be on its way, and a row appended after the
      // flush below would wait out the gathering time)
      for (let polls = 0; (await node.meter.accountStatus('gathered')).credits_used_this_period < 10; polls += 1) {
        if (polls > 1_000) throw new Error('the ten settles never reached Redis');
        await sleep(5);
      }
      await new Promise((resolve) => setImmediate(resolve));
      await otherSession.query('COMMIT');
    } finally {
      await otherSession.end();
    }
    // the nine behind the first go at the flush (close), not after the gathering time
    await node.meter.flush();
    await Promise.all(settled);

    expect(commits.sort((left, right) => left - right)).toEqual([1, 9]);
    expect(await ledgerTotal(databaseUrl, 'gathered')).toEqual({ rows: 10, credits: 10 });
  });
});
