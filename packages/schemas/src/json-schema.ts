/**
 * JSON Schema from the zod schemas (`z.toJSONSchema`), for the MCP tool listings, OpenAPI 3.1,
 * `/describe` and docs/API.md: all read JSON Schema 2020-12 by default, so the `$schema`
 * keyword is left out.
 */
import { z } from 'zod';

export type JsonSchema = { [keyword: string]: unknown };

/** `input` describes what a caller may send (defaults optional, coercions as their input type). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  delete generated.$schema;
  return generated;
}
