/**
 * topics: the topic tags a page declares about itself, read from the page's one scan of its
 * declarations (page-declarations.ts): `<meta name="keywords">`, `<meta name="news_keywords">`,
 * Open Graph's `article:tag` and `article:section`, and schema.org JSON-LD `keywords` /
 * `articleSection` (in document order; a block that is not JSON even after repair has them read
 * with a pattern). Absent when the page declares none: topics are never guessed from the text
 * (the vertical says what a page is about; a tag is the publisher's word). A JSONL record's
 * `topics` always win.
 *
 * Tags are lower-cased and trimmed; kept only when they read as a tag (MIN_TAG_CHARS to
 * MAX_TAG_CHARS characters, at most MAX_TAG_WORDS words, a letter in them); at most MAX_TOPICS
 * per page, in the page's order. What it cannot know: keyword stuffing looks like tags (the caps
 * bound it), and most pages declare nothing.
 */
import type { JsonLdBlock } from './json-ld.js';
import type { PageDeclarations } from './page-declarations.js';

export const MAX_TOPICS = 8;
export const MIN_TAG_CHARS = 2;
export const MAX_TAG_CHARS = 40;
export const MAX_TAG_WORDS = 4;
const TOPIC_META = new Set(['keywords', 'news_keywords', 'article:tag', 'article:section']);
const JSON_LD_TOPIC_KEYS = new Set(['keywords', 'articleSection']);
const JSON_LD_KEYWORDS = /"(?:keywords|articleSection)"\s*:\s*(\[[^\]]*\]|"(?:[^"\\]|\\.)*")/g;
/** How deep a JSON-LD value is searched for its keys (json-ld.ts' depth). */
const JSON_LD_DEPTH = 10;

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ');
}

function cleanTag(raw: string): string | undefined {
  const tag = raw.replace(/\s+/g, ' ').trim().toLowerCase();
  if (tag.length < MIN_TAG_CHARS || tag.length > MAX_TAG_CHARS) return undefined;
  if (!/\p{L}/u.test(tag) || tag.split(' ').length > MAX_TAG_WORDS) return undefined;
  return tag;
}

/** A declared value's tags: a string is a comma list, an array lists them. */
function tagsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',');
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** The values of `keywords` and `articleSection` in a parsed block, in document order. */
function jsonLdTopicValues(value: unknown, found: unknown[], depth = 0): void {
  if (depth > JSON_LD_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) jsonLdTopicValues(item, found, depth + 1);
    return;
  }
  for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
    if (JSON_LD_TOPIC_KEYS.has(name)) found.push(child);
    else jsonLdTopicValues(child, found, depth + 1);
  }
}

/** JSON-LD's tags: the parsed block's values, or (a block still not JSON) its keys read with a pattern. Entities as written are decoded. */
function jsonLdTags(block: JsonLdBlock): string[] {
  const values: unknown[] = [];
  if (block.value !== undefined) jsonLdTopicValues(block.value, values);
  else {
    for (const match of block.text.matchAll(JSON_LD_KEYWORDS)) {
      try {
        values.push(JSON.parse(match[1]));
      } catch {
        // A value that is not JSON is left unread.
      }
    }
  }
  return values.flatMap(tagsOf).map(decodeEntities);
}

/** The topic tags a page declares, or undefined when it declares none. */
export function declaredTopics(declarations: PageDeclarations): string[] | undefined {
  const raw: string[] = [];
  for (const meta of declarations.metas) {
    const name = (meta.getAttribute('name') ?? meta.getAttribute('property') ?? '').toLowerCase();
    if (!TOPIC_META.has(name)) continue;
    const content = meta.getAttribute('content') ?? '';
    raw.push(...(name === 'article:tag' || name === 'article:section' ? [content] : content.split(/[,;]/)));
  }
  for (const block of declarations.jsonLd) raw.push(...jsonLdTags(block));
  const topics: string[] = [];
  for (const candidate of raw) {
    const tag = cleanTag(candidate);
    if (tag === undefined || topics.includes(tag)) continue;
    topics.push(tag);
    if (topics.length >= MAX_TOPICS) break;
  }
  return topics.length > 0 ? topics : undefined;
}
