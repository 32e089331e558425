/**
 * A WARC record to what ingest takes in: a page record with the JSONL field names (validated by
 * record.ts like any JSONL line), or a skip with its kind. `response` records with an HTML
 * payload and a 2xx status become pages (html-page.ts); WET `conversion` records give their
 * plain text; `request`, `metadata`, `revisit`, `warcinfo` and `resource` records, other
 * statuses and other content types are skipped and counted.
 */
import zlib from 'node:zlib';
import { charsetOf, decodeHtml, extractHtmlPage, pageLinks } from './html-page.js';
import { languageFromIso6393 } from './language.js';
import { contentTypeFromStructure } from './signals/content-type.js';
import type { WarcRecord } from './warc-parser.js';

/** Why a record did not become a page; each kind is counted in the summary. */
export type CrawlSkipKind =
  | 'request'
  | 'metadata'
  | 'revisit'
  | 'warcinfo'
  | 'resource'
  | 'other_type'
  | 'status'
  | 'not_html'
  | 'no_url'
  | 'bad_http'
  | 'no_text';

export type CrawlItem =
  /** `note`: the page was past an extraction limit (html-page.ts `limitNote`), reported by ingest with its offset. */
  | { kind: 'page'; offset: number; record: Record<string, unknown>; declaredLang?: string; note?: string }
  | { kind: 'skipped'; offset: number; skip: CrawlSkipKind; reason: string }
  | { kind: 'damaged'; offset: number; reason: string };

const SKIPPED_TYPES: Record<string, CrawlSkipKind> = {
  request: 'request',
  metadata: 'metadata',
  revisit: 'revisit',
  warcinfo: 'warcinfo',
  resource: 'resource',
};

/** `WARC-Target-URI`, without the angle brackets some crawlers (wget) write around it. */
export function targetUri(record: WarcRecord): string | undefined {
  const value = record.headers.get('warc-target-uri');
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1).trim() : trimmed;
}

/** `WARC-Date` in unix seconds. */
function warcDate(record: WarcRecord): number | undefined {
  const value = record.headers.get('warc-date');
  if (value === undefined) return undefined;
  const millis = Date.parse(value);
  return Number.isFinite(millis) ? Math.floor(millis / 1000) : undefined;
}

interface HttpResponse {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

const HEADER_END = Buffer.from('\r\n\r\n');

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(body.toString('latin1', at, lineEnd).split(';')[0].trim(), 16);
    if (!Number.isFinite(size)) throw new Error('bad chunk size');
    if (size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** The HTTP response in a `response` record's block, its body dechunked and decompressed as the headers say. */
function parseHttpResponse(block: Buffer): HttpResponse | string {
  let headerEnd = block.indexOf(HEADER_END);
  let separator = 4;
  if (headerEnd < 0) {
    headerEnd = block.indexOf('\n\n');
    separator = 2;
  }
  if (headerEnd < 0) return 'no end of the HTTP headers';
  const lines = block.toString('latin1', 0, headerEnd).split(/\r?\n/);
  const statusMatch = /^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(lines[0]);
  if (statusMatch === null) return `not an HTTP status line: ${JSON.stringify(lines[0].slice(0, 30))}`;
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase();
      if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
    }
  }
  let body = block.subarray(headerEnd + separator);
  try {
    if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) body = dechunk(body);
    const encoding = (headers.get('content-encoding') ?? '').toLowerCase().trim();
    if (encoding === 'gzip' || encoding === 'x-gzip') body = zlib.gunzipSync(body);
    else if (encoding === 'deflate') body = zlib.inflateSync(body);
    else if (encoding === 'br') body = zlib.brotliDecompressSync(body);
  } catch (error) {
    return `undecodable HTTP body: ${error instanceof Error ? error.message : String(error)}`;
  }
  return { status: Number(statusMatch[1]), headers, body };
}

function looksLikeHtml(body: Buffer): boolean {
  const head = body.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || /<(?:head|body|title)[\s>]/.test(head);
}

function isHtml(response: HttpResponse, record: WarcRecord): boolean {
  const declared = (response.headers.get('content-type') ?? record.headers.get('warc-identified-payload-type') ?? '').split(';')[0].trim().toLowerCase();
  if (declared === 'text/html' || declared === 'application/xhtml+xml') return true;
  if (declared === '' || declared === 'application/octet-stream') return looksLikeHtml(response.body);
  return false;
}

type Classified =
  | { kind: 'response'; url: string; fetchedAt: number; response: HttpResponse }
  | { kind: 'conversion'; url: string; fetchedAt: number }
  | Extract<CrawlItem, { kind: 'skipped' }>;

/** What a record is, before any page is built: shared by pass 1 (links) and pass 2 (pages). */
function classify(record: WarcRecord): Classified {
  const type = (record.headers.get('warc-type') ?? '').toLowerCase();
  const skipped = (skip: CrawlSkipKind, reason: string): Classified => ({ kind: 'skipped', offset: record.offset, skip, reason });
  if (type !== 'response' && type !== 'conversion') return skipped(SKIPPED_TYPES[type] ?? 'other_type', `${type || 'untyped'} record`);
  const url = targetUri(record);
  const fetchedAt = warcDate(record);
  if (url === undefined || fetchedAt === undefined) return skipped('no_url', url === undefined ? 'no WARC-Target-URI' : 'no WARC-Date');
  if (type === 'conversion') return { kind: 'conversion', url, fetchedAt };
  const contentType = (record.headers.get('content-type') ?? '').toLowerCase();
  if (contentType !== '' && !contentType.startsWith('application/http')) return skipped('other_type', `response record of ${contentType}`);
  const response = parseHttpResponse(record.block);
  if (typeof response === 'string') return skipped('bad_http', response);
  if (response.status < 200 || response.status > 299) return skipped('status', `HTTP status ${response.status}`);
  if (!isHtml(response, record)) return skipped('not_html', `content type ${response.headers.get('content-type') ?? 'unknown'}`);
  return { kind: 'response', url, fetchedAt, response };
}

/** The page of a WET `conversion` record: its plain text, one line per paragraph; the first line is the title. */
function conversionPage(record: WarcRecord, url: string, fetchedAt: number): CrawlItem {
  const lines = record.block
    .toString('utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return { kind: 'skipped', offset: record.offset, skip: 'no_text', reason: 'empty conversion record' };
  const languages = record.headers.get('warc-identified-content-language');
  const lang = languages === undefined ? undefined : languageFromIso6393(languages.split(',')[0].trim());
  const page: Record<string, unknown> = { url, title: lines[0], text: lines.join('\n\n'), fetched_at: fetchedAt };
  if (lang !== undefined) page.lang = lang;
  return { kind: 'page', offset: record.offset, record: page };
}

/** The page (or skip) a WARC record gives. */
export function crawlItemOf(record: WarcRecord): CrawlItem {
  const classified = classify(record);
  if (classified.kind === 'skipped') return classified;
  if (classified.kind === 'conversion') return conversionPage(record, classified.url, classified.fetchedAt);
  const { url, fetchedAt, response } = classified;
  const { html, encoding } = decodeHtml(response.body, charsetOf(response.headers.get('content-type')));
  const page = extractHtmlPage(html, url, fetchedAt, encoding);
  // No main text but a title (a page rendered by script, an attachment page, or one extraction
  // missed): still a page, known by its title (its one passage, passage-builder.ts), with what its
  // HTML declares (publish date, type, topics); with neither, there is nothing to index.
  if (page.text.trim() === '' && page.title.trim() === '') return { kind: 'skipped', offset: record.offset, skip: 'no_text', reason: 'no main text or title' };
  const fields: Record<string, unknown> = { url, title: page.title, text: page.text, fetched_at: fetchedAt, links: page.links };
  if (page.publishedAt !== undefined) fields.published_at = page.publishedAt;
  // A type the page declares (schema.org, Open Graph) is the page's own word; else ingest derives one from URL and text.
  const declaredType = contentTypeFromStructure(page.pageTypes);
  if (declaredType !== undefined) fields.content_type = declaredType;
  if (page.hiddenPieces.length > 0) fields.hidden_pieces = page.hiddenPieces;
  if (page.topics !== undefined) fields.topics = page.topics;
  const item: CrawlItem = { kind: 'page', offset: record.offset, record: fields, declaredLang: page.declaredLang };
  if (page.limitNote !== undefined) item.note = page.limitNote;
  return item;
}

/** URL and outlinks of a record, for pass 1, without building a DOM; undefined when it gives no page. */
export function crawlLinksOf(record: WarcRecord): { url: string; links: string[] } | undefined {
  const classified = classify(record);
  if (classified.kind !== 'response') return undefined;
  const { html } = decodeHtml(classified.response.body, charsetOf(classified.response.headers.get('content-type')));
  return { url: classified.url, links: pageLinks(html, classified.url) };
}
