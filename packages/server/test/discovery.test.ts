/**
 * The open discovery documents over real HTTP: no key, no credits, generated from the catalog.
 * OpenAPI is checked by a real OpenAPI 3.1 validator; /mcp/tools.json against the SDK client's
 * own tools/list.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { CATALOG } from '@evidence/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsUsed } from './accounts-helpers.js';
import { passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer([[passage('a:0', 'feed the sourdough starter daily')], [passage('b:0', 'fresh pasta needs eggs')]]);
});
afterAll(() => service.close());

const open = (path: string) => service.get(path, {});

/** What a caller reads in the documents: each tool, its REST path and its cost in credits, in catalog order. */
const TOOLS: Array<[tool: string, path: string, cost: number]> = [
  ['web_search', '/search', 1],
  ['get_document', '/doc/{id}', 1],
  ['similar', '/similar', 1],
  ['browse', '/browse', 1],
  ['ground', '/ground', 5],
  ['evidence_changes', '/changes', 10],
  ['assemble_context', '/assemble_context', 3],
  ['related', '/related', 1],
  ['corroborate', '/corroborate', 3],
  ['path', '/path', 1],
  ['why_not', '/why_not', 1],
];
const TOOL_NAMES = TOOLS.map(([tool]) => tool);

async function listTools(path = '/mcp'): Promise<unknown> {
  const client = new Client({ name: 'discovery-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.base}${path}`), { requestInit: { headers: { 'x-api-key': service.key } } }));
  try {
    // The raw result, not the client's parsed copy, so nothing is added or dropped.
    return await client.request({ method: 'tools/list' }, (await import('@modelcontextprotocol/sdk/types.js')).ListToolsResultSchema);
  } finally {
    await client.close();
  }
}

describe('GET /describe', () => {
  it('answers without a key: filters, values, profiles, ground, vocab and capabilities', async () => {
    const response = await open('/describe');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await response.json();

    for (const list of ['filters', 'sort', 'collapse', 'modes', 'verticals', 'content_types', 'authorities', 'topics']) {
      expect(Array.isArray(body[list]), list).toBe(true);
    }
    for (const filter of body.filters) {
      expect(filter).toEqual({ name: expect.any(String), description: expect.any(String) });
      expect(['q', 'limit', 'mode']).not.toContain(filter.name);
    }
    expect(body.modes).toEqual(['keyword', 'semantic', 'hybrid']);
    expect(body.sort).toContain('relevance');
    expect(body.collapse).toContain('none');

    expect(body.profiles.grounding).toMatchObject({ tools: ['ground', 'get_document'], tools_url: '/mcp/tools.json?profile=grounding' });
    expect(body.profiles.grounding.available).toEqual(['ground', 'get_document']);

    expect(body.ground.defaults).toMatchObject({ min_independent_origins: 2, require_role: ['primary', 'official'], token_budget: 3000 });
    expect(Object.keys(body.ground.statuses)).toEqual(['sufficient', 'insufficient', 'stale', 'partial', 'empty']);
    expect(Object.keys(body.ground.next_actions)).toEqual(['retry', 'widen_max_age', 'search', 'why_not', 'corroborate', 'get_document']);
    expect(Object.keys(body.ground.independence.scores)).toEqual(['1.0', '0.5', '0.0']);

    expect(Object.keys(body.graph.relations)).toEqual(['links_to', 'linked_from', 'co_cited', 'same_community']);
    expect(Object.keys(body.graph.corroboration_verdicts)).toEqual(['corroborated', 'contested', 'single_origin', 'partial']);
    expect(body.graph.corroboration_rule).toMatch(/^partial when a shard did not answer/);
    expect(Object.keys(body.graph.chain_steps)).toEqual(['origin', 'carrier', 'republish']);

    expect(Object.keys(body.vocab.source_role)).toEqual(['official', 'primary', 'secondary', 'aggregator', 'ugc', 'unknown']);
    expect(Object.keys(body.vocab.origin_type)).toEqual(['original', 'wire', 'press_release', 'republish', 'unknown']);
    expect(Object.keys(body.vocab.risk_flags)).toEqual(['instruction_like', 'hidden_text', 'role_markers', 'low_trust_source']);
    expect(Object.keys(body.vocab.claim_relation)).toEqual(['supports', 'contradicts', 'qualifies', 'unresolved']);

    expect(body.capabilities).toMatchObject({ on_demand_crawl: false, mcp: true });
    const routes = body.capabilities.routes as Array<{ path: string; cost: number; tool: string | null }>;
    for (const [tool, path, cost] of TOOLS) expect(routes).toContainEqual(expect.objectContaining({ path, cost, tool }));
    expect(routes).toContainEqual(expect.objectContaining({ path: '/search', cost: 1, tool: 'web_search' }));
    expect(routes).toContainEqual(expect.objectContaining({ path: '/doc/{id}', cost: 1, tool: 'get_document' }));
    expect(routes).toContainEqual(expect.objectContaining({ path: '/account', cost: 0 }));
  });
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document generated from the catalog', async () => {
    const response = await open('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const document = await response.json();
    expect(document.openapi).toBe('3.1.0');

    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    for (const [tool, path, cost] of TOOLS) {
      const operation = document.paths[path]?.get;
      expect(operation, path).toBeDefined();
      expect(operation['x-cost'], path).toBe(cost);
      expect(operation['x-mcp-tool'], path).toBe(tool);
      const entry = CATALOG.find((candidate) => candidate.tool.name === tool)!;
      const parameterNames = operation.parameters.map((parameter: { name: string }) => parameter.name);
      expect(parameterNames).toEqual(Object.keys(entry.capability.params.shape));
      for (const parameter of operation.parameters) expect(parameter.description, `${path} ${parameter.name}`).toBeTruthy();
      expect(operation.responses['200'].content['application/json'].schema.type).toBe('object');
      for (const status of ['400', '401', '402', '429', '503']) expect(operation.responses[status], `${path} ${status}`).toBeDefined();
    }
    expect(document.paths['/doc/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
    expect(document.paths['/search'].get.parameters.find((parameter: { name: string }) => parameter.name === 'q')).toMatchObject({ in: 'query', required: true });
    expect(document.paths['/doc/{id}'].get.responses['404']).toBeDefined();
    expect(document.components.responses.Error401.content['text/plain']).toBeDefined();
    expect(document.components.securitySchemes).toMatchObject({
      ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      BearerAuth: { type: 'http', scheme: 'bearer' },
    });
    for (const path of ['/account', '/mcp', '/describe', '/openapi.json', '/mcp/tools.json', '/llms.txt', '/skill.md', '/guides/{slug}', '/healthz', '/readyz']) {
      expect(document.paths[path], path).toBeDefined();
    }
    expect(document.paths['/describe'].get.security).toEqual([]);
  });

  it('says what the server answers: 431, JSON-RPC 400s, empty flags, fixed vocabularies, since and max_age forms', async () => {
    const document = await (await open('/openapi.json')).json();
    const parameter = (path: string, name: string) => document.paths[path].get.parameters.find((candidate: { name: string }) => candidate.name === name);
    // every operation, as the transport refuses a request line and headers over 16 KiB before any route
    for (const operations of Object.values(document.paths) as Record<string, { responses: Record<string, unknown> }>[]) {
      for (const operation of Object.values(operations)) expect(operation.responses['431']).toEqual({ $ref: '#/components/responses/Error431' });
    }
    expect(document.components.responses.Error431.content['text/plain']).toBeDefined();
    expect(document.components.responses.Error401.headers['www-authenticate'].schema.const).toBe('Bearer realm="evidence", ApiKey header="x-api-key"');
    const mcp = document.paths['/mcp'];
    expect(Object.keys(mcp)).toEqual(['post']);
    expect(Object.keys(mcp.post.responses['400'].content)).toEqual(['application/json', 'text/plain']);
    expect(mcp.post.responses['403'].content['text/plain']).toBeDefined();
    expect(parameter('/search', 'safe').schema.anyOf[1].enum).toContain('');
    expect(parameter('/doc/{id}', 'strip').schema.anyOf[1].enum).toContain('');
    expect(parameter('/related', 'relation').schema).toEqual({ type: 'array', items: { type: 'string', enum: ['links_to', 'linked_from', 'co_cited', 'same_community'] } });
    expect(parameter('/search', 'content_type').schema.items.enum).toContain('news');
    expect(parameter('/search', 'fields').schema.items.enum).toContain('url');
    expect(parameter('/ground', 'require_role').schema.items.enum).toEqual(['official', 'primary', 'secondary', 'aggregator', 'ugc']);
    expect(parameter('/changes', 'known_urls').schema.maxItems).toBe(50);
    // since and max_age: text in a query; the patterns admit what the server takes and refuse since= and max_age=0
    const since = new RegExp(parameter('/changes', 'since').schema.pattern);
    for (const accepted of ['3600', '1d', '12h ago', '2w', '1600000000']) expect(since.test(accepted), accepted).toBe(true);
    for (const refused of ['', '0', 'soon', '9999999999']) expect(since.test(refused), refused).toBe(false);
    const maxAge = new RegExp(parameter('/ground', 'max_age').schema.pattern);
    for (const accepted of ['3600', '30m', '7d']) expect(maxAge.test(accepted), accepted).toBe(true);
    for (const refused of ['', '0', '-5', '1y']) expect(maxAge.test(refused), refused).toBe(false);
    // a trimmed text parameter needs a character trim keeps
    const q = new RegExp(parameter('/search', 'q').schema.pattern);
    expect(q.test('  ')).toBe(false);
    expect(q.test(' a ')).toBe(true);
  });
});

describe('GET /mcp/tools.json', () => {
  it('is exactly what tools/list reports', async () => {
    const response = await open('/mcp/tools.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const document = await response.json();
    expect(document).toEqual(await listTools());
    expect(document.tools.map((tool: { name: string }) => tool.name)).toEqual(TOOL_NAMES);
    for (const tool of document.tools) {
      expect(Object.keys(tool)).toEqual(expect.arrayContaining(['name', 'description', 'inputSchema', 'outputSchema']));
    }
  });

  it('selects the grounding profile, names it, and equals tools/list on /mcp?profile=grounding', async () => {
    const response = await open('/mcp/tools.json?profile=grounding');
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.profile).toBe('grounding');
    expect(document.tools.map((tool: { name: string }) => tool.name)).toEqual(['ground', 'get_document']);
    const { tools } = (await listTools('/mcp?profile=grounding')) as { tools: unknown[] };
    expect(document.tools).toEqual(tools);
  });

  it('refuses an unknown profile with a 400 naming profile', async () => {
    const response = await open('/mcp/tools.json?profile=everything');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toContain('parameter profile');
  });
});

describe('documents', () => {
  it('serves /llms.txt as plain text listing what is served', async () => {
    const response = await open('/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^# Evidence Search/);
    for (const tool of TOOL_NAMES) expect(text).toContain(tool);
    expect(text).toContain('/openapi.json');
    expect(text).not.toContain('{{');
  });

  it('serves /skill.md with YAML front matter and the ground, receipt, corroborate or get_document, why_not loop', async () => {
    const response = await open('/skill.md');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await response.text();
    const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(text);
    expect(frontMatter).not.toBeNull();
    expect(frontMatter![1]).toMatch(/^name: evidence-search$/m);
    expect(frontMatter![1]).toMatch(/^description: .+/m);
    const loop = ['**ground**', '**Read the receipt', '**corroborate**', '**get_document**', '**why_not**'].map((step) => text.indexOf(step));
    expect(loop.every((index) => index > 0)).toBe(true);
    expect([...loop].sort((a, b) => a - b)).toEqual(loop);
  });

  it('serves each guide of the fixed table as markdown', async () => {
    for (const slug of ['search-recipes', 'graph-recipes', 'agent-skill']) {
      const response = await open(`/guides/${slug}`);
      expect(response.status, slug).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect((await response.text()).length).toBeGreaterThan(200);
    }
  });

  it('answers 404 text/plain for any other slug, path traversal included', async () => {
    const attempts = [
      'nope',
      'search-recipes.md',
      'SEARCH-RECIPES',
      '..%2Fpackage.json',
      '..%2F..%2F..%2Fpackage.json',
      '%2e%2e%2fpackage.json',
      '..%252Fpackage.json',
      '..%5Cpackage.json',
      'search-recipes%00',
      '__proto__',
      'constructor',
    ];
    for (const slug of attempts) {
      const response = await open(`/guides/${slug}`);
      expect(response.status, slug).toBe(404);
      expect(response.headers.get('content-type'), slug).toMatch(/^text\/plain/);
      expect(await response.text()).not.toContain('"name"');
    }
    // Unencoded dot segments: whatever the path normalises to, no file is served.
    const raw = await fetch(`${service.base}/guides/../package.json`);
    expect(raw.status).toBe(404);
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
  });
});

describe('discovery is free and independent of the search pool', () => {
  it('costs no credits and needs no key', async () => {
    const before = await creditsUsed(service, service.key);
    for (const path of ['/describe', '/openapi.json', '/mcp/tools.json', '/llms.txt', '/skill.md', '/guides/search-recipes']) {
      const withKey = await service.get(path);
      expect(withKey.status, path).toBe(200);
      await withKey.arrayBuffer();
    }
    expect(await creditsUsed(service, service.key)).toBe(before);
  });

  it('answers while searches queue on the pool', async () => {
    const searches = Array.from({ length: 200 }, () => service.get('/search?q=sourdough').then((response) => response.arrayBuffer()));
    const documents = await Promise.all(['/describe', '/openapi.json', '/mcp/tools.json', '/llms.txt'].map((path) => open(path)));
    for (const response of documents) expect(response.status).toBe(200);
    await Promise.all(searches);
  });
});
