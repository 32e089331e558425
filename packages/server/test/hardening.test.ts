/**
 * Hardening (one request must never take the service down): each reproduction of the hardening
 * issue against a real server over real sockets, answered as specified, and the process alive
 * after it. Raw TCP where fetch cannot say it (pipelining, odd Host values, HEAD, HTTP/1.0,
 * malformed request lines).
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { shardDirectory } from '@evidence/native';
import { MCP_MAX_BATCH_MESSAGES, readConfig, startServer } from '@evidence/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveKey, ledgerOf, withKey } from './accounts-helpers.js';
import { HTTP_LAYER, passage, startTestServer, type TestServer } from './fixture.js';

const bread = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, n) =>
    passage(`${prefix}${n}:0`, `bread and water number ${n} with a crust`, { fetchedAt: 1_700_000_000 + n, vertical: n % 2 ? 'cooking' : 'science' }),
  );

/** Send raw bytes on one connection and collect everything until the server closes it or `settleMs` of silence. */
function rawExchange(port: number, payload: string, settleMs = 1500): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let timer = setTimeout(() => socket.destroy(), settleMs * 4);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), settleMs);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', () => undefined);
    socket.write(payload);
  });
}

/** Status lines of every response in a raw exchange, in order. */
function statuses(raw: string): number[] {
  return [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
}

async function alive(service: TestServer): Promise<void> {
  const health = await fetch(`${service.base}/healthz`);
  expect(health.status).toBe(200);
}

describe('hardening: one request never takes the service down', () => {
  let service: TestServer;
  let port: number;

  beforeAll(async () => {
    service = await startTestServer([bread('a', 40), bread('b', 40)]);
    port = service.server.port;
  });
  afterAll(() => service.close());

  it('limit 0 counts (browse and every keyword search shape), and an empty limit is the default', async () => {
    for (const limit of ['0', '-0']) {
      const response = await service.get(`/browse?limit=${limit}`);
      expect(response.status, `browse limit=${limit}`).toBe(200);
      const body = (await response.json()) as { results: unknown[]; total: number };
      expect(body.results).toEqual([]);
      expect(body.total).toBe(80);
    }
    for (const limit of ['', '+', '%20']) {
      const response = await service.get(`/browse?limit=${limit}`);
      expect(response.status, `browse limit=${limit}`).toBe(200);
      expect(((await response.json()) as { results: unknown[] }).results).toHaveLength(10);
    }
    for (const extra of ['&sort=recency', '&facets=true', '&vertical=cooking', '&vertical=cooking&sort=recency&facets=true', '&sort=published&collapse=host']) {
      const response = await service.get(`/search?q=bread+water&limit=0&mode=keyword${extra}`);
      expect(response.status, extra).toBe(200);
      const body = (await response.json()) as { results: unknown[]; total: number };
      expect(body.results, extra).toEqual([]);
      expect(body.total, extra).toBeGreaterThan(0);
    }
    await alive(service);
  });

  it('a non-numeric limit is a 400 naming it, over REST and MCP, and costs nothing', async () => {
    const { key, tenant } = createLiveKey(service);
    const rest = await service.get('/browse?limit=ten', withKey(key));
    expect(rest.status).toBe(400);
    expect(rest.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await rest.text()).toMatch(/^invalid parameter limit: /);
    for (const limit of [null, false, [], [0], 'x']) {
      const result = await mcpCall(key, { name: 'browse', arguments: { limit } });
      expect(result.isError, JSON.stringify(limit)).toBe(true);
      expect(result.content[0].text, JSON.stringify(limit)).toMatch(/^invalid parameter limit: /);
    }
    const zero = await mcpCall(key, { name: 'browse', arguments: { limit: 0 } });
    expect(zero.structuredContent).toMatchObject({ results: [], total: 80 });
    expect(ledgerOf(service.dataDir, tenant).credits).toBe(1);
    await alive(service);
  });

  it('a query nested past 32 groups is a 400 naming q (REST) or query (MCP), free, and the process lives', async () => {
    const { key, tenant } = createLiveKey(service);
    for (const mode of ['keyword', 'hybrid']) {
      const response = await service.get(`/search?q=${'('.repeat(1500)}&mode=${mode}`, withKey(key));
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/^invalid parameter q: .*at most 32 nested parentheses/);
    }
    const ground = await service.get(`/ground?objective=${encodeURIComponent('('.repeat(200) + 'bread')}`, withKey(key));
    expect(ground.status).toBe(400);
    expect(await ground.text()).toMatch(/^invalid parameter objective: /);
    const viaMcp = await mcpCall(key, { name: 'web_search', arguments: { query: '('.repeat(10_000) } });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.content[0].text).toMatch(/^invalid parameter query: /);
    const nested = await service.get(`/search?q=${encodeURIComponent(`${'('.repeat(32)}bread${')'.repeat(32)}`)}`, withKey(key));
    expect(nested.status).toBe(200);
    expect(ledgerOf(service.dataDir, tenant).credits).toBe(1);
    await alive(service);
  });

  it('any Host value is survivable on POST /mcp', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const host of ['a b', '[', '%', 'x:99999']) {
      const raw = await rawExchange(
        port,
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nx-api-key: ${service.key}\r\ncontent-type: application/json\r\n` +
          `accept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      const status = statuses(raw)[0];
      expect(status, `Host: ${host}`).toBeLessThan(500);
      if (status === 200) expect(raw).toContain('"tools"');
    }
    await alive(service);
  });

  it.skipIf(HTTP_LAYER === 'uws')('answers pipelined requests in order, each billed once', async () => {
    const { key, tenant } = createLiveKey(service);
    const request = (q: string) => `GET /search?q=${q}&limit=1 HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\n\r\n`;
    const raw = await rawExchange(port, request('bread') + request('water') + request('crust'));
    expect(statuses(raw)).toEqual([200, 200, 200]);
    expect(ledgerOf(service.dataDir, tenant).rows).toBe(3);
  });

  // uWS refuses asynchronous pipelining (README, "HTTP layers"): the connection is closed, and
  // what was pipelined behind the request under way is never run or charged.
  it.runIf(HTTP_LAYER === 'uws')('uWS: a request pipelined behind one under way closes the connection, and is never run or charged', async () => {
    const { key, tenant } = createLiveKey(service);
    const request = (q: string) => `GET /search?q=${q}&limit=1 HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\n\r\n`;
    const raw = await rawExchange(port, request('bread') + request('water') + request('crust'));
    expect(statuses(raw)).toEqual([]);
    expect(ledgerOf(service.dataDir, tenant).rows).toBeLessThanOrEqual(1);
    await alive(service);
  });

  it('HEAD follows HTTP: the GET headers, no body', async () => {
    const raw = await rawExchange(port, 'HEAD /healthz HTTP/1.1\r\nHost: localhost\r\nconnection: close\r\n\r\n');
    expect(statuses(raw)).toEqual([200]);
    expect(raw).toMatch(/content-length: 2\r\n/i);
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
    const head = await fetch(`${service.base}/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(await head.text()).toBe('');
  });

  it.skipIf(HTTP_LAYER === 'uws')('answers HTTP/1.0, and refuses malformed requests with text/plain statuses (505 only for a real version)', async () => {
    const old = await rawExchange(port, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(old).toMatch(/^HTTP\/1\.1 200 /);
    expect(old.endsWith('ok')).toBe(true);
    const cases: Array<[string, number]> = [
      ['GARBAGE\r\n\r\n', 400],
      ['GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n', 400],
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n', 505],
      // versions the HTTP parser itself accepts, and the service does not speak
      ['GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n', 505],
      ['GET /healthz HTTP/0.9\r\nHost: x\r\n\r\n', 505],
    ];
    for (const [payload, expected] of cases) {
      const raw = await rawExchange(port, payload);
      expect(statuses(raw), JSON.stringify(payload.slice(0, 40))).toEqual([expected]);
      expect(raw).toMatch(/content-type: text\/plain/i);
    }
    await alive(service);
  });

  // uWS's own parser answers these before the service sees them (README, "HTTP layers"): the
  // statuses are node:http's, the bodies uWS's; HTTP/1.0 is refused 505.
  it.runIf(HTTP_LAYER === 'uws')('uWS: refuses HTTP/1.0 505, and malformed requests with their statuses; the process lives', async () => {
    // [] : the connection closed without an answer
    const cases: Array<[string, number[]]> = [
      ['GET /healthz HTTP/1.0\r\n\r\n', [505]],
      ['GARBAGE\r\n\r\n', []],
      ['GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n', [400]],
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, [431]],
      ['GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n', [505]],
      ['GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n', [505]],
    ];
    for (const [payload, expected] of cases) {
      const raw = await rawExchange(port, payload);
      expect(statuses(raw), JSON.stringify(payload.slice(0, 40))).toEqual(expected);
    }
    // 15 KiB of headers is under MAX_HEADER_BYTES on both layers
    const big = await rawExchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nconnection: close\r\nx-big: ${'a'.repeat(15_000)}\r\n\r\n`);
    expect(statuses(big)).toEqual([200]);
    await alive(service);
  });

  it('every answer carries x-request-id, echoing a well-formed one; a 404 and a 405 are text/plain', async () => {
    const echoed = await fetch(`${service.base}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${service.base}/healthz`, { headers: { 'x-request-id': 'no spaces allowed' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await fetch(`${service.base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/plain/);
    const wrongMethod = await fetch(`${service.base}/search?q=x`, { method: 'POST' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    // uWS writes its mark header itself (README, "HTTP layers")
    if (HTTP_LAYER === 'node') expect(wrongMethod.headers.get('uwebsockets')).toBeNull();
  });

  async function mcpCall(key: string, params: Record<string, unknown>): Promise<{ isError?: boolean; content: { text: string }[]; structuredContent?: unknown }> {
    const response = await fetch(`${service.base}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { result: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown } }).result;
  }

  describe('MCP batches', () => {
    const postBatch = (key: string, batch: unknown[]) =>
      fetch(`${service.base}/mcp`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(batch),
      });
    const search = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'web_search', arguments: { query: 'bread', limit: 1 } } });

    it('a batch that runs out of its minute answers the calls that ran and an error object for each refused one', async () => {
      const { key, tenant } = createLiveKey(service, { settings: { ratePerMin: 5, monthlyCredits: 0, hardCap: false, meteredBilling: true } });
      const response = await postBatch(key, [1, 2, 3, 4, 5, 6, 7].map(search));
      expect(response.status).toBe(200);
      const answers = (await response.json()) as Array<{ id: number; result?: unknown; error?: { code: number; data: { status: number; retry_after?: number } } }>;
      expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(answers.slice(0, 5).every((answer) => answer.result !== undefined)).toBe(true);
      for (const refused of answers.slice(5)) {
        expect(refused.error?.data.status).toBe(429);
        expect(refused.error?.data.retry_after).toBeGreaterThan(0);
      }
      expect(ledgerOf(service.dataDir, tenant).credits).toBe(5);
      // Every call of a batch refused: the HTTP status of a single refused call.
      const refusedWhole = await postBatch(key, [search(8), search(9)]);
      expect(refusedWhole.status).toBe(429);
      expect(refusedWhole.headers.get('retry-after')).not.toBeNull();
    });

    it('a hard-capped tenant spends exactly its allowance within a batch', async () => {
      const { key, tenant } = createLiveKey(service, { settings: { ratePerMin: 1000, monthlyCredits: 12, hardCap: true, meteredBilling: false } });
      const ground = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ground', arguments: { objective: 'bread water' } } });
      const answers = (await (await postBatch(key, [ground(1), ground(2), ground(3), ground(4)])).json()) as Array<{ id: number; result?: unknown; error?: { data: { status: number } } }>;
      expect(answers.filter((answer) => answer.result !== undefined)).toHaveLength(2);
      expect(answers.filter((answer) => answer.error?.data.status === 429)).toHaveLength(2);
      expect(ledgerOf(service.dataDir, tenant).credits).toBe(10);
    });

    it('a batch of more messages than the bound is refused whole with 413, nothing run or charged; the bound itself runs', async () => {
      const { key, tenant } = createLiveKey(service);
      const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
      const over = await postBatch(key, Array.from({ length: MCP_MAX_BATCH_MESSAGES + 1 }, (_, id) => search(id)));
      expect(over.status).toBe(413);
      expect(over.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await over.text()).toContain(`at most ${MCP_MAX_BATCH_MESSAGES} messages; this one holds ${MCP_MAX_BATCH_MESSAGES + 1}`);
      expect(ledgerOf(service.dataDir, tenant).credits).toBe(0);
      // a batch hidden inside a batch is not run (it would pass the bound)
      const nested = (await (await postBatch(key, [Array.from({ length: 40 }, (_, id) => search(id)), list(1)])).json()) as Array<{ id: number | null; result?: unknown; error?: { code: number } }>;
      expect(nested.map((answer) => [answer.id, answer.error?.code ?? 'result'])).toEqual([[null, -32600], [1, 'result']]);
      expect(ledgerOf(service.dataDir, tenant).credits).toBe(0);
      const empty = await postBatch(key, []);
      expect(empty.status).toBe(400);
      expect(((await empty.json()) as { error: { code: number } }).error.code).toBe(-32600);
      const full = (await (await postBatch(key, Array.from({ length: MCP_MAX_BATCH_MESSAGES }, (_, id) => list(id)))).json()) as Array<{ id: number }>;
      expect(full.map((answer) => answer.id)).toEqual(Array.from({ length: MCP_MAX_BATCH_MESSAGES }, (_, id) => id));
      await alive(service);
    });

    it('two calls sharing an id are both answered, in order, and both billed', async () => {
      const { key, tenant } = createLiveKey(service);
      const answers = (await (await postBatch(key, [search(7), search(7)])).json()) as Array<{ id: number; result?: unknown }>;
      expect(Array.isArray(answers)).toBe(true);
      expect(answers.map((answer) => answer.id)).toEqual([7, 7]);
      expect(answers.every((answer) => answer.result !== undefined)).toBe(true);
      expect(ledgerOf(service.dataDir, tenant).credits).toBe(2);
    });
  });
});

describe('hardening: a shard lost while the service was down is down, never complete', () => {
  const seed = () => [bread('a', 30), bread('b', 30)];

  for (const [label, lose] of [
    ['moved away', (dataDir: string) => renameSync(shardDirectory(dataDir, 1), join(dataDir, 'shard-1-elsewhere'))],
    [
      'replaced by an empty directory',
      (dataDir: string) => {
        renameSync(shardDirectory(dataDir, 1), join(dataDir, 'shard-1-elsewhere'));
        mkdirSync(shardDirectory(dataDir, 1));
      },
    ],
  ] as const) {
    it(`shard ${label}: search is partial, ground partial and incomplete, /doc of a lost passage 503 and free, nothing recreated`, async () => {
      const service = await startTestServer(seed(), {}, { beforeStart: lose });
      try {
        const { key, tenant } = createLiveKey(service);
        const search = (await (await service.get('/search?q=bread&mode=keyword', withKey(key))).json()) as { partial?: boolean; total: number };
        expect(search.partial).toBe(true);
        const ground = (await (await service.get('/ground?objective=bread+water', withKey(key))).json()) as { status: string; coverage: { complete: boolean; partial: boolean } };
        expect(ground.status).toBe('partial');
        expect(ground.coverage).toMatchObject({ complete: false, partial: true });
        // b1:0 lives on shard 1, the lost one.
        const doc = await service.get('/doc/b1:0', withKey(key));
        expect(doc.status).toBe(503);
        expect(ledgerOf(service.dataDir, tenant).byRoute.doc).toBeUndefined();
        expect(existsSync(join(shardDirectory(service.dataDir, 1), 'meta.json'))).toBe(false);
      } finally {
        await service.close();
      }
    });
  }
});

describe('hardening: SHARDS=0 configures no shards', () => {
  it('readiness answers 503, a search 503 without retry-after and free, and nothing is created on disk', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'no-shards-'));
    const server = await startServer(readConfig({ DATA_DIR: dataDir, PORT: '0', SHARDS: '0', LOG_LEVEL: 'silent' }));
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.text()).toMatch(/no shards configured/);
      const key = (await server.services.stores.ensureDevelopmentKey())!;
      const search = await fetch(`${base}/search?q=bread`, { headers: { 'x-api-key': key } });
      expect(search.status).toBe(503);
      expect(search.headers.get('retry-after')).toBeNull();
      expect(existsSync(join(dataDir, 'index.json'))).toBe(false);
      expect(existsSync(join(dataDir, 'shards'))).toBe(false);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
