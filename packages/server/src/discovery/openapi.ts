/**
 * GET /openapi.json (SPEC 9): OpenAPI 3.1, generated from the catalog and the zod schemas. Each
 * catalog entry becomes a GET operation whose parameters come from the capability's parameter
 * schema (descriptions included) and whose 200 body is the capability's response schema; the
 * error answers are the plain-text ones of SPEC 7. The open routes, /account and /mcp follow.
 */
import { ERROR_KINDS, jsonSchemaOf, QUERY_MAX_CHARS, type JsonSchema } from '@evidence/schemas';
import type { z } from 'zod';
import { CATALOG, type CatalogEntry } from '../catalog.js';
import { DescribeSchema } from './describe.js';
import { GUIDES } from './documents.js';
import { AccountStatusSchema, JsonRpcAnswerSchema, jsonRpcBodySchema, JsonRpcResponseSchema, ReadySchema, ToolListingSchema } from './open-schemas.js';
import { documentedPath } from './documented-routes.js';
import { PROFILE_NAMES } from '../mcp-tools.js';
import { MCP_MAX_BATCH_MESSAGES } from '../routes/mcp.js';
import { MAX_HEADER_BYTES } from '../http/transport.js';
import { WWW_AUTHENTICATE } from '../http/answer.js';

type Operation = Record<string, unknown>;

const PLAIN_TEXT = 'text/plain';

/** The error responses by status, from the one error table: each kind's summary, and whether it sends retry-after. */
const ERROR_RESPONSES: Record<string, { description: string; retryAfter: boolean }> = (() => {
  const byStatus: Record<string, { description: string; retryAfter: boolean }> = {};
  for (const entry of Object.values(ERROR_KINDS)) {
    const status = String(entry.status);
    const line = `${entry.summary}${entry.retryAfter ? ' (retry-after)' : ''}`;
    const known = byStatus[status];
    byStatus[status] = known ? { description: `${known.description}; or ${line}`, retryAfter: known.retryAfter || entry.retryAfter } : { description: line, retryAfter: entry.retryAfter };
  }
  return byStatus;
})();

function textResponse(description: string, retryAfter = false): Record<string, unknown> {
  return {
    description,
    ...(retryAfter ? { headers: { 'retry-after': { $ref: '#/components/headers/RetryAfter' } } } : {}),
    content: { [PLAIN_TEXT]: { schema: { type: 'string' } } },
  };
}

function errorResponses(statuses: string[]): Record<string, unknown> {
  return Object.fromEntries(statuses.map((status) => [status, { $ref: `#/components/responses/Error${status}` }]));
}

function jsonResponse(description: string, schema: JsonSchema, headers?: Record<string, unknown>): Record<string, unknown> {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

const RATE_HEADERS = { 'x-ratelimit-remaining': { $ref: '#/components/headers/RateLimitRemaining' } };

/**
 * One OpenAPI parameter per property of the parameter schema. An IN-list (a string or an array
 * in the schema) is, over REST, one comma-separated value: an array serialised with
 * `explode: false`. A value written as text or as a number (since, max_age) is, over REST, its
 * text form: the number form is MCP's typed argument, and a query carries text.
 */
function parametersOf(entry: CatalogEntry): Record<string, unknown>[] {
  const schema = jsonSchemaOf(entry.capability.params, 'input');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const inPath = entry.rest.pathParameters.includes(name);
    const { description, ...valueSchema } = property;
    const branches = Array.isArray(valueSchema.anyOf) ? (valueSchema.anyOf as JsonSchema[]) : [];
    const arrayBranch = branches.find((branch) => branch.type === 'array');
    const stringBranch = branches.find((branch) => branch.type === 'string');
    const isInList = arrayBranch !== undefined && stringBranch !== undefined;
    const isTextOrNumber = !isInList && stringBranch !== undefined && branches.length === 2 && branches.some((branch) => branch.type === 'number' || branch.type === 'integer');
    return {
      name,
      in: inPath ? 'path' : 'query',
      required: inPath || required.has(name),
      ...(description ? { description: String(description) } : {}),
      schema: isInList ? { items: { type: 'string' }, ...arrayBranch } : isTextOrNumber ? stringBranch : valueSchema,
      ...(isInList ? { style: 'form', explode: false } : {}),
    };
  });
}

function capabilityOperation(entry: CatalogEntry): Operation {
  const capability = entry.capability;
  const statuses = ['400', '401', '402', '408', '429', '503'];
  // A capability that takes a passage id answers 404 for an unknown one (doc, similar).
  if ('id' in capability.params.shape) statuses.splice(3, 0, '404');
  return {
    operationId: entry.tool.name,
    summary: entry.rest.summary,
    description:
      `${entry.tool.description}\n\nCost: ${capability.cost} credit${capability.cost === 1 ? '' : 's'}` +
      (capability.failureCost < capability.cost ? `; a call that runs and fails costs ${capability.failureCost}.` : '.') +
      ` MCP tool: \`${entry.tool.name}\`` +
      (Object.keys(entry.tool.argumentAliases).length
        ? ` (arguments renamed: ${Object.entries(entry.tool.argumentAliases).map(([argument, parameter]) => `${argument} for ${parameter}`).join(', ')}).`
        : '.'),
    tags: ['capabilities'],
    'x-cost': capability.cost,
    'x-failure-cost': Math.min(capability.failureCost, capability.cost),
    'x-mcp-tool': entry.tool.name,
    parameters: parametersOf(entry),
    responses: {
      '200': jsonResponse('success', jsonSchemaOf(capability.response as z.ZodType, 'output'), RATE_HEADERS),
      ...errorResponses(statuses),
    },
  };
}

function openOperation(operationId: string, summary: string, responses: Record<string, unknown>, extra: Operation = {}): Operation {
  return { operationId, summary, tags: ['discovery'], security: [], ...extra, responses };
}

export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const entry of CATALOG) paths[documentedPath(entry.rest.path)] = { get: capabilityOperation(entry) };

  paths['/account'] = {
    get: {
      operationId: 'account',
      summary: 'Plan, per-minute rate, monthly credits and usage',
      description: 'No credits; takes one per-minute token; answers even when a hard-capped key has run out of credits.',
      tags: ['account'],
      'x-cost': 0,
      responses: {
        '200': jsonResponse('the account of the key', jsonSchemaOf(AccountStatusSchema, 'output'), RATE_HEADERS),
        ...errorResponses(['401', '402', '429']),
      },
    },
  };

  paths['/mcp'] = {
    post: {
      operationId: 'mcp',
      summary: 'MCP over Streamable HTTP (JSON-RPC 2.0, stateless)',
      description:
        'Protocol 2026-07-28 (server/discover, then each request with its per-request envelope and mcp-protocol-version header) and the 2025 revisions ' +
        '(initialize, notifications/initialized, ping); tools/list and tools/call in both. Every request presents its key (same header rules as REST); ' +
        'the answer is JSON (not an event stream). A tool returns its REST body as structuredContent and as JSON text; a failed tool is a result with isError ' +
        'and the REST error text, charged as over REST. 401, 402 and 429 (also a rate or credit refusal during tools/call) keep their HTTP status and plain-text body. ' +
        `Optional query profile=${PROFILE_NAMES.join('|')} serves only that profile's tools.`,
      tags: ['mcp'],
      parameters: [
        {
          name: 'profile',
          in: 'query',
          required: false,
          description: 'serve only the tools of this profile',
          schema: { type: 'string', enum: PROFILE_NAMES },
        },
        {
          name: 'accept',
          in: 'header',
          required: true,
          description: 'must list application/json and text/event-stream',
          schema: { type: 'string', enum: ['application/json, text/event-stream'] },
        },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: jsonSchemaOf(jsonRpcBodySchema(MCP_MAX_BATCH_MESSAGES), 'input') } },
      },
      responses: {
        '200': jsonResponse('the JSON-RPC response (an array for a batch)', jsonSchemaOf(JsonRpcAnswerSchema, 'output'), RATE_HEADERS),
        '202': { description: 'accepted (the request held only notifications)' },
        '400': {
          description:
            'a malformed JSON-RPC message, an empty batch, or a 2026-07-28 request whose envelope, revision or mcp-* headers are wrong (JSON-RPC error body, application/json), or an unknown profile (text/plain)',
          content: { 'application/json': { schema: jsonSchemaOf(JsonRpcResponseSchema, 'output') }, [PLAIN_TEXT]: { schema: { type: 'string' } } },
        },
        '401': { $ref: '#/components/responses/Error401' },
        '402': { $ref: '#/components/responses/Error402' },
        '403': textResponse('an Origin header naming neither a loopback host, the HOST address nor one ALLOWED_ORIGINS lists (a browser page elsewhere: DNS rebinding)'),
        '404': jsonResponse('a 2026-07-28 request (per-request envelope) for a method that revision does not have, e.g. ping (JSON-RPC -32601 error body)', jsonSchemaOf(JsonRpcResponseSchema, 'output')),
        '406': jsonResponse('accept does not list application/json and text/event-stream (JSON-RPC error body)', jsonSchemaOf(JsonRpcResponseSchema, 'output')),
        '413': textResponse(`the body exceeds 1 MiB, or a batch holds more than ${MCP_MAX_BATCH_MESSAGES} messages`),
        '415': jsonResponse('content-type is not application/json, or the body is compressed (content-encoding) (JSON-RPC error body)', jsonSchemaOf(JsonRpcResponseSchema, 'output')),
        '429': { $ref: '#/components/responses/Error429' },
      },
    },
  };
  // GET, DELETE and every other method on /mcp answer 405 with `allow: POST` (stateless: no
  // stream to open, no session to end), as for any method a path is not served for.

  paths['/describe'] = {
    get: openOperation('describe', 'What this deployment holds and how its evidence vocabulary reads', {
      '200': jsonResponse('the catalog of this deployment', jsonSchemaOf(DescribeSchema, 'output')),
    }),
  };
  paths['/openapi.json'] = {
    get: openOperation('openapi', 'This document', { '200': jsonResponse('OpenAPI 3.1', { type: 'object' }) }),
  };
  paths['/mcp/tools.json'] = {
    get: openOperation(
      'mcpTools',
      'What MCP tools/list reports',
      {
        '200': jsonResponse('the tools, with the profile named when one was chosen', jsonSchemaOf(ToolListingSchema, 'output')),
        '400': textResponse('unknown profile'),
      },
      {
        parameters: [{ name: 'profile', in: 'query', required: false, description: 'select a tool profile', schema: { type: 'string', enum: PROFILE_NAMES } }],
      },
    ),
  };
  paths['/llms.txt'] = {
    get: openOperation('llmsTxt', 'Short plain-text orientation', { '200': textResponse('orientation for language models') }),
  };
  paths['/skill.md'] = {
    get: openOperation('skill', 'Agent skill document (YAML front matter)', {
      '200': { description: 'the skill', content: { 'text/markdown': { schema: { type: 'string' } } } },
    }),
  };
  paths['/guides/{slug}'] = {
    get: openOperation(
      'guide',
      'A markdown guide from a fixed table',
      {
        '200': { description: 'the guide', content: { 'text/markdown': { schema: { type: 'string' } } } },
        '404': textResponse('no guide with this slug'),
      },
      { parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string', enum: Object.keys(GUIDES) } }] },
    ),
  };
  paths['/metrics'] = {
    get: openOperation(
      'metrics',
      'Operators: counters, gauges and histograms in the Prometheus text format',
      {
        '200': { description: 'the metrics', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
        '403': textResponse('the caller is neither loopback nor an address METRICS_ALLOW names'),
      },
      { tags: ['operations'] },
    ),
  };
  paths['/healthz'] = {
    get: openOperation('healthz', 'Liveness: ok while the process is up', { '200': textResponse('ok') }),
  };
  paths['/readyz'] = {
    get: openOperation('readyz', 'Readiness; an empty index is ready', {
      '200': jsonResponse('ready', jsonSchemaOf(ReadySchema, 'output')),
      '503': textResponse('no shards configured'),
    }),
  };

  // The transport refuses a request line and headers over MAX_HEADER_BYTES before any route.
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) (operation.responses as Record<string, unknown>)['431'] = { $ref: '#/components/responses/Error431' };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Evidence Search Service',
      version: '0.1.0',
      description:
        'Search and evidence retrieval over an index of web passages, over REST and MCP. Errors are text/plain. ' +
        'Every authenticated answer carries x-ratelimit-remaining. Generated from the running capability catalog.',
    },
    servers: [{ url: '/' }],
    security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }],
    tags: [
      { name: 'capabilities', description: 'priced capabilities; each is also an MCP tool' },
      { name: 'account', description: 'the key and its allowance' },
      { name: 'mcp', description: 'Model Context Protocol' },
      { name: 'discovery', description: 'open: no key, no credits' },
      { name: 'operations', description: 'for operators: no key, no credits; loopback by default' },
    ],
    paths,
    components: {
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'wins when both headers are sent' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>; the prefix is case-sensitive' },
      },
      headers: {
        RetryAfter: { description: 'seconds to wait before retrying', schema: { type: 'integer' } },
        RateLimitRemaining: { description: 'credits left in the current minute', schema: { type: 'integer' } },
      },
      responses: {
        ...Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, error]) => [`Error${status}`, textResponse(error.description, error.retryAfter)])),
        Error401: {
          ...textResponse(ERROR_RESPONSES['401'].description),
          headers: { 'www-authenticate': { description: 'the accepted schemes', schema: { type: 'string', const: WWW_AUTHENTICATE } } },
        },
        Error431: textResponse(
          `the request line and headers exceed ${MAX_HEADER_BYTES / 1024} KiB. A query text within its ${QUERY_MAX_CHARS} characters can pass it once ` +
            'percent-encoded: each character outside ASCII takes 6 to 12 bytes (a 4,096-character query in Cyrillic, Greek or CJK does not fit); keep such a text under about 1,300 characters',
        ),
      },
    },
  };
}
