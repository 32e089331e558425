/**
 * One input line, validated: a page to split, a single passage (`id` given) or a removal event.
 * Every rejection names the field, so an operator can fix the producer, not guess.
 */
import { HiddenTechniqueSchema, type HiddenPieceRecord } from '@evidence/schemas';
import { parsePassageId, type PassageIdParts } from './page-id.js';
import {
  CONTENT_TYPES,
  DEFAULT_SOURCE,
  REMOVAL_REASONS,
  SAFETY_LEVELS,
  SOURCES,
  type ContentType,
  type RemovalReason,
  type Safety,
  type Source,
} from './vocabulary.js';

/** A page (split into passages) or, when `passage` is set, one passage of a page. */
export interface ContentRecord {
  kind: 'content';
  url: string;
  /** Lowercased hostname, taken while the URL was validated so nobody parses it twice. */
  hostname: string;
  title: string;
  /** The page body; may be empty for a page (not a passage record): its one passage is then its title, else its URL. */
  text: string;
  fetchedAt: number;
  publishedAt?: number;
  source: Source;
  /** As the record declared it; detected later when absent. */
  lang?: string;
  /** The record's own signals; absent ones are derived from the page (`signals/page-signals.ts`). */
  vertical?: string;
  contentType?: ContentType;
  authority?: string;
  safety?: Safety;
  hostRank?: number;
  quality?: number;
  topics?: string[];
  links?: string[];
  owner?: string;
  /** Text the record declares its page hid from readers: never part of `text`, judged and recorded (hidden-pieces.ts). */
  hiddenText?: string[];
  /** Hidden pieces extraction found in the page's HTML (extract/hidden-text.ts), judged the same way. */
  hiddenPieces?: HiddenPieceRecord[];
  /** Present for a passage record: the record is then one passage, not a page to split. */
  passage?: PassageIdParts;
  embedding?: number[];
}

/** The crawler dropped a URL: its current passages leave the index. */
export interface RemovalRecord {
  kind: 'removal';
  url: string;
  reason: RemovalReason;
  removedAt: number;
}

export interface MalformedLine {
  kind: 'malformed';
  reason: string;
}

export type ParsedLine = ContentRecord | RemovalRecord | MalformedLine;

type JsonObject = Record<string, unknown>;

/** Thrown inside this module only, so each check can stop validation with one line. */
class FieldError extends Error {}

function describe(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
    return JSON.stringify(shown);
  }
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** Absent and JSON null both mean "not given" for an optional field. */
function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

function requiredString(record: JsonObject, field: string): string {
  const value = record[field];
  if (isAbsent(value)) throw new FieldError(`${field} is missing`);
  if (typeof value !== 'string') throw new FieldError(`${field} must be a string, got ${describe(value)}`);
  return value;
}

function optionalString(record: JsonObject, field: string): string | undefined {
  const value = record[field];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new FieldError(`${field} must be a non-empty string, got ${describe(value)}`);
  }
  return value;
}

function unixSeconds(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new FieldError(`${field} must be unix seconds (a non-negative integer), got ${describe(value)}`);
  }
  return value;
}

function requiredUnixSeconds(record: JsonObject, field: string): number {
  const value = record[field];
  if (isAbsent(value)) throw new FieldError(`${field} is missing`);
  return unixSeconds(value, field);
}

function optionalUnixSeconds(record: JsonObject, field: string): number | undefined {
  const value = record[field];
  if (isAbsent(value)) return undefined;
  return unixSeconds(value, field);
}

function optionalEnum<T extends string>(record: JsonObject, field: string, allowed: readonly T[]): T | undefined {
  const value = record[field];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new FieldError(`${field} must be one of ${allowed.join(', ')}, got ${describe(value)}`);
  }
  return value as T;
}

function optionalStringArray(record: JsonObject, field: string): string[] | undefined {
  const value = record[field];
  if (isAbsent(value)) return undefined;
  if (!Array.isArray(value)) throw new FieldError(`${field} must be an array of strings, got ${describe(value)}`);
  for (let index = 0; index < value.length; index++) {
    if (typeof value[index] !== 'string') {
      throw new FieldError(`${field}[${index}] must be a string, got ${describe(value[index])}`);
    }
  }
  return value as string[];
}

/** The hostname of an http(s) URL, lowercased by the WHATWG parser. */
function httpHostname(url: string, field: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FieldError(`${field} is not a valid url, got ${describe(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new FieldError(`${field} must be an http or https url, got ${describe(url)}`);
  }
  if (parsed.hostname === '') throw new FieldError(`${field} has no host, got ${describe(url)}`);
  return parsed.hostname;
}

/** A BCP 47-ish tag reduced to its primary subtag, which is what the lang filter matches. */
function languageCode(record: JsonObject): string | undefined {
  const value = record.lang;
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/.test(value)) {
    throw new FieldError(`lang must be a language code such as en or de, got ${describe(value)}`);
  }
  const primary = value.split(/[-_]/)[0];
  return primary.toLowerCase();
}

function hostRank(record: JsonObject): number | undefined {
  const value = record.host_rank;
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new FieldError(`host_rank must be a number within 0..1, got ${describe(value)}`);
  }
  return value;
}

function quality(record: JsonObject): number | undefined {
  const value = record.quality;
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new FieldError(`quality must be an integer, got ${describe(value)}`);
  }
  return value;
}

function embedding(record: JsonObject): number[] | undefined {
  const value = record.embedding;
  if (isAbsent(value)) return undefined;
  if (!Array.isArray(value) || value.length === 0) {
    throw new FieldError(`embedding must be a non-empty array of numbers, got ${describe(value)}`);
  }
  for (let index = 0; index < value.length; index++) {
    const component = value[index];
    if (typeof component !== 'number' || !Number.isFinite(component)) {
      throw new FieldError(`embedding[${index}] must be a finite number, got ${describe(component)}`);
    }
  }
  return value as number[];
}

/** `hidden_pieces`: objects with a technique and a text (element, furniture and in_main optional). */
function hiddenPieces(record: JsonObject): HiddenPieceRecord[] | undefined {
  const value = record.hidden_pieces;
  if (isAbsent(value)) return undefined;
  if (!Array.isArray(value)) throw new FieldError(`hidden_pieces must be an array of objects, got ${describe(value)}`);
  return value.map((item: unknown, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new FieldError(`hidden_pieces[${index}] must be an object, got ${describe(item)}`);
    const piece = item as JsonObject;
    const technique = HiddenTechniqueSchema.safeParse(piece.technique);
    if (!technique.success) throw new FieldError(`hidden_pieces[${index}].technique must be one of ${HiddenTechniqueSchema.options.join(', ')}, got ${describe(piece.technique)}`);
    if (typeof piece.text !== 'string') throw new FieldError(`hidden_pieces[${index}].text must be a string, got ${describe(piece.text)}`);
    const parsed: HiddenPieceRecord = { technique: technique.data, text: piece.text };
    if (typeof piece.element === 'string') parsed.element = piece.element;
    if (typeof piece.furniture === 'string') parsed.furniture = piece.furniture;
    if (typeof piece.in_main === 'boolean') parsed.in_main = piece.in_main;
    return parsed;
  });
}

function removalRecord(record: JsonObject): RemovalRecord {
  const url = requiredString(record, 'url');
  httpHostname(url, 'url');
  const reason = optionalEnum(record, 'removed', REMOVAL_REASONS);
  if (reason === undefined) throw new FieldError('removed must be a removal reason, got null');
  const removedAt = requiredUnixSeconds(record, 'removed_at');
  return { kind: 'removal', url, reason, removedAt };
}

function contentRecord(record: JsonObject): ContentRecord {
  const url = requiredString(record, 'url');
  const hostname = httpHostname(url, 'url');
  const title = requiredString(record, 'title');
  const text = requiredString(record, 'text');
  const fetchedAt = requiredUnixSeconds(record, 'fetched_at');

  let passage: PassageIdParts | undefined;
  const id = record.id;
  if (!isAbsent(id)) {
    passage = typeof id === 'string' ? parsePassageId(id) : undefined;
    if (passage === undefined) throw new FieldError(`id must have the form page:no, got ${describe(id)}`);
  }
  // A page known only by its URL (and title) is a page: its one passage is its title, else its
  // URL (passage-builder.ts), and its signals come from what it has. A passage record must have text.
  if (passage !== undefined && text.trim() === '') throw new FieldError('text is empty (a passage record, one with an id, needs text)');
  const vector = embedding(record);
  if (vector !== undefined && passage === undefined) {
    throw new FieldError('embedding is only accepted on a passage record (one with an id)');
  }

  const parsed: ContentRecord = {
    kind: 'content',
    url,
    hostname,
    title,
    text,
    fetchedAt,
    publishedAt: optionalUnixSeconds(record, 'published_at'),
    source: optionalEnum(record, 'source', SOURCES) ?? DEFAULT_SOURCE,
    lang: languageCode(record),
    vertical: optionalString(record, 'vertical'),
    contentType: optionalEnum(record, 'content_type', CONTENT_TYPES),
    authority: optionalString(record, 'authority'),
    safety: optionalEnum(record, 'safety', SAFETY_LEVELS),
    hostRank: hostRank(record),
    quality: quality(record),
    topics: optionalStringArray(record, 'topics'),
    links: optionalStringArray(record, 'links'),
    owner: optionalString(record, 'owner'),
    hiddenText: optionalStringArray(record, 'hidden_text'),
    hiddenPieces: hiddenPieces(record),
    passage,
    embedding: vector,
  };
  return parsed;
}

/** Parse and validate one non-blank JSONL line. */
export function parseRecordLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'malformed', reason: 'not valid json' };
  }
  return parseRecordObject(value);
}

/**
 * Validate one record given as an object with the JSONL field names: what a JSONL line parses
 * to, or what a crawl reader (crawl-page.ts) builds from a WARC record. Both go through here.
 */
export function parseRecordObject(value: unknown): ParsedLine {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'malformed', reason: 'not a json object' };
  }
  const record = value as JsonObject;
  try {
    if (record.removed !== undefined) return removalRecord(record);
    return contentRecord(record);
  } catch (error) {
    if (error instanceof FieldError) return { kind: 'malformed', reason: error.message };
    throw error;
  }
}
