/**
 * The few DOM members extraction uses (the build has no DOM lib; linkedom provides them), the
 * node kinds, and the one word counter of the extraction stages.
 */

export interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
  remove(): void;
}
export interface DomElement extends DomNode {
  tagName: string;
  attributes: ArrayLike<{ name: string; value: string }>;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  removeAttribute(name: string): void;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  cloneNode(deep: boolean): DomElement;
  firstElementChild: DomElement | null;
  nextElementSibling: DomElement | null;
  parentElement: DomElement | null;
}
export interface DomDocument extends DomElement {
  documentElement: DomElement;
  body: DomElement | null;
  title: string;
  cloneNode(deep: boolean): DomDocument;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const COMMENT_NODE = 8;

/** Words as the extraction benchmark counts them: maximal runs of letters, digits and underscores. */
const WORD = /[\p{L}\p{N}_]+/gu;

/** The words of a text, in order. */
export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** How many words a text has. */
export function wordCount(text: string): number {
  WORD.lastIndex = 0;
  let count = 0;
  while (WORD.exec(text) !== null) count++;
  return count;
}

/** A text's words joined by single spaces, lower case: the form texts are compared in. */
export function wordKey(text: string): string {
  return wordsOf(text).join(' ').toLowerCase();
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** An element's class and id, as one string of tokens. */
export function classAndId(element: DomElement): string {
  return `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
}

/** A short name of an element for reports: `div.cookie-banner#notice`. */
export function describeElement(element: DomElement): string {
  const classes = (element.getAttribute('class') ?? '').trim().split(/\s+/).filter((name) => name !== '').slice(0, 3);
  const id = element.getAttribute('id');
  return `${element.tagName.toLowerCase()}${classes.map((name) => `.${name}`).join('')}${id ? `#${id}` : ''}`.slice(0, 80);
}

/**
 * Visits `root` and every element under it in document order with its depth (`root` is 1), without
 * recursion (first child, next sibling, parent: constant time each on linkedom), and stops at the
 * first visit that returns a value, which it returns; undefined when none does.
 */
export function firstInWalk<T>(root: DomElement, visit: (element: DomElement, depth: number) => T | undefined): T | undefined {
  let depth = 1;
  let element: DomElement | null = root;
  while (element !== null) {
    const found = visit(element, depth);
    if (found !== undefined) return found;
    const child: DomElement | null = element.firstElementChild;
    if (child !== null) {
      element = child;
      depth++;
      continue;
    }
    while (element !== null && element !== root && element.nextElementSibling === null) {
      element = element.parentElement;
      depth--;
    }
    element = element === null || element === root ? null : element.nextElementSibling;
  }
  return undefined;
}
