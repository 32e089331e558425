/**
 * Where a process's main thread spent its time, from a V8 CPU profile (`node --cpu-prof`):
 * self time per function and per part of the service (by the script each function comes from),
 * as shares of the time the thread was not idle. Used by `npm run bench:layers` (experiment
 * `profile`) on a server under /search load; `node bench/dist/cpu-profile-summary.js FILE` for any
 * profile.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { markdownTable, type Row } from './report.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of the service a function belongs to, from its script's URL (and V8's pseudo-frames). */
export function partOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'native (V8, libuv, addons, uWS C++)';
  if (functionName === 'postMessage' && url === '') return 'shard pool (scatter-gather, tasks posted to the shard workers)';
  const parts: Array<[RegExp, string]> = [
    [/@uwsjs|uws-transport/, 'HTTP layer (uWS)'],
    [/node-transport|node:_http|node:http/, 'HTTP layer (node:http)'],
    [/packages\/server\/dist\/http\//, 'HTTP layer (shared: routing, answers)'],
    [/pino|sonic-boom|request-log|logging/, 'request log'],
    [/better-sqlite3|packages\/stores\//, 'stores (authentication, meter, ledger)'],
    [/msgpackr|packages\/native\/|decode/, 'engine answer decoding'],
    [/packages\/pool\/|piscina/, 'shard pool (scatter-gather, tasks posted to the shard workers)'],
    [/prom-client|observability\/metrics/, 'metrics'],
    [/zod|packages\/schemas\//, 'parameter validation (zod)'],
    [/packages\/server\/dist\/(retrieval|capabilities|capability)/, 'capability (search request, hits)'],
    [/packages\/server\/dist\//, 'server (other)'],
    [/^node:/, 'Node internals (streams, timers, net)'],
  ];
  for (const [pattern, part] of parts) if (pattern.test(url)) return part;
  return url === '' ? 'V8 builtins (JSON, strings, regexp...)' : 'other scripts';
}

export function summarize(profile: CpuProfile, top = 15): { parts: string; functions: string; busyMs: number; idleMs: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const parts = new Map<string, number>();
  const functions = new Map<string, { us: number; part: string }>();
  let idle = 0;
  let busy = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const part = partOf(frame);
    if (part === 'idle') {
      idle += us;
      continue;
    }
    busy += us;
    parts.set(part, (parts.get(part) ?? 0) + us);
    const script = frame.url.replace(/^.*\/(node_modules|packages)\//, '$1/');
    const name = `${frame.functionName || '(anonymous)'} ${script ? `(${script}:${frame.lineNumber + 1})` : ''}`.trim();
    const entry = functions.get(name) ?? { us: 0, part };
    entry.us += us;
    functions.set(name, entry);
  }
  const share = (us: number) => `${((us / busy) * 100).toFixed(1)}%`;
  const partRows: Row[] = [...parts].sort((a, b) => b[1] - a[1]).map(([part, us]) => ({ part, 'ms of main thread': (us / 1000).toFixed(0), 'share of busy time': share(us) }));
  const functionRows: Row[] = [...functions]
    .sort((a, b) => b[1].us - a[1].us)
    .slice(0, top)
    .map(([name, { us, part }]) => ({ function: name.length > 110 ? `${name.slice(0, 107)}...` : name, part, 'share of busy time': share(us) }));
  return { parts: markdownTable(partRows), functions: markdownTable(functionRows), busyMs: busy / 1000, idleMs: idle / 1000 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node bench/dist/cpu-profile-summary.js FILE.cpuprofile');
    process.exit(2);
  }
  const summary = summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  console.log(`busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms\n\n${summary.parts}\n\n${summary.functions}`);
}
