/**
 * GET /metrics and the request log after known traffic: counts exact (requests by route and
 * status, credits by capability, 429s by cause), one JSON log line per request with its fields,
 * and no key, key hash or query text anywhere in either.
 */
import { networkInterfaces } from 'node:os';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { accountsDatabasePath } from '@evidence/stores';
import { hashApiKey } from '../../stores/src/api-key-format.js';
import { passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;
const lines: string[] = [];
const keys: Record<string, string> = {};

const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(line);
    done();
  },
});

beforeAll(async () => {
  service = await startTestServer(
    [[passage('a:0', 'feed the sourdough starter daily')], [passage('b:0', 'fresh pasta needs eggs and a sourdough crumb')]],
    { LOG_LEVEL: 'info', AUTH_FAIL_LIMIT: '2' },
    { logDestination: destination },
  );
  const admin = service.server.services.stores.admin;
  admin.setPlan({ name: 'tiny', ratePerMin: 2, monthlyCredits: 1000, hardCap: true, meteredBilling: false });
  admin.setPlan({ name: 'capped', ratePerMin: 100, monthlyCredits: 1, hardCap: true, meteredBilling: false });
  keys.dev = service.key;
  keys.acme = admin.createKey({ tenant: 'acme-corp', label: 'ci', plan: 'tiny' }).key;
  keys.capped = admin.createKey({ tenant: 'capped-inc', label: 'ci', plan: 'capped' }).key;
  service.server.services.stores.refreshKeys();
});
afterAll(() => service.close());

const QUERY_WORD = 'sourdough';

function get(path: string, key: string | null, init: RequestInit = {}): Promise<Response> {
  return fetch(`${service.base}${path}`, { ...init, headers: key ? { 'x-api-key': key } : {} });
}

/** The value of one sample of the exposition, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(' ')[0];
    if (Object.entries(labels).every(([label, value]) => labelText.includes(`${label}="${value}"`))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

describe('metrics and request logs after known traffic', () => {
  let metrics = '';
  const statuses: number[] = [];

  beforeAll(async () => {
    const sent = async (response: Promise<Response>) => {
      const answered = await response;
      await answered.arrayBuffer();
      statuses.push(answered.status);
    };
    for (let i = 0; i < 3; i++) await sent(get(`/search?q=${QUERY_WORD}+starter&mode=keyword`, keys.dev));
    await sent(get('/doc/a:0', keys.dev));
    await sent(get('/doc/zz:9', keys.dev)); // 404, charged (it ran)
    await sent(get(`/search?q=${QUERY_WORD}&mode=telepathy`, keys.dev)); // 400, free
    await sent(get('/healthz', null));
    await sent(get('/nowhere', null));
    await sent(fetch(`${service.base}/search`, { method: 'POST' }));
    await sent(
      fetch(`${service.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': keys.dev },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'web_search', arguments: { query: QUERY_WORD } } }),
      }),
    );
    for (let i = 0; i < 3; i++) await sent(get(`/search?q=${QUERY_WORD}&mode=keyword`, keys.acme)); // 200, 200, 429 rate
    for (let i = 0; i < 2; i++) await sent(get(`/search?q=${QUERY_WORD}&mode=keyword`, keys.capped)); // 200, 429 hard cap
    for (let i = 0; i < 3; i++) await sent(get(`/search?q=${QUERY_WORD}`, null)); // 401, 401, 429 address
    metrics = await (await get('/metrics', null)).text();
    // the request log writes its queued lines within 10 ms
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('answered the traffic as expected', () => {
    expect(statuses).toEqual([200, 200, 200, 200, 404, 400, 200, 404, 405, 200, 200, 200, 429, 200, 429, 401, 401, 429]);
  });

  it('counts requests by route pattern, method and status exactly', () => {
    const requests = (route: string, status: number, method = 'GET') =>
      sample(metrics, 'evidence_http_requests_total', { route, method, status: String(status) });
    expect(requests('/search', 200)).toBe(6);
    expect(requests('/search', 400)).toBe(1);
    expect(requests('/search', 401)).toBe(2);
    expect(requests('/search', 429)).toBe(3);
    expect(requests('/search', 405, 'POST')).toBe(1);
    expect(requests('/doc/:id', 200)).toBe(1);
    expect(requests('/doc/:id', 404)).toBe(1);
    expect(requests('/healthz', 200)).toBe(1);
    expect(requests('(unmatched)', 404)).toBe(1);
    expect(requests('/mcp', 200, 'POST')).toBe(1);
    expect(requests('/metrics', 200)).toBe(0); // the scrape itself is counted once answered
    expect(sample(metrics, 'evidence_http_request_duration_seconds_count', { route: '/search' })).toBe(13);
    expect(sample(metrics, 'evidence_http_request_duration_seconds_count', { route: '/doc/:id' })).toBe(2);
  });

  it('counts credits billed by capability exactly, matching the usage ledger', async () => {
    expect(sample(metrics, 'evidence_credits_billed_total', { route: 'search' })).toBe(3 + 1 + 2 + 1);
    expect(sample(metrics, 'evidence_credits_billed_total', { route: 'doc' })).toBe(2);
    const ledger = new Database(accountsDatabasePath(service.dataDir), { readonly: true });
    try {
      const rows = ledger.prepare('SELECT route, SUM(credits) AS credits FROM usage_ledger GROUP BY route ORDER BY route').all();
      expect(rows).toEqual([
        { route: 'doc', credits: 2 },
        { route: 'search', credits: 7 },
      ]);
    } finally {
      ledger.close();
    }
  });

  it('counts 429s by cause', () => {
    expect(sample(metrics, 'evidence_rate_limited_total', { cause: 'rate' })).toBe(1);
    expect(sample(metrics, 'evidence_rate_limited_total', { cause: 'hard_cap' })).toBe(1);
    expect(sample(metrics, 'evidence_rate_limited_total', { cause: 'address' })).toBe(1);
  });

  it('reports the shard pool, the index, the ledger and the evidence gate', () => {
    for (const shard of ['0', '1']) {
      expect(sample(metrics, 'evidence_shard_passages', { shard })).toBe(1);
      expect(metrics).toContain(`evidence_shard_queue_depth{shard="${shard}"} 0`);
      expect(metrics).toContain(`evidence_shard_busy_workers{shard="${shard}"} 0`);
      expect(metrics).toContain(`evidence_index_generation{shard="${shard}"}`);
      expect(metrics).toContain(`evidence_shard_failures_total{shard="${shard}"} 0`);
      expect(metrics).toContain(`evidence_shard_timeouts_total{shard="${shard}"} 0`);
    }
    expect(sample(metrics, 'evidence_ledger_batch_rows_sum')).toBe(9); // one row per billed call
    expect(sample(metrics, 'evidence_ledger_commit_seconds_count')).toBeGreaterThan(0);
    expect(sample(metrics, 'evidence_gate_waiting')).toBe(0);
    expect(metrics).toContain('evidence_gate_wait_seconds_count 0');
    expect(metrics).toMatch(/^# TYPE evidence_http_requests_total counter$/m);
  });

  it('writes one JSON line per request with its fields', () => {
    const requests = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
    expect(requests.length).toBe(statuses.length + 1); // and the scrape
    expect(requests.slice(0, statuses.length).map((line) => line.status)).toEqual(statuses);
    for (const line of requests) {
      for (const field of ['time', 'level', 'route', 'method', 'status', 'latency_ms', 'credits', 'tenant', 'request_id', 'partial']) {
        expect(line, field).toHaveProperty(field);
      }
      expect(typeof line.latency_ms).toBe('number');
      expect(Number.isNaN(Date.parse(line.time as string))).toBe(false);
    }
    expect(requests[0]).toMatchObject({ route: '/search', method: 'GET', status: 200, credits: 1, tenant: 'dev', partial: false, level: 'info' });
    expect(requests[4]).toMatchObject({ route: '/doc/:id', status: 404, credits: 1, cause: 'not_found' });
    expect(requests[5]).toMatchObject({ status: 400, credits: 0, cause: 'bad_parameter' });
    expect(requests[9]).toMatchObject({ route: '/mcp', method: 'POST', credits: 1, tenant: 'dev' });
    expect(requests[12]).toMatchObject({ status: 429, tenant: 'acme-corp', cause: 'rate_limited' });
    expect(requests[17]).toMatchObject({ status: 429, tenant: null, cause: 'auth_flood' });
    expect(requests.at(-1)).toMatchObject({ route: '/metrics', status: 200, credits: 0, tenant: null });
  });

  it('puts no key, key hash, tenant name or query text in metrics, and no key, hash or query in logs', () => {
    for (const key of Object.values(keys)) {
      for (const text of [metrics, ...lines]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(key.slice(-12));
        expect(text).not.toContain(hashApiKey(key).toString('hex'));
        expect(text).not.toContain(hashApiKey(key).toString('base64'));
      }
    }
    for (const line of lines) expect(line).not.toContain(QUERY_WORD);
    expect(metrics).not.toContain(QUERY_WORD);
    expect(metrics).not.toContain('acme-corp');
    expect(metrics).not.toContain('tenant=');
  });

  it('echoes a well-formed x-request-id into the answer and the log line', async () => {
    const response = await fetch(`${service.base}/healthz`, { headers: { 'x-request-id': 'trace-42.a' } });
    await response.text();
    expect(response.headers.get('x-request-id')).toBe('trace-42.a');
    // the request log writes its queued lines within 10 ms
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.some((line) => line.includes('"request_id":"trace-42.a"'))).toBe(true);
  });
});

describe('tenant labels', () => {
  it('appear on credits billed only when the operator turns them on', async () => {
    const { ServiceMetrics } = await import('../src/observability/metrics.js');
    const withTenants = new ServiceMetrics({ tenantLabels: true });
    withTenants.billed('search', 2, 'acme-corp');
    expect(await withTenants.render()).toContain('evidence_credits_billed_total{route="search",tenant="acme-corp"} 2');
    const without = new ServiceMetrics({ tenantLabels: false });
    without.billed('search', 2, 'acme-corp');
    const text = await without.render();
    expect(text).toContain('evidence_credits_billed_total{route="search"} 2');
    expect(text).not.toContain('acme-corp');
  });
});

describe('who may read /metrics', () => {
  it('refuses an address outside loopback and METRICS_ALLOW with 403, and lets METRICS_ALLOW name it', async () => {
    const { MetricsAccess } = await import('../src/observability/metrics-access.js');
    const loopbackOnly = new MetricsAccess([]);
    expect(loopbackOnly.allows('127.0.0.1')).toBe(true);
    expect(loopbackOnly.allows('::1')).toBe(true);
    expect(loopbackOnly.allows('::ffff:127.0.0.1')).toBe(true);
    expect(loopbackOnly.allows('10.1.2.3')).toBe(false);
    const allowed = new MetricsAccess(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    expect(allowed.allows('10.1.2.3')).toBe(true);
    expect(allowed.allows('192.168.1.7')).toBe(true);
    expect(allowed.allows('192.168.1.8')).toBe(false);
    expect(allowed.allows('fd00::1')).toBe(true);
    expect(new MetricsAccess(['any']).allows('203.0.113.9')).toBe(true);
    expect(() => new MetricsAccess(['10.0.0.0/33'])).toThrow(/METRICS_ALLOW/);
    expect(() => new MetricsAccess(['example.org'])).toThrow(/METRICS_ALLOW/);
  });
});

/** A non-loopback IPv4 address of this machine, if it has one (a request to it does not come from loopback). */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

describe.skipIf(!externalAddress)('GET /metrics over a non-loopback address', () => {
  it('answers 403 by default and 200 once METRICS_ALLOW names the caller', async () => {
    const passages = [[passage('a:0', 'feed the sourdough starter daily')]];
    const closed = await startTestServer(passages, { HOST: '0.0.0.0' });
    const open = await startTestServer(passages, { HOST: '0.0.0.0', METRICS_ALLOW: `${externalAddress}/32` });
    try {
      const refused = await fetch(`http://${externalAddress}:${closed.server.port}/metrics`);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toMatch(/METRICS_ALLOW/);
      expect((await fetch(`${closed.base}/metrics`)).status).toBe(200); // loopback always
      const allowed = await fetch(`http://${externalAddress}:${open.server.port}/metrics`);
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await allowed.text()).toContain('# TYPE evidence_http_requests_total counter');
    } finally {
      await closed.close();
      await open.close();
    }
  });
});
