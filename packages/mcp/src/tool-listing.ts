/**
 * The tools/list entries, generated from the tool definitions. `GET /mcp/tools.json` serves the
 * very same objects, so the document and the protocol cannot disagree.
 */
import { jsonSchemaOf, type JsonSchema } from '@evidence/schemas';
import type { ToolDefinition } from './tool.js';

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema: JsonSchema & { type: 'object' };
  annotations: { readOnlyHint: boolean; openWorldHint: boolean };
}

function objectSchema(schema: JsonSchema, what: string): JsonSchema & { type: 'object' } {
  if (schema.type !== 'object') throw new Error(`${what} must be a JSON object schema, got type ${String(schema.type)}`);
  return schema as JsonSchema & { type: 'object' };
}

export function listTool(tool: ToolDefinition): ListedTool {
  const input = renameProperties(jsonSchemaOf(tool.params, 'input'), tool.argumentAliases);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: objectSchema(input, `input schema of ${tool.name}`),
    outputSchema: objectSchema(jsonSchemaOf(tool.response, 'output'), `output schema of ${tool.name}`),
    // Every tool reads the index and changes nothing; the index is closed (no crawl on demand).
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/**
 * The tools one MCP server exposes, with their listing computed once (zod to JSON Schema is
 * far too slow to redo per request).
 */
export class Toolset {
  readonly tools: readonly ToolDefinition[];
  /** The tools/list result. */
  readonly listing: { tools: ListedTool[] };
  private readonly byName: Map<string, ToolDefinition>;

  constructor(tools: readonly ToolDefinition[]) {
    this.tools = tools;
    this.listing = { tools: tools.map(listTool) };
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  find(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }
}

/**
 * The input schema of a tool: the parameter schema with each REST name replaced by its MCP
 * argument name, keeping the order of the properties and the required list.
 */
export function renameProperties(schema: JsonSchema, aliases: Record<string, string>): JsonSchema {
  const argumentOf = new Map(Object.entries(aliases).map(([argument, parameter]) => [parameter, argument]));
  if (argumentOf.size === 0) return schema;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const renamed: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(properties)) renamed[argumentOf.get(name) ?? name] = property;
  const required = Array.isArray(schema.required) ? (schema.required as string[]).map((name) => argumentOf.get(name) ?? name) : undefined;
  return { ...schema, properties: renamed, ...(required ? { required } : {}) };
}
