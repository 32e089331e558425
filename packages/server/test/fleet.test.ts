/**
 * Slow end to end, fleet mode: two server processes over one index directory, one PostgreSQL
 * database (keys, plans, ledger) and one Redis (windows, month totals), both real servers
 * (DATABASE_URL_TEST, REDIS_URL_TEST), reached through TCP proxies the test can cut.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresAdmin, type PostgresAccountsAdmin } from '@evidence/stores';
import { passage } from './fixture.js';
import { writeIndex } from './accounts-helpers.js';
import {
  FLEET_AVAILABLE,
  FLEET_DATABASE_URL,
  FLEET_REDIS_URL,
  FLEET_SKIPPED,
  freshDatabase,
  startServerProcess,
  TcpProxy,
  type ServerProcess,
} from './fleet-processes.js';

const INGEST_CLI = fileURLToPath(new URL('../../ingest/dist/cli.js', import.meta.url));

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let nodes: ServerProcess[] = [];
let admin: PostgresAccountsAdmin;
let databaseUrl = '';
let sharedDataDir = '';
const redisKeyPrefix = `fleet-test:${process.pid}:${Date.now()}:`;
let postgresProxy: TcpProxy;
let redisProxy: TcpProxy;

/** Keys propagate by NOTIFY in milliseconds, and by the 200 ms refresh timer at worst. */
const PROPAGATION_MS = 1_000;

async function ledgerOf(tenant: string): Promise<{ rows: number; credits: number }> {
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

let tenantNumber = 0;
async function tenantWithKey(plan: { ratePerMin: number; monthlyCredits: number; hardCap: boolean }): Promise<{ tenant: string; key: string }> {
  tenantNumber += 1;
  const tenant = `fleet-${process.pid}-${tenantNumber}`;
  await admin.setPlan({ name: `plan-${tenant}`, meteredBilling: false, ...plan });
  const { key } = await admin.createKey({ tenant, label: 'main', plan: `plan-${tenant}` });
  await sleep(PROPAGATION_MS);
  return { tenant, key };
}

async function search(node: ServerProcess, key: string): Promise<Response> {
  const response = await fetch(`${node.base}/search?q=sourdough`, {
    headers: { 'x-api-key': key },
    signal: AbortSignal.timeout(15_000),
  });
  await response.arrayBuffer().catch(() => undefined);
  return response;
}

/** Waits out the last seconds of a UTC minute, so a test's calls share one window. */
async function awayFromMinuteEnd(): Promise<void> {
  const intoMinuteMs = Date.now() % 60_000;
  if (intoMinuteMs > 50_000) await sleep(60_000 - intoMinuteMs + 100);
}

describe.skipIf(!FLEET_AVAILABLE)(`slow end-to-end: a two-node fleet on PostgreSQL and Redis${FLEET_SKIPPED}`, () => {
  beforeAll(async () => {
    const database = await freshDatabase();
    databaseUrl = database.url;
    cleanups.push(database.drop);
    const dataDir = mkdtempSync(join(tmpdir(), 'server-fleet-'));
    sharedDataDir = dataDir;
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    writeIndex(dataDir, [
      [passage('a:0', 'feed the sourdough starter daily'), passage('a:1', 'sourdough loaves need a hot oven')],
      [passage('b:0', 'fresh pasta needs eggs'), passage('b:1', 'sourdough pasta is a thing too')],
    ]);
    postgresProxy = await TcpProxy.start(FLEET_DATABASE_URL);
    redisProxy = await TcpProxy.start(FLEET_REDIS_URL);
    cleanups.push(() => postgresProxy.close(), () => redisProxy.close());
    const opened = await openPostgresAdmin(databaseUrl);
    admin = opened.admin;
    cleanups.push(opened.close);
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: postgresProxy.urlFor(databaseUrl),
      REDIS_URL: redisProxy.urlFor(FLEET_REDIS_URL),
      REDIS_KEY_PREFIX: redisKeyPrefix,
      KEY_REFRESH_MS: '200',
      AUTH_FAIL_LIMIT: '100000',
    };
    cleanups.push(async () => {
      const redis = new Redis(FLEET_REDIS_URL);
      const keys = await redis.keys(`${redisKeyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });
    nodes = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    cleanups.push(() => Promise.all(nodes.map((node) => node.kill())));
  }, 90_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('refuses the 6th call of a 5-credit-a-minute tenant on whichever node it lands', async () => {
    const { key } = await tenantWithKey({ ratePerMin: 5, monthlyCredits: 0, hardCap: false });
    await awayFromMinuteEnd();
    const statuses: number[] = [];
    for (let call = 0; call < 5; call += 1) statuses.push((await search(nodes[call % 2], key)).status);
    expect(statuses, nodes[0].output()).toEqual([200, 200, 200, 200, 200]);
    for (const node of nodes) {
      const refused = await search(node, key);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('honours a revoke on both nodes without a restart', async () => {
    const { tenant, key } = await tenantWithKey({ ratePerMin: 1_000, monthlyCredits: 0, hardCap: false });
    for (const node of nodes) expect((await search(node, key)).status).toBe(200);
    await admin.revokeKey({ tenant, label: 'main' });
    const revokedAt = Date.now();
    const statuses = await Promise.all(
      nodes.map(async (node) => {
        for (;;) {
          const status = (await search(node, key)).status;
          if (status === 401 || Date.now() - revokedAt > 15_000) return status;
          await sleep(10);
        }
      }),
    );
    // NOTIFY carries it in milliseconds (the 200 ms refresh timer at worst): no bound on time
    // here, which a loaded machine could break; the loop gives up long after PROPAGATION_MS.
    expect(statuses).toEqual([401, 401]);
  });

  it('spends exactly a hard cap across concurrent calls on both nodes', async () => {
    const { tenant, key } = await tenantWithKey({ ratePerMin: 100_000, monthlyCredits: 30, hardCap: true });
    const statuses = await Promise.all(Array.from({ length: 80 }, (_, call) => search(nodes[call % 2], key).then((r) => r.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
    expect(await ledgerOf(tenant)).toEqual({ rows: 30, credits: 30 });
  });

  it('answers 503 with retry-after, promptly and uncharged, while Redis or PostgreSQL is unreachable', async () => {
    const { tenant, key } = await tenantWithKey({ ratePerMin: 100_000, monthlyCredits: 0, hardCap: false });
    expect((await search(nodes[0], key)).status).toBe(200);

    await redisProxy.cut();
    for (const node of nodes) {
      const startedAt = Date.now();
      const refused = await search(node, key);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(Date.now() - startedAt).toBeLessThan(5_000);
    }
    await redisProxy.restore();
    let answered200 = 1 + (await waitForStatus(nodes, key, 200));

    await postgresProxy.cut();
    for (const node of nodes) {
      const startedAt = Date.now();
      const refused = await search(node, key);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(Date.now() - startedAt).toBeLessThan(5_000);
    }
    await postgresProxy.restore();
    answered200 += await waitForStatus(nodes, key, 200);
    // every 200 is in the ledger, no 503 is
    expect(await ledgerOf(tenant)).toEqual({ rows: answered200, credits: answered200 });
  });

  it('holds a hard cap across a Redis that restarts empty (month re-read from the ledger)', async () => {
    const { tenant, key } = await tenantWithKey({ ratePerMin: 100_000, monthlyCredits: 20, hardCap: true });
    for (let call = 0; call < 12; call += 1) expect((await search(nodes[call % 2], key)).status).toBe(200);
    // what a restart without persistence leaves: none of the fleet's keys
    const redis = new Redis(FLEET_REDIS_URL);
    try {
      const keys = await redis.keys(`${redisKeyPrefix}*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, call) => search(nodes[call % 2], key).then((r) => r.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
    expect(await ledgerOf(tenant)).toEqual({ rows: 20, credits: 20 });
  });

  it('serves what npm run ingest commits to the shared index directory on every node, without a restart', async () => {
    const { key } = await tenantWithKey({ ratePerMin: 100_000, monthlyCredits: 0, hardCap: false });
    const found = async (node: ServerProcess) => {
      const response = await fetch(`${node.base}/search?q=focaccia`, { headers: { 'x-api-key': key } });
      const body = (await response.json()) as { results?: { id: string }[] };
      return (body.results ?? []).map((hit) => hit.id);
    };
    for (const node of nodes) expect(await found(node)).toEqual([]);
    // `npm run ingest` into the directory both nodes serve
    const input = join(sharedDataDir, 'focaccia.jsonl');
    writeFileSync(
      input,
      `${JSON.stringify({
        url: 'https://bakery.example.com/focaccia',
        title: 'Focaccia',
        text: 'focaccia wants olive oil, coarse salt and a long slow rise before it meets a very hot oven',
        fetched_at: Math.floor(Date.now() / 1000) - 60,
      })}\n`,
    );
    const ingest = spawnSync(process.execPath, [INGEST_CLI, input], { env: { ...process.env, DATA_DIR: sharedDataDir }, encoding: 'utf8' });
    expect(ingest.status, ingest.stderr).toBe(0);
    for (const node of nodes) {
      // /readyz says whether the node has taken the commit in yet
      const startedAt = Date.now();
      let ready = (await (await fetch(`${node.base}/readyz`)).json()) as { index: { caught_up: boolean; shards: { committed_opstamp: number; serving_opstamp: number }[] } };
      while (!ready.index.caught_up && Date.now() - startedAt < 10_000) {
        await sleep(50);
        ready = (await (await fetch(`${node.base}/readyz`)).json()) as typeof ready;
      }
      expect(ready.index.caught_up).toBe(true);
      expect(ready.index.shards[0].serving_opstamp).toBe(ready.index.shards[0].committed_opstamp);
    }
    for (const node of nodes) {
      const startedAt = Date.now();
      let ids: string[] = [];
      while (ids.length === 0 && Date.now() - startedAt < 10_000) {
        ids = await found(node);
        if (ids.length === 0) await sleep(100);
      }
      expect(ids, node.output()).toHaveLength(1);
    }
  });

  it('keeps every answered call in the ledger when one node is SIGKILLed mid-burst', async () => {
    const { tenant, key } = await tenantWithKey({ ratePerMin: 1_000_000, monthlyCredits: 0, hardCap: false });
    const TOTAL_CALLS = 300;
    let next = 0;
    let answered200 = 0;
    let other = 0;
    let killed = false;
    const worker = async (workerNumber: number) => {
      while (next < TOTAL_CALLS) {
        next += 1;
        const node = nodes[workerNumber % 2];
        try {
          const status = (await search(node, key)).status;
          if (status === 200) answered200 += 1;
          else other += 1;
        } catch {
          // the killed node: no answer, so nothing owed
        }
        if (answered200 >= 100 && !killed) {
          killed = true;
          void nodes[0].kill();
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, workerNumber) => worker(workerNumber)));
    await nodes[0].kill();
    expect(nodes[0].child.signalCode).toBe('SIGKILL');
    expect(other).toBe(0);
    const ledger = await ledgerOf(tenant);
    expect(ledger.credits, `answered ${answered200}`).toBeGreaterThanOrEqual(answered200);
    expect(ledger.credits).toBeLessThanOrEqual(answered200 + 20);
  });
});

/** Calls each node until it answers `wanted`; returns how many calls answered 200 meanwhile. */
async function waitForStatus(servers: ServerProcess[], key: string, wanted: number): Promise<number> {
  let answered200 = 0;
  for (const node of servers) {
    const startedAt = Date.now();
    for (;;) {
      const status = (await search(node, key)).status;
      if (status === 200) answered200 += 1;
      if (status === wanted) break;
      if (Date.now() - startedAt > 10_000) throw new Error(`node ${node.base} still answers ${status}\n${node.output()}`);
      await sleep(100);
    }
  }
  return answered200;
}
