/**
 * One HTML page to a page record's fields: the body decoded by the WHATWG encoding sniffer
 * (encoding-sniffer: BOM, then the HTTP charset, then a `<meta>` charset; undeclared bytes that
 * are valid UTF-8 are read as UTF-8, others as windows-1252), parsed with linkedom, text a reader
 * cannot see taken out and recorded, the main content found by Mozilla Readability, and its
 * blocks (paragraphs, headings, list items, table rows) written one per paragraph so that ingest
 * splits passages where the page breaks them. The title is Readability's (JSON-LD headline,
 * og:title or the document title without the site's name); the publish date and the declared
 * page types come from their signal modules (signals/published-at.ts, signals/content-type.ts),
 * read before anything is removed from the tree; links are every `<a href>` resolved against the
 * base URL (pageLinks, which pass 1 uses too, so the graph and the stored links agree).
 */
import { isUtf8 } from 'node:buffer';
import { Readability } from '@mozilla/readability';
import { decodeBuffer } from 'encoding-sniffer';
import { parseHTML } from 'linkedom';
import { declaredPageTypes, type PageTypesDocument } from './signals/content-type.js';
import { derivePublishedAt, type DateDomDocument, type PublishedAtSignal } from './signals/published-at.js';

/** The few DOM members used here (the build has no DOM lib; linkedom provides them). */
interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
  remove(): void;
}
interface DomElement extends DomNode {
  tagName: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}
interface DomDocument extends DomElement {
  documentElement: DomElement;
  body: DomElement | null;
  title: string;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const COMMENT_NODE = 8;

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
  links: string[];
  /** Text a reader would not see, each piece that reads as prose. */
  hiddenText: string[];
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

// ------------------------------------------------------------------ hidden text

/** Inline styles that hide an element or make its text unreadable. */
function hiddenByStyle(style: string): boolean {
  const declarations = new Map<string, string>();
  for (const declaration of style.toLowerCase().split(';')) {
    const colon = declaration.indexOf(':');
    if (colon <= 0) continue;
    declarations.set(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).replace(/!important/, '').trim());
  }
  const value = (name: string): string | undefined => declarations.get(name);
  const isZero = (text: string | undefined): boolean => text !== undefined && /^-?0*\.?0+(px|pt|em|rem|%|vw|vh)?$/.test(text);
  if (value('display') === 'none') return true;
  if (value('visibility') === 'hidden' || value('visibility') === 'collapse') return true;
  if (isZero(value('font-size')) || isZero(value('opacity'))) return true;
  if ((isZero(value('width')) || isZero(value('height')) || isZero(value('max-height'))) && value('overflow') === 'hidden') return true;
  const color = value('color');
  const background = value('background-color') ?? value('background');
  if (color === 'transparent') return true;
  if (color !== undefined && background !== undefined && color === background) return true;
  const indent = value('text-indent');
  if (indent !== undefined && /^-\d{3,}/.test(indent)) return true;
  for (const side of ['left', 'top']) {
    const offset = value(side);
    if (offset !== undefined && /^-\d{4,}/.test(offset) && /absolute|fixed/.test(value('position') ?? '')) return true;
  }
  if (value('clip') !== undefined && /rect\(\s*0/.test(value('clip') ?? '') && /absolute|fixed/.test(value('position') ?? '')) return true;
  return false;
}

/** Class names that mean "visually hidden" in every common CSS framework. */
const HIDING_CLASS = /(?:^|\s)(?:sr-only|visually-hidden|visuallyhidden|screen-reader-text|screen-reader-only)(?:\s|$)/;

function isHiddenElement(element: DomElement): boolean {
  if (element.hasAttribute('hidden')) return true;
  if (element.getAttribute('aria-hidden') === 'true') return true;
  const type = element.getAttribute('type');
  if (element.tagName === 'INPUT' && type !== null && type.toLowerCase() === 'hidden') return true;
  const style = element.getAttribute('style');
  if (style !== null && hiddenByStyle(style)) return true;
  const className = element.getAttribute('class');
  return className !== null && HIDING_CLASS.test(className);
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Text worth recording as hidden: at least six words of letters, most of the text (not code or a date stamp). */
function readsAsProse(text: string): boolean {
  const tokens = text.split(' ');
  let words = 0;
  for (const token of tokens) if (/^[\p{L}][\p{L}'’-]*[.,;:!?"”)]*$/u.test(token) && token.length >= 2) words++;
  return words >= 6 && words >= 0.6 * tokens.length;
}

/** Elements whose content is never page text. */
const NEVER_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'CANVAS']);

/**
 * Remove from the tree what a reader cannot see (hidden elements, comments) and code, and return
 * the hidden pieces that read as prose.
 */
function takeOutHidden(root: DomNode): string[] {
  const hidden: string[] = [];
  const visit = (node: DomNode): void => {
    const children = Array.from(node.childNodes);
    for (const child of children) {
      if (child.nodeType === COMMENT_NODE) {
        const text = collapseWhitespace(child.nodeValue ?? '');
        if (!/^\[if|<|\{/.test(text) && !/[<>{};=]/.test(text) && readsAsProse(text)) hidden.push(text);
        child.remove();
        continue;
      }
      if (child.nodeType !== ELEMENT_NODE) continue;
      const element = child as DomElement;
      if (NEVER_TEXT.has(element.tagName)) {
        // Scripts stay for Readability's JSON-LD look-up; the rest goes.
        if (element.tagName !== 'SCRIPT') element.remove();
        continue;
      }
      if (isHiddenElement(element)) {
        const text = collapseWhitespace(element.textContent ?? '');
        if (readsAsProse(text)) hidden.push(text);
        element.remove();
        continue;
      }
      visit(element);
    }
  };
  visit(root);
  return hidden;
}

// ------------------------------------------------------------------ blocks

const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'CAPTION', 'CENTER', 'DD', 'DETAILS', 'DIV', 'DL', 'DT', 'FIELDSET',
  'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV',
  'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'THEAD', 'TFOOT', 'TR', 'UL',
]);
/** Stands for a `<br>` while whitespace is collapsed. */
const LINE_BREAK = '\u2028';

/** The text of `root`, one block per paragraph-like element, blocks separated by blank lines. */
export function blockText(root: DomNode): string {
  const blocks: string[] = [];
  let inline = '';
  const flush = (): void => {
    const text = inline
      .replace(/[ \t\n\r\f\u00a0]+/g, ' ')
      .split(LINE_BREAK)
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join('\n');
    if (text !== '') blocks.push(text);
    inline = '';
  };
  const visit = (node: DomNode): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === TEXT_NODE) {
        inline += child.nodeValue ?? '';
        continue;
      }
      if (child.nodeType !== ELEMENT_NODE) continue;
      const tag = (child as DomElement).tagName;
      if (NEVER_TEXT.has(tag)) continue;
      if (tag === 'BR') {
        inline += LINE_BREAK;
        continue;
      }
      if (tag === 'PRE') {
        flush();
        const pre = (child.textContent ?? '').replace(/\n\s*\n/g, '\n').trim();
        if (pre !== '') blocks.push(pre);
        continue;
      }
      const block = BLOCK_TAGS.has(tag);
      if (block) flush();
      visit(child);
      if (block) flush();
      else if (tag === 'TD' || tag === 'TH') inline += ' ';
    }
  };
  visit(root);
  flush();
  return blocks.join('\n\n');
}

/** Page chrome, dropped when Readability finds no article and the whole body is used. */
const CHROME_SELECTOR = 'nav, header, footer, aside, form, [role="navigation"], [role="banner"], [role="contentinfo"], [role="dialog"], [class*="cookie"], [id*="cookie"]';

// ------------------------------------------------------------------ the page

const BODY_FALLBACK_SHARE = 0.7;

function countWordsIn(text: string): number {
  return text === '' ? 0 : text.split(/\s+/).length;
}

/** Share of an element's words that sit inside links. */
function linkDensity(element: DomElement): number {
  const words = countWordsIn(collapseWhitespace(element.textContent ?? ''));
  if (words === 0) return 0;
  let linked = 0;
  for (const anchor of Array.from(element.querySelectorAll('a'))) linked += countWordsIn(collapseWhitespace(anchor.textContent ?? ''));
  return linked / words;
}

/** Words of the body minus those of its outermost chrome elements (no second parse). */
function estimatedBodyWords(document: DomDocument): number {
  if (document.body === null) return 0;
  let words = countWordsIn(collapseWhitespace(document.body.textContent ?? ''));
  const chrome = Array.from(document.querySelectorAll(CHROME_SELECTOR));
  const chromeSet = new Set<DomNode>(chrome);
  for (const element of chrome) {
    let ancestor = element.parentNode;
    while (ancestor !== null && !chromeSet.has(ancestor)) ancestor = ancestor.parentNode;
    if (ancestor === null) words -= countWordsIn(collapseWhitespace(element.textContent ?? ''));
  }
  return words;
}

/** The body's blocks without what is chrome on every site: navigation, header, footer, asides, forms, cookie banners, link lists. */
function bodyWithoutChrome(html: string): string {
  const { document } = parseHTML(html) as unknown as { document: DomDocument };
  if (document.body === null) return '';
  takeOutHidden(document);
  for (const chrome of Array.from(document.querySelectorAll(CHROME_SELECTOR))) chrome.remove();
  for (const list of Array.from(document.querySelectorAll('ul, ol'))) {
    if (list.parentNode !== null && linkDensity(list) > 0.8) list.remove();
  }
  return blockText(document.body);
}

/** Extract a page from its decoded HTML. */
export function extractHtmlPage(html: string, url: string, fetchedAt: number, encoding = 'utf-8'): HtmlPage {
  const { document } = parseHTML(html) as unknown as { document: DomDocument };
  const declaredLang = document.documentElement?.getAttribute('lang') ?? undefined;
  const publishedAtSignal = derivePublishedAt(document as unknown as DateDomDocument, url, fetchedAt);
  const pageTypes = declaredPageTypes(document as unknown as PageTypesDocument);
  const documentTitle = collapseWhitespace(document.querySelector('title')?.textContent ?? '');
  const headings = document.querySelectorAll('h1');
  const onlyHeading = headings.length === 1 ? collapseWhitespace(headings[0].textContent ?? '') : '';
  const hiddenText = takeOutHidden(document);
  const links = pageLinks(html, url);

  // Words the body would give without its chrome, estimated before Readability rewrites the tree.
  const bodyEstimate = estimatedBodyWords(document);
  let title = documentTitle;
  let text = '';
  try {
    const article = new Readability(document as never, { serializer: (node) => node, charThreshold: 250 }).parse();
    if (article !== null) {
      if (article.title) title = collapseWhitespace(article.title);
      if (article.content) text = blockText(article.content as unknown as DomNode);
    }
  } catch {
    // Readability gives up on some malformed trees; the body is used below.
  }
  // Readability is built for articles: on a home page or a profile it can keep one list and drop
  // the rest. When it keeps under 70% of the body without its chrome, the body without chrome wins.
  const textWords = countWordsIn(text);
  if (textWords < BODY_FALLBACK_SHARE * bodyEstimate) {
    const body = bodyWithoutChrome(html);
    if (textWords < BODY_FALLBACK_SHARE * countWordsIn(body)) text = body;
  }
  // Site templates often title every page with the site's name; a page's one <h1> names the page.
  const titleSegments = documentTitle.toLowerCase().split(/\s+[|\u2013\u2014:·-]\s+/);
  if (onlyHeading.includes(' ') && !title.toLowerCase().includes(onlyHeading.toLowerCase())) {
    if (title === '' || title === documentTitle || titleSegments.includes(onlyHeading.toLowerCase())) title = onlyHeading;
  }
  if (title === '') title = onlyHeading;
  return { title, text, publishedAt: publishedAtSignal.value, publishedAtSignal, pageTypes, links, hiddenText, declaredLang: declaredLang || undefined, encoding };
}
