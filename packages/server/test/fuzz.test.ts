/**
 * Fuzz suite (hardening issue #13): property-based calls of every REST route and MCP tool in
 * the catalog (a capability added to the catalog is fuzzed with no change here), MCP JSON-RPC
 * framing, and raw HTTP/1.1 edge cases over a TCP socket, against the real server as a child
 * process on a real index. After every call:
 *
 * - the process is alive (/healthz answers; a crash is recorded, and the server restarted so
 *   the run goes on finding defects);
 * - no 5xx, except a 503 or 408 (SPEC 7);
 * - every error is text/plain (MCP JSON-RPC framing errors may be JSON-RPC JSON);
 * - a malformed value answers a 400 naming its parameter; every 400 names a parameter; a
 *   well-formed value is not refused; an empty optional value means the same as its absence or
 *   is a 400 naming it;
 * - a 2xx body matches the capability's response schema;
 * - the credits the tenant was charged (GET /account) equal the catalog's cost of the call
 *   (2xx: cost; 404 or a call that ran and failed: failureCost; 400 and refusals: nothing).
 *
 * Bounded: FUZZ_SECONDS (default 60) of generated calls split between REST and MCP, then the
 * fixed framing and raw HTTP cases. FUZZ_SEED (printed on failure) reproduces a run;
 * FUZZ_RUNS fixes the number of generated calls per transport instead of the time.
 * The longer run: `npm run fuzz` (FUZZ_SECONDS=600).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '@evidence/server';
import { writeIndex } from './accounts-helpers.js';
import { evidenceShards, GLACIER_OBJECTIVE, HELIX_OBJECTIVE, LUNAR_OBJECTIVE } from './evidence-corpus.js';
import { HTTP_LAYER, passage } from './fixture.js';
import {
  callArbitrary,
  mcpArgumentsOf,
  restPathOf,
  restPathWithout,
  routeSpecOf,
  sweepCalls,
  type FuzzCall,
  type IndexFacts,
  type RouteSpec,
} from './fuzz-generators.js';
import { createFuzzKey, FuzzServer, parseResponses, rawExchange, type RawResponse } from './fuzz-server.js';

const SEED = Number(process.env.FUZZ_SEED ?? 1_302_026);
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 60);
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : null;
const CALL_TIMEOUT_MS = 15_000;
/** Time left after the generated calls for the fixed cases and restarts. */
const TEST_TIMEOUT_MS = SECONDS * 1000 + 240_000;

// ------------------------------------------------------------------ failures

interface Failure {
  signature: string;
  request: string;
  observed: string;
  expected: string;
  count: number;
}

const failures = new Map<string, Failure>();
const phaseFailures: Record<string, Set<string>> = { rest: new Set(), mcp: new Set(), jsonrpc: new Set(), raw: new Set() };
const counters = { calls: 0, httpRequests: 0, restarts: 0, skippedCrashers: 0, startedAt: 0 };

function fail(phase: string, signature: string, request: string, observed: string, expected: string): void {
  const known = failures.get(signature);
  if (known) {
    known.count += 1;
    return;
  }
  failures.set(signature, { signature, request: truncate(request, 300), observed: truncate(observed, 400), expected, count: 1 });
  phaseFailures[phase].add(signature);
}

function truncate(value: string, length: number): string {
  const printable = value.replace(/[\u0000-\u001f\u007f]/g, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return printable.length > length ? `${printable.slice(0, length)}... (${value.length} chars)` : printable;
}

function report(phase: string): string {
  const lines = [...phaseFailures[phase]].map((signature) => {
    const failure = failures.get(signature)!;
    return `- ${failure.signature} (x${failure.count})\n    request:  ${failure.request}\n    observed: ${failure.observed}\n    expected: ${failure.expected}`;
  });
  return `${lines.length} distinct failures (FUZZ_SEED=${SEED} reproduces this run):\n${lines.join('\n')}`;
}

// ------------------------------------------------------------------ the server and its index

let dataDir: string;
let server: FuzzServer;
let key: string;
let facts: IndexFacts;
const routes: RouteSpec[] = CATALOG.map(routeSpecOf);

beforeAll(async () => {
  counters.startedAt = Date.now();
  dataDir = mkdtempSync(join(tmpdir(), 'server-fuzz-'));
  const bread = Array.from({ length: 40 }, (_, index) =>
    passage(`bread${index}:0`, `bread number ${index} with a crust${index % 2 ? ' and seeds' : ''} baked in a hot oven`, {
      url: `https://bakery${index % 5}.example.org/loaf/${index}`,
      host: `bakery${index % 5}.example.org`,
      publishedAt: 1_690_000_000 + index * 86_400,
    }),
  );
  const [first, second] = evidenceShards();
  const shards = [
    [...first, ...bread.slice(0, 20)],
    [...second, ...bread.slice(20)],
  ];
  writeIndex(dataDir, shards);
  const all = shards.flat();
  facts = {
    ids: ['wire:0', 'nasa:0', 'bread3:0', 'bread30:0', all[all.length - 1].id],
    urls: [all[0].url, all[5].url, bread[7].url],
    verticals: ['science', 'cooking'],
    queries: [LUNAR_OBJECTIVE, HELIX_OBJECTIVE, GLACIER_OBJECTIVE, 'bread crust', 'sourdough', '"water ice" AND lunar -forum', 'bread OR oven'],
  };
  key = createFuzzKey(dataDir);
  server = new FuzzServer(dataDir);
  await server.start();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  const seconds = ((Date.now() - counters.startedAt) / 1000).toFixed(1);
  const all = [...failures.values()];
  console.log(
    `fuzz: seed ${SEED}, ${counters.calls} fuzz calls, ${counters.httpRequests} HTTP requests in all (with /account and /healthz checks), ` +
      `${seconds} s, ${counters.restarts} server restarts after crashes, ${counters.skippedCrashers} calls skipped as known crashers; ` +
      `${all.length} distinct failures`,
  );
});

// ------------------------------------------------------------------ observing a call

interface Observed {
  status: number;
  contentType: string | null;
  body: string;
  headers: Headers | null;
  /** Transport failure: no answer. */
  error: string | null;
}

async function send(url: string, init: RequestInit = {}): Promise<Observed> {
  counters.httpRequests += 1;
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    const body = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type'), body, headers: response.headers, error: null };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, contentType: null, body: '', headers: null, error: `${(error as Error).name}: ${cause?.code ?? cause?.message ?? (error as Error).message}` };
  }
}

/** The last reading of the tenant's credits, carried to the next call while nothing else was charged. */
let knownCredits: number | null = null;

async function creditsUsed(): Promise<number | null> {
  const answer = await send(`${server.base}/account`, { headers: { 'x-api-key': key } });
  knownCredits = answer.status === 200 ? (JSON.parse(answer.body) as { credits_used_this_period: number }).credits_used_this_period : null;
  return knownCredits;
}

/** Credits before a call: the reading after the previous one, when it still holds. */
async function creditsBefore(): Promise<number | null> {
  return knownCredits ?? (await creditsUsed());
}

/**
 * After a call: is the process alive? When not, record the crash against the call and start
 * the server again. Returns false when it had died.
 */
async function survived(phase: string, signature: string, request: string): Promise<boolean> {
  counters.httpRequests += 1;
  if (await server.alive()) return true;
  // give the exit event a moment to arrive with its code, signal and stderr
  for (let attempt = 0; attempt < 20 && !server.exited(); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  const exit = server.exited();
  const observed = exit
    ? `process died (code ${exit.code}, signal ${exit.signal}); stderr: ${exit.stderrTail || '(empty)'}`
    : 'process stopped answering /healthz';
  fail(phase, `${signature}: crash`, request, observed, 'the process survives and answers /healthz');
  knownCredits = null;
  await server.restart();
  counters.restarts += 1;
  return false;
}

/** The JSON body without what legitimately differs between two calls a moment apart. */
function withoutClock(body: unknown): unknown {
  // `since` too: a relative since (`1d`) resolves against the clock, which moves between the two
  // calls, and so do the instants the receipt's filters_applied echoes (`crawled_by=` the
  // resolved since, `published_from=` now minus max_age): two calls in different seconds differ
  // there (the cause of a rare CI failure on /changes?since=1d).
  const text = JSON.stringify(body).replace(/\b(crawled_by|published_from)=\d+/g, '$1=<clock>');
  return JSON.parse(text, (name, value) => (name === 'elapsed_ms' || name === 'generated_at' || name === 'age_secs' || name === 'since' ? undefined : value));
}

/**
 * Whether an answer was cut by the clock rather than decided by its parameters: a shard that
 * missed its deadline (partial) or story expansion stopped at latency_budget_ms. Two such calls a
 * moment apart may differ on a loaded machine, so they are not compared.
 */
function cutByClock(body: unknown): boolean {
  let cut = false;
  JSON.stringify(body, (name, value) => {
    if ((name === 'partial' || name === 'story_expansion_truncated' || name === 'timed_out') && value === true) cut = true;
    return value;
  });
  return cut;
}

/** The first place two JSON values differ, as a path with both values (for the failure report). */
function firstDifference(left: unknown, right: unknown, path = '$'): string | null {
  if (JSON.stringify(left) === JSON.stringify(right)) return null;
  if (left && right && typeof left === 'object' && typeof right === 'object') {
    const keys = new Set([...Object.keys(left as object), ...Object.keys(right as object)]);
    for (const key of keys) {
      const found = firstDifference((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
  }
  return `${path}: ${truncate(JSON.stringify(left) ?? 'absent', 120)} vs ${truncate(JSON.stringify(right) ?? 'absent', 120)}`;
}

const NAMED_PARAMETER = /invalid parameter ([^\s:]+)/;

/** What an MCP tool error text (the REST error text) stands for. */
function statusOfErrorText(text: string): number {
  if (text.startsWith('invalid parameter') || text.startsWith('similar needs vectors')) return 400;
  if (text.startsWith('not found')) return 404;
  if (text.startsWith('request exceeded')) return 408;
  if (text.startsWith('no shard') || text.startsWith('at capacity')) return 503;
  if (text.startsWith('internal error')) return 500;
  return 0;
}

/** One call's answer in common terms (MCP results mapped onto REST statuses). */
interface Outcome {
  status: number;
  errorText: string | null;
  body: unknown;
}

/** Credits a call may be charged for its status (SPEC 8; a 404 from the router ran nothing). */
function expectedCharges(route: RouteSpec, outcome: Outcome): number[] {
  const { cost, failureCost } = route.entry.capability;
  const status = outcome.status;
  if (status >= 200 && status < 300) return [cost];
  if (status === 404) return outcome.errorText?.startsWith('not found: no route') ? [0] : [failureCost];
  if (status === 408 || status === 503) return [0, failureCost];
  return [0];
}

/** Judges one capability call's outcome against its value class, schema and charge. */
async function judge(
  phase: 'rest' | 'mcp',
  call: FuzzCall,
  outcome: Outcome,
  charged: number | null,
  request: string,
  again: () => Promise<Outcome | null>,
): Promise<void> {
  const route = call.route;
  const target = call.target ?? '';
  const targetName = phase === 'mcp' ? (route.argumentOf[target] ?? target) : target;
  const label = call.targetValue?.label ?? 'none';
  const routeName = `${phase.toUpperCase()} ${phase === 'mcp' ? route.tool : route.path}`;
  const where = `${routeName} ${targetName}=${label}`;
  const { status, errorText } = outcome;

  if (status >= 500 && status !== 503) {
    fail(phase, `${routeName} ${targetName}: ${status}`, request, `${status} ${truncate(errorText ?? '', 200)}`, 'no 5xx (only 503/408 as SPEC 7 allows)');
  }
  if (status === 0) fail(phase, `${where}: unclassified error`, request, truncate(errorText ?? '', 200), 'an error text from the error table');

  const named = errorText ? NAMED_PARAMETER.exec(errorText)?.[1] : undefined;
  if (status === 400 && !named && !errorText?.startsWith('similar needs vectors')) {
    fail(phase, `${routeName}: 400 names no parameter`, request, `400 ${truncate(errorText ?? '', 200)}`, 'a 400 naming the parameter');
  }

  const cls = call.targetValue?.cls ?? 'valid';
  const isIdLookup = target === 'id';
  if (call.decisive) {
    if (cls === 'valid' && !(status >= 200 && status < 300) && !(isIdLookup && status === 404) && status !== 408 && status !== 503) {
      fail(phase, `${where}: well-formed value refused`, request, `${status} ${truncate(errorText ?? '', 200)}`, '2xx');
    }
    if (cls === 'invalid' && !(status === 400 && named === targetName) && !(isIdLookup && status === 404)) {
      fail(phase, `${where}: malformed value not refused`, request, `${status} ${truncate(errorText ?? JSON.stringify(outcome.body), 200)}`, `400 naming ${targetName}`);
    }
    if (cls === 'empty' && status >= 200 && status < 300) {
      const absent = await again();
      if (absent && absent.status >= 200 && absent.status < 300 && !cutByClock(outcome.body) && !cutByClock(absent.body)) {
        // an empty list echoed back as [] says the same as its absence
        const echo = (body: unknown) => {
          const copy = withoutClock(body) as Record<string, unknown>;
          if (Array.isArray(copy?.[target]) && (copy[target] as unknown[]).length === 0) delete copy[target];
          return JSON.stringify(copy);
        };
        const same = echo(outcome.body) === echo(absent.body);
        if (!same) {
          fail(
            phase,
            `${routeName} ${targetName}: empty value changes the answer`,
            request,
            `200, differs from the call without ${targetName} at ${firstDifference(JSON.parse(echo(outcome.body)), JSON.parse(echo(absent.body)))}`,
            `the answer without ${targetName}, or 400 naming ${targetName}`,
          );
        }
      }
    }
  }
  if (status === 400 && named && named !== targetName && call.decisive && cls !== 'valid') {
    const sent = new Set(call.params.map(([name]) => (phase === 'mcp' ? (route.argumentOf[name] ?? name) : name)));
    if (!sent.has(named)) fail(phase, `${where}: 400 names another parameter`, request, truncate(errorText ?? '', 200), `400 naming ${targetName}`);
  }

  if (status >= 200 && status < 300) {
    const parsed = route.entry.capability.response.safeParse(outcome.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      fail(phase, `${routeName}: body does not match the response schema`, request, `${issue.path.join('.')}: ${issue.message}`, 'the catalog response schema');
    }
    const results = (outcome.body as { results?: unknown[] })?.results;
    if (Array.isArray(results) && results.length > 100) fail(phase, `${where}: more than 100 results`, request, `${results.length} results`, 'limit clamped to 100');
  }

  if (charged !== null && status !== 0 && !(status >= 500 && status !== 503)) {
    const allowed = expectedCharges(route, outcome);
    if (!allowed.includes(charged)) {
      fail(phase, `${routeName}: charged ${charged} for a ${status}`, request, `${status}, charged ${charged}`, `charged ${allowed.join(' or ')} (catalog: cost ${route.entry.capability.cost}, failure ${route.entry.capability.failureCost})`);
    }
  }
}

// ------------------------------------------------------------------ transports

function restOutcome(answer: Observed): Outcome {
  if (answer.status >= 200 && answer.status < 300) {
    try {
      return { status: answer.status, errorText: null, body: JSON.parse(answer.body) };
    } catch {
      return { status: answer.status, errorText: null, body: answer.body };
    }
  }
  return { status: answer.status, errorText: answer.body, body: null };
}

/**
 * An answer uWS's own parser gave before the service saw the request (HTTP_LAYER=uws only): a
 * request line or headers over its bound (431), a malformed request (400), another version (505),
 * with its own body and no x-request-id. README, HTTP layers, lists these differences.
 */
function uwsParserRefusal(answer: Observed): boolean {
  return HTTP_LAYER === 'uws' && [400, 431, 505].includes(answer.status) && !answer.headers?.get('x-request-id');
}

/** REST errors are text/plain (but uWS's own refusals); 2xx answers JSON with the rate header. */
function checkRestHeaders(where: string, request: string, answer: Observed): void {
  if (answer.status >= 400 && !uwsParserRefusal(answer) && !/^text\/plain/.test(answer.contentType ?? '')) {
    fail('rest', `REST: ${answer.status} answered without text/plain`, request, `content-type ${answer.contentType}`, 'text/plain');
  }
  if (answer.status >= 200 && answer.status < 300) {
    if (answer.contentType !== 'application/json') fail('rest', `${where}: 2xx not JSON`, request, `content-type ${answer.contentType}`, 'application/json');
    if (!answer.headers?.get('x-ratelimit-remaining')) fail('rest', `${where}: no x-ratelimit-remaining`, request, 'header missing', 'x-ratelimit-remaining on every authenticated answer');
  }
}

async function restCall(call: FuzzCall): Promise<void> {
  const path = restPathOf(call);
  const request = `GET ${path}`;
  // a crash in a combination of parameters is named by the whole request, not the one under test
  const where = call.decisive ? `REST ${call.route.path} ${call.target}=${call.targetValue?.label}` : `REST ${path} (combination)`;
  const before = await creditsBefore();
  counters.calls += 1;
  const answer = await send(`${server.base}${path}`, { headers: { 'x-api-key': key } });
  if (!(await survived('rest', where, request))) return;
  if (answer.error) {
    knownCredits = null;
    fail('rest', `${where}: no answer`, request, answer.error, `an answer within ${CALL_TIMEOUT_MS} ms`);
    return;
  }
  const after = await creditsUsed();
  checkRestHeaders(where, request, answer);
  const charged = before === null || after === null ? null : after - before;
  await judge('rest', call, restOutcome(answer), charged, request, async () => {
    knownCredits = null;
    const absent = await send(`${server.base}${restPathWithout(call)}`, { headers: { 'x-api-key': key } });
    return absent.error ? null : restOutcome(absent);
  });
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
let rpcId = 0;

function toolCallBody(tool: string, argumentsJson: string, id: number | string = ++rpcId): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${argumentsJson}}}`;
}

/** An MCP answer mapped onto REST terms: a tool error's text gives its status. */
function mcpOutcome(answer: Observed): Outcome {
  if (answer.status !== 200) return { status: answer.status, errorText: answer.body, body: null };
  let message: { result?: { isError?: boolean; content?: Array<{ text?: string }>; structuredContent?: unknown }; error?: { message?: string } };
  try {
    message = JSON.parse(answer.body);
  } catch {
    return { status: 0, errorText: `not JSON: ${answer.body}`, body: null };
  }
  if (message.error) return { status: 400, errorText: `invalid parameter (JSON-RPC ${message.error.message})`, body: null };
  const result = message.result;
  if (result?.isError) {
    const text = result.content?.[0]?.text ?? '';
    return { status: statusOfErrorText(text), errorText: text, body: null };
  }
  return { status: 200, errorText: null, body: result?.structuredContent };
}

async function mcpCall(call: FuzzCall): Promise<void> {
  const body = toolCallBody(call.route.tool, mcpArgumentsOf(call));
  const request = `POST /mcp ${body}`;
  const where = call.decisive
    ? `MCP ${call.route.tool} ${call.route.argumentOf[call.target ?? ''] ?? call.target}=${call.targetValue?.label}`
    : `MCP ${call.route.tool} ${mcpArgumentsOf(call)} (combination)`;
  const before = await creditsBefore();
  counters.calls += 1;
  const answer = await send(`${server.base}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, 'x-api-key': key }, body });
  if (!(await survived('mcp', where, request))) return;
  if (answer.error) {
    knownCredits = null;
    fail('mcp', `${where}: no answer`, request, answer.error, `an answer within ${CALL_TIMEOUT_MS} ms`);
    return;
  }
  if (answer.status >= 400 && !uwsParserRefusal(answer) && !/^text\/plain/.test(answer.contentType ?? '')) {
    fail('mcp', `MCP: ${answer.status} answered without text/plain`, request, `content-type ${answer.contentType}`, 'text/plain');
  }
  const after = await creditsUsed();
  const charged = before === null || after === null ? null : after - before;
  await judge('mcp', call, mcpOutcome(answer), charged, request, async () => {
    knownCredits = null;
    const absent = await send(`${server.base}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'x-api-key': key },
      body: toolCallBody(call.route.tool, mcpArgumentsOf(call, call.target)),
    });
    return absent.error ? null : mcpOutcome(absent);
  });
}

// ------------------------------------------------------------------ generated calls

/** The calls of one route, generated lazily in seeded batches (reproducible from SEED). */
function* callsOf(route: RouteSpec, restForm: boolean, routeIndex: number): Generator<FuzzCall> {
  yield* sweepCalls(route, facts, restForm);
  const arbitrary = callArbitrary(route, facts, restForm);
  for (let batch = 0; ; batch++) {
    yield* fc.sample(arbitrary, { seed: SEED + routeIndex * 7919 + batch * 104_729 + (restForm ? 0 : 1), numRuns: 50 });
  }
}

/** A parameter's value on a route, as sent (the key crashers are skipped by). */
function valueKey(call: FuzzCall, name: string, value: FuzzCall['params'][number][1]): string {
  return `${call.route.name} ${name}=${value.raw ?? value.text ?? value.json}`;
}

/**
 * Round-robin over the catalog until the time (or FUZZ_RUNS) is spent. A value that crashed the
 * process once is not sent again on that route, alone or in a combination (the crash is
 * recorded; each restart costs a second or two that finds nothing new).
 */
async function fuzzCatalog(restForm: boolean, seconds: number, run: (call: FuzzCall) => Promise<void>): Promise<number> {
  const generators = routes.map((route, index) => callsOf(route, restForm, index));
  const crashed = new Set<string>();
  const deadline = Date.now() + seconds * 1000;
  let made = 0;
  for (let round = 0; RUNS === null ? Date.now() < deadline : made < RUNS; round++) {
    for (const generator of generators) {
      const call = generator.next().value as FuzzCall;
      const keys = call.params.map(([name, value]) => valueKey(call, name, value));
      const combinationKey = `${call.route.name} ${restPathOf(call)} ${mcpArgumentsOf(call)}`;
      if (keys.some((key) => crashed.has(key)) || crashed.has(combinationKey)) {
        counters.skippedCrashers += 1;
        continue;
      }
      const restartsBefore = server.restarts;
      await run(call);
      if (server.restarts > restartsBefore) {
        crashed.add(combinationKey);
        if (call.decisive && call.target && call.targetValue) crashed.add(valueKey(call, call.target, call.targetValue));
      }
      made += 1;
    }
  }
  return made;
}

describe('fuzz: every catalog route over REST', () => {
  it(
    'survives, never 5xx, names the bad parameter, charges the catalog cost',
    async () => {
      const calls = await fuzzCatalog(true, SECONDS * 0.5, restCall);
      console.log(`fuzz REST: ${calls} calls over ${routes.length} routes`);
      expect(phaseFailures.rest.size, report('rest')).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('fuzz: every catalog tool over MCP tools/call', () => {
  it(
    'survives, never 5xx, names the bad argument, charges the catalog cost',
    async () => {
      const calls = await fuzzCatalog(false, SECONDS * 0.35, mcpCall);
      console.log(`fuzz MCP: ${calls} tools/call over ${routes.length} tools`);
      expect(phaseFailures.mcp.size, report('mcp')).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});

// ------------------------------------------------------------------ MCP JSON-RPC framing

interface FramingCase {
  label: string;
  body: string;
  headers?: Record<string, string>;
  /** Credits a correct answer may charge (the tool calls that ran). */
  charges: number[];
}

function framingCases(): FramingCase[] {
  const search = (id: unknown) => toolCallBody('web_search', '{"query":"bread crust","limit":2}', id as number);
  const browse = (id: unknown) => toolCallBody('browse', '{"limit":3}', id as number);
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  return [
    { label: 'batch of two calls', body: `[${search(1)},${browse(2)}]`, charges: [0, 2] },
    { label: 'batch, duplicate ids', body: `[${search(7)},${search(7)},${browse(7)}]`, charges: [0, 3] },
    { label: 'batch, empty', body: '[]', charges: [0] },
    { label: 'batch of 200 calls', body: `[${Array.from({ length: 200 }, (_, index) => search(index + 1)).join(',')}]`, charges: [0, 200] },
    { label: 'bad JSON: open brace', body: '{', charges: [0] },
    { label: 'bad JSON: empty body', body: '', charges: [0] },
    { label: 'bad JSON: trailing garbage', body: `${search(3)}xyz`, charges: [0, 1] },
    { label: 'bad JSON: invalid UTF-8', body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('latin1'), charges: [0] },
    { label: 'JSON null', body: 'null', charges: [0] },
    { label: 'JSON string', body: '"tools/call"', charges: [0] },
    { label: 'JSON number', body: '1e309', charges: [0] },
    { label: 'deep nesting 100k', body: deep, charges: [0] },
    { label: 'no jsonrpc member', body: '{"id":1,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"bread"}}}', charges: [0, 1] },
    { label: 'jsonrpc 1.0', body: '{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"bread"}}}', charges: [0, 1] },
    { label: 'method is a number', body: '{"jsonrpc":"2.0","id":1,"method":5}', charges: [0] },
    { label: 'unknown method', body: '{"jsonrpc":"2.0","id":1,"method":"tools/explode"}', charges: [0] },
    { label: 'params is a string', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"web_search"}', charges: [0] },
    { label: 'params is an array', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["web_search",{"query":"x"}]}', charges: [0] },
    { label: 'name is a number', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,"arguments":{}}}', charges: [0] },
    { label: 'name is missing', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"query":"x"}}}', charges: [0] },
    { label: 'arguments is an array', body: toolCallBody('web_search', '["bread"]'), charges: [0] },
    { label: 'arguments is a string', body: toolCallBody('web_search', '"bread"'), charges: [0] },
    { label: 'arguments is null', body: toolCallBody('browse', 'null'), charges: [0, 1] },
    { label: 'arguments missing', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"browse"}}', charges: [0, 1] },
    { label: 'id is an object', body: '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":{"name":"browse","arguments":{}}}', charges: [0, 1] },
    { label: 'id is null', body: '{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"browse","arguments":{}}}', charges: [0, 1] },
    { label: 'id is huge', body: '{"jsonrpc":"2.0","id":1e309,"method":"tools/call","params":{"name":"browse","arguments":{}}}', charges: [0, 1] },
    { label: 'notification tools/call', body: '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"browse","arguments":{}}}', charges: [0, 1] },
    { label: 'duplicate members', body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{"name":"browse","arguments":{}}}', charges: [0, 1] },
    { label: 'initialize', body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}', charges: [0] },
    { label: 'initialize, wrong types', body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5,"capabilities":[],"clientInfo":"x"}}', charges: [0] },
    { label: 'tools/list with junk params', body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":{"x":[1]}}}', charges: [0] },
    { label: 'content-type text/plain', body: search(1), headers: { 'content-type': 'text/plain' }, charges: [0, 1] },
    { label: 'no accept header', body: search(1), headers: { accept: '' }, charges: [0, 1] },
    { label: 'arguments 512 KiB', body: toolCallBody('web_search', JSON.stringify({ query: 'bread '.repeat(90_000) })), charges: [0, 1] },
  ];
}

/** Credits charged for an MCP answer: 1 per non-error result here (every tool of the cases costs 1). */
describe('fuzz: MCP JSON-RPC framing', () => {
  it(
    'answers batches, duplicate ids, bad JSON and wrong types without a crash, a 5xx or a wrong charge',
    async () => {
      for (const framing of framingCases()) {
        const request = `POST /mcp (${framing.label}) ${framing.body}`;
        const where = `JSON-RPC ${framing.label}`;
        const before = await creditsUsed();
        counters.calls += 1;
        const headers: Record<string, string> = { ...MCP_HEADERS, 'x-api-key': key, ...framing.headers };
        for (const name of Object.keys(headers)) if (headers[name] === '') delete headers[name];
        const answer = await send(`${server.base}/mcp`, { method: 'POST', headers, body: framing.body });
        if (!(await survived('jsonrpc', where, request))) continue;
        if (answer.error) {
          fail('jsonrpc', `${where}: no answer`, request, answer.error, 'an answer');
          continue;
        }
        if (answer.status >= 500 && answer.status !== 503) fail('jsonrpc', `${where}: ${answer.status}`, request, `${answer.status} ${truncate(answer.body, 200)}`, 'no 5xx');
        if (answer.status >= 400) {
          const jsonRpcError = /^application\/json/.test(answer.contentType ?? '') && /"jsonrpc"\s*:\s*"2\.0"/.test(answer.body) && /"error"/.test(answer.body);
          if (!/^text\/plain/.test(answer.contentType ?? '') && !jsonRpcError) {
            fail('jsonrpc', `${where}: ${answer.status} neither text/plain nor a JSON-RPC error`, request, `content-type ${answer.contentType}: ${truncate(answer.body, 120)}`, 'text/plain');
          }
        }
        const after = await creditsUsed();
        if (before !== null && after !== null) {
          let succeeded = 0;
          try {
            const parsed = JSON.parse(answer.body) as unknown;
            for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
              const result = (message as { result?: { isError?: boolean; structuredContent?: unknown } })?.result;
              if (result?.structuredContent !== undefined && !result.isError) succeeded += 1;
            }
          } catch {
            // not JSON: nothing succeeded
          }
          if (after - before !== succeeded || !framing.charges.includes(after - before)) {
            fail('jsonrpc', `${where}: charged ${after - before}`, request, `${answer.status}, ${succeeded} tool results, charged ${after - before}`, `charged once per tool result (${succeeded}), one of ${framing.charges.join('/')}`);
          }
        }
      }
      expect(phaseFailures.jsonrpc.size, report('jsonrpc')).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});

// ------------------------------------------------------------------ raw HTTP over TCP

interface RawCase {
  label: string;
  chunks: () => Array<string | Buffer>;
  /** Which requests in the exchange are HEAD (their answers have no body). */
  heads?: boolean[];
  /** Answers the exchange must hold (in order); null: any number, but what comes must be sound. */
  expect: { statuses?: number[][]; noBody?: boolean };
}

function rawCases(): RawCase[] {
  const host = () => `127.0.0.1:${server.port}`;
  const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: ${host()}\r\nx-api-key: ${key}\r\n${extra}\r\n`;
  const mcpBody = toolCallBody('web_search', '{"query":"bread"}');
  const mcp = (hostLine: string | null, extra = '') =>
    `POST /mcp HTTP/1.1\r\n${hostLine === null ? '' : `Host: ${hostLine}\r\n`}x-api-key: ${key}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(mcpBody)}\r\n${extra}\r\n${mcpBody}`;
  const junk = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 300 }), { seed: SEED, numRuns: 5 });
  // uWS (README, "HTTP layers"): a request pipelined behind one still being answered closes the
  // connection (what comes must be sound, and nothing is charged twice); HTTP/1.0 is refused 505.
  const uws = HTTP_LAYER === 'uws';
  const pipelinedAsync = (statuses: number[][]): RawCase['expect'] => (uws ? {} : { statuses });
  const http10: RawCase['expect'] = { statuses: [uws ? [505] : [200]] };
  // what uWS's parser refuses itself (400 or 505, or the connection closed) before the service sees it
  const parserDecides = (expect: RawCase['expect']): RawCase['expect'] => (uws ? {} : expect);
  return [
    { label: 'pipelined: three GET /healthz in one write', chunks: () => [get('/healthz').repeat(3)], expect: { statuses: [[200], [200], [200]] } },
    { label: 'pipelined: two searches in one write', chunks: () => [get('/search?q=bread&limit=1') + get('/search?q=lunar&limit=1')], expect: pipelinedAsync([[200], [200]]) },
    { label: 'pipelined: search then unknown route then account', chunks: () => [get('/search?q=bread') + get('/nowhere') + get('/account')], expect: pipelinedAsync([[200], [404], [200]]) },
    { label: 'pipelined: MCP POST then GET /healthz', chunks: () => [mcp(host()) + get('/healthz')], expect: pipelinedAsync([[200], [200]]) },
    { label: 'HEAD /healthz', chunks: () => [`HEAD /healthz HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], heads: [true], expect: { statuses: [[200]], noBody: true } },
    { label: 'HEAD /search', chunks: () => [`HEAD /search?q=bread HTTP/1.1\r\nHost: ${host()}\r\nx-api-key: ${key}\r\n\r\n`], heads: [true], expect: { statuses: [[200, 405]], noBody: true } },
    { label: 'HEAD /describe', chunks: () => [`HEAD /describe HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], heads: [true], expect: { statuses: [[200, 405]], noBody: true } },
    { label: 'HEAD unknown route', chunks: () => [`HEAD /nowhere HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], heads: [true], expect: { statuses: [[404, 405]], noBody: true } },
    { label: 'HTTP/1.0 GET /healthz without Host', chunks: () => ['GET /healthz HTTP/1.0\r\n\r\n'], expect: http10 },
    { label: 'HTTP/1.0 search with key', chunks: () => [`GET /search?q=bread HTTP/1.0\r\nx-api-key: ${key}\r\n\r\n`], expect: http10 },
    { label: 'HTTP/1.1 without Host', chunks: () => ['GET /healthz HTTP/1.1\r\n\r\n'], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: "POST /mcp with 'Host: a b'", chunks: () => [mcp('a b')], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: 'POST /mcp with an empty Host', chunks: () => [mcp('')], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: 'POST /mcp without Host', chunks: () => [mcp(null)], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: 'POST /mcp with Host holding a path and fragment', chunks: () => [mcp('evil.example/x?y#z')], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: 'POST /mcp with Host with a bad port', chunks: () => [mcp('localhost:99999999')], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: 'POST /mcp with a UTF-8 Host', chunks: () => [Buffer.from(mcp('bäckerei.例え'), 'utf8')], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: 'POST /mcp with an 8 KiB Host', chunks: () => [mcp('h'.repeat(8192))], expect: parserDecides({ statuses: [[200, 400, 431]] }) },
    { label: 'POST /mcp with two Host headers', chunks: () => [mcp(host(), 'Host: other.example\r\n')], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: "GET /search with 'Host: a b'", chunks: () => [`GET /search?q=bread HTTP/1.1\r\nHost: a b\r\nx-api-key: ${key}\r\n\r\n`], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: 'malformed: method only', chunks: () => ['GET\r\n\r\n'], expect: parserDecides({ statuses: [[400]] }) },
    { label: 'malformed: unknown HTTP version', chunks: () => [`GET /healthz HTTP/9.9\r\nHost: ${host()}\r\n\r\n`], expect: parserDecides({ statuses: [[400, 505]] }) },
    { label: 'malformed: extra token on the request line', chunks: () => [`GET /healthz HTTP/1.1 extra\r\nHost: ${host()}\r\n\r\n`], expect: parserDecides({ statuses: [[400]] }) },
    { label: 'malformed: lower-case method', chunks: () => [`get /healthz HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], expect: parserDecides({ statuses: [[400, 404, 405, 501]] }) },
    { label: 'malformed: NUL in the path', chunks: () => [`GET /heal\u0000thz HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], expect: parserDecides({ statuses: [[400, 404]] }) },
    { label: 'malformed: space in the path', chunks: () => [`GET /search?q=a b HTTP/1.1\r\nHost: ${host()}\r\nx-api-key: ${key}\r\n\r\n`], expect: parserDecides({ statuses: [[400]] }) },
    { label: 'malformed: header without a colon', chunks: () => [`GET /healthz HTTP/1.1\r\nHost: ${host()}\r\nthis is not a header\r\n\r\n`], expect: parserDecides({ statuses: [[400]] }) },
    { label: 'malformed: header name with a space', chunks: () => [`GET /healthz HTTP/1.1\r\nHost: ${host()}\r\nx api key: 1\r\n\r\n`], expect: parserDecides({ statuses: [[400]] }) },
    { label: 'bare LF line endings', chunks: () => [`GET /healthz HTTP/1.1\nHost: ${host()}\n\n`], expect: parserDecides({ statuses: [[200, 400]] }) },
    { label: 'absolute-form request target', chunks: () => [`GET http://${host()}/healthz HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], expect: parserDecides({ statuses: [[200, 400, 404]] }) },
    { label: 'asterisk-form OPTIONS', chunks: () => [`OPTIONS * HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], expect: parserDecides({ statuses: [[200, 204, 400, 404, 405, 501]] }) },
    { label: 'unknown method', chunks: () => [`PURGE /healthz HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], expect: { statuses: [[404, 405, 501]] } },
    { label: 'POST to a GET route', chunks: () => [`POST /search?q=bread HTTP/1.1\r\nHost: ${host()}\r\nx-api-key: ${key}\r\ncontent-length: 0\r\n\r\n`], expect: { statuses: [[404, 405]] } },
    { label: 'huge header: 100 KiB value', chunks: () => [get('/healthz', `x-junk: ${'j'.repeat(100 * 1024)}\r\n`)], expect: parserDecides({ statuses: [[400, 413, 431]] }) },
    { label: 'huge header: 1,000 headers', chunks: () => [get('/healthz', Array.from({ length: 1000 }, (_, index) => `x-h${index}: v\r\n`).join(''))], expect: parserDecides({ statuses: [[200, 400, 431]] }) },
    { label: 'huge URL: 64 KiB query', chunks: () => [get(`/search?q=${'a'.repeat(64 * 1024)}`)], expect: parserDecides({ statuses: [[200, 400, 414, 431]] }) },
    { label: 'invalid percent-escape in a path parameter', chunks: () => [get('/doc/%zz%ff')], expect: { statuses: [[400, 404]] } },
    { label: 'two x-api-key headers', chunks: () => [get('/search?q=bread', `x-api-key: ess_${'0'.repeat(48)}\r\n`)], expect: { statuses: [[200, 400, 401]] } },
    { label: 'chunked MCP body', chunks: () => {
      const body = mcpBody;
      return [`POST /mcp HTTP/1.1\r\nHost: ${host()}\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`];
    }, expect: { statuses: [[200]] } },
    { label: 'MCP body split across writes', chunks: () => {
      const whole = mcp(host());
      return [whole.slice(0, 40), whole.slice(40, 200), whole.slice(200)];
    }, expect: { statuses: [[200]] } },
    { label: 'Expect: 100-continue on MCP', chunks: () => [mcp(host(), 'expect: 100-continue\r\n')], expect: { statuses: [[200]] } },
    { label: 'content-length and transfer-encoding both', chunks: () => [`POST /mcp HTTP/1.1\r\nHost: ${host()}\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n`], expect: parserDecides({ statuses: [[400]] }) },
    { label: 'negative content-length', chunks: () => [`POST /mcp HTTP/1.1\r\nHost: ${host()}\r\nx-api-key: ${key}\r\ncontent-length: -1\r\n\r\n`], expect: parserDecides({ statuses: [[400]] }) },
    { label: 'TLS ClientHello on the plain port', chunks: () => [Buffer.from('16030100a5010000a10303', 'hex')], expect: {} },
    ...junk.map((bytes, index): RawCase => ({ label: `random bytes #${index + 1}`, chunks: () => [Buffer.from(bytes)], expect: {} })),
  ];
}

/** What is wrong with one answer of an exchange: a 5xx (but 503), an error that is not text/plain. */
function rawAnswerProblems(response: RawResponse, allowed: number[]): string[] {
  const problems: string[] = [];
  // uWS's parser answers what it refuses itself (400, 431, 505; no x-request-id, its HTML or no
  // body: README, "HTTP layers")
  const uwsRefusal = HTTP_LAYER === 'uws' && [400, 431, 505].includes(response.status) && response.headers['x-request-id'] === undefined;
  if (response.status >= 500 && response.status !== 503 && !allowed.includes(response.status) && !uwsRefusal) problems.push(`${response.status} (no 5xx)`);
  if (response.status >= 400 && !uwsRefusal && !/^text\/plain/.test(response.headers['content-type'] ?? '')) {
    problems.push(`${response.status} with content-type ${response.headers['content-type'] ?? '(none)'} (errors are text/plain)`);
  }
  return problems;
}

describe('fuzz: raw HTTP/1.1 over TCP', () => {
  it(
    'answers pipelined, HEAD, HTTP/1.0, odd Host, malformed and huge requests soundly',
    async () => {
      for (const rawCase of rawCases()) {
        const chunks = rawCase.chunks();
        const request = truncate(chunks.map((chunk) => chunk.toString('latin1')).join(''), 240);
        const where = `RAW ${rawCase.label}`;
        counters.calls += 1;
        counters.httpRequests += 1;
        const exchange = await rawExchange(server.port, chunks);
        if (!(await survived('raw', where, request))) continue;
        const { responses, rest } = parseResponses(exchange.bytes, rawCase.heads ?? []);
        const problems = responses.flatMap((response) => rawAnswerProblems(response, (rawCase.expect.statuses ?? []).flat()));
        const observed = responses.length
          ? responses.map((response) => `${response.statusLine} [${response.headers['content-type'] ?? 'no content-type'}, ${response.body.length} B body]`).join(', ')
          : `no answer${exchange.bytes.length ? `: ${truncate(exchange.bytes.toString('latin1'), 120)}` : ''}${exchange.closed ? ' (connection closed)' : ' (connection left open)'}`;
        const wanted = rawCase.expect.statuses;
        if (wanted) {
          // 100 Continue is an interim answer: look past it
          const finals = responses.filter((response) => response.status !== 100);
          const finalsWanted = wanted.map((allowed) => allowed.filter((status) => status !== 100)).filter((allowed) => allowed.length > 0);
          const matches = finals.length >= finalsWanted.length && finalsWanted.every((allowed, index) => allowed.includes(finals[index].status));
          if (!matches) problems.push(`expected ${finalsWanted.map((allowed) => allowed.join('/')).join(' then ')}`);
        }
        if (rawCase.expect.noBody && rest.length > 0) problems.push(`${rest.length} body bytes after a HEAD answer: ${truncate(rest.toString('latin1'), 80)}`);
        if (problems.length > 0) {
          fail('raw', `RAW ${rawCase.label}`, request, observed, [...new Set(problems)].join('; '));
        }
      }
      expect(phaseFailures.raw.size, report('raw')).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
