/**
 * Parse a capability's parameters with its zod schema. A malformed parameter becomes a 400 that
 * names the parameter and says what it accepts (the schema field's description).
 */
import { z } from 'zod';
import { errors } from './errors.js';

export function parseParams<Schema extends z.ZodObject>(schema: Schema, raw: Record<string, unknown>): z.output<Schema> {
  raw = withValuesRead(schema, raw);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue.path[0] ?? 'request');
  const field = (schema.shape as Record<string, z.ZodType>)[name];
  const accepts = issue.code === 'custom' ? issue.message : (descriptionOf(field) ?? issue.message);
  const value = raw[name];
  if (Array.isArray(value) && value.length > 1 && !isMarked(field, LIST_PARAMETERS)) {
    throw errors.badParameter(name, `one value, given ${value.length}: ${accepts}`);
  }
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
export function inList(description: string, options: { separator?: RegExp; values?: readonly string[]; maxItems?: number } = {}) {
  const separator = options.separator ?? ',';
  // A closed vocabulary and a bound on the items are facts of the JSON Schema (OpenAPI, MCP's
  // inputSchema: generated clients type them); the refinements of the caller enforce them, after
  // the comma lists are split, with their own 400s.
  const item = options.values ? z.string().meta({ enum: [...options.values] }) : z.string();
  const items = options.maxItems === undefined ? z.array(item) : z.array(item).meta({ maxItems: options.maxItems });
  const schema = z
    .union([z.string(), items])
    // An array (MCP's, or a REST parameter given more than once) may hold comma lists too.
    .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((item) => item.split(separator)).map((item) => item.trim()).filter(Boolean))
    .describe(`${description} (comma-separated, or an array in MCP)`);
  LIST_PARAMETERS.add(schema);
  return schema;
}

/** The list parameters: the only ones that take several values (an array, or a repeated REST parameter). */
const LIST_PARAMETERS = new WeakSet<z.ZodType>();

export function flag(description: string) {
  const schema = z
    // '' (`safe=`) is read as absent (readFlag) and documented as such, a blank too
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
    .transform((value) => value === true || value === 'true' || value === '1')
    .describe(`${description} (true or false)`);
  FLAG_PARAMETERS.add(schema);
  return schema;
}

/** The flags: an empty or blank value (`safe=`) is absent, as for a number. */
const FLAG_PARAMETERS = new WeakSet<z.ZodType>();

/** The schema inside the `.default()`, `.optional()` and `.nullable()` wrappers of a parameter, one by one, outermost first. */
function* layersOf(field: z.ZodType | undefined): Generator<z.ZodType> {
  for (let schema = field; schema; schema = (schema.def as { innerType?: z.ZodType }).innerType) yield schema;
}

/** Whether `field`, or a schema it wraps, is one of `marked` (the list, flag or numeric parameters). */
function isMarked(field: z.ZodType | undefined, marked: WeakSet<z.ZodType>): boolean {
  for (const layer of layersOf(field)) if (marked.has(layer)) return true;
  return false;
}

/** A parameter's description: `.default()` and `.optional()` after `.describe()` hide it from the outer schema. */
function descriptionOf(field: z.ZodType | undefined): string | undefined {
  for (const layer of layersOf(field)) if (layer.description) return layer.description;
  return undefined;
}

/** A plain decimal number as a query string writes one: no hex, no `Infinity`, no inner blanks. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const NUMERIC_PARAMETERS = new WeakSet<z.ZodType>();

/**
 * Mark a `z.number()` parameter as numeric (apply it last, after `describe`): `parseParams` reads
 * a string value as a plain decimal number before the schema checks it. An empty or blank value
 * (`limit=`, `limit=%20`, `limit=+`) is absent, so the default applies as when the parameter is
 * left out; any other string that is not a decimal number, and any JSON value that is not a
 * number (true, null, [], [0], {}), is a 400 naming the parameter, never read as 0.
 */
export function numericParam<Schema extends z.ZodType>(schema: Schema): Schema {
  NUMERIC_PARAMETERS.add(schema);
  return schema;
}

function readNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '') return undefined;
  // `+ 0` turns -0 into 0.
  return DECIMAL.test(text) ? Number(text) + 0 : Number.NaN;
}

function readFlag(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

type ValueReader = (value: unknown) => unknown;

/** Per parameter schema, the reader of each parameter that has one (numbers and flags), found once. */
const READERS = new WeakMap<z.ZodObject, Map<string, ValueReader>>();

function readersOf(schema: z.ZodObject): Map<string, ValueReader> {
  let readers = READERS.get(schema);
  if (readers === undefined) {
    readers = new Map();
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      if (NUMERIC_PARAMETERS.has(field)) readers.set(name, readNumber);
      else if (isMarked(field, FLAG_PARAMETERS)) readers.set(name, readFlag);
    }
    READERS.set(schema, readers);
  }
  return readers;
}

/** Numbers read from their text, blank numbers and flags made absent, before the schema checks them. */
function withValuesRead(schema: z.ZodObject, raw: Record<string, unknown>): Record<string, unknown> {
  const readers = readersOf(schema);
  let read: Record<string, unknown> | null = null;
  for (const name in raw) {
    const reader = readers.get(name);
    if (reader === undefined) continue;
    read ??= { ...raw };
    read[name] = reader(raw[name]);
  }
  return read ?? raw;
}

/** Longest query text (q, objective, claim, term) accepted, in characters. */
export const QUERY_MAX_CHARS = 4096;
/** Deepest nesting of parenthesised groups in a query (the engine refuses deeper ones too). */
export const QUERY_MAX_NESTING = 32;

/** The deepest `(` nesting outside double-quoted phrases, as the engine counts it. */
export function queryNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inPhrase = false;
  for (const character of text) {
    if (character === '"') inPhrase = !inPhrase;
    else if (inPhrase) continue;
    else if (character === '(') deepest = Math.max(deepest, ++depth);
    else if (character === ')') depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/**
 * A query text: trimmed, non-empty, at most QUERY_MAX_CHARS characters and QUERY_MAX_NESTING
 * nested groups (the query grammar parses groups by recursion; thousands of `(` would exhaust a
 * worker thread's stack).
 */
export function queryText(description: string) {
  return boundedQuery(description).describe(`${description} (${QUERY_BOUNDS})`);
}

/** `queryText` for a parameter that may be left out. */
export function optionalQueryText(description: string) {
  return boundedQuery(description).optional().describe(`${description} (${QUERY_BOUNDS})`);
}

const QUERY_BOUNDS = `at most ${QUERY_MAX_CHARS} characters and ${QUERY_MAX_NESTING} nested parentheses`;

function boundedQuery(description: string) {
  return trimmedText(1)
    .max(QUERY_MAX_CHARS)
    .refine((value) => queryNesting(value) <= QUERY_MAX_NESTING, {
      message: `${description}; at most ${QUERY_MAX_NESTING} nested parentheses`,
    });
}

/**
 * The characters JavaScript's `trim()` removes (ECMAScript WhiteSpace and LineTerminator), for
 * JSON Schema patterns that say what a trimmed parameter needs.
 */
const TRIMMED = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/**
 * A text parameter read trimmed, at least `min` (1 or 2) characters after trimming; its JSON
 * Schema says so with a pattern (minLength alone would admit blanks the server refuses).
 */
export function trimmedText(min: 1 | 2) {
  const visible = `[^${TRIMMED}]`;
  return z
    .string()
    .trim()
    .min(min)
    .meta({ pattern: min === 1 ? visible : `${visible}[\\s\\S]*${visible}` });
}

/** A closed vocabulary without one of its values (a non-empty tuple, as `z.enum` takes). */
export function allBut<Value extends string, Left extends Value>(values: readonly Value[], left: Left): [Exclude<Value, Left>, ...Exclude<Value, Left>[]] {
  return values.filter((value): value is Exclude<Value, Left> => value !== left) as [Exclude<Value, Left>, ...Exclude<Value, Left>[]];
}
