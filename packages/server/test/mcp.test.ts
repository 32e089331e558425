/**
 * POST /mcp driven by the SDK's own client over real HTTP: every tool body must equal its REST
 * twin and cost the same credits; keys follow the REST header rules and fail with HTTP statuses.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CATALOG } from '@evidence/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveKey, creditsUsed } from './accounts-helpers.js';
import { passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;

beforeAll(async () => {
  const bread = Array.from({ length: 30 }, (_, index) => passage(`bread${index}:0`, `bread number ${index} with a crust`));
  service = await startTestServer([
    [passage('a:0', 'feed the sourdough starter daily'), ...bread.slice(0, 15)],
    [passage('b:0', 'fresh pasta needs eggs'), ...bread.slice(15)],
  ]);
});
afterAll(() => service.close());

async function connect(headers: Record<string, string>, path = '/mcp'): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${service.base}${path}`), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

function postMcp(headers: Record<string, string>, body: unknown, path = '/mcp'): Promise<Response> {
  return fetch(`${service.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const CALL_WEB_SEARCH = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'web_search', arguments: { query: 'bread' } } };

/** A tool call and the REST request that must answer the same body at the same cost. */
interface Twin {
  label: string;
  tool: string;
  args: Record<string, unknown>;
  rest: string;
}

/**
 * The body without what legitimately differs between two calls made a moment apart: how long
 * the call took, when it was answered, and ages measured from that moment.
 */
function withoutClock(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value) => (key === 'elapsed_ms' || key === 'generated_at' || key === 'age_secs' ? undefined : value));
}

const TWINS: Twin[] = [
  { label: 'web_search, typed limit', tool: 'web_search', args: { query: 'bread crust', limit: 3 }, rest: '/search?q=bread%20crust&limit=3' },
  { label: 'web_search, defaults', tool: 'web_search', args: { query: 'sourdough' }, rest: '/search?q=sourdough' },
  { label: 'web_search, count only', tool: 'web_search', args: { query: 'bread', limit: 0 }, rest: '/search?q=bread&limit=0' },
  { label: 'get_document', tool: 'get_document', args: { id: 'b:0' }, rest: '/doc/b:0' },
  { label: 'get_document, typed flag', tool: 'get_document', args: { id: 'a:0', risk: true }, rest: '/doc/a:0?risk=true' },
  // Used once these tools are in the catalog.
  { label: 'similar', tool: 'similar', args: { id: 'bread3:0', limit: 5 }, rest: '/similar?id=bread3:0&limit=5' },
  { label: 'browse', tool: 'browse', args: { limit: 4 }, rest: '/browse?limit=4' },
  { label: 'ground, typed budget', tool: 'ground', args: { objective: 'bread crust', token_budget: 400 }, rest: '/ground?objective=bread%20crust&token_budget=400' },
  { label: 'ground, role list as an array', tool: 'ground', args: { objective: 'sourdough', require_role: ['secondary', 'ugc'] }, rest: '/ground?objective=sourdough&require_role=secondary,ugc' },
  {
    label: 'evidence_changes',
    tool: 'evidence_changes',
    args: { objective: 'bread', since: 1_600_000_000, known_urls: ['https://example.org/a/0'] },
    rest: '/changes?objective=bread&since=1600000000&known_urls=https://example.org/a/0',
  },
  { label: 'assemble_context', tool: 'assemble_context', args: { q: 'bread', budget: 300 }, rest: '/assemble_context?q=bread&budget=300' },
  { label: 'related', tool: 'related', args: { id: 'bread3:0', relation: ['links_to', 'same_community'], limit: 5 }, rest: '/related?id=bread3:0&relation=links_to,same_community&limit=5' },
  { label: 'corroborate', tool: 'corroborate', args: { id: 'bread3:0' }, rest: '/corroborate?id=bread3:0' },
  { label: 'corroborate, with a claim', tool: 'corroborate', args: { id: 'bread3:0', claim: 'bread has no crust' }, rest: '/corroborate?id=bread3:0&claim=bread%20has%20no%20crust' },
  { label: 'path', tool: 'path', args: { id: 'bread3:0' }, rest: '/path?id=bread3:0' },
  { label: 'path, typed max_depth', tool: 'path', args: { id: 'bread3:0', to: 'a:0', max_depth: 2 }, rest: '/path?id=bread3:0&to=a:0&max_depth=2' },
  { label: 'why_not', tool: 'why_not', args: { url: 'https://example.org/b/0' }, rest: '/why_not?url=https%3A%2F%2Fexample.org%2Fb%2F0' },
];

const catalogTools = CATALOG.map((entry) => entry.tool.name);

describe('MCP over HTTP with the SDK client', () => {
  let key: string;
  let client: Client;

  beforeAll(async () => {
    key = createLiveKey(service).key;
    client = await connect({ 'x-api-key': key });
  });
  afterAll(() => client.close());

  it('initializes, names itself and lists every catalog tool with both schemas', async () => {
    expect(client.getServerVersion()?.name).toBe('evidence-search');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(catalogTools);
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const webSearch = tools.find((tool) => tool.name === 'web_search')!;
    expect(Object.keys(webSearch.inputSchema.properties ?? {})).toContain('query');
    expect(Object.keys(webSearch.inputSchema.properties ?? {})).not.toContain('q');
    expect(webSearch.inputSchema.required).toEqual(['query']);
  });

  it('answers ping', async () => {
    await expect(client.ping()).resolves.toBeDefined();
  });

  for (const name of catalogTools) {
    const twins = TWINS.filter((twin) => twin.tool === name);
    if (twins.length === 0) {
      it.todo(`${name}: add a REST twin case to TWINS`);
      continue;
    }
    for (const twin of twins) {
      it(`${twin.label}: the tool body and charge equal ${twin.rest}`, async () => {
        const before = await creditsUsed(service, key);
        const result = (await client.callTool({ name: twin.tool, arguments: twin.args })) as CallToolResult;
        const afterTool = await creditsUsed(service, key);
        const rest = await service.get(twin.rest, { 'x-api-key': key });
        const afterRest = await creditsUsed(service, key);

        expect(rest.status).toBe(200);
        const restBody = await rest.json();
        expect(result.isError).toBeFalsy();
        expect(withoutClock(result.structuredContent)).toEqual(withoutClock(restBody));
        expect(result.content).toHaveLength(1);
        expect(result.content[0].type).toBe('text');
        expect(withoutClock(JSON.parse((result.content[0] as { text: string }).text))).toEqual(withoutClock(restBody));
        expect(afterTool - before).toBe(afterRest - afterTool);
        expect(afterTool - before).toBeGreaterThan(0);
      });
    }
  }

  it('answers an unknown passage id as a tool error with the REST 404 text, charged like REST', async () => {
    const before = await creditsUsed(service, key);
    const result = (await client.callTool({ name: 'get_document', arguments: { id: 'nope:7' } })) as CallToolResult;
    const afterTool = await creditsUsed(service, key);
    const rest = await service.get('/doc/nope:7', { 'x-api-key': key });
    const afterRest = await creditsUsed(service, key);

    expect(rest.status).toBe(404);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: await rest.text() }]);
    expect(afterTool - before).toBe(afterRest - afterTool);
    expect(afterTool - before).toBe(1);
  });

  it('answers a malformed argument as a free tool error with the REST 400 text', async () => {
    const before = await creditsUsed(service, key);
    const result = (await client.callTool({ name: 'web_search', arguments: { query: 'bread', limit: -1 } })) as CallToolResult;
    const rest = await service.get('/search?q=bread&limit=-1', { 'x-api-key': key });
    expect(rest.status).toBe(400);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: await rest.text() }]);
    expect(await creditsUsed(service, key)).toBe(before);
  });

  it('names the MCP argument, not the REST parameter, when an aliased one is missing', async () => {
    const result = (await client.callTool({ name: 'web_search', arguments: { limit: 2 } })) as CallToolResult;
    const rest = await service.get('/search?limit=2', { 'x-api-key': key });
    const restText = await rest.text();
    expect(restText).toMatch(/^invalid parameter q: required/);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: restText.replace('invalid parameter q:', 'invalid parameter query:') }]);
  });

  it('takes an IN-list as an array and as a comma string, like REST', async (context) => {
    const { tools } = await client.listTools();
    const properties = (tools.find((tool) => tool.name === 'web_search')!.inputSchema.properties ?? {}) as Record<string, { anyOf?: Array<{ type?: string }> }>;
    const isInList = (name: string) => properties[name]?.anyOf?.some((branch) => branch.type === 'array') ?? false;
    // Values every fixture passage matches (tld org, lang en) or none excludes.
    const candidates: Array<[string, string[]]> = [['tld', ['org', 'edu']], ['langs', ['en', 'de']], ['exclude_site', ['nowhere.example', 'elsewhere.example']]];
    const candidate = candidates.find(([name]) => isInList(name));
    if (!candidate) {
      // No IN-list search parameter exists yet (they are being added to the search schema).
      context.skip();
      return;
    }
    const [name, values] = candidate;
    const asArray = (await client.callTool({ name: 'web_search', arguments: { query: 'bread', [name]: values } })) as CallToolResult;
    const asString = (await client.callTool({ name: 'web_search', arguments: { query: 'bread', [name]: values.join(',') } })) as CallToolResult;
    const rest = await (await service.get(`/search?q=bread&${name}=${values.join(',')}`, { 'x-api-key': key })).json();
    expect(asArray.isError).toBeFalsy();
    expect(asArray.structuredContent).toEqual(rest);
    expect(asString.structuredContent).toEqual(rest);
  });

  it('answers an unknown tool with a JSON-RPC error', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/unknown tool: no_such_tool/);
  });

  it('serves a profile: /mcp?profile=grounding lists only its tools that exist', async () => {
    const profiled = await connect({ 'x-api-key': key }, '/mcp?profile=grounding');
    try {
      const { tools } = await profiled.listTools();
      const expected = ['ground', 'get_document'].filter((name) => catalogTools.includes(name));
      expect(tools.map((tool) => tool.name)).toEqual(expected);
    } finally {
      await profiled.close();
    }
    const unknown = await postMcp({ 'x-api-key': key }, CALL_WEB_SEARCH, '/mcp?profile=everything');
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('parameter profile');
  });
});

/**
 * Protocol 2026-07-28 as its clients send it: no initialize, each request names its revision in
 * the mcp-protocol-version header and the `_meta` envelope, and its method in mcp-method.
 */
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function postModern(key: string, id: number, method: string, params: Record<string, unknown> = {}, extraHeaders: Record<string, string> = {}): Promise<Response> {
  return postMcp(
    { 'x-api-key': key, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}), ...extraHeaders },
    { jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } },
  );
}

describe('MCP 2026-07-28 over HTTP (per-request envelope, no initialize)', () => {
  it('discovers the server, lists the same tools and answers a call with the REST body at the REST cost', async () => {
    const { key } = createLiveKey(service);
    const discover = await postModern(key, 1, 'server/discover');
    expect(discover.status).toBe(200);
    const discovered = await discover.json();
    expect(discovered.result.supportedVersions).toContain('2026-07-28');
    expect(discovered.result.capabilities.tools).toBeDefined();
    expect(discovered.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('evidence-search');

    const listed = await (await postModern(key, 2, 'tools/list')).json();
    const document = await (await fetch(`${service.base}/mcp/tools.json`)).json();
    expect(listed.result.tools).toEqual(document.tools);

    const before = await creditsUsed(service, key);
    const call = await postModern(key, 3, 'tools/call', { name: 'web_search', arguments: { query: 'bread crust', limit: 3 } });
    expect(call.status).toBe(200);
    expect(call.headers.get('content-type')).toMatch(/^application\/json/);
    const result = (await call.json()).result;
    const rest = await (await service.get('/search?q=bread%20crust&limit=3', { 'x-api-key': key })).json();
    expect(withoutClock(result.structuredContent)).toEqual(withoutClock(rest));
    expect(await creditsUsed(service, key)).toBe(before + 2);
  });

  it('keeps the 2025 answers: -32602 for malformed params, HTTP 401 for a bad key, 429 for a refusal during a call', async () => {
    const { key } = createLiveKey(service);
    const malformed = await (await postModern(key, 4, 'tools/call', { arguments: {} })).json();
    expect(malformed.error.code).toBe(-32602);
    const unknownTool = await (await postModern(key, 5, 'tools/call', { name: 'nope' })).json();
    expect(unknownTool.error).toEqual({ code: -32602, message: 'unknown tool: nope' });
    const refused = await postModern('wrong', 6, 'tools/list');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
    const capped = createLiveKey(service, { settings: { ratePerMin: 1000, monthlyCredits: 1, hardCap: true, meteredBilling: false } }).key;
    expect((await postModern(capped, 7, 'tools/call', { name: 'web_search', arguments: { query: 'bread' } })).status).toBe(200);
    const second = await postModern(capped, 8, 'tools/call', { name: 'web_search', arguments: { query: 'bread' } });
    expect(second.status).toBe(429);
    expect(second.headers.get('content-type')).toMatch(/^text\/plain/);
  });
});

describe('keys and limits on POST /mcp', () => {
  it('refuses a missing key and a lowercase bearer with HTTP 401 and the REST body', async () => {
    const restBody = await (await service.get('/search?q=bread', {})).text();
    const none = await postMcp({}, CALL_WEB_SEARCH);
    const lowercase = await postMcp({ authorization: `bearer ${service.key}` }, CALL_WEB_SEARCH);
    for (const response of [none, lowercase]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe(restBody);
    }
  });

  it('fails the SDK client with HTTP 401 when the key is missing', async () => {
    await expect(connect({})).rejects.toMatchObject({ code: 401 });
  });

  it('accepts Authorization: Bearer and lets x-api-key win when both are sent', async () => {
    const { key } = createLiveKey(service);
    const bearer = await connect({ authorization: `Bearer ${key}` });
    const result = (await bearer.callTool({ name: 'web_search', arguments: { query: 'pasta' } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    await bearer.close();
    const both = await postMcp({ 'x-api-key': key, authorization: `Bearer ess_${'0'.repeat(48)}` }, CALL_WEB_SEARCH);
    expect(both.status).toBe(200);
    expect(Number(both.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
  });

  it('keeps a credit refusal during tools/call on the transport: HTTP 429, plain text', async () => {
    const { key } = createLiveKey(service, { settings: { ratePerMin: 1000, monthlyCredits: 1, hardCap: true, meteredBilling: false } });
    const first = await postMcp({ 'x-api-key': key }, CALL_WEB_SEARCH);
    expect(first.status).toBe(200);
    const second = await postMcp({ 'x-api-key': key }, CALL_WEB_SEARCH);
    const rest = await service.get('/search?q=bread', { 'x-api-key': key });
    expect(second.status).toBe(429);
    expect(second.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(rest.status).toBe(429);
    expect(await second.text()).toBe(await rest.text());
    // initialize and tools/list cost nothing, so they still answer
    const list = await postMcp({ 'x-api-key': key }, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(list.status).toBe(200);
  });

  it('answers a tools/call with malformed params as JSON-RPC Invalid params (-32602) naming what is wrong, uncharged', async () => {
    const before = (await (await service.get('/account', { 'x-api-key': service.key })).json()).credits_used_this_period;
    for (const [params, names] of [
      [{ arguments: { query: 'bread' } }, 'params.name'],
      [{ name: 7 }, 'params.name'],
      [{ name: 'web_search', arguments: 'query=bread' }, 'params.arguments'],
      [{ name: 'web_search', arguments: null }, 'params.arguments'],
      ['web_search', 'params'],
    ] as const) {
      const response = await postMcp({ 'x-api-key': service.key }, { jsonrpc: '2.0', id: 9, method: 'tools/call', params });
      expect(response.status).toBe(200);
      const message = await response.json();
      expect(message, JSON.stringify(params)).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32602 } });
      expect(message.error.message).toContain(names);
    }
    expect((await (await service.get('/account', { 'x-api-key': service.key })).json()).credits_used_this_period).toBe(before);
  });

  it('refuses a compressed body with 415 rather than reading it as plain JSON', async () => {
    for (const encoding of ['gzip', 'br', 'deflate, gzip']) {
      const response = await postMcp({ 'x-api-key': service.key, 'content-encoding': encoding }, CALL_WEB_SEARCH);
      expect(response.status, encoding).toBe(415);
      expect((await response.json()).error.message).toContain('send the body uncompressed');
    }
    expect((await postMcp({ 'x-api-key': service.key, 'content-encoding': 'identity' }, CALL_WEB_SEARCH)).status).toBe(200);
  });

  it('answers a tools/call without a prior initialize (stateless)', async () => {
    const response = await postMcp({ 'x-api-key': service.key }, CALL_WEB_SEARCH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const message = await response.json();
    const rest = await (await service.get('/search?q=bread', { 'x-api-key': service.key })).json();
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(message.result.structuredContent).toEqual(rest);
  });

  it('refuses a body over 1 MiB with 413, declared or streamed', async () => {
    const huge = JSON.stringify({ ...CALL_WEB_SEARCH, params: { name: 'web_search', arguments: { query: 'x'.repeat((1 << 20) + 10) } } });
    const declared = await postMcp({ 'x-api-key': service.key }, huge);
    expect(declared.status).toBe(413);
    expect(declared.headers.get('content-type')).toMatch(/^text\/plain/);
    const chunks = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(huge));
        controller.close();
      },
    });
    const streamed = await fetch(`${service.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': service.key },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('answers GET, DELETE and any other method but POST on /mcp with 405 and allow: POST (no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE', 'PATCH', 'PUT']) {
      const response = await fetch(`${service.base}/mcp`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('passes the SDK transport checks through: a wrong accept header is 406', async () => {
    const response = await fetch(`${service.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': service.key },
      body: JSON.stringify(CALL_WEB_SEARCH),
    });
    expect(response.status).toBe(406);
  });

  it('checks accept on a batch as on one message, also when no item is well formed (406, nothing run)', async () => {
    for (const body of [[null], [CALL_WEB_SEARCH, { jsonrpc: '2.0', id: 2, method: 'ping' }]]) {
      const response = await fetch(`${service.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': service.key },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(406);
      expect((await response.json()).error.message).toMatch(/^Not Acceptable/);
    }
  });
});
