/**
 * Generators of the fuzz suite (fuzz.test.ts), driven by the capability catalog: each
 * capability's zod parameter schema is read into a ParamSpec (text, number, enum, flag, list,
 * other), and fast-check arbitraries produce values for it, each labelled with what the service
 * must make of it (its class) so the suite can judge the answer:
 *
 * - `valid`: a well-formed value: the call answers 2xx (404 for an id lookup that misses).
 * - `invalid`: a malformed value: a 400 that names the parameter, free of charge.
 * - `empty`: '' or blanks for an optional parameter: the same answer as without it, or a 400
 *   naming it (never a silent different meaning, such as `limit=` read as 0).
 * - `any`: hostile or exotic input whose meaning the contract leaves open: never a crash or a
 *   5xx; a 400 must name a parameter.
 *
 * A value carries its REST form (`text`, percent-encoded when sent, or `raw`, sent verbatim) and
 * its MCP form (`json`: a JSON literal spliced into the request body, so 1e309 and -0 reach the
 * server as written).
 */
import fc from 'fast-check';
import type { z } from 'zod';
import type { CatalogEntry } from '@evidence/server';

export type ValueClass = 'valid' | 'invalid' | 'empty' | 'any';

export interface FuzzValue {
  /** Short name of the kind of value (the signature failures are grouped by). */
  label: string;
  cls: ValueClass;
  /** REST: decoded text (percent-encoded when sent) or `raw` (sent as written). */
  text?: string;
  raw?: string;
  /** MCP: a JSON literal; absent when the value has no MCP form. */
  json?: string;
}

export type ParamSpec =
  | { kind: 'text'; name: string; required: boolean; minLength: number; maxLength?: number; refined: boolean; description: string }
  | { kind: 'number'; name: string; required: boolean; hasDefault: boolean; int: boolean; min?: number; max?: number; description: string }
  | { kind: 'enum'; name: string; required: boolean; values: string[]; description: string }
  | { kind: 'flag'; name: string; required: boolean; description: string }
  | { kind: 'list'; name: string; required: boolean; allowed: string[] | null; description: string }
  | { kind: 'other'; name: string; required: boolean; description: string };

// ------------------------------------------------------------------ reading the zod schemas

interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  checks?: Array<{ _zod: { def: { check: string; value?: number; inclusive?: boolean; minimum?: number; maximum?: number; format?: string } } }>;
}

function defOf(schema: z.ZodType): ZodDef {
  return (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
}

/** Reads one parameter's schema into the shape the generators work from. */
export function specOf(name: string, schema: z.ZodType): ParamSpec {
  // a description may sit on any layer (zod keeps it per schema instance): take every one
  const descriptions: string[] = [];
  let current = schema;
  let required = true;
  let hasDefault = false;
  let refined = false;
  // unwrap optional / default / the input side of a transform pipe
  for (;;) {
    if (current.description) descriptions.push(current.description);
    const def = defOf(current);
    if (def.checks?.some((check) => check._zod.def.check === 'custom')) refined = true;
    if (def.type === 'optional') required = false;
    else if (def.type === 'default') {
      required = false;
      hasDefault = true;
    } else if (def.type === 'pipe') {
      current = def.in!;
      continue;
    } else break;
    current = def.innerType!;
  }
  if (current.description) descriptions.push(current.description);
  const description = [...new Set(descriptions)].join('; ');
  const def = defOf(current);
  if (def.checks?.some((check) => check._zod.def.check === 'custom')) refined = true;
  if (def.type === 'string') {
    const minLength = def.checks?.find((check) => check._zod.def.check === 'min_length')?._zod.def.minimum ?? 0;
    const maxLength = def.checks?.find((check) => check._zod.def.check === 'max_length')?._zod.def.maximum;
    return { kind: 'text', name, required, minLength, maxLength, refined, description };
  }
  if (def.type === 'number') {
    let min: number | undefined;
    let max: number | undefined;
    let int = false;
    for (const check of def.checks ?? []) {
      const checkDef = check._zod.def;
      if (checkDef.check === 'number_format' && /int/.test(checkDef.format ?? '')) int = true;
      if (checkDef.check === 'greater_than') min = checkDef.value;
      if (checkDef.check === 'less_than') max = checkDef.value;
    }
    return { kind: 'number', name, required, hasDefault, int, min, max, description };
  }
  if (def.type === 'enum') return { kind: 'enum', name, required, values: Object.values(def.entries!), description };
  if (def.type === 'union') {
    const types = def.options!.map((option) => defOf(option).type);
    if (types.includes('boolean')) return { kind: 'flag', name, required, description };
    if (types.includes('array')) {
      const allowed = /each (?:value must be )?one of ([^()]+?)(?: \(|;|$)/.exec(description)?.[1];
      return { kind: 'list', name, required, allowed: allowed ? allowed.split(',').map((value) => value.trim()) : null, description };
    }
  }
  return { kind: 'other', name, required, description };
}

export interface RouteSpec {
  entry: CatalogEntry;
  name: string;
  tool: string;
  path: string;
  pathParameters: string[];
  /** REST parameter name -> MCP argument name (web_search's `query` for `q`). */
  argumentOf: Record<string, string>;
  params: ParamSpec[];
}

export function routeSpecOf(entry: CatalogEntry): RouteSpec {
  const shape = entry.capability.params.shape as Record<string, z.ZodType>;
  const argumentOf: Record<string, string> = {};
  for (const name of Object.keys(shape)) argumentOf[name] = name;
  for (const [argument, parameter] of Object.entries(entry.tool.argumentAliases)) argumentOf[parameter] = argument;
  return {
    entry,
    name: entry.capability.name,
    tool: entry.tool.name,
    path: entry.rest.path,
    pathParameters: entry.rest.pathParameters,
    argumentOf,
    params: Object.entries(shape).map(([name, schema]) => specOf(name, schema)),
  };
}

// ------------------------------------------------------------------ what the index holds

/** Facts about the fuzz index that make well-formed values mean something. */
export interface IndexFacts {
  ids: string[];
  urls: string[];
  verticals: string[];
  queries: string[];
}

// ------------------------------------------------------------------ values

const text = (label: string, cls: ValueClass, value: string): FuzzValue => ({ label, cls, text: value, json: JSON.stringify(value) });
const raw = (label: string, cls: ValueClass, rest: string, json?: string): FuzzValue => ({ label, cls, raw: rest, json });
const json = (label: string, cls: ValueClass, literal: string): FuzzValue => ({ label, cls, json: literal });

/** Deep nesting and quoting a query parser must survive (the known SIGSEGV is ~1,500 '('). */
function hostileQueries(): FuzzValue[] {
  return [
    text('parens-2000', 'any', '('.repeat(2000)),
    text('parens-1500-word', 'any', `${'('.repeat(1500)}bread`),
    text('balanced-parens-600', 'any', `${'('.repeat(600)}bread${')'.repeat(600)}`),
    text('close-parens-2000', 'any', ')'.repeat(2000)),
    text('quotes-2000', 'any', '"'.repeat(2000)),
    text('quoted-word-quote', 'any', '"bread'),
    text('minus-chain', 'any', '-'.repeat(500) + 'bread'),
    text('bool-soup', 'any', 'AND OR NOT AND (OR) -"" "" ( -'),
    text('field-syntax', 'any', 'title:bread url:"x" text:[a TO z] bread^2 bread~3 *'),
    text('range-syntax', 'any', '[* TO *] {a TO b} IN [a b]'),
    text('backslashes', 'any', '\\\\\\"\\(\\'),
    text('only-operators', 'any', 'AND'),
    text('only-minus', 'any', '-'),
    text('many-terms', 'any', Array.from({ length: 3000 }, (_, index) => `w${index}`).join(' ')),
    text('many-ors', 'any', Array.from({ length: 2000 }, () => 'bread').join(' OR ')),
    text('long-64k', 'any', 'a'.repeat(64 * 1024)),
    text('long-word-64k', 'any', `bread ${'x'.repeat(64 * 1024 - 6)}`),
  ];
}

/** Strings every parameter meets: blanks, escapes, control characters, unicode, sizes. */
function hostileStrings(): FuzzValue[] {
  return [
    raw('plus', 'any', '+', JSON.stringify('+')),
    raw('pct-alone', 'any', '%', JSON.stringify('%')),
    raw('pct-bad', 'any', '%zz', JSON.stringify('%zz')),
    raw('pct-nul', 'any', '%00', JSON.stringify('\u0000')),
    raw('pct-overlong-utf8', 'any', '%C0%AF', JSON.stringify('\uFFFD')),
    raw('pct-lone-surrogate', 'any', '%ED%A0%80', '"\\ud800"'),
    raw('pct-double', 'any', '%2525', JSON.stringify('%25')),
    text('control-chars', 'any', '\u0001\u0002\u0007\b\u000b\f\u001b\u007f'),
    text('newlines', 'any', 'a\r\nb\nc\rd'),
    text('tab', 'any', '\t'),
    text('nul-inside', 'any', 'bre\u0000ad'),
    text('emoji', 'any', '🍞🥖 sourdough 🧪'),
    text('rtl-combining', 'any', 'خبز \u202e e\u0301\u0301\u0301 Ǆ ﬃ'),
    text('nonchar', 'any', '\uFFFF\uFFFE\uFEFF'),
    text('cjk', 'any', '面包 パン 빵'),
    text('comma-soup', 'any', ',,, , ,'),
    text('json-ish', 'any', '{"a":[1,2]}'),
    text('html', 'any', '<script>alert(1)</script>'),
    text('path-traversal', 'any', '../../etc/passwd'),
    text('long-16k', 'any', 'b'.repeat(16 * 1024)),
    text('long-64k', 'any', 'c'.repeat(64 * 1024)),
    json('object', 'any', '{"a":1}'),
    json('nested-array', 'any', '[[["x"]]]'),
    json('true', 'any', 'true'),
    json('number', 'any', '7'),
  ];
}

/** Number literals at and past every edge. */
function numberEdges(): FuzzValue[] {
  return [
    text('zero', 'valid', '0'),
    text('neg-zero', 'any', '-0'),
    text('one', 'valid', '1'),
    text('neg-one', 'valid', '-1'),
    text('exp-1e309', 'invalid', '1e309'),
    text('exp-neg-1e309', 'invalid', '-1e309'),
    text('nan', 'invalid', 'NaN'),
    text('infinity', 'invalid', 'Infinity'),
    text('fraction', 'valid', '1.5'),
    text('hex', 'any', '0x10'),
    text('exp-small', 'any', '1e2'),
    text('huge-int', 'any', '99999999999999999999999'),
    text('unsafe-int', 'any', '9007199254740993'),
    text('underscore', 'any', '1_000'),
    text('padded', 'any', ' 5 '),
    text('plus-five', 'any', '+5'),
    text('word', 'invalid', 'ten'),
    text('num-word', 'invalid', '5abc'),
    text('two-numbers', 'invalid', '5,6'),
    json('json-1e309', 'invalid', '1e309'),
    json('json-neg-zero', 'any', '-0'),
    json('json-1e21', 'any', '1e21'),
    json('json-fraction', 'valid', '2.5'),
    json('json-bool', 'any', 'true'),
    json('json-array', 'invalid', '[5]'),
    json('json-object', 'invalid', '{"n":5}'),
  ];
}

/** Classify a numeric literal against the spec's integer and range rules (cls 'valid' means "a plain number"). */
function classifyNumber(spec: Extract<ParamSpec, { kind: 'number' }>, value: FuzzValue): FuzzValue {
  const literal = value.text ?? value.json;
  if (literal === undefined || value.cls !== 'valid') return value;
  const number = Number(literal);
  if (spec.int && !Number.isInteger(number)) return { ...value, cls: 'invalid' };
  if (spec.min !== undefined && number < spec.min) return { ...value, cls: 'invalid' };
  if (spec.max !== undefined && number > spec.max) return { ...value, cls: 'invalid' };
  return value;
}

/** Well-formed values of a parameter, by name where the index gives them meaning. */
function wellFormed(spec: ParamSpec, facts: IndexFacts): FuzzValue[] {
  // `to` is a passage id in path only; search's and browse's `to` is a date (unix seconds).
  if (spec.name === 'to' && spec.kind !== 'text') return wellFormedOfKind(spec);
  switch (spec.name) {
    case 'q':
    case 'objective':
    case 'claim':
      return facts.queries.map((query, index) => text(`query-${index}`, 'valid', query));
    case 'id':
    case 'to': // path's second passage id
      return facts.ids.map((id, index) => text(`known-id-${index}`, 'valid', id));
    case 'url':
      return facts.urls.map((url, index) => text(`known-url-${index}`, 'valid', url));
    case 'vertical':
      return facts.verticals.map((vertical) => text(`vertical-${vertical}`, 'valid', vertical));
    case 'known_urls':
      return [text('known-urls', 'valid', facts.urls.slice(0, 3).join(',')), json('known-urls-array', 'valid', JSON.stringify(facts.urls.slice(0, 2)))];
    case 'since':
      return ['1d', '12h', '2w', '3600', '1600000000', '30m ago'].map((value) => text(`since-${value}`, 'valid', value)).concat(json('since-number', 'valid', '86400'));
    case 'max_age':
      return ['30m', '6h', '7d', '2w', '3600'].map((value) => text(`max-age-${value}`, 'valid', value)).concat(json('max-age-number', 'valid', '86400'));
    case 'lang':
      return [text('lang-en', 'valid', 'en'), text('lang-de', 'valid', 'de')];
    case 'site':
      return [text('site', 'valid', 'www.nasa.gov'), text('site-absent-host', 'valid', 'nowhere.example')];
  }
  return wellFormedOfKind(spec);
}

/** Well-formed values of a parameter by its kind alone. */
function wellFormedOfKind(spec: ParamSpec): FuzzValue[] {
  switch (spec.kind) {
    case 'text':
      return [text('word', 'valid', 'bread'), text('two-words', 'valid', 'lunar ice')];
    case 'number': {
      const values = [spec.min ?? 0, (spec.min ?? 0) + 1, spec.max ?? 100, Math.floor(((spec.min ?? 0) + (spec.max ?? 100)) / 2)];
      const out = values.map((value, index) => text(`in-range-${index}`, 'valid', String(value)));
      out.push(...values.map((value, index) => json(`json-in-range-${index}`, 'valid', String(value))));
      if (spec.name === 'limit') out.push(text('above-clamp', 'valid', '1000'), json('json-above-clamp', 'valid', '101'));
      return out;
    }
    case 'enum':
      return spec.values.map((value) => text(`enum-${value}`, 'valid', value));
    case 'flag':
      return [...['true', 'false', '1', '0'].map((value) => text(`flag-${value}`, 'valid', value)), json('json-true', 'valid', 'true'), json('json-false', 'valid', 'false')];
    case 'list': {
      const values = spec.allowed ?? ['edu', 'org', 'gov'];
      return [
        text('list-one', 'valid', values[0]),
        text('list-two', 'valid', values.slice(0, 2).join(',')),
        text('list-spaced', 'valid', values.slice(0, 2).join(' , ')),
        json('list-array', 'valid', JSON.stringify(values.slice(0, 2))),
        json('list-empty-array', 'any', '[]'),
      ];
    }
    case 'other':
      return [text('word', 'any', 'x')];
  }
}

/** Malformed values of a parameter: what the schema must refuse with a 400 naming it. */
function malformed(spec: ParamSpec): FuzzValue[] {
  const out: FuzzValue[] = [];
  if (spec.required) out.push(text('empty-required', 'invalid', ''), text('blank-required', 'invalid', '   '), json('json-null-required', 'invalid', 'null'));
  switch (spec.kind) {
    case 'text':
      if (spec.minLength >= 2) out.push(text('too-short', 'invalid', 'e'));
      // A URL parameter refuses what is not an http(s) URL; a query text refuses a nesting its
      // grammar would recurse into past the bound (the description names it), and any text its length.
      if (spec.name === 'url') out.push(text('not-a-url', 'invalid', 'not a url'), text('ftp-url', 'invalid', 'ftp://example.org/x'));
      if (spec.refined && /nested parentheses/.test(spec.description)) out.push(text('nested-too-deep', 'invalid', `${'('.repeat(40)}bread`), text('nested-deep-1500', 'invalid', '('.repeat(1500)));
      if (spec.maxLength !== undefined) out.push(text('too-long', 'invalid', 'bread '.repeat(Math.ceil((spec.maxLength + 1) / 6))));
      out.push(json('json-number', 'any', '42'), json('json-array', 'invalid', '["a","b"]'), json('json-object', 'invalid', '{"a":1}'));
      break;
    case 'number':
      if (spec.min !== undefined) out.push(text('below-min', 'invalid', String(spec.min - 1)));
      if (spec.max !== undefined) out.push(text('above-max', 'invalid', String(spec.max + 1)));
      if (spec.int) out.push(text('non-integer', 'invalid', '2.5'));
      break;
    case 'enum':
      out.push(text('enum-upper', 'invalid', spec.values[0].toUpperCase()), text('enum-unknown', 'invalid', 'fuzzy'), text('enum-two', 'invalid', spec.values.slice(0, 2).join(',')));
      out.push(json('json-enum-array', 'invalid', JSON.stringify(spec.values.slice(0, 1))), json('json-enum-number', 'invalid', '1'));
      break;
    case 'flag':
      out.push(text('flag-yes', 'invalid', 'yes'), text('flag-2', 'invalid', '2'), text('flag-TRUE', 'any', 'TRUE'), json('json-flag-string', 'invalid', '"maybe"'), json('json-flag-number', 'invalid', '2'));
      break;
    case 'list':
      if (spec.allowed) out.push(text('list-unknown', 'invalid', 'nope'), json('list-unknown-array', 'invalid', '["nope"]'));
      out.push(json('list-numbers', 'invalid', '[1,2]'), json('list-object', 'invalid', '{"a":"b"}'));
      break;
    case 'other':
      if (spec.name === 'since') out.push(text('since-future', 'invalid', String(Math.floor(Date.now() / 1000) + 10 * 86_400)), text('since-word', 'invalid', 'yesterday'));
      if (spec.name === 'max_age') out.push(text('max-age-zero', 'invalid', '0'), text('max-age-negative', 'invalid', '-1d'), text('max-age-word', 'invalid', 'a week'));
      out.push(text('unit-unknown', 'invalid', '3y'));
      break;
  }
  return out;
}

/** Every value the suite may send for one parameter, classified. */
export function valuesOf(spec: ParamSpec, facts: IndexFacts): FuzzValue[] {
  const values = [...wellFormed(spec, facts), ...malformed(spec)];
  if (!spec.required) {
    // an empty value means the same as none, or is refused; unless the parameter gives it a meaning
    const cls: ValueClass = /(?<!non-)\bempty\b/.test(spec.description) ? 'any' : 'empty';
    values.push(text('empty', cls, ''), text('blank', cls, ' '), raw('plus-only', cls, '+'), json('json-null', cls, 'null'));
  }
  if (spec.kind === 'number') values.push(...numberEdges().map((value) => classifyNumber(spec, value)));
  if (spec.kind === 'text' || spec.kind === 'other') values.push(...hostileQueries());
  values.push(...hostileStrings());
  return values;
}

/** fast-check arbitrary over a parameter's values, weighted toward the hostile and malformed. */
export function valueArbitrary(spec: ParamSpec, facts: IndexFacts): fc.Arbitrary<FuzzValue> {
  const values = valuesOf(spec, facts);
  const byClass = (cls: ValueClass) => values.filter((value) => value.cls === cls);
  const arbitraries: Array<{ weight: number; arbitrary: fc.Arbitrary<FuzzValue> }> = [];
  for (const [cls, weight] of [['valid', 3], ['invalid', 3], ['empty', 2], ['any', 4]] as const) {
    const pool = byClass(cls);
    if (pool.length > 0) arbitraries.push({ weight, arbitrary: fc.constantFrom(...pool) });
  }
  // free-form strings as well: fast-check's unicode strings and arbitrary JSON for MCP
  arbitraries.push({
    weight: 2,
    arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((value) => text(value.trim() === '' ? 'fc-blank' : 'fc-unicode', 'any', value)),
  });
  arbitraries.push({
    weight: 1,
    arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => json('fc-json', 'any', JSON.stringify(value) ?? 'null')),
  });
  return fc.oneof(...arbitraries);
}

// ------------------------------------------------------------------ requests

/** One call of a capability: the parameter under test and the other parameters sent with it. */
export interface FuzzCall {
  route: RouteSpec;
  /** The parameter whose value decides the expected answer (null: only well-formed values, or a combination). */
  target: string | null;
  targetValue: FuzzValue | null;
  /** [REST name, value] in sending order; may repeat names and hold unknown ones. */
  params: Array<[string, FuzzValue]>;
  /** Whether the target's class still decides the answer (false once duplicates or combinations blur it). */
  decisive: boolean;
}

/** Well-formed values of every required parameter of a route. */
function requiredBase(route: RouteSpec, facts: IndexFacts): fc.Arbitrary<Array<[string, FuzzValue]>> {
  const required = route.params.filter((spec) => spec.required);
  return fc.tuple(
    ...required.map((spec) => {
      const values = wellFormed(spec, facts).filter((value) => value.cls === 'valid' && value.text !== undefined);
      return fc.constantFrom(...values).map((value): [string, FuzzValue] => [spec.name, value]);
    }),
  );
}

/** A call with one parameter under test, sometimes with noise: unknown, duplicated or further parameters. */
export function callArbitrary(route: RouteSpec, facts: IndexFacts, restForm: boolean): fc.Arbitrary<FuzzCall> {
  const targets = route.params.map((spec) =>
    valueArbitrary(spec, facts)
      .filter((value) => (restForm ? value.text !== undefined || value.raw !== undefined : value.json !== undefined))
      .map((value) => ({ spec, value })),
  );
  const optional = route.params.filter((spec) => !spec.required);
  const extra = optional.length
    ? fc.array(
        fc.constantFrom(...optional).chain((spec) =>
          fc.constantFrom(...wellFormed(spec, facts).filter((value) => value.cls === 'valid' && (restForm ? value.text !== undefined : value.json !== undefined))).map(
            (value): [string, FuzzValue] => [spec.name, value],
          ),
        ),
        { maxLength: 3 },
      )
    : fc.constant([] as Array<[string, FuzzValue]>);
  const noise = fc.constantFrom('none', 'none', 'none', 'unknown', 'duplicate', 'extra');
  // the required parameters (the query, the id, the url) carry most of the input: test them more often
  const weighted = targets.map((arbitrary, index) => ({ arbitrary, weight: route.params[index].required ? 4 : 1 }));
  return fc.record({ base: requiredBase(route, facts), pick: fc.oneof(...weighted), extra, noise }).map(({ base, pick, extra: extraParams, noise: kind }) => {
    const params = base.filter(([name]) => name !== pick.spec.name);
    params.push([pick.spec.name, pick.value]);
    let decisive = true;
    if (kind === 'unknown') params.push(['zz_unknown', text('unknown-param', 'valid', '1')]);
    if (kind === 'duplicate') {
      params.push([pick.spec.name, text('duplicate', 'any', 'dup')]);
      decisive = false;
    }
    if (kind === 'extra') {
      for (const [name, value] of extraParams) if (!params.some(([present]) => present === name)) params.push([name, value]);
      decisive = false;
    }
    return { route, target: pick.spec.name, targetValue: pick.value, params, decisive };
  });
}

/**
 * Every listed value of every required parameter, once each, with well-formed values for the
 * other required ones: the sweep that runs before the random calls, so the edge cases of the
 * parameters that carry the input (2,000 '(' in a query, an empty id) are never left to chance.
 */
export function sweepCalls(route: RouteSpec, facts: IndexFacts, restForm: boolean): FuzzCall[] {
  const required = route.params.filter((spec) => spec.required);
  const baseOf = (spec: ParamSpec): [string, FuzzValue] => [spec.name, wellFormed(spec, facts).find((value) => value.cls === 'valid' && value.text !== undefined)!];
  const calls: FuzzCall[] = [];
  for (const spec of required) {
    for (const value of valuesOf(spec, facts)) {
      if (restForm ? value.text === undefined && value.raw === undefined : value.json === undefined) continue;
      const params = required.filter((other) => other !== spec).map(baseOf);
      params.push([spec.name, value]);
      calls.push({ route, target: spec.name, targetValue: value, params, decisive: true });
    }
  }
  return calls;
}

/** Percent-encoding of text; a lone surrogate (which UTF-8 cannot hold) goes as U+FFFD. */
function encodeText(value: string): string {
  return encodeURIComponent(value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/** The REST path and query of a call. */
export function restPathOf(call: FuzzCall): string {
  let path = call.route.path;
  const query: string[] = [];
  for (const [name, value] of call.params) {
    const encoded = value.raw ?? encodeText(value.text ?? '');
    const index = call.route.pathParameters.indexOf(name);
    if (index >= 0 && !path.includes(`:${name}`)) {
      query.push(`${encodeURIComponent(name)}=${encoded}`);
    } else if (index >= 0) {
      path = path.replace(`:${name}`, encoded);
    } else {
      query.push(`${encodeURIComponent(name)}=${encoded}`);
    }
  }
  // a path parameter that was not sent is empty (the route then does not match: a 404 is fine)
  for (const name of call.route.pathParameters) path = path.replace(`:${name}`, '');
  return query.length ? `${path}?${query.join('&')}` : path;
}

/** The REST path and query of the same call without the target parameter (the `empty` check). */
export function restPathWithout(call: FuzzCall): string {
  return restPathOf({ ...call, params: call.params.filter(([name]) => name !== call.target) });
}

/** The MCP tools/call arguments of a call, as JSON text (literals spliced as generated). */
export function mcpArgumentsOf(call: FuzzCall, without: string | null = null): string {
  const seen = new Set<string>();
  const members: string[] = [];
  for (const [name, value] of call.params) {
    if (name === without || value.json === undefined) continue;
    const argument = call.route.argumentOf[name] ?? name;
    // JSON objects with a repeated member are legal text; keep them (parsers take the last)
    if (seen.has(argument) && call.decisive) continue;
    seen.add(argument);
    members.push(`${JSON.stringify(argument)}:${value.json}`);
  }
  return `{${members.join(',')}}`;
}
