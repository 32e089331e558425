/**
 * `npm run bench:http`: HTTP load on the server (packages/server/dist/main.js, started here as
 * a child process) for each workload (BENCH_PATHS: search-keyword, search-hybrid, search-hybrid-new, ground) at
 * each concurrency (BENCH_CONNECTIONS, default 1,16,64,256), each next to the in-process floor
 * of the same work at the same concurrency (workloads.ts), measured in the same run.
 *
 * `npm run bench:peers` (or BENCH_PEERS=1) adds, on the same index and the same queries, each
 * in its own process and warmed up the same way:
 *   - node:http: the same capability path behind node:http (bench/src/peers/node-http.ts);
 *   - Fastify + MiniSearch over the same passages, read from BENCH_CORPUS, the JSONL the index
 *     was built from (bench/src/peers/fastify-minisearch.ts); keyword search only.
 *
 * Servers run one at a time, the floor after them all, so no two share the cores. BENCH_URL and
 * BENCH_KEY load a server that is already running instead of starting one.
 */
import { readManifest } from '@evidence/native';
import { HIT_FIELDS } from '@evidence/schemas';
import { CATALOG, closeServices, openServices, readConfig, type Capability } from '@evidence/server';
import { fetchAnswerShape, meanOverlap, type AnswerShape } from './answer-shape.js';
import { measureFloor } from './floor.js';
import { createBenchKey, drain, httpLoad, passagesInIndex, sampleRss, startServerProcess, type ServerProcess } from './load.js';
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

const manifest = readManifest(dataDir);
if (!manifest) {
  console.error(`no index in ${dataDir}: run npm start once (it builds the demo corpus) or npm run ingest`);
  process.exit(2);
}
if (peers && !corpusPath) {
  console.error('BENCH_CORPUS: the peers need the JSONL the index in DATA_DIR was built from (the Fastify peer indexes the same passages)');
  process.exit(2);
}

type Target = 'floor' | 'evidence' | 'node:http' | 'fastify';
const TARGET_LABELS: Record<Target, string> = {
  floor: 'in-process floor',
  evidence: 'evidence',
  'node:http': 'node:http peer',
  fastify: 'Fastify + MiniSearch',
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

/** Warm up on every workload, then load each at each concurrency; RSS sampled throughout. */
async function measureServer(target: Target, url: string, headers: Record<string, string>, workloads: Workload[], pid?: number): Promise<void> {
  const pathsOf = (workload: Workload) => (target === 'fastify' ? workload.peerPaths! : workload.paths);
  const rss = pid === undefined ? null : sampleRss(pid);
  console.log(`${TARGET_LABELS[target]} at ${url}: warming up ${warmupSeconds}s per workload`);
  for (const workload of workloads) await drain(await httpLoad(url, pathsOf(workload), 16, warmupSeconds, headers));
  const keyword = workloads.find((workload) => workload.name === 'search-keyword');
  if (keyword && peers) shapes.set(target, await fetchAnswerShape(url, pathsOf(keyword), headers));
  for (const workload of workloads) {
    for (const connections of connectionsList) {
      const result = await httpLoad(url, pathsOf(workload), connections, seconds, headers);
      report(target, workload.name, connections, result);
      await drain(result);
    }
  }
  if (rss) peakRss.set(target, rss.stop());
}

async function withServer(script: string, env: NodeJS.ProcessEnv, label: string, run: (server: ServerProcess) => Promise<void>): Promise<void> {
  const server = await startServerProcess(script, env, label);
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
  `index: ${dataDir}, ${indexed} passages, ${manifest.shards} shards x ${replicas} replicas; ${seconds}s per run at ${connectionsList.join(', ')} connections; ${workloadNames.join(', ')}${peers ? '; with peers' : ''}`,
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
  }
}

// The floor runs after the servers are gone, so it never shares the cores with one.
console.log('in-process floor: warming up');
const services = await openServices(readConfig({ ...process.env, DATA_DIR: dataDir, REPLICAS: String(replicas) }));
const capabilityAt = (path: string) => CATALOG.find((entry) => entry.rest.path === path)!.capability as Capability;
for (const workload of workloads) {
  const work = workload.floor(services, capabilityAt);
  await measureFloor(work, 16, warmupSeconds);
  for (const connections of connectionsList) {
    report('floor', workload.name, connections, await measureFloor(work, connections, seconds, workload.floorPartial));
  }
}
await closeServices(services);

const targets: Target[] = peers ? ['floor', 'evidence', 'node:http', 'fastify'] : ['floor', 'evidence'];
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

const columns = ['path', 'server', 'connections', 'QPS', 'p50 ms', 'p99 ms', 'vs floor', ...(peers ? ['vs Fastify', 'vs node:http'] : [])];
if (rows.some((row) => row.failed !== undefined)) columns.push('failed');
if (rows.some((row) => row.partial !== undefined)) columns.push('partial');
console.log();
console.log(markdownTable(rows, columns));
console.log();
console.log('QPS: answers (HTTP 2xx; floor: calls that resolved) per second. Ratios are QPS ratios: the row\'s QPS / the reference\'s QPS at the same path and connections (above 1: the row serves more).');
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
  for (const [target, shape] of shapes) {
    const reference = shapes.get('evidence');
    const overlap = target === 'evidence' || !reference ? null : meanOverlap(reference.ids, shape.ids);
    const overlapText = overlap === null ? '' : `, ${(100 * overlap).toFixed(0)}% of evidence's top ${RESULT_LIMIT} among its own`;
    console.log(
      `  /search keyword answers, ${TARGET_LABELS[target]}: ${shape.results.toFixed(1)} results, total ${Math.round(shape.total)}, ${(shape.bytes / 1024).toFixed(1)} KiB per answer${overlapText}`,
    );
  }
}
if (peakRss.size > 0) {
  console.log(`Peak RSS under load: ${[...peakRss].map(([target, bytes]) => `${TARGET_LABELS[target]} ${mebibytes(bytes)} MiB`).join(', ')}`);
}
