/**
 * `npm run bench:layers`: the HTTP layer and the request log on the real service (the server
 * process, packages/server/dist/main.js), same build, same run, loaded by wrk (one thread).
 *
 * Two experiments, each in BENCH_ROUNDS rounds that alternate their arms (A, B, B, A, ...) cell
 * by cell, every arm's server running throughout, so that the machine's other load falls on both
 * alike; every figure is reported as the median over rounds with its spread (min-max), and the
 * ratio of two arms per round (adjacent cells) and its median:
 *
 *   log     node:http, LOG_LEVEL=info against LOG_LEVEL=warn: /healthz and /account at 16
 *           connections (issue 34's bar: /account at info >= 90% of warn).
 *   layers  HTTP_LAYER=uws against HTTP_LAYER=node, both run by the same Node under the same
 *           glibc (Debian 13's from scripts/trixie-glibc.sh, which uWS needs here; both arms
 *           under it, so the layer is the only difference): /healthz, /account, keyword /search
 *           and /ground at 1, 16 and 64 connections; answers/s, p50/p99 and the server's CPU per
 *           answer (user + system of every thread of the server process, from /proc).
 *   profile the uWS server under keyword /search at 16 connections with V8's CPU profiler
 *           (--cpu-prof): where the main thread's time goes, by part of the service and by
 *           function (cpu-profile-summary.ts); not in the default set.
 *
 * Settings: DATA_DIR (an index; default bench/out/layers-data, built by `npm start` with
 * DEMO_PASSAGES=20000 EMBEDDER=none when missing), BENCH_EXPERIMENTS (log,layers),
 * BENCH_ROUNDS (6), BENCH_SECONDS (3 per cell), BENCH_WARMUP_SECONDS (3 per path and server), BENCH_CONNECTIONS (1,16,64),
 * BENCH_LAYER_PATHS (healthz,account,search,ground). Figures go to stdout as Markdown.
 */
import { readManifest } from '@evidence/native';
import { createServer } from 'node:net';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { summarize } from './cpu-profile-summary.js';
import { measureLogLineCost } from './log-line-cost.js';
import { cpuMeter, processCpuSeconds } from './cpu-time.js';
import { createBenchKey, startServerProcess } from './load.js';
import { findWrk, SETUP_HINT, wrkLoad } from './native-load.js';
import { BENCH_QUERIES } from './queries.js';
import { markdownTable, milliseconds, parseCounts, parseNames, type LoadFigures, type Row } from './report.js';

const dataDir = process.env.DATA_DIR || 'bench/out/layers-data';
const rounds = Number(process.env.BENCH_ROUNDS || 6);
const seconds = Number(process.env.BENCH_SECONDS || 3);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS || 3);
const connectionsList = parseCounts(process.env.BENCH_CONNECTIONS, [1, 16, 64], 'BENCH_CONNECTIONS');
const EXPERIMENTS = ['log', 'layers', 'profile'] as const;
const experiments = parseNames(process.env.BENCH_EXPERIMENTS, EXPERIMENTS, ['log', 'layers'], 'BENCH_EXPERIMENTS');
const PATH_NAMES = ['healthz', 'account', 'search', 'ground'] as const;
type PathName = (typeof PATH_NAMES)[number];
const pathNames = parseNames(process.env.BENCH_LAYER_PATHS, PATH_NAMES, PATH_NAMES, 'BENCH_LAYER_PATHS');
const SERVER = 'packages/server/dist/main.js';

const PATHS: Record<PathName, { label: string; paths: string[]; key: boolean }> = {
  healthz: { label: '/healthz', paths: ['/healthz'], key: false },
  account: { label: '/account', paths: ['/account'], key: true },
  search: { label: '/search keyword', paths: BENCH_QUERIES.map((q) => `/search?q=${encodeURIComponent(q)}&mode=keyword&limit=10`), key: true },
  ground: { label: '/ground', paths: BENCH_QUERIES.map((q) => `/ground?objective=${encodeURIComponent(q)}`), key: true },
};

const wrk = findWrk();
if (!wrk) {
  console.error(`bench:layers needs wrk; ${SETUP_HINT}`);
  process.exit(2);
}

if (!readManifest(dataDir)) {
  console.log(`no index in ${dataDir}: building the demo corpus (20,000 passages, no vectors) with npm start`);
  const built = await startServerProcess('packages/server/dist/start.js', { DATA_DIR: dataDir, EMBEDDER: 'none', DEMO_PASSAGES: '20000' }, 'demo index');
  await built.stop();
}
const key = createBenchKey(dataDir);

/** The loader command that runs Node under Debian 13's glibc (fetched into .glibc/ on first use). */
function trixieNode(): string[] {
  const loader = execFileSync('bash', ['scripts/trixie-glibc.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return [...loader.split(/\s+/), process.execPath];
}

interface Arm {
  name: string;
  env: Record<string, string>;
  node?: string[];
  /** The server's entry point (default: this build's packages/server/dist/main.js). */
  script?: string;
}

type Cell = LoadFigures & { cpuMs: number | null };
/** figures[arm][path][connections] = one cell per round */
const figures = new Map<string, Cell[]>();
const cellKey = (arm: string, path: PathName, connections: number) => `${arm} ${path} ${connections}`;

/** A port free now (the kernel's pick), for a server whose start line LOG_LEVEL may hide. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Started {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The server with `env`, run by `node` (a command: a loader's words, then Node), on a port chosen
 * here; ready when /healthz answers (at LOG_LEVEL=warn there is no start line to wait for). Its
 * stdout is a pipe this process drains, as a log collector would.
 */
async function startServer(env: Record<string, string>, node: string[], script = SERVER): Promise<Started> {
  const port = await freePort();
  const [command, ...prefix] = node;
  const child = spawn(command, [...prefix, script], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout!.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`server (${JSON.stringify(env)}) exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (attempt > 600) throw new Error('server did not answer /healthz in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One cell: `connections` on one arm's running server for `seconds`, with the server's CPU. */
async function measureCell(arm: Arm, server: Started, name: PathName, connections: number, round: number): Promise<void> {
  const { paths: requests, key: needsKey } = PATHS[name];
  const headers: Record<string, string> = needsKey ? { 'x-api-key': key } : {};
  const pid = server.child.pid!;
  const cpu = cpuMeter(() => processCpuSeconds(pid));
  const result = await wrkLoad(wrk!, server.url, requests, connections, seconds, headers);
  const used = cpu.stop(result.requests);
  const cell = { ...result, cpuMs: used.processMs };
  const list = figures.get(cellKey(arm.name, name, connections)) ?? [];
  list.push(cell);
  figures.set(cellKey(arm.name, name, connections), list);
  console.log(`  round ${round + 1} ${arm.name} ${PATHS[name].label} x${connections}: ${Math.round(result.qps)}/s p50 ${milliseconds(result.p50)} ms p99 ${milliseconds(result.p99)} ms cpu ${cell.cpuMs?.toFixed(3)} ms/answer${result.errors ? ` (${result.errors} errors)` : ''}`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const spread = (values: number[]) => `${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))}`;

/**
 * Every arm's server runs for the whole experiment (an idle one costs nothing) and is warmed up
 * on every path first; then each cell (path, connections) is measured on every arm back to back,
 * the arms' order alternating per round (A B, B A, ...). On a machine other work shares, adjacent
 * cells see about the same load, so the per-round ratio of two arms is far steadier than either
 * arm's own figure.
 */
async function runRounds(arms: Arm[], paths: PathName[], connections: number[]): Promise<void> {
  const servers: Started[] = [];
  try {
    for (const arm of arms) servers.push(await startServer({ DATA_DIR: dataDir, ...arm.env }, arm.node ?? [process.execPath], arm.script));
    for (const [index, arm] of arms.entries()) {
      for (const name of paths) await wrkLoad(wrk!, servers[index].url, PATHS[name].paths, 16, warmupSeconds, PATHS[name].key ? { 'x-api-key': key } : {});
      console.log(`  ${arm.name}: started and warmed up`);
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [...arms.keys()] : [...arms.keys()].reverse();
      for (const name of paths) for (const c of connections) for (const index of order) await measureCell(arms[index], servers[index], name, c, round);
    }
  } finally {
    for (const server of servers) await server.stop();
  }
}

/** Per path and connections: each arm's median answers/s (spread), p50/p99, CPU, and B/A per round. */
function table(arms: [Arm, Arm], paths: PathName[], connections: number[]): string {
  const rows: Row[] = [];
  for (const path of paths) {
    for (const c of connections) {
      const [a, b] = arms.map((arm) => figures.get(cellKey(arm.name, path, c)) ?? []);
      if (a.length === 0 || b.length === 0) continue;
      const perRound = a.map((cell, index) => (b[index] ? b[index].qps / cell.qps : NaN)).filter(Number.isFinite);
      const row: Row = { path: PATHS[path].label, connections: c };
      for (const [index, cells] of [a, b].entries()) {
        const name = arms[index].name;
        row[`${name} answers/s (min-max)`] = `${Math.round(median(cells.map((cell) => cell.qps)))} (${spread(cells.map((cell) => cell.qps))})`;
        row[`${name} p50/p99 ms`] = `${milliseconds(median(cells.map((cell) => cell.p50)))} / ${milliseconds(median(cells.map((cell) => cell.p99)))}`;
        const cpu = cells.map((cell) => cell.cpuMs).filter((value): value is number => value !== null);
        row[`${name} CPU ms/answer`] = cpu.length ? median(cpu).toFixed(3) : 'n/a';
      }
      row[`${arms[1].name}/${arms[0].name} per round`] = perRound.map((value) => `${value.toFixed(2)}x`).join(' ');
      row[`${arms[1].name}/${arms[0].name} median`] = `${median(perRound).toFixed(2)}x`;
      rows.push(row);
    }
  }
  return markdownTable(rows);
}

console.log(`bench:layers: ${rounds} rounds, ${seconds} s per cell, wrk ${wrk.version} (1 thread), index ${dataDir}, Node ${process.version}`);
const output: string[] = [];

if (experiments.includes('log')) {
  // BENCH_LOG_BEFORE: another build's server entry point (a copy of packages/server/dist from
  // before the request log change), measured in the same rounds
  const before = process.env.BENCH_LOG_BEFORE;
  console.log(`\n== request log: node:http, LOG_LEVEL=warn against info, 16 connections${before ? `, this build and ${before}` : ''}`);
  const after: [Arm, Arm] = [
    { name: 'warn', env: { HTTP_LAYER: 'node', LOG_LEVEL: 'warn' } },
    { name: 'info', env: { HTTP_LAYER: 'node', LOG_LEVEL: 'info' } },
  ];
  const earlier: [Arm, Arm] | null = before
    ? [
        { name: 'before-warn', env: { LOG_LEVEL: 'warn' }, script: before },
        { name: 'before-info', env: { LOG_LEVEL: 'info' }, script: before },
      ]
    : null;
  const cost = await measureLogLineCost(rounds);
  const us = (values: number[]) => `${median(values).toFixed(2)} µs (${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)})`;
  output.push(
    `### Main-thread cost of one request log line, in-process (log-line-cost.ts: 100,000 lines per round, ${rounds} rounds alternated, to /dev/null)\n`,
    markdownTable([
      { 'how a line is logged': 'pino logger.info per answer (before)', 'µs per line, median (min-max)': us(cost.pinoUs) },
      { 'how a line is logged': 'request log: queued, built and written once per 16 answers (now)', 'µs per line, median (min-max)': us(cost.queuedUs) },
    ]),
  );
  console.log(`  log line cost: pino ${us(cost.pinoUs)}, queued ${us(cost.queuedUs)}`);
  const logPaths = pathNames.filter((name) => name === 'healthz' || name === 'account');
  await runRounds(earlier ? [after[0], earlier[0], after[1], earlier[1]] : after, logPaths, [16]);
  output.push('### Request log (node:http, 16 connections): LOG_LEVEL=info against warn\n', table(after, logPaths, [16]));
  if (earlier) output.push(`### The same before the change (${before})\n`, table(earlier, logPaths, [16]));
}

if (experiments.includes('layers')) {
  const node = trixieNode();
  console.log(`\n== HTTP layers: uWS against node:http, both under ${node[0]}`);
  const arms: [Arm, Arm] = [
    { name: 'node', env: { HTTP_LAYER: 'node' }, node },
    { name: 'uws', env: { HTTP_LAYER: 'uws' }, node },
  ];
  await runRounds(arms, pathNames, connectionsList);
  output.push('### HTTP layers (same Node, Debian 13 glibc): uWS against node:http\n', table(arms, pathNames, connectionsList));
}

if (experiments.includes('profile')) {
  const node = trixieNode();
  const directory = 'bench/out/profile';
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  console.log(`\n== profile: uWS under /search keyword at 16 connections, ${seconds} s, --cpu-prof into ${directory}`);
  const server = await startServer({ DATA_DIR: dataDir, HTTP_LAYER: 'uws', LOG_LEVEL: 'info' }, [...node, '--cpu-prof', `--cpu-prof-dir=${directory}`]);
  const headers = { 'x-api-key': key };
  await wrkLoad(wrk!, server.url, PATHS.search.paths, 16, warmupSeconds, headers);
  const result = await wrkLoad(wrk!, server.url, PATHS.search.paths, 16, seconds, headers);
  await server.stop();
  const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile in ${directory}`);
  const summary = summarize(JSON.parse(readFileSync(join(directory, file), 'utf8')));
  output.push(
    `### Where the main thread's time goes: uWS, /search keyword, 16 connections (${Math.round(result.qps)} answers/s while profiled; warm-up included; busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms)\n`,
    summary.parts,
    summary.functions,
  );
}

console.log(`\n${output.join('\n\n')}`);
