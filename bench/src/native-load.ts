/**
 * Load generators that are not a Node process (autocannon runs in the bench's own Node process,
 * on the same 2 cores as the server, and may hide what the server can do):
 *
 *   wrk (Debian package `wrk`; C, epoll)  closed loop: C connections, each sends its next request
 *       when the previous answer arrives. One wrk thread: it stays on one core and leaves the
 *       other to the server. Latency from a request's send to its answer.
 *   oha (crates.io `oha`; Rust, tokio)    open loop: `-q RATE` spreads RATE requests per second
 *       evenly, whether or not earlier answers came back, over up to C connections;
 *       `--latency-correction` measures each latency from the moment the request was due, not
 *       from when a connection was free to send it, so a stall shows as the queueing it causes
 *       (no coordinated omission). wrk cannot send at a constant rate (wrk2 does, and is not in
 *       any registry here).
 *
 * `npm run bench:setup` (bench/setup.sh) installs both. The bench finds them on PATH (oha also
 * in ~/.cargo/bin, where cargo install puts it) and, when one is missing, says so and how to get it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadFigures } from './report.js';

export const SETUP_HINT = 'npm run bench:setup installs it (bench/setup.sh)';

export interface NativeTool {
  name: 'wrk' | 'oha';
  path: string;
  version: string;
}

function onPath(command: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

/** wrk on PATH, or null. */
export function findWrk(): NativeTool | null {
  const path = onPath('wrk');
  if (!path) return null;
  // `wrk --version` prints its version line and the usage, and exits 1
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].trim();
  return { name: 'wrk', path, version };
}

/** oha on PATH or in ~/.cargo/bin, or null. */
export function findOha(): NativeTool | null {
  const cargoBin = join(process.env.CARGO_HOME || join(homedir(), '.cargo'), 'bin', 'oha');
  const path = onPath('oha') ?? (existsSync(cargoBin) ? cargoBin : null);
  if (!path) return null;
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { name: 'oha', path, version };
}

function runTool(path: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The Lua script wrk runs: cycle through `paths`, and print the summary as one JSON line. */
export function wrkScript(paths: string[]): string {
  const quoted = paths.map((path) => `  ${JSON.stringify(path)},`).join('\n');
  return `local paths = {
${quoted}
}
local next_path = 0
request = function()
  next_path = next_path % #paths + 1
  return wrk.format(nil, paths[next_path])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_SUMMARY {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

interface WrkSummary {
  requests: number;
  duration_us: number;
  connect: number;
  read: number;
  write: number;
  /** Answers with a status above 399. */
  status: number;
  timeout: number;
  p50_us: number;
  p99_us: number;
}

/** Figures from the WRK_SUMMARY line the script prints (answers = requests less error statuses). */
export function parseWrkSummary(stdout: string): LoadFigures {
  const line = stdout.split('\n').find((candidate) => candidate.startsWith('WRK_SUMMARY '));
  if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
  const summary = JSON.parse(line.slice('WRK_SUMMARY '.length)) as WrkSummary;
  const answers = summary.requests - summary.status;
  const errors = summary.status + summary.connect + summary.read + summary.write + summary.timeout;
  return {
    requests: answers,
    qps: answers / (summary.duration_us / 1e6),
    p50: summary.p50_us / 1000,
    p99: summary.p99_us / 1000,
    errors,
    partial: 0,
  };
}

/**
 * Closed loop with wrk: `connections` keep-alive connections on one wrk thread for `seconds`,
 * cycling through `paths`. QPS counts answers below 400 (wrk's own error count is status > 399);
 * p50/p99 are over every answer. Partial answers are not counted (wrk reads no body).
 */
export async function wrkLoad(wrk: NativeTool, url: string, paths: string[], connections: number, seconds: number, headers: Record<string, string> = {}): Promise<LoadFigures> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const script = join(directory, 'paths.lua');
    writeFileSync(script, wrkScript(paths));
    const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
    const ran = await runTool(wrk.path, ['-t', '1', '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', script, ...headerArgs, url]);
    if (ran.status !== 0) throw new Error(`wrk exited with ${ran.status}: ${ran.stderr}`);
    const figures = parseWrkSummary(ran.stdout);
    if (figures.errors > 0) console.warn(`  warning: ${url} at ${connections} connections (wrk): ${figures.errors} errors (status > 399, socket errors or timeouts)`);
    return figures;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

interface OhaJson {
  summary: { total: number; requestsPerSec: number; successRate: number };
  latencyPercentiles: Record<string, number | null>;
  statusCodeDistribution: Record<string, number>;
  errorDistribution: Record<string, number>;
}

/** Figures from oha's JSON output (`--output-format json`; latencies and duration in seconds). */
export function parseOhaJson(stdout: string, seconds: number): LoadFigures & { sent: number } {
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error(`oha printed no JSON:\n${stdout}`);
  const report = JSON.parse(stdout.slice(start)) as OhaJson;
  let answers = 0;
  let refused = 0;
  for (const [status, count] of Object.entries(report.statusCodeDistribution ?? {})) {
    if (Number(status) < 400) answers += count;
    else refused += count;
  }
  const transport = Object.values(report.errorDistribution ?? {}).reduce((sum, count) => sum + count, 0);
  return {
    requests: answers,
    qps: answers / (report.summary?.total || seconds),
    p50: (report.latencyPercentiles.p50 ?? 0) * 1000,
    p99: (report.latencyPercentiles.p99 ?? 0) * 1000,
    errors: refused + transport,
    partial: 0,
    sent: answers + refused + transport,
  };
}

/**
 * Open loop with oha: `rate` requests per second for `seconds` over at most `connections`
 * connections, cycling through `paths`, latency measured from each request's due time
 * (--latency-correction). Requests in flight when the time is up are waited for (-w).
 */
export async function ohaOpenLoad(oha: NativeTool, url: string, paths: string[], rate: number, seconds: number, connections: number, headers: Record<string, string> = {}): Promise<LoadFigures & { sent: number }> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-oha-'));
  try {
    const urls = join(directory, 'urls.txt');
    writeFileSync(urls, `${paths.map((path) => `${url}${path}`).join('\n')}\n`);
    const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
    // --urls-from-file: the positional argument is the file; oha picks one of its URLs at random per request
    const args = ['--no-tui', '--output-format', 'json', '-z', `${seconds}s`, '-w', '-c', String(connections), '-q', String(rate), '--latency-correction', ...headerArgs, '--urls-from-file', urls];
    const ran = await runTool(oha.path, args);
    if (ran.status !== 0) throw new Error(`oha exited with ${ran.status}: ${ran.stderr}`);
    const figures = parseOhaJson(ran.stdout, seconds);
    if (figures.errors > 0) console.warn(`  warning: ${url} at ${rate}/s (oha): ${figures.errors} errors (status > 399 or socket errors)`);
    return figures;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
