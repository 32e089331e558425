/**
 * content_type (SPEC 2.1) of a page, from the page itself, most reliable evidence first:
 *
 * 1. structure: the schema.org type the page declares in JSON-LD or microdata (`NewsArticle` ->
 *    news, `OpinionNewsArticle`/`Review` -> opinion, `TechArticle`/`APIReference` -> docs,
 *    `ScholarlyArticle` -> academic, `QAPage` -> qa, `DiscussionForumPosting` -> forum, `HowTo`/
 *    `Recipe` -> how-to, `Product` -> product, `SoftwareSourceCode` -> code, `Legislation` ->
 *    document) or its Open Graph type (`video.*` -> video, `product` -> product);
 * 2. url: paths whose shape names the type (`/questions/123/`, `/forum/`, `/docs/`, `/wiki/`,
 *    a forge's `/blob/`, `.pdf`, `/opinion/`, `/recipes/`);
 * 3. text: a linear model over the words and register of the text (content-type-text.ts, weights
 *    in content-type-model.generated.ts, trained by `npm run train:content-type` on one half of the genre-labelled web texts in
 *    `../shared/data/signals/content_type`); it knows the nine types that data covers (academic,
 *    article, document, forum, how-to, news, opinion, product, reference) and never says docs,
 *    qa, code or video, which only structure and URL can.
 *
 * Confidence: structure 0.85 and url 0.7 (declared by the publisher or its URL scheme: not
 * measurable on the labelled texts, which have neither), text the model's probability for its
 * answer (measured calibration in `npm run bench:signals`).
 */
import type { ContentType } from '../vocabulary.js';
import { CONTENT_TYPE_MODEL } from './content-type-model.generated.js';
import { classifyText } from './content-type-text.js';
import { jsonLdValues } from './json-ld.js';
import type { PageDeclarations } from './page-declarations.js';

export type ContentTypeSource = 'structure' | 'url' | 'text';

export interface ContentTypeSignal {
  value: ContentType;
  source: ContentTypeSource;
  confidence: number;
  reason: string;
}

export interface ContentTypeFacts {
  url: string;
  title: string;
  text: string;
  /** schema.org `@type`s the page declares (JSON-LD, microdata) and its `og:type`, as written. */
  pageTypes?: readonly string[];
}

const STRUCTURE_CONFIDENCE = 0.85;
const URL_CONFIDENCE = 0.7;

/** schema.org types (lower-cased) that name a content type. Generic ones (Article, WebPage, BlogPosting) name none. */
const SCHEMA_TYPES: Readonly<Record<string, ContentType>> = {
  newsarticle: 'news',
  reportagenewsarticle: 'news',
  analysisnewsarticle: 'news',
  backgroundnewsarticle: 'news',
  liveblogposting: 'news',
  opinionnewsarticle: 'opinion',
  reviewnewsarticle: 'opinion',
  review: 'opinion',
  criticreview: 'opinion',
  techarticle: 'docs',
  apireference: 'docs',
  scholarlyarticle: 'academic',
  medicalscholarlyarticle: 'academic',
  thesis: 'academic',
  qapage: 'qa',
  faqpage: 'qa',
  discussionforumposting: 'forum',
  socialmediaposting: 'forum',
  howto: 'how-to',
  recipe: 'how-to',
  product: 'product',
  productgroup: 'product',
  softwaresourcecode: 'code',
  legislation: 'document',
  'og:video': 'video',
  'og:video.movie': 'video',
  'og:video.episode': 'video',
  'og:video.other': 'video',
  'og:product': 'product',
  'og:product.item': 'product',
};

/** Which declared type wins when a page declares several (a news story about a product, with a Product block, is news). */
const STRUCTURE_ORDER: readonly ContentType[] = ['qa', 'forum', 'code', 'docs', 'academic', 'opinion', 'news', 'how-to', 'product', 'video', 'document'];

const URL_RULES: ReadonlyArray<[RegExp, ContentType]> = [
  [/^\/questions\/\d+|\/(?:q|question|questions)\/\d+/, 'qa'],
  [/(?:^|\/)(?:forum|forums|foren|foro|thread|threads|topic|viewtopic|showthread|discussion|discussions|community)(?:[/.?-]|$)|^\/t\/[^/]+\/\d+|^\/r\/[^/]+\/comments\//, 'forum'],
  [/^\/[^/]+\/[^/]+\/(?:blob|tree|commit|pull|issues)\//, 'code'],
  [/(?:^|\/)(?:docs?|documentation|api-?reference|apidocs|manual|reference\/api)(?:\/|$)/, 'docs'],
  [/(?:^|\/)(?:wiki)\//, 'reference'],
  [/\.pdf$/i, 'document'],
  [/^\/(?:abs|doi|article\/doi)\//, 'academic'],
  [/^\/(?:watch|video|videos)(?:\/|$)/, 'video'],
  [/(?:^|\/)(?:opinion|opinions|editorial|editorials|commentary|column|columns|op-ed|meinung|kommentar)(?:\/|$)/, 'opinion'],
  [/(?:^|\/)(?:how-?to|recipes?|tutorials?|guides?)(?:\/|$)/, 'how-to'],
  [/(?:^|\/)(?:products?|shop|store|dp|item)\/[^/]+/, 'product'],
];

const PAGE_TYPE_LIMIT = 40;

/**
 * The types a page declares about itself (from its one scan, page-declarations.ts): JSON-LD
 * `@type`s (tolerant parse), microdata `itemtype`s (schema.org URL's last segment) and `og:type`
 * (as `og:VALUE`), each once.
 */
export function declaredPageTypes(declarations: PageDeclarations): string[] {
  const types = new Set<string>();
  const { elements } = declarations;
  for (const block of declarations.jsonLd) {
    const found = block.value === undefined ? [...block.text.matchAll(/"@type"\s*:\s*"([^"]{1,60})"/g)].map((match) => match[1]) : jsonLdValues(block.value, '@type', PAGE_TYPE_LIMIT);
    for (const value of found.flat()) if (typeof value === 'string') types.add(value.replace(/^https?:\/\/schema\.org\//i, ''));
  }
  for (const element of elements) {
    const itemtypes = element.getAttribute('itemtype');
    if (itemtypes === null) continue;
    for (const itemtype of itemtypes.split(/\s+/)) {
      const name = itemtype.replace(/\/+$/, '').split('/').pop();
      if (name) types.add(name);
    }
  }
  const og = declarations.metas.find((element) => (element.getAttribute('property') ?? element.getAttribute('name')) === 'og:type')?.getAttribute('content');
  if (og) types.add(`og:${og.trim().toLowerCase()}`);
  return [...types].slice(0, PAGE_TYPE_LIMIT);
}

/** The content type the page's declared types name, if any. */
export function contentTypeFromStructure(pageTypes: readonly string[]): ContentType | undefined {
  const named = new Set<ContentType>();
  for (const declared of pageTypes) {
    const key = declared.trim().toLowerCase().replace(/^https?:\/\/schema\.org\//, '');
    const type = SCHEMA_TYPES[key];
    if (type !== undefined) named.add(type);
  }
  return STRUCTURE_ORDER.find((type) => named.has(type));
}

function urlPathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname.toLowerCase();
  } catch {
    return '';
  }
}

function contentTypeFromUrl(url: string): { type: ContentType; pattern: RegExp } | undefined {
  const path = urlPathOf(url);
  for (const [pattern, type] of URL_RULES) if (pattern.test(path)) return { type, pattern };
  return undefined;
}

/** The text model's answer and its probability. */
export function contentTypeFromText(title: string, text: string): { type: ContentType; probability: number } {
  const scores = classifyText(CONTENT_TYPE_MODEL, `${title}\n\n${text}`);
  let best = 0;
  for (let index = 1; index < scores.length; index++) if (scores[index] > scores[best]) best = index;
  return { type: CONTENT_TYPE_MODEL.labels[best] as ContentType, probability: scores[best] };
}

/** The page's content type: see the module comment. */
export function deriveContentType(facts: ContentTypeFacts): ContentTypeSignal {
  const structural = facts.pageTypes === undefined ? undefined : contentTypeFromStructure(facts.pageTypes);
  if (structural !== undefined) return { value: structural, source: 'structure', confidence: STRUCTURE_CONFIDENCE, reason: `declared type ${facts.pageTypes!.join(', ')}` };
  const fromUrl = contentTypeFromUrl(facts.url);
  if (fromUrl !== undefined) return { value: fromUrl.type, source: 'url', confidence: URL_CONFIDENCE, reason: `url path ${fromUrl.pattern.source.slice(0, 40)}` };
  const fromText = contentTypeFromText(facts.title, facts.text);
  return { value: fromText.type, source: 'text', confidence: Math.round(fromText.probability * 100) / 100, reason: 'text model' };
}
