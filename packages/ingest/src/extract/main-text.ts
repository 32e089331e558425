/**
 * The main text of a page whose hidden content is already out (hidden-text.ts): Mozilla
 * Readability finds the article's container, then what Readability keeps of a news page that a
 * reader does not count as the article is cleaned off it, and the body without its chrome is the
 * fallback for pages that are not articles. A page that declares itself an article (og:type,
 * JSON-LD) keeps Readability's text unless that is tiny and the body three times longer; on other
 * pages (home pages, profiles, where Readability keeps the news list and drops the biography) the
 * body wins when Readability's text lacks body paragraphs amounting to a fifth of its length.
 * Never when the body is mostly links (a headline page around a short article).
 *
 * Before Readability: figures and their captions go (photo captions and credits are not the
 * article). After it, inside the container it chose: blocks named as captions, credits, bylines,
 * share bars, related links, newsletter boxes, advertisements or comments (DISCARD_CLASS) and
 * link lists (LINK_DENSITY_MAX), each only while it holds under a quarter of the article's words;
 * then lines that only repeat the title, a bare URL, a dateline ("Updated 5:27 am CST, Nov 20,
 * 2019") or a byline ("By Paul Takahashi"). Measured with `npm run bench:extract` on the article
 * extraction benchmark (README "Main text and hidden text, measured").
 */
import { Readability } from '@mozilla/readability';
import { blockText } from './blocks.js';
import { ELEMENT_NODE, TEXT_NODE, classAndId, firstInWalk, wordCount, wordKey, type DomDocument, type DomElement, type DomNode } from './dom.js';
import {
  BYLINE_MAX_WORDS,
  COMMENTS_CLASS,
  DISCARD_CLASS,
  DISCARD_MAX_SHARE,
  FALLBACK_ARTICLE_BODY_RATIO,
  FALLBACK_ARTICLE_MAX_WORDS,
  FALLBACK_MAX_LINK_SHARE,
  FALLBACK_PAGE_MAX_WORDS,
  FALLBACK_PAGE_MISSING_SHARE,
  FALLBACK_PARAGRAPH_WORDS,
  LINK_DENSITY_MAX,
  MAX_READABILITY_DEPTH,
  MAX_READABILITY_ELEMENTS,
  MAX_READABILITY_NESTING,
  META_LINE_MAX_WORDS,
  READABILITY_CHAR_THRESHOLD,
} from './settings.js';

export interface MainText {
  /** Main content, one block per paragraph, blocks separated by blank lines. */
  text: string;
  /** Readability's title (JSON-LD headline, og:title or the document title without the site's name), when it found one. */
  title?: string;
  /** Which candidate gave the text. */
  source: 'readability' | 'body' | 'none';
  /** Set when the page is past Readability's limits (`readabilityLimit`): why it was not run. */
  pastLimit?: string;
}

/**
 * Why Readability must not run on `document`, or undefined when it may: nested deeper than
 * MAX_READABILITY_DEPTH, its elements' depths add up to more than MAX_READABILITY_NESTING, or it
 * has more than MAX_READABILITY_ELEMENTS elements (settings.ts). One walk without recursion (first child, next sibling, parent: constant time
 * each on linkedom), which stops as soon as either limit is passed.
 */
export function readabilityLimit(document: DomDocument): string | undefined {
  const root = document.documentElement as DomElement | null;
  if (root === null || root === undefined) return undefined;
  let nesting = 0;
  let elements = 0;
  return firstInWalk(root, (_element, depth) => {
    nesting += depth;
    elements++;
    if (depth > MAX_READABILITY_DEPTH) return `main text: page nested deeper than ${MAX_READABILITY_DEPTH} elements; Readability skipped, the body without chrome is the text`;
    if (nesting > MAX_READABILITY_NESTING) return `main text: page's element depths add up to more than ${MAX_READABILITY_NESTING}; Readability skipped, the body without chrome is the text`;
    if (elements > MAX_READABILITY_ELEMENTS) return `main text: page has more than ${MAX_READABILITY_ELEMENTS} elements; Readability skipped, the body without chrome is the text`;
    return undefined;
  });
}

/** Page chrome, dropped from the body when it is the fallback. */
const CHROME_SELECTOR = 'nav, header, footer, aside, form, [role="navigation"], [role="banner"], [role="contentinfo"], [role="dialog"], [class*="cookie"], [id*="cookie"]';

function linkWords(element: DomElement): number {
  let linked = 0;
  for (const anchor of Array.from(element.querySelectorAll('a'))) linked += wordCount(anchor.textContent ?? '');
  return linked;
}

/** Words of each element of a subtree and how many of them sit in links, in one pass. */
function measureWords(root: DomElement): Map<DomNode, { words: number; linked: number }> {
  const counts = new Map<DomNode, { words: number; linked: number }>();
  const visit = (node: DomNode, inLink: boolean): { words: number; linked: number } => {
    const total = { words: 0, linked: 0 };
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === TEXT_NODE) {
        const words = wordCount(child.nodeValue ?? '');
        total.words += words;
        if (inLink) total.linked += words;
      } else if (child.nodeType === ELEMENT_NODE) {
        const inner = visit(child, inLink || (child as DomElement).tagName === 'A');
        total.words += inner.words;
        total.linked += inner.linked;
      }
    }
    counts.set(node, total);
    return total;
  };
  visit(root, false);
  return counts;
}

const LINK_LIST_TAGS = new Set(['UL', 'OL', 'DIV', 'SECTION', 'NAV', 'P', 'TABLE']);

/** Blocks of the article container that are not article text (see the module comment). */
function cleanArticle(root: DomElement): void {
  const counts = measureWords(root);
  const total = counts.get(root)?.words ?? 0;
  const visit = (node: DomNode): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType !== ELEMENT_NODE) continue;
      const element = child as DomElement;
      const { words, linked } = counts.get(element) ?? { words: 0, linked: 0 };
      if (words < DISCARD_MAX_SHARE * total) {
        if (DISCARD_CLASS.test(classAndId(element)) || (words > 0 && LINK_LIST_TAGS.has(element.tagName) && linked / words > LINK_DENSITY_MAX)) {
          element.remove();
          continue;
        }
      }
      visit(element);
    }
  };
  visit(root);
}

const MONTH_DAY = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}\.?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b/i;
const CLOCK_OR_NUMERIC_DATE = /\b\d{1,2}:\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b/;

/** Lines that repeat a title, a bare URL, datelines and bylines. */
function dropMetaLines(text: string, titles: string[]): string {
  const titleKeys = new Set(titles.map(wordKey).filter((key) => key !== ''));
  const blocks: string[] = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n').filter((line) => {
      const words = wordCount(line);
      if (words === 0 || titleKeys.has(wordKey(line))) return false;
      if (/^\s*https?:\/\/\S+\s*$/.test(line)) return false;
      if (words <= META_LINE_MAX_WORDS && (MONTH_DAY.test(line) || CLOCK_OR_NUMERIC_DATE.test(line))) return false;
      return !(words <= BYLINE_MAX_WORDS && /^\s*by\s/i.test(line));
    });
    if (lines.length > 0) blocks.push(lines.join('\n'));
  }
  return blocks.join('\n\n');
}

/** The body's blocks without what is chrome on every site: navigation, header, footer, asides, forms, cookie banners, comment threads, link lists. */
function bodyWithoutChrome(body: DomElement): string {
  for (const chrome of Array.from(body.querySelectorAll(CHROME_SELECTOR))) chrome.remove();
  for (const element of Array.from(body.querySelectorAll('[class], [id]'))) if (element.parentNode !== null && COMMENTS_CLASS.test(classAndId(element))) element.remove();
  for (const list of Array.from(body.querySelectorAll('ul, ol'))) {
    const words = wordCount(list.textContent ?? '');
    if (list.parentNode !== null && words > 0 && linkWords(list) / words > 0.8) list.remove();
  }
  return blockText(body);
}

/** Words of the body's paragraphs (FALLBACK_PARAGRAPH_WORDS or longer) that the text lacks. */
function paragraphWordsMissing(body: string, text: string): number {
  const kept = ` ${wordKey(text)} `;
  let missing = 0;
  for (const block of body.split('\n\n')) {
    const words = wordCount(block);
    if (words >= FALLBACK_PARAGRAPH_WORDS && !kept.includes(` ${wordKey(block)} `)) missing += words;
  }
  return missing;
}

/**
 * The main text of `document`, whose hidden content is already out. `declared`: the page declares
 * itself an article (og:type, JSON-LD: signals/page-declarations.ts `declaresArticle`, read from
 * the page's one scan of its declarations). Readability rewrites the tree it reads, and the
 * fallback cuts chrome out of the body, so each works on a copy: `document` is left as it was
 * for the caller. A page past Readability's limits (`readabilityLimit`), or one the caller cut
 * (`cut`: why, page-limits.ts), gets the body without its chrome, and says why in `pastLimit`.
 */
export function extractMainText(document: DomDocument, declared: boolean, cut?: string): MainText {
  const pastLimit = cut ?? readabilityLimit(document);
  if (pastLimit !== undefined) {
    const text = document.body === null ? '' : bodyWithoutChrome(document.body.cloneNode(true));
    return { text, source: text === '' ? 'none' : 'body', pastLimit };
  }
  const titles = [document.querySelector('title')?.textContent ?? '', ...Array.from(document.querySelectorAll('h1')).map((heading) => heading.textContent ?? '')];
  const working = document.cloneNode(true);
  for (const figure of Array.from(working.querySelectorAll('figure, figcaption'))) figure.remove();
  let text = '';
  let title: string | undefined;
  try {
    const article = new Readability(working as never, { serializer: (node) => node, charThreshold: READABILITY_CHAR_THRESHOLD, keepClasses: true }).parse();
    if (article !== null) {
      if (article.title) title = article.title;
      if (article.content) {
        const root = article.content as unknown as DomElement;
        cleanArticle(root);
        text = dropMetaLines(blockText(root as DomNode), [article.title ?? '', ...titles]);
      }
    }
  } catch {
    // Readability gives up on some malformed trees; the body is used below.
  }
  const words = wordCount(text);
  if (words < (declared ? FALLBACK_ARTICLE_MAX_WORDS : FALLBACK_PAGE_MAX_WORDS) && document.body !== null) {
    const bodyWords = wordCount(document.body.textContent ?? '');
    // A body mostly of links is a front page of headlines around a short article: Readability's pick stands.
    if (bodyWords > 0 && linkWords(document.body) / bodyWords <= FALLBACK_MAX_LINK_SHARE) {
      const body = bodyWithoutChrome(document.body.cloneNode(true));
      const better = declared ? wordCount(body) >= FALLBACK_ARTICLE_BODY_RATIO * Math.max(words, 1) : paragraphWordsMissing(body, text) >= FALLBACK_PAGE_MISSING_SHARE * Math.max(words, 1);
      if (better) return { text: body, title, source: 'body' };
    }
  }
  return { text, title, source: text === '' ? 'none' : 'readability' };
}
