/**
 * What a page declares about itself, read once per page: one walk over the parsed tree as
 * served (before extraction removes anything) collects every element, the `<meta>` elements and
 * the JSON-LD blocks, each block parsed once (json-ld.ts). Every reader of declarations is handed
 * this one scan: the publish date (published-at.ts), the declared page types (content-type.ts),
 * the declared topics (topics.ts) and the main-text stage's "declares an article"
 * (`declaresArticle` below).
 */
import { jsonLdBlocks, type JsonLdBlock, type JsonLdElement } from './json-ld.js';

/** The few DOM members read from an element (linkedom provides them; the build has no DOM lib). */
export interface DeclaringElement extends JsonLdElement {
  hasAttribute(name: string): boolean;
  parentNode: DeclaringElement | null;
  /** False once the element (or an ancestor) was taken out of the tree. */
  isConnected?: boolean;
}

export interface DeclarationsDocument {
  querySelectorAll(selector: '*'): ArrayLike<DeclaringElement>;
}

export interface PageDeclarations {
  /** Every element, in document order: the readers that look at attributes filter this list. */
  elements: readonly DeclaringElement[];
  /** The `<meta>` elements, in document order. */
  metas: readonly DeclaringElement[];
  /** The JSON-LD blocks (at most 20), each parsed tolerantly once. */
  jsonLd: readonly JsonLdBlock<DeclaringElement>[];
}

/** The one walk over a parsed page. */
export function readDeclarations(document: DeclarationsDocument): PageDeclarations {
  const elements = Array.from(document.querySelectorAll('*'));
  return { elements, metas: elements.filter((element) => element.tagName === 'META'), jsonLd: jsonLdBlocks(elements) };
}

const ARTICLE_TYPE = /^(?:[a-z]*article|[a-z]*posting|report)$/i;
const JSON_LD_TYPE = /"@type"\s*:\s*(?:\[\s*)?"([^"]+)"/g;

/**
 * The page declares itself an article (the main-text stage's rule, extract/main-text.ts): an
 * Open Graph `og:type` naming an article, or a JSON-LD block (`type="application/ld+json"` as
 * written) whose text has an `@type` Article/NewsArticle/BlogPosting/Report... Only declarations
 * still in the tree count: asked after hidden content is out (extract/hidden-text.ts), one that
 * sat in a hidden element is gone, as it is for a reader.
 */
export function declaresArticle(declarations: PageDeclarations): boolean {
  for (const meta of declarations.metas) {
    if (meta.isConnected === false || (meta.getAttribute('property') !== 'og:type' && meta.getAttribute('name') !== 'og:type')) continue;
    if (/article/i.test(meta.getAttribute('content') ?? '')) return true;
  }
  for (const block of declarations.jsonLd) {
    if (block.element.isConnected === false || block.element.getAttribute('type') !== 'application/ld+json') continue;
    for (const match of block.text.matchAll(JSON_LD_TYPE)) if (ARTICLE_TYPE.test(match[1])) return true;
  }
  return false;
}
