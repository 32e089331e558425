/**
 * One HTML page to a page record's fields: the body decoded by the WHATWG encoding sniffer
 * (encoding-sniffer: BOM, then the HTTP charset, then a `<meta>` charset; undeclared bytes that
 * are valid UTF-8 are read as UTF-8, others as windows-1252), parsed once with linkedom. What the
 * page declares is read once, as served, before anything is removed from the tree
 * (signals/page-declarations.ts: every element, the meta tags, the JSON-LD parsed once), and that
 * one scan is handed to every reader: the publish date, the declared page types, the declared
 * topics (signals/published-at.ts, content-type.ts, topics.ts) and the main-text stage's "the
 * page declares an article". Links are
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
import { assertDepth, cutMainText, cutPage } from './extract/page-limits.js';
import { declaredPageTypes } from './signals/content-type.js';
import { declaresArticle, readDeclarations, type DeclarationsDocument } from './signals/page-declarations.js';
import { derivePublishedAt, type DateDomDocument, type PublishedAtSignal } from './signals/published-at.js';
import { declaredTopics } from './signals/topics.js';

export interface HtmlPage {
  title: string;
  /** Main content, one block per paragraph, blocks separated by blank lines. */
  text: string;
  /** Unix seconds, only when the page gives it (signals/published-at.ts). */
  publishedAt?: number;
  /** How the publish date was found and how sure (absent value: none found). */
  publishedAtSignal: PublishedAtSignal;
  /** The schema.org and Open Graph types the page declares (signals/content-type.ts reads them). */
  pageTypes: string[];
  /** The topic tags the page declares (signals/topics.ts); absent when it declares none. */
  topics?: string[];
  links: string[];
  /** Text hidden from readers (extract/hidden-text.ts): not a copy of visible text, with its technique. */
  hiddenPieces: HiddenPieceRecord[];
  /** The `<html lang>` attribute, as declared (for measuring language identification). */
  declaredLang?: string;
  /** Which encoding the bytes were decoded with. */
  encoding: string;
  /** Set when the page was past an extraction limit (extract/page-limits.ts, extract/main-text.ts `readabilityLimit`): what was done instead. */
  limitNote?: string;
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
 * can take links without building one; of the page as extraction parses it (cut past the page
 * limits, extract/page-limits.ts), so that pass 1 and the stored links agree.
 */
export function pageLinks(fullHtml: string, pageUrl: string): string[] {
  const { html } = cutPage(fullHtml);
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

// ------------------------------------------------------------------ the page

function parse(html: string): DomDocument {
  return (parseHTML(html) as unknown as { document: DomDocument }).document;
}

/**
 * Extract a page from its decoded HTML. A page past the page limits (extract/page-limits.ts: more
 * than MAX_PAGE_CHARS characters or MAX_PAGE_ELEMENTS start tags) is cut there before parsing,
 * and everything below reads the cut page; its main text is the body without chrome. A page
 * nested deeper than MAX_PAGE_DEPTH throws (ingest reports the record as damaged). The main text
 * is cut to MAX_MAIN_TEXT_CHARS.
 */
export function extractHtmlPage(fullHtml: string, url: string, fetchedAt: number, encoding = 'utf-8'): HtmlPage {
  const { html, cut } = cutPage(fullHtml);
  const document = parse(html);
  assertDepth(document.documentElement);
  const declaredLang = document.documentElement?.getAttribute('lang') ?? undefined;
  const declarations = readDeclarations(document as unknown as DeclarationsDocument);
  const publishedAtSignal = derivePublishedAt(document as unknown as DateDomDocument, url, fetchedAt, declarations);
  const pageTypes = declaredPageTypes(declarations);
  const topics = declaredTopics(declarations);
  const documentTitle = collapseWhitespace(document.querySelector('title')?.textContent ?? '');
  const headings = document.querySelectorAll('h1');
  const onlyHeading = headings.length === 1 ? collapseWhitespace(headings[0].textContent ?? '') : '';
  const links = pageLinks(html, url);

  const styles = new PageStyles(document);
  const candidates = takeOutHidden(document, styles);
  const visibleText = document.body?.textContent ?? '';
  const main = extractMainText(document, declaresArticle(declarations), cut);
  let title = main.title ? collapseWhitespace(main.title) : documentTitle;
  const { text, cut: textCut } = cutMainText(main.text);
  // Site templates often title every page with the site's name; a page's one <h1> names the page.
  const titleSegments = documentTitle.toLowerCase().split(/\s+[|\u2013\u2014:·-]\s+/);
  if (onlyHeading.includes(' ') && !title.toLowerCase().includes(onlyHeading.toLowerCase())) {
    if (title === '' || title === documentTitle || titleSegments.includes(onlyHeading.toLowerCase())) title = onlyHeading;
  }
  if (title === '') title = onlyHeading;
  const page: HtmlPage = {
    title,
    text,
    publishedAt: publishedAtSignal.value,
    publishedAtSignal,
    pageTypes,
    links,
    hiddenPieces: hiddenPieces(candidates, visibleText, text),
    declaredLang: declaredLang || undefined,
    encoding,
  };
  if (topics !== undefined) page.topics = topics;
  const notes = [main.pastLimit, textCut].filter((note) => note !== undefined);
  if (notes.length > 0) page.limitNote = notes.join('; ');
  return page;
}
