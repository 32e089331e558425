/**
 * `npm run bench:sizing`: what a shard count and a replica count buy on this machine. For each
 * SIZING_SHARDS (default 1,2,4) an index of the corpus, and for each SIZING_REPLICAS (default
 * 1,2) the server started on it (its own process, REPLICAS set), warmed up, then loaded on each
 * SIZING_PATHS (default search-keyword,search-hybrid) at SIZING_CONNECTIONS (default 64) for
 * BENCH_SECONDS; reports QPS, p50, p99 and the server's RSS (at start and peak under load) as a
 * markdown table, printed and written to SIZING_OUT (default bench/out/sizing.md), rewritten
 * after every measurement so an interrupted run keeps what it measured.
 *
 * Indexes: SIZING_DATA_DIRS (comma-separated DATA_DIRs; each one's index.json gives its shard
 * count) are used as they are; a shard count none of them has is built from SIZING_CORPUS (the
 * JSONL) with `npm run ingest` into SIZING_WORK_DIR/shards-N (default under the OS temp dir),
 * and reused by a later run on the same corpus.
 *
 * Fleet rows: with SIZING_DATABASE_URL and SIZING_REDIS_URL (a PostgreSQL database and a Redis,
 * e.g. from scripts/fleet-stores.sh), on the first index and the first path: one process on the
 * embedded stores, one and two processes on the fleet stores (loaded together, the same total
 * connections), and the meter's cost per billed call embedded against fleet (SIZING_METER_CALLS,
 * default 5,000, one at a time and 64 at once).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readManifest } from '@evidence/native';
import { createBenchKey, drain, httpLoad, passagesInIndex, rssOf, sampleRss, startServerProcess } from './load.js';
import { markdownTable, mebibytes, milliseconds, parseCounts, parseNames, type Row } from './report.js';
import { WORKLOAD_NAMES, WORKLOADS, workloadLabel } from './workloads.js';
import { fleetRows, meterCostRows } from './fleet-sizing.js';

const shardCounts = parseCounts(process.env.SIZING_SHARDS, [1, 2, 4], 'SIZING_SHARDS');
const replicaCounts = parseCounts(process.env.SIZING_REPLICAS, [1, 2], 'SIZING_REPLICAS');
const connectionsList = parseCounts(process.env.SIZING_CONNECTIONS, [64], 'SIZING_CONNECTIONS');
const workloadNames = parseNames(process.env.SIZING_PATHS, WORKLOAD_NAMES, ['search-keyword', 'search-hybrid'], 'SIZING_PATHS');
const seconds = Number(process.env.BENCH_SECONDS || 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS || 2);
const corpusPath = process.env.SIZING_CORPUS ? resolve(process.env.SIZING_CORPUS) : undefined;
const workDir = resolve(process.env.SIZING_WORK_DIR || join(tmpdir(), 'evidence-sizing'));
const outPath = resolve(process.env.SIZING_OUT || 'bench/out/sizing.md');
const givenDirs = (process.env.SIZING_DATA_DIRS || '').split(',').map((dir) => dir.trim()).filter((dir) => dir !== '');

/** Written into an index built here once ingest finished: which corpus it holds. */
const BUILT_MARKER = 'sizing-built.json';
/** Written before ingest starts: the directory is this script's to remove if the build is cut short. */
const BUILDING_MARKER = 'sizing-building.json';

interface BuiltMarker {
  corpus: string;
  bytes: number;
  modifiedMs: number;
}

function corpusMarker(path: string): BuiltMarker {
  const stats = statSync(path);
  return { corpus: path, bytes: stats.size, modifiedMs: stats.mtimeMs };
}

function log(message: string): void {
  console.log(`[sizing ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** The DATA_DIR of an index with `shards` shards: a given one, one built earlier, or a new build. */
function indexFor(shards: number): string {
  for (const dir of givenDirs) {
    if (readManifest(dir)?.shards === shards) return dir;
  }
  if (!corpusPath) throw new Error(`no index with ${shards} shards in SIZING_DATA_DIRS (${givenDirs.join(', ') || 'none'}), and no SIZING_CORPUS to build one from`);
  const dir = join(workDir, `shards-${shards}`);
  const markerPath = join(dir, BUILT_MARKER);
  const wanted = corpusMarker(corpusPath);
  if (existsSync(markerPath)) {
    const built = JSON.parse(readFileSync(markerPath, 'utf8')) as BuiltMarker;
    if (built.corpus === wanted.corpus && built.bytes === wanted.bytes && built.modifiedMs === wanted.modifiedMs) {
      log(`${shards} shards: reusing ${dir}`);
      return dir;
    }
  }
  // Another corpus's index or an interrupted build, both made here: start over. Anything else is
  // not this script's to delete.
  if (existsSync(dir) && readdirSync(dir).length > 0 && !existsSync(markerPath) && !existsSync(join(dir, BUILDING_MARKER))) {
    throw new Error(`${dir} holds something sizing did not build: remove it, or pass it in SIZING_DATA_DIRS, or set SIZING_WORK_DIR`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, BUILDING_MARKER), JSON.stringify(wanted));
  log(`${shards} shards: building ${dir} from ${corpusPath} (npm run ingest)`);
  const started = performance.now();
  const ingest = spawnSync(process.execPath, ['packages/ingest/dist/cli.js', corpusPath], {
    env: { ...process.env, DATA_DIR: dir, SHARDS: String(shards) },
    stdio: 'inherit',
  });
  if (ingest.status !== 0) throw new Error(`ingest into ${dir} failed with ${ingest.status}`);
  renameSync(join(dir, BUILDING_MARKER), markerPath);
  log(`${shards} shards: built in ${((performance.now() - started) / 1000).toFixed(0)}s`);
  return dir;
}

const rows: Row[] = [];
const indexes: string[] = [];
const fleetTable: Row[] = [];
const meterTable: Row[] = [];
const fleetSettings =
  process.env.SIZING_DATABASE_URL && process.env.SIZING_REDIS_URL
    ? { databaseUrl: process.env.SIZING_DATABASE_URL, redisUrl: process.env.SIZING_REDIS_URL }
    : null;
const meterCalls = parseCounts(process.env.SIZING_METER_CALLS, [5_000], 'SIZING_METER_CALLS')[0];

function writeReport(final: boolean): string {
  const cpu = cpus();
  const lines = [
    '# Sizing',
    '',
    `${final ? 'Measured' : 'Measuring (incomplete)'} ${new Date().toISOString()} on ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, ${mebibytes(totalmem())} MiB RAM, Node ${process.version}.`,
    `${seconds}s per run after ${warmupSeconds}s of warm-up per path; autocannon in the bench process; one server at a time. Requests cycle through the ${WORKLOADS['search-keyword'].paths.length} bench queries (bench/src/queries.ts), top 10.`,
    `RSS: the server process (its shard and evidence worker threads included), at start (after the warm-up) and the peak sampled every 0.5 s under load.`,
    'QPS: 2xx answers per second. failed: non-2xx answers and transport errors (their latencies are in p50/p99); partial: answers (counted in QPS) that part of the index did not contribute to within SEARCH_TIMEOUT_MS.',
    '',
    ...indexes.map((line) => `- ${line}`),
    '',
    markdownTable(rows, ['shards', 'replicas', 'path', 'connections', 'QPS', 'p50 ms', 'p99 ms', 'RSS start MiB', 'RSS peak MiB', 'failed', 'partial']),
    '',
    ...(fleetTable.length === 0
      ? []
      : [
          '## Fleet: one process against two, meter in Redis and ledger in PostgreSQL',
          '',
          `Index: ${indexes[0] ?? ''}; replicas ${replicaCounts[0]}; the processes run on this same machine and are loaded together.`,
          '',
          markdownTable(fleetTable, ['stores', 'processes', 'path', 'connections', 'QPS', 'p50 ms', 'p99 ms', 'RSS MiB (sum)', 'failed']),
          '',
        ]),
    ...(meterTable.length === 0
      ? []
      : [
          '## Meter cost per billed call (reserve, then settle with the ledger row durable)',
          '',
          'In the bench process, no HTTP: embedded = windows in memory + SQLite group commit; fleet = one Redis script per reserve and per settle + PostgreSQL group commit. Latency per call at concurrency 64 is elapsed x 64 / calls.',
          '',
          markdownTable(meterTable, ['meter', 'concurrency', 'calls', 'latency per call µs', 'billed calls/s']),
          '',
        ]),
  ];
  const text = lines.join('\n');
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, text);
  return text;
}

const plan = shardCounts.length * replicaCounts.length;
log(`${shardCounts.length} shard counts (${shardCounts.join(', ')}) x ${replicaCounts.length} replica counts (${replicaCounts.join(', ')}); ${workloadNames.join(', ')} at ${connectionsList.join(', ')} connections, ${seconds}s each; report: ${outPath}`);
let step = 0;
for (const shards of shardCounts) {
  const dataDir = indexFor(shards);
  const passages = passagesInIndex(dataDir);
  indexes.push(`${shards} shards: ${dataDir}, ${passages} passages`);
  const key = createBenchKey(dataDir);
  for (const replicas of replicaCounts) {
    step++;
    log(`[${step}/${plan}] ${shards} shards x ${replicas} replicas: starting the server`);
    const server = await startServerProcess('packages/server/dist/main.js', { DATA_DIR: dataDir, REPLICAS: String(replicas), KEY_REFRESH_MS: '100' }, 'server');
    try {
      const headers = { 'x-api-key': key };
      for (const name of workloadNames) await drain(await httpLoad(server.url, WORKLOADS[name].paths, 16, warmupSeconds, headers));
      const rssAtStart = rssOf(server.child.pid!);
      for (const name of workloadNames) {
        for (const connections of connectionsList) {
          const rss = sampleRss(server.child.pid!);
          const result = await httpLoad(server.url, WORKLOADS[name].paths, connections, seconds, headers);
          const peak = rss.stop();
          rows.push({
            shards,
            replicas,
            path: workloadLabel(name),
            connections,
            QPS: Math.round(result.qps),
            'p50 ms': milliseconds(result.p50),
            'p99 ms': milliseconds(result.p99),
            'RSS start MiB': mebibytes(rssAtStart),
            'RSS peak MiB': mebibytes(peak),
            failed: result.errors,
            partial: result.partial,
          });
          log(`[${step}/${plan}] ${shards}x${replicas} ${workloadLabel(name)} x${connections}: ${Math.round(result.qps)} qps, p50 ${result.p50} ms, p99 ${result.p99} ms, RSS peak ${mebibytes(peak)} MiB`);
          writeReport(false);
          await drain(result);
        }
      }
    } finally {
      await server.stop();
    }
  }
}
if (fleetSettings !== null) {
  const dataDir = indexFor(shardCounts[0]);
  log(`fleet: embedded x1, fleet x1, fleet x2 on ${dataDir}`);
  fleetTable.push(...(await fleetRows(dataDir, fleetSettings, workloadNames[0], connectionsList[0], seconds, warmupSeconds, log)));
  writeReport(false);
  meterTable.push(...(await meterCostRows(fleetSettings, meterCalls, log)));
}
console.log();
console.log(writeReport(true));
log(`written to ${outPath}`);
