/**
 * published_at (SPEC 2.1): the day a page was first published, from what the page itself says,
 * tried in htmldate's order of reliability (STYLE.md, "Signals from real pages"): the page's
 * declared metadata (meta tags, JSON-LD read tolerantly, microdata), then a full date in its
 * URL, then its `<time>` elements, then a date in an element named for a date or a byline, then
 * the first date expression in the visible text (after a "published" word if there is one).
 * Every candidate must lie between 1995 and the crawl (`fetchedAt`, plus a day of time zones);
 * a page without one gets none. Non-ISO dates are read too: `March 3, 2021`, `3 March 2021`,
 * `3. März 2021`, `3 mars 2021`, `03.03.2021`; slashed numbers (`03/04/2021`) month first on
 * English pages, day first elsewhere, and a part over 12 settles it.
 *
 * An original date is wanted, not the last update: published/created/issued names are read,
 * modified/updated ones never (og:updated_time was measured and lost).
 *
 * A declared day without a time is recorded at 12:00 UTC, so it falls on that day in every time
 * zone from UTC-12 to UTC+11; a declared instant is kept as declared.
 *
 * Confidence is the measured share of right days of each source on the tuning half of htmldate's
 * evaluation pages (SOURCE_CONFIDENCE): what a caller can expect of a date found that way. SPEC
 * has no field for it; the bench reports the breakdown by source.
 *
 * What it cannot know: a page that shows only its update date, or only dates of other things
 * (a list of articles, an event, today's date in a header), gets that date; a page republished
 * under a new date gets the new one.
 */

import { day3, findTextDates, parseMachineDate, parseTextDate, type DayValue } from './date-text.js';
import { jsonLdValues, type JsonLdBlock } from './json-ld.js';
import { readDeclarations, type DeclaringElement, type PageDeclarations } from './page-declarations.js';

/** The few DOM members read here (linkedom provides them; the build has no DOM lib). */
export interface DateDomNode {
  nodeType: number;
  nodeValue: string | null;
  childNodes: ArrayLike<DateDomNode>;
  firstChild: DateDomNode | null;
  nextSibling: DateDomNode | null;
  parentNode: DateDomNode | null;
}
export type DateDomElement = DeclaringElement;
export interface DateDomDocument {
  querySelectorAll(selector: '*'): ArrayLike<DateDomElement>;
  documentElement?: DateDomElement | null;
  body: DateDomElement | null;
}

export type PublishedAtSource = 'meta' | 'json_ld' | 'microdata' | 'url' | 'time_element' | 'date_element' | 'text';

export interface PublishedAtSignal {
  /** Unix seconds; absent when the page gives no date. */
  value?: number;
  /** The declared day, `YYYY-MM-DD`, in the page's own time zone. */
  day?: string;
  source?: PublishedAtSource;
  /** 0..1: how often a date from this source was the right day when measured. */
  confidence: number;
  /** What was read, for a reader: `meta article:published_time`, `url /2021/03/03/`. */
  reason: string;
}

/** Earliest day accepted (1995-01-01): older values are placeholders or archive dates. */
export const EARLIEST_PUBLISHED = 788_918_400;
/** A date this far past the crawl is a time-zone difference; further, it is not a publish date. */
const FUTURE_SLACK = 86_400;

/**
 * Share of right days per source, measured on the tuning half of htmldate's evaluation pages
 * (pages whose host's SHA-256 starts with an even byte) as (right + 1) / (found + 2), so that a source
 * seen a few times is not called certain: meta 106/108, JSON-LD 23/25, microdata 7/7, URL 5/5,
 * time 15/16, date element 22/23, text 12/13 (`npm run bench:signals` prints them again).
 */
export const SOURCE_CONFIDENCE: Readonly<Record<PublishedAtSource, number>> = {
  meta: 0.97,
  json_ld: 0.89,
  microdata: 0.89,
  url: 0.86,
  time_element: 0.89,
  date_element: 0.92,
  text: 0.87,
};

// ------------------------------------------------------------------ a found day

function dayString(value: DayValue): string {
  return `${value.year}-${String(value.month).padStart(2, '0')}-${String(value.day).padStart(2, '0')}`;
}

/** Unix seconds of a declared value: its instant, else 12:00 UTC of its day. */
function secondsOf(value: DayValue): number {
  return value.instant ?? Date.UTC(value.year, value.month - 1, value.day, 12) / 1000;
}

function plausible(value: DayValue, fetchedAt: number): boolean {
  const noon = Date.UTC(value.year, value.month - 1, value.day, 12) / 1000;
  return noon >= EARLIEST_PUBLISHED && noon - 12 * 3600 <= fetchedAt + FUTURE_SLACK;
}

/**
 * Characters of an element's text read for a date (a `<time>`, a microdata date, an element named
 * for a date or a byline): its first 1,000. A date, a dateline or a byline is far shorter, and a
 * hostile page of many such elements nested around megabytes of text would otherwise have all of
 * it copied once per element.
 */
export const DATE_TEXT_CHARS = 1000;

/**
 * An element's text as `textContent` gives it (its text and CDATA nodes in document order), but
 * no more than `limit` + 1 characters: longer than `limit` means the element's text is too. One
 * walk by first child, next sibling and parent, which stops there.
 */
function textUpTo(element: DateDomElement, limit: number): string {
  const root = element as unknown as DateDomNode;
  let text = '';
  let node = root.firstChild;
  while (node !== null) {
    if (node.nodeType === 3 || node.nodeType === 4) {
      const value = node.nodeValue ?? '';
      text += value.length > limit - text.length ? value.slice(0, limit - text.length + 1) : value;
      if (text.length > limit) return text;
    }
    if (node.firstChild !== null) {
      node = node.firstChild;
      continue;
    }
    while (node !== null && node !== root && node.nextSibling === null) node = node.parentNode;
    node = node === null || node === root ? null : node.nextSibling;
  }
  return text;
}

/** The first DATE_TEXT_CHARS characters of an element's text. */
function dateText(element: DateDomElement): string {
  return textUpTo(element, DATE_TEXT_CHARS).slice(0, DATE_TEXT_CHARS);
}

// ------------------------------------------------------------------ the sources, most reliable first

/** Meta names and properties that declare the original publication, most specific first. */
const PUBLISHED_META = [
  'article:published_time',
  'og:published_time',
  'og:article:published_time',
  'article:published',
  'datepublished',
  'publishdate',
  'publish-date',
  'publish_date',
  'published-date',
  'published_time',
  'pubdate',
  'parsely-pub-date',
  'sailthru.date',
  'citation_publication_date',
  'citation_online_date',
  'citation_date',
  'dc.date.issued',
  'dcterms.issued',
  'dc.date.created',
  'dcterms.created',
  'dc.date',
  'dcterms.date',
  'date',
  'article.published',
  'article_date_original',
  'originalpublicationdate',
  'cxenseparse:recs:publishtime',
  'bt:pubdate',
  'displaydate',
  'dc.date.published',
  'analyticsattributes.articledate',
  'date_published',
  'datecreated',
  'created',
  'content_create_date',
  'creation_date',
  'pub_date',
  'published',
  'release_date',
  'rnews:datepublished',
  'shareaholic:article_published_time',
  'vr:published_time',
];

function metaKey(meta: DateDomElement): string {
  return (meta.getAttribute('property') ?? meta.getAttribute('name') ?? meta.getAttribute('itemprop') ?? meta.getAttribute('http-equiv') ?? '').trim().toLowerCase();
}

interface Candidate {
  value: DayValue;
  source: PublishedAtSource;
  reason: string;
}

function fromMeta(metas: readonly DateDomElement[], fetchedAt: number, usOrder: boolean): Candidate | undefined {
  const byKey = new Map<string, string>();
  for (const meta of metas) {
    if (!meta.hasAttribute('content')) continue;
    const key = metaKey(meta);
    if (key !== '' && !byKey.has(key)) byKey.set(key, meta.getAttribute('content') ?? '');
  }
  for (const name of PUBLISHED_META) {
    const content = byKey.get(name);
    if (content === undefined) continue;
    const value = parseMachineDate(content, usOrder);
    if (value !== undefined && plausible(value, fetchedAt)) return { value, source: 'meta', reason: `meta ${name}` };
  }
  return undefined;
}

/** Keys that carry an original publication date in JSON-LD, most reliable first. */
const JSON_LD_KEYS = ['datePublished', 'dateCreated', 'uploadDate'];
/** Per key, the pattern that reads it from a block that is not JSON even after repair (built once). */
const JSON_LD_KEY_PATTERNS = new Map(JSON_LD_KEYS.map((key) => [key, new RegExp(`"${key}"\\s*:\\s*"([^"]{6,40})"`)]));

/** JSON-LD (json-ld.ts parses it tolerantly); a block that is still not JSON has its keys read with a pattern. */
function fromJsonLd(blocks: readonly JsonLdBlock[], fetchedAt: number, usOrder: boolean): Candidate | undefined {
  for (const key of JSON_LD_KEYS) {
    for (const block of blocks) {
      const raws = block.value === undefined ? [JSON_LD_KEY_PATTERNS.get(key)!.exec(block.text)?.[1]] : jsonLdValues(block.value, key);
      for (const raw of raws) {
        if (typeof raw !== 'string') continue;
        const value = parseMachineDate(raw, usOrder);
        if (value !== undefined && plausible(value, fetchedAt)) return { value, source: 'json_ld', reason: `json-ld ${key}` };
      }
    }
  }
  return undefined;
}

function fromMicrodata(elements: readonly DateDomElement[], fetchedAt: number, usOrder: boolean): Candidate | undefined {
  for (const prop of ['datePublished', 'dateCreated']) {
    for (const element of elements) {
      if (element.getAttribute('itemprop') !== prop) continue;
      const raw = element.getAttribute('datetime') ?? element.getAttribute('content') ?? dateText(element);
      const value = parseMachineDate(raw, usOrder);
      if (value !== undefined && plausible(value, fetchedAt)) return { value, source: 'microdata', reason: `microdata ${prop}` };
    }
  }
  return undefined;
}

/** A full date in the URL path, its parts separated alike: `/2021/03/03/`, `/2021-03-03-slug`, `_2021_03_03`. */
const URL_DATE = /(?:^|[/_-])((?:19|20)\d{2})([/_.-])(0?[1-9]|1[0-2])\2(0?[1-9]|[12]\d|3[01])(?=$|[/_.-]|[a-z])/i;
/** A compact one, `/20210303/` or `/20210303123045.html` (a time of day may follow); more digits make it an id, not a date. */
const URL_COMPACT_DATE = /(?:^|[/_-])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?:\d{4}|\d{6})?(?=$|[/_.-]|[a-z])/i;

function fromUrl(url: string, fetchedAt: number): Candidate | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const separated = URL_DATE.exec(path);
  const compact = separated === null ? URL_COMPACT_DATE.exec(path) : null;
  const value = separated !== null ? day3(Number(separated[1]), Number(separated[3]), Number(separated[4])) : compact !== null ? day3(Number(compact[1]), Number(compact[2]), Number(compact[3])) : undefined;
  if (value === undefined || !plausible(value, fetchedAt)) return undefined;
  return { value, source: 'url', reason: `url ${(separated ?? compact)![0]}` };
}

/** Words in a class, id or itemprop that mark an element as the page's publication date. */
const PUBLISHED_MARK = /publish|pubdate|posted|created|entry-date|post-date|article-date|date-?line|byline|datum|erschienen|veröffentlicht/i;
const MODIFIED_MARK = /modif|updat|aktualisiert|edited|changed|comment/i;

function attributeMarks(element: DateDomElement): string {
  return `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''} ${element.getAttribute('itemprop') ?? ''}`;
}

/** Whether an element sits inside an `<article>`, `<main>` or `<header>`. */
function inArticleOrHeader(element: DateDomElement): boolean {
  for (let ancestor = element.parentNode; ancestor !== null && ancestor !== undefined; ancestor = ancestor.parentNode) {
    if (ancestor.tagName === 'ARTICLE' || ancestor.tagName === 'MAIN' || ancestor.tagName === 'HEADER') return true;
  }
  return false;
}

function fromTimeElements(elements: readonly DateDomElement[], fetchedAt: number, usOrder: boolean): Candidate | undefined {
  const times = elements.filter((element) => element.tagName === 'TIME');
  if (times.length === 0) return undefined;
  const read = (time: DateDomElement): DayValue | undefined => {
    const text = dateText(time);
    const value = parseMachineDate(time.getAttribute('datetime') ?? text, usOrder) ?? parseTextDate(text, usOrder);
    return value !== undefined && plausible(value, fetchedAt) ? value : undefined;
  };
  // A <time> that says it is the publication (pubdate, a published class), else the first in the article.
  for (const time of times) {
    if (time.hasAttribute('pubdate') || PUBLISHED_MARK.test(attributeMarks(time))) {
      const value = read(time);
      if (value !== undefined) return { value, source: 'time_element', reason: 'time marked published' };
    }
  }
  const inArticle = times.filter(inArticleOrHeader);
  for (const time of inArticle.length > 0 ? inArticle : times.length <= 3 ? times : []) {
    if (MODIFIED_MARK.test(attributeMarks(time))) continue;
    const value = read(time);
    if (value !== undefined) return { value, source: 'time_element', reason: inArticle.length > 0 ? 'time in the article' : 'time' };
  }
  return undefined;
}

/** Class names (and ids) that name an element for a date or a byline (htmldate's date expressions); `<abbr>` too. */
const DATE_CLASS = /date|datum|byline|published|posted|meta|time|info|author/;
const DATE_ID = /date/i;
const DATE_ELEMENT_LIMIT = 400;
/** An element named for a date whose title and text are longer than this holds more than a date: not read. */
const DATE_ELEMENT_MAX_CHARS = 300;

function isDateElement(element: DateDomElement): boolean {
  if (element.tagName === 'ABBR') return true;
  const className = element.getAttribute('class');
  if (className !== null && (DATE_CLASS.test(className) || /Date|Datum|Byline|Time/.test(className))) return true;
  const id = element.getAttribute('id');
  return id !== null && DATE_ID.test(id);
}

function fromDateElements(all: readonly DateDomElement[], fetchedAt: number, usOrder: boolean): Candidate | undefined {
  const elements: DateDomElement[] = [];
  for (const element of all) {
    if (isDateElement(element)) elements.push(element);
    if (elements.length >= DATE_ELEMENT_LIMIT) break;
  }
  let fallback: Candidate | undefined;
  for (const element of elements) {
    if (element.tagName === 'SCRIPT' || element.tagName === 'STYLE' || element.tagName === 'META') continue;
    const marks = attributeMarks(element);
    if (MODIFIED_MARK.test(marks)) continue;
    const title = (element.getAttribute('title') ?? '') + ' ';
    if (title.length > DATE_ELEMENT_MAX_CHARS) continue;
    const text = title + textUpTo(element, DATE_ELEMENT_MAX_CHARS - title.length);
    if (text.length > DATE_ELEMENT_MAX_CHARS) continue;
    const value = parseTextDate(text, usOrder);
    if (value === undefined || !plausible(value, fetchedAt)) continue;
    if (PUBLISHED_MARK.test(marks) || /\b(?:published|posted|veröffentlicht|publié|erschienen)\b/i.test(text)) {
      return { value, source: 'date_element', reason: `element .${marks.trim().split(/\s+/)[0]}` };
    }
    fallback ??= { value, source: 'date_element', reason: `element .${marks.trim().split(/\s+/)[0]}` };
  }
  return fallback;
}

/** Words that introduce a publication date in running text. */
const PUBLISHED_WORDS = /(?:published|posted|veröffentlicht|erschienen|publié|publicado|pubblicato|gepubliceerd|stand|datum)\s*(?:on|am|le|:)?\s*$/i;

const SKIPPED_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG']);

/** Characters of the page's visible text, whitespace collapsed, that the text source scans for a date. */
export const TEXT_SCAN_CHARS = 200_000;
/** The text source stops collecting after this many text and element pieces. */
const TEXT_SCAN_PIECES = 50_000;
/** Characters of a huge text node collapsed at a time, so that only what the scan needs is read. */
const COLLAPSE_CHUNK = 1 << 16;

/**
 * The text a reader sees (scripts and styles left out), whitespace runs collapsed to one space,
 * its first `limit` characters, without changing the document. Collapsed piece by piece (a run
 * that spans two pieces still gives one space), and the walk stops once `limit` characters are
 * in hand: a page whose text runs to megabytes costs no more than its first `limit` characters.
 */
function visibleText(root: DateDomElement, limit: number): string {
  const collapsed: string[] = [];
  let length = 0;
  let endsInSpace = false;
  let pieces = 0;
  const append = (value: string): void => {
    for (let at = 0; at < value.length && length < limit; at += COLLAPSE_CHUNK) {
      let chunk = value.slice(at, at + COLLAPSE_CHUNK).replace(/\s+/g, ' ');
      if (endsInSpace && chunk.startsWith(' ')) chunk = chunk.slice(1);
      if (chunk === '') continue;
      collapsed.push(chunk);
      length += chunk.length;
      endsInSpace = chunk.endsWith(' ');
    }
  };
  const visit = (node: DateDomNode): void => {
    for (const child of Array.from(node.childNodes)) {
      if (length >= limit) return;
      if (child.nodeType === 3) {
        append(child.nodeValue ?? '');
        pieces++;
      } else if (child.nodeType === 1 && !SKIPPED_TEXT.has((child as unknown as DateDomElement).tagName)) {
        visit(child);
        append(' ');
        pieces++;
      }
      if (pieces > TEXT_SCAN_PIECES) return;
    }
  };
  visit(root as unknown as DateDomNode);
  return collapsed.join('').slice(0, limit);
}

function fromText(document: DateDomDocument, fetchedAt: number, usOrder: boolean): Candidate | undefined {
  const body = document.body;
  if (body === null) return undefined;
  const text = visibleText(body, TEXT_SCAN_CHARS);
  const dates = findTextDates(text, usOrder, 200).filter((found) => plausible(found.value, fetchedAt));
  if (dates.length === 0) return undefined;
  for (const found of dates) {
    if (PUBLISHED_WORDS.test(text.slice(Math.max(0, found.index - 30), found.index))) {
      return { value: found.value, source: 'text', reason: 'text after a published word' };
    }
  }
  // Else the first date a reader meets: on an article it is the dateline more often than not
  // (the most frequent date was measured too and lost: on a news page it is a list's).
  return { value: dates[0].value, source: 'text', reason: 'first date in the text' };
}

// ------------------------------------------------------------------ the signal

function usesMonthFirst(document: DateDomDocument): boolean {
  const lang = (document.documentElement?.getAttribute('lang') ?? '').toLowerCase();
  return lang === '' || lang === 'en-us' || lang === 'en';
}

/**
 * The page's publication day: the first source, in order of reliability, that gives a plausible
 * date. `document` is the parsed page (before anything is removed from it), `url` its address,
 * `fetchedAt` the crawl time in unix seconds; `declarations` the page's one scan
 * (page-declarations.ts), read here when the caller has none.
 */
export function derivePublishedAt(document: DateDomDocument, url: string, fetchedAt: number, declarations: PageDeclarations = readDeclarations(document)): PublishedAtSignal {
  const usOrder = usesMonthFirst(document);
  // Every source below filters the scan's lists (a CSS query per source would walk the tree each time).
  const { elements } = declarations;
  const candidate =
    fromMeta(declarations.metas, fetchedAt, usOrder) ??
    fromJsonLd(declarations.jsonLd, fetchedAt, usOrder) ??
    fromMicrodata(elements, fetchedAt, usOrder) ??
    fromUrl(url, fetchedAt) ??
    fromTimeElements(elements, fetchedAt, usOrder) ??
    fromDateElements(elements, fetchedAt, usOrder) ??
    fromText(document, fetchedAt, usOrder);
  if (candidate === undefined) return { confidence: 0, reason: 'no plausible date on the page' };
  return {
    value: secondsOf(candidate.value),
    day: dayString(candidate.value),
    source: candidate.source,
    confidence: SOURCE_CONFIDENCE[candidate.source],
    reason: candidate.reason,
  };
}
