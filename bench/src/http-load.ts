/**
 * `npm run bench:http`: load on GET /search of a server started here as a child process, at
 * several concurrencies (BENCH_CONNECTIONS, default 1,16,64), each next to the in-process
 * floor (the shard pool called directly, same concurrency, same queries) measured in the same
 * run. Set BENCH_URL and BENCH_KEY to load a server that is already running instead.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { readManifest } from '@evidence/native';
import { ShardPool } from '@evidence/pool';
import { measurePoolFloor, type LoadFigures } from './floor.js';
import { BENCH_QUERIES } from './queries.js';

const dataDir = process.env.DATA_DIR || './data';
const seconds = Number(process.env.BENCH_SECONDS || 10);
const connectionsList = (process.env.BENCH_CONNECTIONS || '1,16,64').split(',').map(Number);
const replicas = Number(process.env.REPLICAS || 1);

const manifest = readManifest(dataDir);
if (!manifest) {
  console.error(`no index in ${dataDir}: run npm start once (it builds the demo corpus) or npm run ingest`);
  process.exit(2);
}

function createBenchKey(): string {
  const created = spawnSync(process.execPath, ['packages/stores/dist/cli.js', 'create', '--tenant', 'bench', '--label', `bench-${Date.now()}`, '--plan', 'development', '--json'], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`cannot create a bench key: ${created.stderr}`);
  return JSON.parse(created.stdout.trim().split('\n').pop()!).key;
}

async function startServerProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['packages/server/dist/main.js'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', KEY_REFRESH_MS: '100', REPLICAS: String(replicas) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, child };
}

function rssOf(pid: number): number {
  const status = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  return Number(status.stdout.trim()) * 1024;
}

async function httpLoad(url: string, key: string, connections: number): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { 'x-api-key': key },
    requests: BENCH_QUERIES.map((query) => ({ method: 'GET', path: `/search?q=${encodeURIComponent(query)}&mode=keyword` })),
  });
  if (result.non2xx > 0 || result.errors > 0) console.warn(`warning: ${result.non2xx} non-2xx answers, ${result.errors} errors at ${connections} connections`);
  return { requests: result.requests.total, qps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const external = process.env.BENCH_URL;
const server = external ? null : await startServerProcess();
const url = external || server!.url;
const key = process.env.BENCH_KEY || createBenchKey();
await new Promise((resolve) => setTimeout(resolve, 500));

const rows: Record<string, string | number>[] = [];
for (const connections of connectionsList) {
  const http = await httpLoad(url, key, connections);
  rows.push({ path: 'HTTP /search', connections, qps: Math.round(http.qps), 'p50 ms': http.p50, 'p99 ms': http.p99, 'vs floor': '' });
  rows[rows.length - 1].floorIndex = rows.length;
}
const serverRss = server ? rssOf(server.child.pid!) : 0;
if (server) server.child.kill('SIGTERM');

// The floor runs after the server is gone, so the two never share the two cores.
const pool = new ShardPool({ dataDir, shards: manifest.shards, replicas, dimensions: manifest.dimensions, maxQueue: 4096 });
await pool.search({ query: 'warm up', limit: 10, timeoutMs: 5000 });
const table: Record<string, string | number>[] = [];
for (const [index, connections] of connectionsList.entries()) {
  const floor = await measurePoolFloor(pool, connections, seconds);
  const http = rows[index];
  table.push({ path: 'in-process floor (pool)', connections, qps: Math.round(floor.qps), 'p50 ms': Number(floor.p50.toFixed(2)), 'p99 ms': Number(floor.p99.toFixed(2)), 'vs floor': '1.00x' });
  table.push({ path: 'HTTP /search keyword', connections, qps: http.qps, 'p50 ms': http['p50 ms'], 'p99 ms': http['p99 ms'], 'vs floor': `${(Number(http.qps) / floor.qps).toFixed(2)}x` });
}
await pool.close();
console.log(`index: ${dataDir}, ${manifest.shards} shards x ${replicas} replicas, ${seconds}s per run`);
console.table(table);
if (serverRss) console.log(`server RSS after load: ${(serverRss / 2 ** 20).toFixed(0)} MiB`);
