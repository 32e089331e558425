/**
 * Parse a capability's parameters with its zod schema. A malformed parameter becomes a 400 that
 * names the parameter and says what it accepts (the schema field's description).
 */
import { z } from 'zod';
import { errors } from './errors.js';

export function parseParams<Schema extends z.ZodObject>(schema: Schema, raw: Record<string, unknown>): z.output<Schema> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue.path[0] ?? 'request');
  const field = (schema.shape as Record<string, z.ZodType>)[name];
  const accepts = issue.code === 'custom' ? issue.message : (field?.description ?? issue.message);
  // A missing value fails the type check (or, for a parameter that takes several forms, every
  // branch of its union): it is required.
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && raw[name] === undefined) {
    throw errors.badParameter(name, `required: ${accepts}`);
  }
  throw errors.badParameter(name, accepts);
}

/**
 * Parameter shapes shared by REST (query strings: everything arrives as a string) and MCP
 * (JSON arguments: arrays, numbers and booleans arrive typed). Each accepts both forms.
 */
export function inList(description: string, options: { separator?: RegExp } = {}) {
  const separator = options.separator ?? ',';
  return z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : value.split(separator)).map((item) => item.trim()).filter(Boolean))
    .describe(`${description} (comma-separated, or an array in MCP)`);
}

export function flag(description: string) {
  return z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
    .transform((value) => value === true || value === 'true' || value === '1')
    .describe(`${description} (true or false)`);
}
