/**
 * The page-level limits of extraction (settings.ts; README "Limits"). Before parsing: the part of
 * a page's decoded HTML that is parsed, all of it or, past MAX_PAGE_CHARS characters or
 * MAX_PAGE_ELEMENTS start tags, what comes before the limit, cut at a tag's start so that no half
 * tag is read as text; decided by one scan that stops at the limit, so a page of megabytes or of
 * hundreds of thousands of elements costs what its first MAX_PAGE_ELEMENTS elements or
 * MAX_PAGE_CHARS characters cost. After parsing: a page nested deeper than MAX_PAGE_DEPTH is not
 * extracted (`assertDepth` throws, and ingest reports the record as damaged with that reason).
 * After extraction: the main text is cut to MAX_MAIN_TEXT_CHARS (`cutMainText`).
 */
import { firstInWalk, type DomElement } from './dom.js';
import { MAX_MAIN_TEXT_CHARS, MAX_PAGE_CHARS, MAX_PAGE_DEPTH, MAX_PAGE_ELEMENTS } from './settings.js';

export interface PageCut {
  /** The HTML to parse. */
  html: string;
  /** Set when the page was cut: what was done, for ingest's report. */
  cut?: string;
}

const START_TAG = /<[a-zA-Z]/g;

/** Where the (MAX_PAGE_ELEMENTS + 1)th start tag begins, or undefined when there are no more than MAX_PAGE_ELEMENTS before `end`. */
function pastElements(html: string, end: number): number | undefined {
  START_TAG.lastIndex = 0;
  let count = 0;
  for (let match = START_TAG.exec(html); match !== null && match.index < end; match = START_TAG.exec(html)) {
    if (++count > MAX_PAGE_ELEMENTS) return match.index;
  }
  return undefined;
}

/** `html` cut to the first MAX_PAGE_CHARS characters, not inside a tag nor a surrogate pair. */
function charLimitEnd(html: string): number {
  let end = MAX_PAGE_CHARS;
  const open = html.lastIndexOf('<', end - 1);
  if (open > html.lastIndexOf('>', end - 1)) end = open;
  const code = html.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return end;
}

const FALLBACK = 'Readability skipped, the body without chrome is the text';

/** The page as parsed, cut past the page limits. */
export function cutPage(html: string): PageCut {
  const charEnd = html.length > MAX_PAGE_CHARS ? charLimitEnd(html) : html.length;
  const elementEnd = pastElements(html, charEnd);
  if (elementEnd !== undefined) {
    return { html: html.slice(0, elementEnd), cut: `page: more than ${MAX_PAGE_ELEMENTS} start tags, cut after the first ${MAX_PAGE_ELEMENTS}; ${FALLBACK}` };
  }
  if (charEnd < html.length) {
    return { html: html.slice(0, charEnd), cut: `page: more than ${MAX_PAGE_CHARS} characters, cut to the first ${MAX_PAGE_CHARS}; ${FALLBACK}` };
  }
  return { html };
}

/**
 * Throws when the tree under `root` is nested deeper than MAX_PAGE_DEPTH elements (the recursive
 * stages would overflow the JavaScript stack further down, at a depth that depends on the stack
 * left). One walk without recursion (first child, next sibling, parent), which stops there.
 */
export function assertDepth(root: DomElement | null | undefined): void {
  if (root === null || root === undefined) return;
  const tooDeep = firstInWalk(root, (_element, depth) => (depth > MAX_PAGE_DEPTH ? true : undefined));
  if (tooDeep) throw new Error(`page nested deeper than ${MAX_PAGE_DEPTH} elements, not extracted`);
}

/**
 * The main text cut to MAX_MAIN_TEXT_CHARS characters: at the last block break before the limit
 * when that keeps at least half of them, else at the last whitespace, else at the limit; with
 * what was done, when it was cut.
 */
export function cutMainText(text: string): { text: string; cut?: string } {
  if (text.length <= MAX_MAIN_TEXT_CHARS) return { text };
  let end = text.lastIndexOf('\n\n', MAX_MAIN_TEXT_CHARS);
  if (end < MAX_MAIN_TEXT_CHARS / 2) end = Math.max(text.lastIndexOf(' ', MAX_MAIN_TEXT_CHARS), text.lastIndexOf('\n', MAX_MAIN_TEXT_CHARS));
  if (end <= 0) end = MAX_MAIN_TEXT_CHARS;
  return { text: text.slice(0, end).trimEnd(), cut: `main text: more than ${MAX_MAIN_TEXT_CHARS} characters, cut to the first ${MAX_MAIN_TEXT_CHARS}` };
}
