/**
 * docs/API.md: the API reference in markdown, generated from the same OpenAPI document GET
 * /openapi.json serves (itself generated from the capability catalog and its zod schemas), so
 * the reference a reader of the repository gets cannot drift from what the server answers.
 * `npm run docs:api` writes it; a test fails when the committed file differs.
 */
import type { JsonSchema } from '@evidence/schemas';
import { buildOpenApi } from './openapi.js';

type Operation = {
  summary?: string;
  description?: string;
  'x-cost'?: number;
  'x-failure-cost'?: number;
  'x-mcp-tool'?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }[];
  requestBody?: unknown;
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
};

/** Deepest response field level printed (results[].id is level 2). */
const MAX_FIELD_DEPTH = 3;
const INTEGER_LIMIT = 9007199254740991;

/** The anchor GitHub gives a heading (lower case, punctuation but `-` and `_` dropped, spaces to `-`). */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
}

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  if (Array.isArray(schema.enum)) return `one of ${(schema.enum as unknown[]).map((value) => `\`${String(value)}\``).join(', ')}`;
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) return branches.map(typeOf).filter((type, index, all) => all.indexOf(type) === index).join(' or ');
  const type = Array.isArray(schema.type) ? (schema.type as string[]).join(' or ') : (schema.type as string | undefined);
  if (type === 'array') return `array of ${typeOf(schema.items as JsonSchema) || 'values'}`;
  if (type === 'integer' || type === 'number') {
    const bounds: string[] = [];
    if (typeof schema.minimum === 'number' && schema.minimum !== -INTEGER_LIMIT) bounds.push(`>= ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && schema.maximum !== INTEGER_LIMIT) bounds.push(`<= ${schema.maximum}`);
    return bounds.length ? `${type} ${bounds.join(', ')}` : type;
  }
  return type ?? 'any';
}

function defaultOf(schema: JsonSchema | undefined): string {
  return schema && schema.default !== undefined ? `\`${JSON.stringify(schema.default)}\`` : '';
}

function parametersTable(operation: Operation): string[] {
  const parameters = operation.parameters ?? [];
  if (parameters.length === 0) return [];
  const lines = ['| parameter | in | required | type | default | meaning |', '|---|---|---|---|---|---|'];
  for (const parameter of parameters) {
    lines.push(
      `| \`${parameter.name}\` | ${parameter.in} | ${parameter.required ? 'yes' : 'no'} | ${cell(typeOf(parameter.schema))} | ${cell(defaultOf(parameter.schema))} | ${cell(parameter.description ?? '')} |`,
    );
  }
  return ['Parameters:', '', ...lines, ''];
}

/** Object properties of a schema (through an array's items or an anyOf branch that has them). */
function propertiesOf(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: Set<string>; suffix: string } | null {
  if (schema.type === 'array' && schema.items) {
    const inner = propertiesOf(schema.items as JsonSchema);
    return inner ? { ...inner, suffix: `[]${inner.suffix}` } : null;
  }
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    for (const branch of branches) {
      const inner = propertiesOf(branch);
      if (inner) return inner;
    }
    return null;
  }
  if (schema.properties && typeof schema.properties === 'object') {
    return { properties: schema.properties as Record<string, JsonSchema>, required: new Set((schema.required ?? []) as string[]), suffix: '' };
  }
  return null;
}

function fieldRows(schema: JsonSchema, prefix: string, depth: number, rows: string[]): void {
  const found = propertiesOf(schema);
  if (!found) return;
  const path = prefix === '' ? '' : `${prefix}${found.suffix}.`;
  for (const [name, property] of Object.entries(found.properties)) {
    const field = `${path}${name}`;
    const meaning = [found.required.has(name) ? '' : 'optional', String(property.description ?? '')].filter((part) => part !== '').join(': ');
    rows.push(`| \`${field}\` | ${cell(typeOf(property))} | ${cell(meaning)} |`);
    if (depth < MAX_FIELD_DEPTH) fieldRows(property, field, depth + 1, rows);
  }
}

function responseSection(operation: Operation): string[] {
  const lines: string[] = [];
  const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
  for (const [status, response] of success) {
    const [contentType, content] = Object.entries(response.content ?? {})[0] ?? [];
    lines.push(`Answer ${status}${contentType ? ` (\`${contentType}\`)` : ''}: ${response.description ?? ''}`, '');
    if (content?.schema) {
      const rows: string[] = [];
      fieldRows(content.schema, '', 1, rows);
      if (rows.length > 0) lines.push('| field | type | meaning |', '|---|---|---|', ...rows, '');
    }
  }
  const failures = Object.entries(operation.responses)
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, response]) => (response.$ref ? `[${status}](#errors)` : `${status} (${response.description ?? ''})`));
  if (failures.length > 0) lines.push(`Errors: ${failures.join(', ')}.`, '');
  return lines;
}

function operationSection(method: string, path: string, operation: Operation): string[] {
  const lines = [`### ${method.toUpperCase()} ${path}`, ''];
  if (operation.summary) lines.push(`${operation.summary}.`.replace(/\.\.$/, '.'), '');
  const facts: string[] = [];
  if (operation['x-cost'] !== undefined) {
    facts.push(`Cost: ${operation['x-cost']} credit${operation['x-cost'] === 1 ? '' : 's'}`);
    const failureCost = operation['x-failure-cost'];
    if (failureCost !== undefined && failureCost < operation['x-cost']) facts.push(`a call that runs and fails: ${failureCost}`);
  }
  if (operation['x-mcp-tool']) facts.push(`MCP tool: \`${operation['x-mcp-tool']}\``);
  facts.push(Array.isArray(operation.security) && operation.security.length === 0 ? 'no key' : 'key required');
  const factLine = facts.join('; ');
  lines.push(`${factLine.charAt(0).toUpperCase()}${factLine.slice(1)}.`, '');
  if (operation.description) lines.push(operation.description.split('\n\nCost:')[0].trim(), '');
  lines.push(...parametersTable(operation));
  if (operation.requestBody) lines.push('Body: a JSON-RPC 2.0 message, or a batch (array) of them; at most 1 MiB.', '');
  lines.push(...responseSection(operation));
  return lines;
}

export function buildApiReference(): string {
  const document = buildOpenApi() as {
    info: { description: string };
    paths: Record<string, Record<string, Operation>>;
    components: { responses: Record<string, { description: string }>; securitySchemes: Record<string, { description?: string }> };
  };
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
  );
  const lines = [
    '# API reference',
    '',
    '<!-- Generated by `npm run docs:api` from the capability catalog (the document GET /openapi.json serves). Do not edit: a test fails when this file and the catalog disagree. -->',
    '',
    document.info.description,
    '',
    'Keys go in `x-api-key: KEY` (wins when both are sent) or `Authorization: Bearer KEY`. The running server serves this',
    'reference as OpenAPI 3.1 at `GET /openapi.json`, and every capability as an MCP tool (`POST /mcp`, `GET /mcp/tools.json`).',
    '',
    '## Routes',
    '',
    '| route | cost | summary |',
    '|---|---|---|',
    ...operations.map(({ method, path, operation }) => {
      const heading = `${method.toUpperCase()} ${path}`;
      const cost = operation['x-cost'] !== undefined ? String(operation['x-cost']) : Array.isArray(operation.security) && operation.security.length === 0 ? '0, no key' : 'per tool';
      return `| [${heading}](#${headingAnchor(heading)}) | ${cost} | ${cell(operation.summary ?? '')} |`;
    }),
    '',
    '## Errors',
    '',
    'Every error body is `text/plain`. A call that did not run costs nothing.',
    '',
    '| status | when |',
    '|---|---|',
    ...Object.entries(document.components.responses).map(([name, response]) => `| ${name.replace('Error', '')} | ${cell(response.description)} |`),
    '',
    '## Endpoints',
    '',
    ...operations.flatMap(({ method, path, operation }) => operationSection(method, path, operation)),
  ];
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
