/**
 * `npm run bench:soak`: a long mixed load on the server (packages/server/dist/main.js, started
 * here as a child process on DATA_DIR) to catch what grows: SOAK_REQUESTS (default 50,000)
 * requests at SOAK_CONNECTIONS (16) keep-alive connections, in blocks of SOAK_BLOCK (5,000).
 * After each block it prints the server's RSS (VmRSS of /proc/PID/status), the block's p50 and
 * p99 latency and its answers by status; at the end the verdict: RSS after the last block
 * within SOAK_RSS_TOLERANCE (10%) of RSS after the first block (the warm-up).
 *
 * The mix (one fixed, seeded list of requests that every connection cycles through): keyword
 * and hybrid /search with varied limits, sorts, collapses, facets, verticals and filters;
 * /browse; /doc/{id}; /similar; /why_not; /ground; /account; and MCP tools/call (web_search,
 * get_document, browse). Ids and URLs come from the index itself (a first search per bench
 * query). It leaves out inputs known to take the process down (deep parentheses, limit=0 on
 * browse, empty limit=): a soak measures growth, the fuzz suite finds crashers.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { readManifest } from '@evidence/native';
import { SEARCH_SORTS } from '@evidence/schemas';
import { createBenchKey, passagesInIndex, startServerProcess, type ServerProcess } from './load.js';
import { BENCH_QUERIES } from './queries.js';
import { markdownTable, mebibytes, milliseconds, type Row } from './report.js';

const dataDir = process.env.DATA_DIR || './data';
const totalRequests = Number(process.env.SOAK_REQUESTS || 50_000);
const blockSize = Number(process.env.SOAK_BLOCK || 5_000);
const connections = Number(process.env.SOAK_CONNECTIONS || 16);
const tolerance = Number(process.env.SOAK_RSS_TOLERANCE || 0.1);
const seed = Number(process.env.SOAK_SEED || 13);

if (!readManifest(dataDir)) {
  console.error(`no index in ${dataDir}: run npm start once (it builds the demo corpus) or npm run ingest`);
  process.exit(2);
}
for (const [name, value] of [['SOAK_REQUESTS', totalRequests], ['SOAK_BLOCK', blockSize], ['SOAK_CONNECTIONS', connections]] as const) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name}: expected a positive integer, got ${value}`);
    process.exit(2);
  }
}

/** Resident set size of a process in bytes, from /proc (0 once it is gone). */
function residentBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** A small seeded generator (mulberry32): the mix is the same on every run. */
function random(seedValue: number): () => number {
  let state = seedValue >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Sample {
  ids: string[];
  urls: string[];
  verticals: string[];
}

/** Passage ids, URLs and verticals of the index, from one search per bench query. */
async function sampleIndex(url: string, headers: Record<string, string>): Promise<Sample> {
  const sample: Sample = { ids: [], urls: [], verticals: [] };
  for (const query of BENCH_QUERIES) {
    const response = await fetch(`${url}/search?q=${encodeURIComponent(query)}&mode=keyword&limit=5`, { headers });
    if (response.status !== 200) throw new Error(`sampling the index: /search answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { results: Array<{ id: string; url: string; vertical: string }> };
    for (const hit of body.results) {
      sample.ids.push(hit.id);
      sample.urls.push(hit.url);
      if (!sample.verticals.includes(hit.vertical)) sample.verticals.push(hit.vertical);
    }
  }
  if (sample.ids.length === 0) throw new Error('sampling the index: no bench query found anything');
  return sample;
}

type Request = { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> };

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The mix: `count` requests drawn with fixed weights from the kinds below. */
function buildMix(sample: Sample, count: number): { requests: Request[]; kinds: Record<string, number> } {
  const next = random(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const query = () => encodeURIComponent(pick(BENCH_QUERIES));
  const limit = () => pick([1, 3, 5, 10, 10, 20, 50, 100]);
  const sorts = SEARCH_SORTS;
  const filters = () =>
    pick([
      '',
      '',
      `&vertical=${encodeURIComponent(pick(sample.verticals))}`,
      '&collapse=story',
      '&collapse=host',
      '&facets=true',
      '&min_host_rank=0.5',
      '&prefer_recent=true',
      '&lang=en',
      '&safe=false',
      '&tld=com,org',
      '&fields=id,url,title,score',
    ]);
  let rpcId = 0;
  const toolCall = (name: string, args: unknown): Request => ({
    method: 'POST',
    path: '/mcp',
    headers: MCP_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } }),
  });
  const kinds: Array<[string, number, () => Request]> = [
    ['search keyword', 30, () => ({ method: 'GET', path: `/search?q=${query()}&mode=keyword&limit=${limit()}&sort=${pick(sorts)}${filters()}` })],
    ['search hybrid', 20, () => ({ method: 'GET', path: `/search?q=${query()}&limit=${limit()}${filters()}` })],
    ['browse', 6, () => ({ method: 'GET', path: `/browse?limit=${limit()}&sort=${pick(sorts.slice(1))}${next() < 0.5 ? `&vertical=${encodeURIComponent(pick(sample.verticals))}` : ''}` })],
    ['doc', 8, () => ({ method: 'GET', path: `/doc/${encodeURIComponent(pick(sample.ids))}${next() < 0.3 ? '?strip=true' : ''}` })],
    ['similar', 6, () => ({ method: 'GET', path: `/similar?id=${encodeURIComponent(pick(sample.ids))}&limit=${limit()}` })],
    ['why_not', 5, () => ({ method: 'GET', path: `/why_not?url=${encodeURIComponent(next() < 0.8 ? pick(sample.urls) : `https://unknown.example/${Math.floor(next() * 1e6)}`)}` })],
    ['ground', 4, () => ({ method: 'GET', path: `/ground?objective=${query()}${next() < 0.5 ? '&max_age=52w' : ''}` })],
    ['account', 4, () => ({ method: 'GET', path: '/account' })],
    ['mcp web_search', 9, () => toolCall('web_search', { query: pick(BENCH_QUERIES), limit: limit(), mode: pick(['keyword', 'hybrid']) })],
    ['mcp get_document', 4, () => toolCall('get_document', { id: pick(sample.ids) })],
    ['mcp browse', 4, () => toolCall('browse', { limit: limit() })],
  ];
  const totalWeight = kinds.reduce((sum, [, weight]) => sum + weight, 0);
  const requests: Request[] = [];
  const counts: Record<string, number> = {};
  for (let index = 0; index < count; index++) {
    let draw = next() * totalWeight;
    const kind = kinds.find(([, weight]) => (draw -= weight) < 0) ?? kinds[0];
    counts[kind[0]] = (counts[kind[0]] ?? 0) + 1;
    requests.push(kind[2]());
  }
  return { requests, kinds: counts };
}

interface Block {
  requests: number;
  rss: number;
  p50: number;
  p99: number;
  qps: number;
  statuses: Record<string, number>;
  errors: number;
}

/** One block: exactly `amount` requests over the connections, each connection cycling the mix from its own offset. */
async function runBlock(url: string, key: string, mix: Request[], amount: number, offset: number): Promise<Omit<Block, 'rss' | 'requests'>> {
  const rotated = [...mix.slice(offset % mix.length), ...mix.slice(0, offset % mix.length)];
  const result = await autocannon({
    url,
    connections,
    amount,
    timeout: 30,
    headers: { 'x-api-key': key },
    requests: rotated.map((request) => ({ method: request.method, path: request.path, body: request.body, headers: request.headers })),
  });
  const statuses: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (!status.startsWith('2')) statuses[status] = stats.count ?? 0;
  }
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    qps: (result['2xx'] + result.non2xx) / ((result.finish.getTime() - result.start.getTime()) / 1000),
    statuses,
    errors: result.errors + result.timeouts,
  };
}

const key = process.env.BENCH_KEY || createBenchKey(dataDir);
const headers = { 'x-api-key': key };
const server: ServerProcess = await startServerProcess('packages/server/dist/main.js', { DATA_DIR: dataDir, KEY_REFRESH_MS: '100' }, 'server');
const pid = server.child.pid!;
let died: string | null = null;
server.child.once('exit', (code, signal) => {
  died = `server exited (code ${code}, signal ${signal})`;
});

try {
  // a key created a moment ago may need one refresh of the server's key snapshot
  for (let attempt = 0; attempt < 50; attempt++) {
    if ((await fetch(`${server.url}/account`, { headers })).status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const sample = await sampleIndex(server.url, headers);
  const { requests: mix, kinds } = buildMix(sample, 997);
  console.log(
    `soak: ${dataDir}, ${passagesInIndex(dataDir)} passages; ${totalRequests} requests at ${connections} connections in blocks of ${blockSize}; server pid ${pid}, RSS at start ${mebibytes(residentBytes(pid))} MiB`,
  );
  console.log(`mix (of ${mix.length} requests cycled): ${Object.entries(kinds).map(([kind, count]) => `${kind} ${count}`).join(', ')}`);

  const blocks: Block[] = [];
  const rows: Row[] = [];
  for (let sent = 0; sent < totalRequests && !died; sent += blockSize) {
    const amount = Math.min(blockSize, totalRequests - sent);
    const figures = await runBlock(server.url, key, mix, amount, sent);
    const block: Block = { requests: sent + amount, rss: residentBytes(pid), ...figures };
    blocks.push(block);
    const failed = Object.entries(block.statuses).map(([status, count]) => `${count} x ${status}`);
    if (block.errors > 0) failed.push(`${block.errors} transport errors`);
    const row: Row = {
      requests: block.requests,
      'RSS MiB': mebibytes(block.rss),
      'vs first': blocks.length === 1 ? '' : `${(((block.rss - blocks[0].rss) / blocks[0].rss) * 100).toFixed(1)}%`,
      QPS: Math.round(block.qps),
      'p50 ms': milliseconds(block.p50),
      'p99 ms': milliseconds(block.p99),
      'non-2xx': failed.join(', ') || '0',
    };
    rows.push(row);
    console.log(`  ${row.requests} requests: RSS ${row['RSS MiB']} MiB, p50 ${row['p50 ms']} ms, p99 ${row['p99 ms']} ms, ${row.QPS} QPS, non-2xx ${row['non-2xx']}`);
  }

  console.log();
  console.log(markdownTable(rows, ['requests', 'RSS MiB', 'vs first', 'QPS', 'p50 ms', 'p99 ms', 'non-2xx']));
  console.log();
  if (died) {
    console.log(`verdict: FAIL, ${died} after ${blocks.at(-1)?.requests ?? 0} requests`);
    process.exitCode = 1;
  } else {
    const first = blocks[0].rss;
    const last = blocks.at(-1)!.rss;
    const growth = (last - first) / first;
    const perRequest = blocks.length > 1 ? (last - first) / (blocks.at(-1)!.requests - blocks[0].requests) : 0;
    const pass = Math.abs(growth) <= tolerance;
    console.log(
      `verdict: ${pass ? 'PASS' : 'FAIL'}: RSS ${mebibytes(last)} MiB after ${blocks.at(-1)!.requests} requests vs ${mebibytes(first)} MiB after the first ${blocks[0].requests} (warm-up): ` +
        `${(growth * 100).toFixed(1)}% (bar: within ${(tolerance * 100).toFixed(0)}%), ${(perRequest / 1024).toFixed(1)} KiB per request after warm-up`,
    );
    if (!pass) process.exitCode = 1;
  }
} finally {
  await server.stop();
}
