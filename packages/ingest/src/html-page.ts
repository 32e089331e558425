/**
 * One HTML page to a page record's fields: the body decoded by the WHATWG encoding sniffer
 * (encoding-sniffer: BOM, then the HTTP charset, then a `<meta>` charset; undeclared bytes that
 * are valid UTF-8 are read as UTF-8, others as windows-1252), parsed once with linkedom. Signals
 * read the parsed page as served (the publish date is only one the page declares; links are
 * every `<a href>` resolved against the base URL: pageLinks, which pass 1 uses too, so the graph
 * and the stored links agree). Then extraction, in stages (extract/): what a reader cannot see is
 * taken out and its pieces recorded (hidden-text.ts, css-visibility.ts), then the main text is
 * found (main-text.ts) and written one block per paragraph, so that ingest splits passages where
 * the page breaks them.
 */
import { isUtf8 } from 'node:buffer';
import type { HiddenPieceRecord } from '@evidence/schemas';
import { decodeBuffer } from 'encoding-sniffer';
import { parseHTML } from 'linkedom';
import { PageStyles } from './extract/css-visibility.js';
import { collapseWhitespace, type DomDocument } from './extract/dom.js';
import { hiddenPieces, takeOutHidden } from './extract/hidden-text.js';
import { extractMainText } from './extract/main-text.js';

export interface HtmlPage {
  title: string;
  /** Main content, one block per paragraph, blocks separated by blank lines. */
  text: string;
  /** Unix seconds, only when the page declares it. */
  publishedAt?: number;
  links: string[];
  /** Text hidden from readers (extract/hidden-text.ts): not a copy of visible text, with its technique. */
  hiddenPieces: HiddenPieceRecord[];
  /** The `<html lang>` attribute, as declared (for measuring language identification). */
  declaredLang?: string;
  /** Which encoding the bytes were decoded with. */
  encoding: string;
}

// ------------------------------------------------------------------ decoding

/** The `charset` parameter of a Content-Type header. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType?.match(/;\s*charset\s*=\s*["']?([^"';\s]+)/i);
  return match?.[1];
}

/** Decode an HTML body: BOM, then the transport charset, then a meta charset, then UTF-8 if valid, else windows-1252. */
export function decodeHtml(body: Buffer, transportCharset: string | undefined): { html: string; encoding: string } {
  const defaultEncoding = isUtf8(body) ? 'utf-8' : 'windows-1252';
  const html = decodeBuffer(body, { transportLayerEncodingLabel: transportCharset, defaultEncoding });
  return { html, encoding: transportCharset ?? defaultEncoding };
}

// ------------------------------------------------------------------ links

const LINK_LIMIT = 1000;
const ANCHOR_HREF = /<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const BASE_HREF = /<base\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

function decodeAttributeEntities(value: string): string {
  return value.replace(/&amp;/gi, '&').replace(/&#0*38;/g, '&').replace(/&quot;/gi, '"').replace(/&#x0*26;/gi, '&').trim();
}

function absoluteHttpUrl(href: string, base: URL | string): string | undefined {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * Every `<a href>` of the page, absolute (against `<base href>`, else the page URL), http(s)
 * only, without fragments, each once, at most 1,000. A tag scan rather than the DOM, so pass 1
 * can take links without building one.
 */
export function pageLinks(html: string, pageUrl: string): string[] {
  const baseMatch = BASE_HREF.exec(html);
  const baseHref = baseMatch === null ? undefined : decodeAttributeEntities(baseMatch[1] ?? baseMatch[2] ?? baseMatch[3]);
  const base = (baseHref !== undefined ? absoluteHttpUrl(baseHref, pageUrl) : undefined) ?? pageUrl;
  const links = new Set<string>();
  ANCHOR_HREF.lastIndex = 0;
  for (let match = ANCHOR_HREF.exec(html); match !== null && links.size < LINK_LIMIT; match = ANCHOR_HREF.exec(html)) {
    const href = decodeAttributeEntities(match[1] ?? match[2] ?? match[3]);
    if (href === '' || href.startsWith('#')) continue;
    const url = absoluteHttpUrl(href, base);
    if (url !== undefined && url !== pageUrl) links.add(url);
  }
  return [...links];
}

// ------------------------------------------------------------------ publish date

/** Earliest instant accepted as a publish date (1995): older values are placeholders. */
const EARLIEST_PUBLISHED = 788_918_400;

const DATE_META_NAMES = [
  'article:published_time',
  'og:published_time',
  'datepublished',
  'publish-date',
  'publish_date',
  'pubdate',
  'parsely-pub-date',
  'sailthru.date',
  'citation_publication_date',
  'citation_date',
  'dc.date.issued',
  'dcterms.issued',
  'dc.date',
  'dcterms.date',
  'date',
];

function parseDeclaredDate(value: string | null | undefined, fetchedAt: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim().replace(/^(\d{4})\/(\d{2})\/(\d{2})/, '$1-$2-$3');
  if (!/\d{4}/.test(trimmed)) return undefined;
  const millis = Date.parse(trimmed);
  if (!Number.isFinite(millis)) return undefined;
  const seconds = Math.floor(millis / 1000);
  // A date after the crawl (plus a day of time zones) is not when the page was published.
  if (seconds < EARLIEST_PUBLISHED || seconds > fetchedAt + 86_400) return undefined;
  return seconds;
}

function jsonLdDatePublished(value: unknown, depth = 0): string | undefined {
  if (depth > 6 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = jsonLdDatePublished(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.datePublished === 'string') return record.datePublished;
  for (const key of ['@graph', 'mainEntity', 'mainEntityOfPage']) {
    const found = jsonLdDatePublished(record[key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The publish date the page declares: meta tags, JSON-LD, microdata, then a `<time>` of the article; never a guess. */
function declaredPublishDate(document: DomDocument, fetchedAt: number): number | undefined {
  const metas = Array.from(document.querySelectorAll('meta[content]'));
  for (const name of DATE_META_NAMES) {
    for (const meta of metas) {
      const key = (meta.getAttribute('property') ?? meta.getAttribute('name') ?? meta.getAttribute('itemprop') ?? '').toLowerCase();
      if (key !== name) continue;
      const seconds = parseDeclaredDate(meta.getAttribute('content'), fetchedAt);
      if (seconds !== undefined) return seconds;
    }
  }
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      const seconds = parseDeclaredDate(jsonLdDatePublished(JSON.parse(script.textContent ?? '')), fetchedAt);
      if (seconds !== undefined) return seconds;
    } catch {
      // Broken JSON-LD is common; it declares nothing.
    }
  }
  const microdata = document.querySelector('[itemprop="datePublished"]');
  if (microdata !== null) {
    const seconds = parseDeclaredDate(microdata.getAttribute('datetime') ?? microdata.getAttribute('content') ?? microdata.textContent, fetchedAt);
    if (seconds !== undefined) return seconds;
  }
  // A lone <time> is the page's date; several (a blog's front page, a news list) date other things.
  const times = document.querySelectorAll('time');
  if (times.length !== 1) return undefined;
  const time = times[0];
  const insideArticle = document.querySelector('article time, main time') !== null;
  if (!time.hasAttribute('pubdate') && !insideArticle) return undefined;
  return parseDeclaredDate(time.getAttribute('datetime') ?? time.textContent, fetchedAt);
}

// ------------------------------------------------------------------ the page

/**
 * A parsed page and what was extracted. `document` is the page as a reader sees it: its `<head>`
 * untouched (meta tags, JSON-LD), its body without hidden content, comments and scripts (JSON-LD
 * scripts stay); Readability ran on a copy. A signal that needs the markup as served reads it
 * where the publish date is read, before extraction.
 */
export interface ParsedHtmlPage {
  document: DomDocument;
  page: HtmlPage;
}

function parse(html: string): DomDocument {
  return (parseHTML(html) as unknown as { document: DomDocument }).document;
}

/** Parse and extract a page from its decoded HTML, keeping the parsed DOM for further signals. */
export function readHtmlPage(html: string, url: string, fetchedAt: number, encoding = 'utf-8'): ParsedHtmlPage {
  const document = parse(html);
  const declaredLang = document.documentElement?.getAttribute('lang') ?? undefined;
  const publishedAt = declaredPublishDate(document, fetchedAt);
  const documentTitle = collapseWhitespace(document.querySelector('title')?.textContent ?? '');
  const headings = document.querySelectorAll('h1');
  const onlyHeading = headings.length === 1 ? collapseWhitespace(headings[0].textContent ?? '') : '';
  const links = pageLinks(html, url);

  const styles = new PageStyles(document);
  const candidates = takeOutHidden(document, styles);
  const visibleText = document.body?.textContent ?? '';
  const main = extractMainText(document);
  let title = main.title ? collapseWhitespace(main.title) : documentTitle;
  const text = main.text;
  // Site templates often title every page with the site's name; a page's one <h1> names the page.
  const titleSegments = documentTitle.toLowerCase().split(/\s+[|\u2013\u2014:·-]\s+/);
  if (onlyHeading.includes(' ') && !title.toLowerCase().includes(onlyHeading.toLowerCase())) {
    if (title === '' || title === documentTitle || titleSegments.includes(onlyHeading.toLowerCase())) title = onlyHeading;
  }
  if (title === '') title = onlyHeading;
  const page: HtmlPage = { title, text, publishedAt, links, hiddenPieces: hiddenPieces(candidates, visibleText, text), declaredLang: declaredLang || undefined, encoding };
  return { document, page };
}

/** Extract a page from its decoded HTML. */
export function extractHtmlPage(html: string, url: string, fetchedAt: number, encoding = 'utf-8'): HtmlPage {
  return readHtmlPage(html, url, fetchedAt, encoding).page;
}
