/**
 * `npm run bench:http`: HTTP load on the server (packages/server/dist/main.js, started here as
 * a child process) for each workload (BENCH_PATHS: search-keyword, search-hybrid, search-hybrid-new, ground) at
 * each concurrency (BENCH_CONNECTIONS, default 1,16,64,256), each next to the in-process floor
 * of the same work at the same concurrency (workloads.ts), measured in the same run.
 *
 * The load generator (BENCH_LOADER): wrk, a native process (native-load.ts), when it is
 * installed (npm run bench:setup), else autocannon in this Node process (and the run says so).
 * Then open-loop rows on the server (BENCH_OPEN_LOOP, default 25,50,75 percent of the highest
 * closed-loop QPS of the workload) at a constant arrival rate, with oha's latency correction.
 *
 * `npm run bench:peers` (or BENCH_PEERS=1) adds, on the same index and the same queries, each
 * in its own process and warmed up the same way:
 *   - node:http: the same capability path behind node:http (bench/src/peers/node-http.ts);
 *   - Fastify + MiniSearch over the same passages, read from BENCH_CORPUS, the JSONL the index
 *     was built from (bench/src/peers/fastify-minisearch.ts); keyword search only;
 *   - Apache Lucene in-process (bench/src/peers/lucene.ts: the peer in ../shared/peers/lucene on
 *     a JDK 21+) on the same passages, N threads for N connections, in its three modes; keyword
 *     search only, no HTTP (read it beside the floor);
 *   - a fixed-body node:http server (bench/src/peers/fixed-body.ts): the HTTP layer alone; with
 *     BENCH_UWS_MODULE, the same on uWebSockets.js (run by BENCH_UWS_NODE, default this Node),
 *     and node:http again on that Node when it is another one.
 *
 * Servers run one at a time, the floor after them all, so no two share the cores. BENCH_URL and
 * BENCH_KEY load a server that is already running instead of starting one.
 */
import { readManifest } from '@evidence/native';
import { HIT_FIELDS } from '@evidence/schemas';
import { applyServingV8Flags, CATALOG, closeServices, openServices, readConfig, type Capability } from '@evidence/server';
import { fetchAnswerShape, meanOverlap, type AnswerShape } from './answer-shape.js';
import { cpuMeter, ownCpuSeconds, processCpuSeconds } from './cpu-time.js';
import { measureFloor } from './floor.js';
import { spawnSync } from 'node:child_process';
import { createBenchKey, drain, httpLoad, passagesInIndex, sampleRss, startServerProcess, type ServerProcess } from './load.js';
import { findOha, findWrk, ohaOpenLoad, SETUP_HINT, wrkLoad } from './native-load.js';
import { readBuckets, routeOf, serverLatency, type ServerLatency } from './server-histogram.js';
import { isUnavailable } from './micro/group.js';
import { LUCENE_MODES, luceneIndexFor, prepareLucenePeer, runLuceneBench, type LuceneMode } from './peers/lucene.js';
import { markdownTable, mebibytes, milliseconds, parseCounts, parseNames, ratio, type LoadFigures, type Row } from './report.js';
import { RESULT_LIMIT, WORKLOAD_NAMES, WORKLOADS, workloadLabel, type Workload, type WorkloadName } from './workloads.js';

const dataDir = process.env.DATA_DIR || './data';
const seconds = Number(process.env.BENCH_SECONDS || 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS || 2);
const connectionsList = parseCounts(process.env.BENCH_CONNECTIONS, [1, 16, 64, 256], 'BENCH_CONNECTIONS');
const workloadNames = parseNames(process.env.BENCH_PATHS, WORKLOAD_NAMES, WORKLOAD_NAMES, 'BENCH_PATHS');
const replicas = Number(process.env.REPLICAS || 1);
const peers = process.env.BENCH_PEERS === '1' || process.argv.includes('--peers');
const corpusPath = process.env.BENCH_CORPUS;
const external = process.env.BENCH_URL;
const openLoopPercents = process.env.BENCH_OPEN_LOOP === 'none' ? [] : parseCounts(process.env.BENCH_OPEN_LOOP, [25, 50, 75], 'BENCH_OPEN_LOOP');
const openLoopConnections = Number(process.env.BENCH_OPEN_CONNECTIONS || 64);
/** The latency the open-loop bar is read at (issue 21: p99 under 25 ms at 50% of capacity), a bucket bound of the server's histogram. */
const OPEN_LOOP_TARGET_MS = 25;
const percentText = (share: number) => (Number.isNaN(share) ? 'n/a' : `${(share * 100).toFixed(2)}%`);
const uwsModule = process.env.BENCH_UWS_MODULE;
const uwsNode = process.env.BENCH_UWS_NODE || process.execPath;

const manifest = readManifest(dataDir);
if (!manifest) {
  console.error(`no index in ${dataDir}: run npm start once (it builds the demo corpus) or npm run ingest`);
  process.exit(2);
}
if (peers && !corpusPath) {
  console.error('BENCH_CORPUS: the peers need the JSONL the index in DATA_DIR was built from (the Fastify peer indexes the same passages)');
  process.exit(2);
}

const wrk = findWrk();
const oha = findOha();
if (process.env.BENCH_LOADER && !['wrk', 'autocannon'].includes(process.env.BENCH_LOADER)) {
  console.error(`BENCH_LOADER: wrk or autocannon, got ${process.env.BENCH_LOADER}`);
  process.exit(2);
}
if (process.env.BENCH_LOADER === 'wrk' && !wrk) {
  console.error(`BENCH_LOADER=wrk: wrk is not installed; ${SETUP_HINT}`);
  process.exit(2);
}
const loader = process.env.BENCH_LOADER === 'autocannon' || !wrk ? 'autocannon' : 'wrk';
if (!wrk && process.env.BENCH_LOADER !== 'autocannon') {
  console.log(`wrk not found: loading with autocannon, a Node process on the same cores as the server (${SETUP_HINT})`);
}
const loaderLabel = loader === 'wrk' ? `wrk (${wrk!.version}, 1 thread)` : 'autocannon (in the bench process)';

/** Closed loop with the chosen load generator. */
function closedLoad(url: string, paths: string[], connections: number, runSeconds: number, headers: Record<string, string>): Promise<LoadFigures> {
  return loader === 'wrk' ? wrkLoad(wrk!, url, paths, connections, runSeconds, headers) : httpLoad(url, paths, connections, runSeconds, headers);
}

type Target = 'floor' | 'evidence' | 'node:http' | 'fastify' | 'fixed:node' | 'fixed:uws' | 'fixed:uws-node' | `lucene:${LuceneMode}`;
const nodeVersion = (node: string) => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
const TARGET_LABELS: Record<Target, string> = {
  floor: 'in-process floor',
  evidence: 'evidence',
  'node:http': 'node:http peer',
  fastify: 'Fastify + MiniSearch',
  'fixed:node': `node:http fixed body (${process.version})`,
  'fixed:uws': `uWS fixed body (${nodeVersion(uwsNode)})`,
  'fixed:uws-node': `node:http fixed body (${nodeVersion(uwsNode)})`,
  'lucene:exact': 'Lucene exact (in-process)',
  'lucene:count': 'Lucene top-k + count (in-process)',
  'lucene:topk': 'Lucene top-k, totals not exact (in-process)',
};

const figures = new Map<string, LoadFigures>();
const keyOf = (target: Target, workload: WorkloadName, connections: number) => `${target} ${workload} ${connections}`;
const peakRss = new Map<Target, number>();

function report(target: Target, workload: WorkloadName, connections: number, result: LoadFigures): void {
  figures.set(keyOf(target, workload, connections), result);
  const errors = `${result.errors > 0 ? `, ${result.errors} failed` : ''}${result.partial > 0 ? `, ${result.partial} partial` : ''}`;
  console.log(
    `  ${TARGET_LABELS[target]} ${workloadLabel(workload)} x${connections}: ${Math.round(result.qps)} qps, p50 ${milliseconds(result.p50)} ms, p99 ${milliseconds(result.p99)} ms${errors}`,
  );
}

const shapes = new Map<Target, AnswerShape>();
let luceneNote = '';

/** Warm up on every workload, then load each at each concurrency; RSS sampled throughout. */
async function measureServer(target: Target, url: string, headers: Record<string, string>, workloads: Workload[], pid?: number): Promise<void> {
  const pathsOf = (workload: Workload) => (target === 'fastify' ? workload.peerPaths! : workload.paths);
  const rss = pid === undefined ? null : sampleRss(pid);
  console.log(`${TARGET_LABELS[target]} at ${url}: warming up ${warmupSeconds}s per workload`);
  for (const workload of workloads) await drain(await closedLoad(url, pathsOf(workload), 16, warmupSeconds, headers));
  const keyword = workloads.find((workload) => workload.name === 'search-keyword');
  if (keyword && peers && !target.startsWith('fixed:')) shapes.set(target, await fetchAnswerShape(url, pathsOf(keyword), headers));
  for (const workload of workloads) {
    for (const connections of connectionsList) {
      const cpu = cpuMeter(() => (pid === undefined ? null : processCpuSeconds(pid)));
      const result = await closedLoad(url, pathsOf(workload), connections, seconds, headers);
      const used = cpu.stop(result.qps * seconds);
      report(target, workload.name, connections, { ...result, cpuMs: used.processMs, machineCpuMs: used.machineMs });
      await drain(result);
    }
  }
  if (target === 'evidence') await measureOpenLoop(url, headers, workloads);
  if (rss) peakRss.set(target, rss.stop());
}

interface OpenLoopRow {
  workload: WorkloadName;
  percent: number;
  rate: number;
  figures: LoadFigures & { sent: number };
  /** What the server's own histogram timed over the same run, when /metrics answered. */
  server?: ServerLatency;
}
const openLoopRows: OpenLoopRow[] = [];
let openLoopSkipped = '';

/** Constant arrival rates at BENCH_OPEN_LOOP percent of each workload's highest closed-loop QPS. */
async function measureOpenLoop(url: string, headers: Record<string, string>, measured: Workload[]): Promise<void> {
  if (openLoopPercents.length === 0) return;
  if (!oha) {
    openLoopSkipped = `open-loop rows skipped: oha not found (${SETUP_HINT})`;
    console.log(openLoopSkipped);
    return;
  }
  for (const workload of measured) {
    const capacity = Math.max(...connectionsList.map((connections) => figures.get(keyOf('evidence', workload.name, connections))?.qps ?? 0));
    for (const percent of openLoopPercents) {
      const rate = Math.max(1, Math.round((capacity * percent) / 100));
      const route = routeOf(workload.paths[0]);
      const before = await readBuckets(url, route);
      const result = await ohaOpenLoad(oha, url, workload.paths, rate, seconds, openLoopConnections, headers);
      const after = await readBuckets(url, route);
      const server = before && after ? serverLatency(before, after, OPEN_LOOP_TARGET_MS) : undefined;
      openLoopRows.push({ workload: workload.name, percent, rate, figures: result, server });
      const serverText = server ? `; the server's histogram: ${percentText(server.shareWithin)} within ${OPEN_LOOP_TARGET_MS} ms, p99 at most ${server.p99AtMostMs} ms` : '';
      console.log(`  evidence ${workloadLabel(workload.name)} open loop ${percent}% (${rate}/s): ${Math.round(result.qps)} answered/s, p50 ${milliseconds(result.p50)} ms, p99 ${milliseconds(result.p99)} ms, ${result.errors} errors${serverText}`);
      await drain(result);
    }
  }
}

async function withServer(script: string, env: NodeJS.ProcessEnv, label: string, run: (server: ServerProcess) => Promise<void>, node?: string): Promise<void> {
  const server = await startServerProcess(script, env, label, node);
  try {
    await run(server);
  } finally {
    await server.stop();
  }
}

const workloads = workloadNames.map((name) => WORKLOADS[name]);
const serverEnv = { DATA_DIR: dataDir, KEY_REFRESH_MS: '100', REPLICAS: String(replicas) };
const key = process.env.BENCH_KEY || createBenchKey(dataDir);
// A key given for an external server may belong to other stores: the local peer gets its own.
const localKey = external && process.env.BENCH_KEY ? createBenchKey(dataDir) : key;
const indexed = passagesInIndex(dataDir);
console.log(
  `index: ${dataDir}, ${indexed} passages, ${manifest.shards} shards x ${replicas} replicas; ${seconds}s per run at ${connectionsList.join(', ')} connections; ${workloadNames.join(', ')}${peers ? '; with peers' : ''}; load: ${loaderLabel}`,
);

if (external) {
  await measureServer('evidence', external, { 'x-api-key': key }, workloads);
} else {
  await withServer('packages/server/dist/main.js', serverEnv, 'server', (server) =>
    measureServer('evidence', server.url, { 'x-api-key': key }, workloads, server.child.pid),
  );
}

let fastifyCorpus: { passages: number; split: number } | null = null;
if (peers) {
  await withServer('bench/dist/peers/node-http.js', serverEnv, 'node:http peer', (server) =>
    measureServer('node:http', server.url, { 'x-api-key': localKey }, workloads, server.child.pid),
  );
  const keywordOnly = workloads.filter((workload) => workload.peerPaths !== undefined);
  if (keywordOnly.length > 0) {
    await withServer('bench/dist/peers/fastify-minisearch.js', { DATA_DIR: dataDir, BENCH_CORPUS: corpusPath }, 'fastify peer', async (server) => {
      fastifyCorpus = (await (await fetch(`${server.url}/stats`)).json()) as { passages: number; split: number };
      await measureServer('fastify', server.url, {}, keywordOnly, server.child.pid);
    });
    await measureFixedBody(keywordOnly);
    await measureLucene(keywordOnly);
  }
}

/** The HTTP layer alone: fixed-body servers, loaded with the keyword workload's paths (any path gets the body). */
async function measureFixedBody(keywordOnly: Workload[]): Promise<void> {
  const bodyBytes = String(Math.round(shapes.get('evidence')?.bytes ?? 4096));
  const runs: Array<{ target: Target; env: NodeJS.ProcessEnv; node?: string }> = [{ target: 'fixed:node', env: { FIXED_BODY_BYTES: bodyBytes, HTTP_LAYER: 'node' } }];
  if (uwsModule) {
    runs.push({ target: 'fixed:uws', env: { FIXED_BODY_BYTES: bodyBytes, HTTP_LAYER: 'uws', UWS_MODULE: uwsModule }, node: uwsNode });
    if (uwsNode !== process.execPath) runs.push({ target: 'fixed:uws-node', env: { FIXED_BODY_BYTES: bodyBytes, HTTP_LAYER: 'node' }, node: uwsNode });
  }
  for (const { target, env, node } of runs) {
    await withServer('bench/dist/peers/fixed-body.js', env, TARGET_LABELS[target], (server) => measureServer(target, server.url, {}, keywordOnly, server.child.pid), node);
  }
}

/** Lucene in-process on the same passages: N threads for N connections, each mode in turn. */
async function measureLucene(keywordOnly: Workload[]): Promise<void> {
  const keyword = keywordOnly.find((workload) => workload.name === 'search-keyword');
  if (!keyword) return;
  const skip = (why: string) => {
    luceneNote = `Lucene rows skipped: ${why}`;
    console.log(luceneNote);
  };
  const peer = prepareLucenePeer();
  if (isUnavailable(peer)) return skip(peer.unavailable);
  const index = await luceneIndexFor(peer, dataDir, corpusPath!);
  if (isUnavailable(index)) return skip(index.unavailable);
  console.log(`Lucene in-process: ${index.passages} passages; ${warmupSeconds}s warm-up + ${seconds}s per mode and thread count`);
  for (const connections of connectionsList) {
    const run = runLuceneBench(peer, index, connections, seconds, warmupSeconds);
    if (isUnavailable(run)) {
      luceneNote = `Lucene rows missing: ${run.unavailable}`;
      console.log(luceneNote);
      return;
    }
    if (!luceneNote) luceneNote = `Lucene: ${run.header.join('; ')}`;
    for (const mode of run.figures) {
      report(`lucene:${mode.mode}`, 'search-keyword', connections, { requests: mode.queries, qps: mode.qps, p50: mode.p50, p99: mode.p99, errors: 0, partial: 0 });
    }
  }
}

// The floor runs after the servers are gone, so it never shares the cores with one, and under
// the V8 setting a server runs with (startServer applies it; the floor calls openServices).
applyServingV8Flags();
console.log('in-process floor: warming up');
const services = await openServices(readConfig({ ...process.env, DATA_DIR: dataDir, REPLICAS: String(replicas) }));
const capabilityAt = (path: string) => CATALOG.find((entry) => entry.rest.path === path)!.capability as Capability;
for (const workload of workloads) {
  const work = workload.floor(services, capabilityAt);
  await measureFloor(work, 16, warmupSeconds);
  for (const connections of connectionsList) {
    const cpu = cpuMeter(ownCpuSeconds);
    const result = await measureFloor(work, connections, seconds, workload.floorPartial);
    const used = cpu.stop(result.requests);
    report('floor', workload.name, connections, { ...result, cpuMs: used.processMs, machineCpuMs: used.machineMs });
  }
}
await closeServices(services);

/** Whether CPU time was read (Linux /proc): the CPU columns are shown only then. */
const cpuMeasured = [...figures.values()].some((result) => typeof result.cpuMs === 'number');
const cpuCell = (ms: number | null | undefined) => (typeof ms === 'number' ? ms.toFixed(2) : '');

const targets: Target[] = peers
  ? ['floor', 'evidence', 'node:http', 'fastify', 'fixed:node', 'fixed:uws', 'fixed:uws-node', ...LUCENE_MODES.map((mode) => `lucene:${mode}` as const)]
  : ['floor', 'evidence'];
const rows: Row[] = [];
for (const workload of workloadNames) {
  for (const connections of connectionsList) {
    const of = (target: Target) => figures.get(keyOf(target, workload, connections));
    for (const target of targets) {
      const result = of(target);
      if (!result) continue;
      const row: Row = {
        path: workloadLabel(workload),
        server: TARGET_LABELS[target],
        connections,
        QPS: Math.round(result.qps),
        'p50 ms': milliseconds(result.p50),
        'p99 ms': milliseconds(result.p99),
        'vs floor': target === 'floor' ? '' : ratio(result.qps, of('floor')?.qps),
      };
      if (cpuMeasured) {
        row['CPU ms/answer'] = cpuCell(result.cpuMs);
        row['machine CPU ms/answer'] = cpuCell(result.machineCpuMs);
        // Floor CPU per answer over this row's: above 1, the row spends less CPU per answer.
        row['vs floor, CPU'] = target === 'floor' || !result.cpuMs ? '' : ratio(of('floor')?.cpuMs ?? undefined, result.cpuMs);
      }
      if (peers) {
        row['vs Fastify'] = target === 'fastify' ? '' : ratio(result.qps, of('fastify')?.qps);
        row['vs node:http'] = target === 'node:http' ? '' : ratio(result.qps, of('node:http')?.qps);
      }
      if (result.errors > 0) row.failed = result.errors;
      if (result.partial > 0) row.partial = result.partial;
      rows.push(row);
    }
  }
}

const columns = [
  'path',
  'server',
  'connections',
  'QPS',
  'p50 ms',
  'p99 ms',
  'vs floor',
  ...(cpuMeasured ? ['CPU ms/answer', 'machine CPU ms/answer', 'vs floor, CPU'] : []),
  ...(peers ? ['vs Fastify', 'vs node:http'] : []),
];
if (rows.some((row) => row.failed !== undefined)) columns.push('failed');
if (rows.some((row) => row.partial !== undefined)) columns.push('partial');
console.log();
console.log(markdownTable(rows, columns));
console.log();
console.log(`Load: ${loaderLabel}, closed loop (each connection sends its next request when the previous answer arrives).`);
console.log('QPS: answers (HTTP 2xx; floor: calls that resolved) per second. Ratios are QPS ratios: the row\'s QPS / the reference\'s QPS at the same path and connections (above 1: the row serves more).');
if (cpuMeasured) {
  console.log(
    'CPU ms/answer: CPU time (user + system, every thread) of the server process per answer (floor: of the bench process running it); machine CPU ms/answer: every core\'s busy time per answer, the load generator\'s included. vs floor, CPU: the floor\'s CPU ms/answer over the row\'s: the share of the row\'s CPU that the floor\'s own work accounts for, apart from how the cores were shared with the load generator (QPS ratios measure both).',
  );
}
if (columns.includes('failed')) console.log('failed: non-2xx answers and transport errors (HTTP; their latencies are in p50/p99), rejected calls (floor; not in p50/p99).');
if (columns.includes('partial')) console.log(`partial: answers (counted in QPS) that part of the index did not contribute to within SEARCH_TIMEOUT_MS.`);
console.log(
  `Floor: the capability's own run in-process (/search: the vertical router and the shard pool's scatter-gather, top ${RESULT_LIMIT}; /ground: its pool searches, story expansion, evidence worker), without HTTP, authentication, metering or JSON.`,
);
if (peers) {
  console.log('node:http peer: the same services and capability path (authentication, validation, metering, handler, JSON) behind a bare node:http handler (no route table, request ids or shutdown states), so its ratio is the cost of the server\'s transport layer.');
  if (fastifyCorpus) {
    const corpus = fastifyCorpus as { passages: number; split: number };
    console.log(
      `Fastify + MiniSearch: ${corpus.passages} passages (the index holds ${indexed}; ${corpus.split} split from ${corpusPath}, the rest removed or left out by ingest), BM25+ over title and text, OR, no authentication, metering or vertical router, keyword only; its hits carry 5 fields (id, url, title, snippet, score) where evidence's carry all ${HIT_FIELDS.length}.`,
    );
    console.log(
      '  Totals differ by design: evidence routes a query to a vertical when its top hits agree on one, and then counts matches in that vertical; MiniSearch counts every passage sharing a term.',
    );
  }
  console.log(
    'Fixed body: a server that answers every GET with the same JSON body (the mean size of evidence\'s keyword answer) and does nothing else: the HTTP layer\'s own cost per request on this machine, the most a faster HTTP layer could give back.',
  );
  if (luceneNote) console.log(luceneNote);
  console.log(
    `Lucene rows: the peer's own closed loop in its JVM, N threads for N connections, on the passages the index holds (one Lucene index, one segment), each call parsing the query and reading the top ${RESULT_LIMIT} stored ids: no HTTP, no vertical router; read them beside the floor. exact: one pass, exact totals; top-k + count: block-max WAND top-k then IndexSearcher.count (exact totals, two passes); top-k: totals only a lower bound past 1000.`,
  );
  for (const [target, shape] of shapes) {
    const reference = shapes.get('evidence');
    const overlap = target === 'evidence' || !reference ? null : meanOverlap(reference.ids, shape.ids);
    const overlapText = overlap === null ? '' : `, ${(100 * overlap).toFixed(0)}% of evidence's top ${RESULT_LIMIT} among its own`;
    console.log(
      `  /search keyword answers, ${TARGET_LABELS[target]}: ${shape.results.toFixed(1)} results, total ${Math.round(shape.total)}, ${(shape.bytes / 1024).toFixed(1)} KiB per answer${overlapText}`,
    );
  }
}
if (openLoopRows.length > 0) {
  const openRows: Row[] = openLoopRows.map(({ workload, percent, rate, figures: result, server }) => ({
    path: workloadLabel(workload),
    server: 'evidence',
    'of capacity': `${percent}%`,
    'rate /s': rate,
    'sent /s': Math.round(result.sent / seconds),
    'answered /s': Math.round(result.qps),
    'p50 ms': milliseconds(result.p50),
    'p99 ms': milliseconds(result.p99),
    errors: result.errors,
    [`server: within ${OPEN_LOOP_TARGET_MS} ms`]: server ? percentText(server.shareWithin) : 'n/a',
    'server: p99 at most ms': server ? server.p99AtMostMs : 'n/a',
  }));
  console.log();
  console.log(markdownTable(openRows));
  console.log();
  console.log(
    `Open loop: oha (${oha!.version}) sends at a constant rate, whatever the answers do, over up to ${openLoopConnections} connections for ${seconds}s; capacity is the workload's highest closed-loop QPS above; latencies count from each request's due time (--latency-correction: no coordinated omission); each request takes one of the workload's paths at random. errors: answers with status > 399 and socket errors; requests in flight at the end are waited for. The server columns are the server's own histogram over the same run (evidence_http_request_duration_seconds on /metrics, read before and after: from the handler's start to the answer written, so without the time a request waited for a core before the server read it); its p99 is the bucket bound that holds 99% of the answers.`,
  );
} else if (openLoopSkipped) {
  console.log(openLoopSkipped);
}
if (peakRss.size > 0) {
  console.log(`Peak RSS under load: ${[...peakRss].map(([target, bytes]) => `${TARGET_LABELS[target]} ${mebibytes(bytes)} MiB`).join(', ')}`);
}
