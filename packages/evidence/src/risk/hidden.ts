/**
 * `hidden_text`: text a reader would not see: invisible and bidi control characters, blank
 * fillers, long runs of padding, and leftovers of CSS/HTML hiding (display:none,
 * visibility:hidden, font-size:0, white on white, the `hidden` attribute, ...).
 */
import { BIDI_EMBEDDING_CLASS, BIDI_OVERRIDE_CLASS, BLANK_FILLER_CLASS, INVISIBLE_CLASS, RTL_LETTER } from './characters.js';
import type { SentenceSpan } from './sentences.js';

/**
 * Padding that pushes text out of view: this many consecutive invisible, blank-filler or
 * non-ASCII space characters (NBSP, em space, ideographic space, ...). Runs of ordinary spaces
 * count only when much longer (table padding in plain text is common and harmless), and runs of
 * blank lines when there are {@link BLANK_LINE_RUN} or more.
 */
export const INVISIBLE_RUN_LENGTH = 16;
export const SPACE_RUN_LENGTH = 200;
export const BLANK_LINE_RUN = 10;

/** Where hidden text was found and what hides it. */
export interface HiddenFinding extends SentenceSpan {
  reason: string;
}

interface HiddenPattern {
  reason: string;
  pattern: RegExp;
}

const HIDDEN_PATTERNS: readonly HiddenPattern[] = [
  { reason: 'zero-width or other invisible characters', pattern: new RegExp(`[${INVISIBLE_CLASS}]+`, 'gu') },
  { reason: 'bidi override characters, which reorder what is shown', pattern: new RegExp(`[${BIDI_OVERRIDE_CLASS}]+`, 'gu') },
  { reason: 'blank filler characters', pattern: new RegExp(`[${BLANK_FILLER_CLASS}]{3,}`, 'gu') },
  {
    reason: 'a long run of invisible or non-ASCII space characters',
    pattern: new RegExp(`[\\u00A0\\u2000-\\u200A\\u202F\\u205F\\u3000${INVISIBLE_CLASS}${BLANK_FILLER_CLASS}]{${INVISIBLE_RUN_LENGTH},}`, 'gu'),
  },
  { reason: 'a very long run of spaces', pattern: new RegExp(`[ \\t]{${SPACE_RUN_LENGTH},}`, 'g') },
  { reason: 'a long run of blank lines', pattern: new RegExp(`\\n(?:[ \\t\\u00A0]*\\n){${BLANK_LINE_RUN},}`, 'g') },
  { reason: 'CSS display:none', pattern: /\bdisplay\s*:\s*none\b/gi },
  { reason: 'CSS visibility:hidden', pattern: /\bvisibility\s*:\s*(?:hidden|collapse)\b/gi },
  { reason: 'CSS font-size:0', pattern: /\bfont-size\s*:\s*0*\.?0+(?:px|pt|em|rem|%|vw|vh)?(?![\d.])/gi },
  { reason: 'CSS opacity:0', pattern: /\bopacity\s*:\s*0*\.?0+(?![\d.])/gi },
  {
    reason: 'white or transparent text',
    pattern: /(?:style\s*=\s*["']?(?:[^"'>]*;)?\s*|[;{]\s*)color\s*:\s*(?:white|#fff(?:fff)?\b|transparent|rgba?\(\s*255\s*,\s*255\s*,\s*255\b)/gi,
  },
  { reason: 'white or transparent text', pattern: /(?<![\w-])color\s*:\s*(?:white|#fff(?:fff)?|transparent)\s*;/gi },
  { reason: 'white text on white', pattern: /\bwhite[- ](?:text[- ])?on[- ]white\b/gi },
  { reason: 'text pushed off screen', pattern: /\btext-indent\s*:\s*-\s*\d{3,}/gi },
  { reason: 'text pushed off screen', pattern: /\b(?:left|top)\s*:\s*-\s*\d{4,}\s*px/gi },
  { reason: 'a zero-size box', pattern: /\b(?:max-)?(?:height|width)\s*:\s*0(?:px)?\s*;\s*overflow\s*:\s*hidden\b/gi },
  { reason: 'a hiding CSS class', pattern: /\bclass\s*=\s*["'][^"']*(?<![\w-])(?:sr-only|visually-hidden|d-none|hidden)(?![\w-])/gi },
  { reason: 'the HTML hidden attribute', pattern: /<[a-z][\w-]*\b[^>]*\shidden(?:\s*=\s*["']?[^"'\s>]*["']?)?\s*\/?>/gi },
];
/**
 * One zero-width joiner or non-joiner on its own hides nothing: it joins the parts of an emoji
 * (the rainbow flag, a family), shapes the letters of a word (Persian, Indic scripts) or fills an
 * empty paragraph (Webflow's `&zwj;`). A run of them, or any other invisible character, is flagged.
 */
const LONE_JOINER = /^[\u200C\u200D]$/u;
/** Bidi embeddings and isolates: hidden text only where no right-to-left script needs them. */
const BIDI_EMBEDDING: HiddenPattern = { reason: 'bidi embedding or isolate characters in text with no right-to-left script', pattern: new RegExp(`[${BIDI_EMBEDDING_CLASS}]+`, 'gu') };

/** Every place of `text` where something is hidden, in order of offset. */
export function hiddenFindings(text: string): HiddenFinding[] {
  // A byte-order mark at the very start is an encoding leftover, not hidden text.
  const skip = text.startsWith('\uFEFF') ? 1 : 0;
  const body = text.slice(skip);
  const patterns = RTL_LETTER.test(body) ? HIDDEN_PATTERNS : [...HIDDEN_PATTERNS, BIDI_EMBEDDING];
  const findings: HiddenFinding[] = [];
  for (const { reason, pattern } of patterns) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(body); match !== null; match = pattern.exec(body)) {
      if (LONE_JOINER.test(match[0])) continue;
      findings.push({ start: match.index + skip, end: match.index + skip + match[0].length, reason });
    }
  }
  return findings.sort((left, right) => left.start - right.start || left.end - right.end);
}
