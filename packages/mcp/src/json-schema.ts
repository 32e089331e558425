/**
 * JSON Schema from zod 4 (`z.toJSONSchema`), shaped for MCP tool listings and OpenAPI 3.1:
 * both read JSON Schema 2020-12 by default, so the `$schema` keyword is left out.
 */
import { z } from 'zod';

export type JsonSchema = { [keyword: string]: unknown };

/** `input` describes what a caller may send (defaults optional, coercions as their input type). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  delete generated.$schema;
  return generated;
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
