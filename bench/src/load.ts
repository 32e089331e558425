/**
 * The load side of the HTTP benchmarks: servers started as child processes (each in its own
 * process), bench keys, autocannon runs (the load generator always runs in the bench process),
 * the RSS of a server process and the size of the index it serves.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { ShardReader, readManifest, shardDirectory, shardOptionsOf } from '@evidence/native';
import type { LoadFigures } from './report.js';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then wait for the process to exit. */
  stop(): Promise<void>;
}

/**
 * Start `node script` with `env` added to this process's environment and wait for the line
 * `listening on http://...` it prints (PORT=0: the server picks a free port). `node`: the Node
 * binary to run it with (this one by default).
 */
/** How long a server may take to say where it listens (a 1M-passage index opens in seconds). */
const START_TIMEOUT_MS = 120_000;

export async function startServerProcess(script: string, env: NodeJS.ProcessEnv, label = script, node = process.execPath): Promise<ServerProcess> {
  const child = spawn(node, [script], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let printed = '';
    // The line is a log line: a LOG_LEVEL above info hides it, and the bench would wait forever.
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      const hint = process.env.LOG_LEVEL ? ` (LOG_LEVEL=${process.env.LOG_LEVEL} may hide it: unset it or use info)` : '';
      reject(new Error(`${label} printed no "listening on" line in ${START_TIMEOUT_MS / 1000} s${hint}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(printed);
      if (!match) return;
      // Past this line come the request log lines (LOG_LEVEL, info by default): drained, not kept.
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      printed = '';
      resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before listening:\n${printed}`));
    });
  });
  child.stdout!.resume();
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A key on the development plan (no credit or rate limit in the way) for DATA_DIR's stores. */
export function createBenchKey(dataDir: string): string {
  const created = spawnSync(process.execPath, ['packages/stores/dist/cli.js', 'create', '--tenant', 'bench', '--label', `bench-${Date.now()}`, '--plan', 'development', '--json'], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`cannot create a bench key: ${created.stderr}`);
  return JSON.parse(created.stdout.trim().split('\n').pop()!).key;
}

/** Passages the index in `dataDir` holds (live documents over all its shards). */
export function passagesInIndex(dataDir: string): number {
  const manifest = readManifest(dataDir);
  if (!manifest) return 0;
  let total = 0;
  for (let shard = 0; shard < manifest.shards; shard++) {
    const reader = ShardReader.open(shardDirectory(dataDir, shard), shardOptionsOf(manifest));
    total += reader.numDocs();
    reader.close();
  }
  return total;
}

/** Resident set size of a process in bytes (0 when it cannot be read). */
export function rssOf(pid: number): number {
  const status = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  const kib = Number(status.stdout.trim());
  return Number.isFinite(kib) ? kib * 1024 : 0;
}

/** Samples a process's RSS every `everyMs` until stopped; `peak()` is the largest sample. */
export function sampleRss(pid: number, everyMs = 500): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}

/**
 * How a /search or /ground answer says part of the index missed the deadline (the top-level
 * `partial` of search, `coverage.partial` of ground). Inside a JSON string a quote is escaped,
 * so no snippet can contain it.
 */
export const PARTIAL_MARKER = '"partial":true';

/**
 * autocannon against `url` with `connections` keep-alive connections for `seconds`, each
 * connection cycling through `paths` (GET). QPS counts 2xx answers only; 2xx answers containing
 * PARTIAL_MARKER are counted as partial. Latency percentiles are autocannon's, over every response.
 */
export async function httpLoad(url: string, paths: string[], connections: number, seconds: number, headers: Record<string, string> = {}): Promise<LoadFigures> {
  let partial = 0;
  const onResponse = (status: number, body: string) => {
    if (status >= 200 && status < 300 && body.includes(PARTIAL_MARKER)) partial++;
  };
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers,
    requests: paths.map((path) => ({ method: 'GET', path, onResponse })),
  });
  if (result.non2xx > 0 || result.errors > 0) {
    const statuses = Object.entries(result.statusCodeStats ?? {})
      .filter(([status]) => !status.startsWith('2'))
      .map(([status, stats]) => `${stats.count ?? 0} x ${status}`);
    console.warn(`  warning: ${url} at ${connections} connections: ${[...statuses, `${result.errors} transport errors (${result.timeouts} timeouts)`].join(', ')}`);
  }
  return {
    requests: result['2xx'],
    // Answers, not refusals: a fast 503 must not count as throughput (the floor counts only answers too).
    qps: result['2xx'] / ((result.finish.getTime() - result.start.getTime()) / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
    partial,
  };
}

/**
 * autocannon stops at the end of its duration without waiting for the answers in flight; the
 * server is still working on them. Wait about as long as they take (twice the run's p99,
 * within 0.25..5 s) so they neither load the next run nor get cut off when the server stops.
 */
export function drain(figures: LoadFigures): Promise<void> {
  const waitMs = Math.min(5000, Math.max(250, 2 * figures.p99));
  return new Promise((resolve) => setTimeout(resolve, waitMs));
}
