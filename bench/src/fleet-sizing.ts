/**
 * The fleet rows of `npm run bench:sizing` (when SIZING_DATABASE_URL and SIZING_REDIS_URL are
 * set): on one index, one server process on the embedded stores against one and two processes
 * on the fleet stores (meter in Redis, ledger in PostgreSQL), loaded together; and the meter's
 * own cost per billed call (reserve + settle, ledger row durable), embedded against fleet,
 * one call at a time and 64 at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores, type Stores } from '@evidence/stores';
import { createBenchKey, drain, httpLoad, rssOf, startServerProcess, type ServerProcess } from './load.js';
import { milliseconds, type Row } from './report.js';
import { WORKLOADS, workloadLabel, type WorkloadName } from './workloads.js';

export interface FleetSettings {
  databaseUrl: string;
  redisUrl: string;
}

async function loadTogether(servers: ServerProcess[], workload: WorkloadName, connections: number, seconds: number, headers: Record<string, string>) {
  const perServer = Math.max(1, Math.round(connections / servers.length));
  const figures = await Promise.all(servers.map((server) => httpLoad(server.url, WORKLOADS[workload].paths, perServer, seconds, headers)));
  return {
    qps: figures.reduce((sum, figure) => sum + figure.qps, 0),
    p50: Math.max(...figures.map((figure) => figure.p50)),
    p99: Math.max(...figures.map((figure) => figure.p99)),
    failed: figures.reduce((sum, figure) => sum + figure.errors, 0),
    drainAfter: figures[0],
  };
}

/** One row per setup: embedded x1, fleet x1, fleet x2 (same index, same total connections). */
export async function fleetRows(
  dataDir: string,
  fleet: FleetSettings,
  workload: WorkloadName,
  connections: number,
  seconds: number,
  warmupSeconds: number,
  log: (message: string) => void,
): Promise<Row[]> {
  const rows: Row[] = [];
  const setups: { stores: string; processes: number; env: NodeJS.ProcessEnv }[] = [
    { stores: 'embedded (SQLite, windows in memory)', processes: 1, env: {} },
    { stores: 'fleet (Redis meter, PostgreSQL ledger)', processes: 1, env: { DATABASE_URL: fleet.databaseUrl, REDIS_URL: fleet.redisUrl } },
    { stores: 'fleet (Redis meter, PostgreSQL ledger)', processes: 2, env: { DATABASE_URL: fleet.databaseUrl, REDIS_URL: fleet.redisUrl } },
  ];
  // one key prefix for the run: a fresh one is a fresh Redis, whose first month-total reads wait
  // out the restart grace (PostgreSQL timeout + 1.5 s); the first fleet warm-up waits it out
  const redisKeyPrefix = `bench:${Date.now()}:`;
  let graceWaited = false;
  for (const setup of setups) {
    const key = setup.processes === 1 && setup.env.DATABASE_URL === undefined
      ? createBenchKey(dataDir)
      : createBenchKeyIn({ ...setup.env });
    const env = { DATA_DIR: dataDir, KEY_REFRESH_MS: '100', REDIS_KEY_PREFIX: redisKeyPrefix, ...setup.env };
    const servers = await Promise.all(Array.from({ length: setup.processes }, (_, index) => startServerProcess('packages/server/dist/main.js', env, `server ${index + 1}`)));
    try {
      const headers = { 'x-api-key': key };
      if (setup.env.REDIS_URL !== undefined && !graceWaited) {
        graceWaited = true;
        await fetch(`${servers[0].url}/account`, { headers });
        await new Promise((resolve) => setTimeout(resolve, 4_000));
      }
      await drain((await loadTogether(servers, workload, 16, warmupSeconds, headers)).drainAfter);
      const result = await loadTogether(servers, workload, connections, seconds, headers);
      rows.push({
        stores: setup.stores,
        processes: setup.processes,
        path: workloadLabel(workload),
        connections,
        QPS: Math.round(result.qps),
        'p50 ms': milliseconds(result.p50),
        'p99 ms': milliseconds(result.p99),
        'RSS MiB (sum)': Math.round(servers.reduce((sum, server) => sum + rssOf(server.child.pid!), 0) / 1024 / 1024),
        failed: result.failed,
      });
      log(`fleet: ${setup.stores} x${setup.processes}: ${Math.round(result.qps)} qps, p50 ${result.p50} ms, p99 ${result.p99} ms`);
      await drain(result.drainAfter);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  return rows;
}

function createBenchKeyIn(env: NodeJS.ProcessEnv): string {
  // the console writes to PostgreSQL when DATABASE_URL is set
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return createBenchKey('/nonexistent-unused');
  } finally {
    for (const name of Object.keys(env)) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
}

async function timeCalls(stores: Stores, tenant: string, calls: number, concurrency: number): Promise<{ perCallUs: number; callsPerSecond: number }> {
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      next += 1;
      const reservation = await stores.meter.reserve({ tenant, route: 'search', requestId: `bench-${next}`, cost: 1 });
      await stores.meter.settle(reservation, 1);
    }
  };
  const startedAt = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedNs = Number(process.hrtime.bigint() - startedAt);
  return { perCallUs: Math.round((elapsedNs * concurrency) / calls / 1000), callsPerSecond: Math.round(calls / (elapsedNs / 1e9)) };
}

/** reserve + settle (ledger row durable) per billed call, embedded against fleet. */
export async function meterCostRows(fleet: FleetSettings, calls: number, log: (message: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'evidence-meter-bench-'));
  try {
    for (const mode of ['embedded', 'fleet'] as const) {
      const stores = await openStores({
        dataDir,
        ...(mode === 'fleet' ? { databaseUrl: fleet.databaseUrl, redisUrl: fleet.redisUrl, redisKeyPrefix: `meter-bench:${Date.now()}:` } : {}),
      });
      try {
        const { tenant } = await stores.admin.createKey({ tenant: `meter-bench-${mode}-${Date.now()}`, label: 'bench', plan: 'development' });
        await stores.refreshKeys();
        await timeCalls(stores, tenant, 200, 1); // warm-up (and the month total's first read)
        for (const concurrency of [1, 64]) {
          const figures = await timeCalls(stores, tenant, calls, concurrency);
          rows.push({
            meter: mode,
            concurrency,
            calls,
            'latency per call µs': figures.perCallUs,
            'billed calls/s': figures.callsPerSecond,
          });
          log(`meter ${mode} x${concurrency}: ${figures.perCallUs} µs per call, ${figures.callsPerSecond} calls/s`);
        }
      } finally {
        await stores.close();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
