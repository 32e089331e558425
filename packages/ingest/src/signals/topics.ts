/**
 * topics: the topic tags a page declares about itself, read from its HTML head without a DOM:
 * `<meta name="keywords">`, `<meta name="news_keywords">`, Open Graph's `article:tag` and
 * `article:section`, and schema.org JSON-LD `keywords` / `articleSection`. Absent when the page
 * declares none: topics are never guessed from the text (the vertical says what a page is
 * about; a tag is the publisher's word). A JSONL record's `topics` always win.
 *
 * Tags are lower-cased and trimmed; kept only when they read as a tag (MIN_TAG_CHARS to
 * MAX_TAG_CHARS characters, at most MAX_TAG_WORDS words, a letter in them); at most MAX_TOPICS
 * per page, in the page's order. What it cannot know: keyword stuffing looks like tags (the caps
 * bound it), and most pages declare nothing.
 */

export const MAX_TOPICS = 8;
export const MIN_TAG_CHARS = 2;
export const MAX_TAG_CHARS = 40;
export const MAX_TAG_WORDS = 4;
/** Declarations sit in the head; a page's first bytes are enough, and bound the scan. */
export const HEAD_SCAN_CHARS = 200_000;

const META_TAG = /<meta\b[^>]*>/gi;
const ATTRIBUTE = /([a-z:_-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const TOPIC_META = new Set(['keywords', 'news_keywords', 'article:tag', 'article:section']);
const JSON_LD_KEYWORDS = /"(?:keywords|articleSection)"\s*:\s*(\[[^\]]*\]|"(?:[^"\\]|\\.)*")/g;

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ');
}

function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of tag.matchAll(ATTRIBUTE)) attributes.set(match[1].toLowerCase(), match[2] ?? match[3] ?? match[4] ?? '');
  return attributes;
}

function cleanTag(raw: string): string | undefined {
  const tag = decodeEntities(raw).replace(/\s+/g, ' ').trim().toLowerCase();
  if (tag.length < MIN_TAG_CHARS || tag.length > MAX_TAG_CHARS) return undefined;
  if (!/\p{L}/u.test(tag) || tag.split(' ').length > MAX_TAG_WORDS) return undefined;
  return tag;
}

function jsonStrings(value: string): string[] {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'string') return parsed.split(',');
    if (Array.isArray(parsed)) return parsed.filter((item): item is string => typeof item === 'string');
  } catch {
    // Invalid JSON-LD is common; what it declares is then left unread.
  }
  return [];
}

/** The topic tags a page's HTML declares, or undefined when it declares none. */
export function declaredTopics(html: string): string[] | undefined {
  const head = html.length > HEAD_SCAN_CHARS ? html.slice(0, HEAD_SCAN_CHARS) : html;
  const raw: string[] = [];
  for (const match of head.matchAll(META_TAG)) {
    const attributes = attributesOf(match[0]);
    const name = (attributes.get('name') ?? attributes.get('property') ?? '').toLowerCase();
    if (!TOPIC_META.has(name)) continue;
    const content = attributes.get('content') ?? '';
    raw.push(...(name === 'article:tag' || name === 'article:section' ? [content] : content.split(/[,;]/)));
  }
  if (head.includes('application/ld+json')) {
    for (const match of head.matchAll(JSON_LD_KEYWORDS)) raw.push(...jsonStrings(match[1]));
  }
  const topics: string[] = [];
  for (const candidate of raw) {
    const tag = cleanTag(candidate);
    if (tag === undefined || topics.includes(tag)) continue;
    topics.push(tag);
    if (topics.length >= MAX_TOPICS) break;
  }
  return topics.length > 0 ? topics : undefined;
}
