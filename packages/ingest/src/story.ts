/**
 * Story clusters. For now a story is an exact-duplicate cluster: passages whose text is the
 * same once case, punctuation and spacing are ignored share a story id. Near-duplicate
 * clustering (and independent host counts) will replace `storyIdFor`; everything else calls
 * only this function, so that is the one seam to change.
 */
import { createHash } from 'node:crypto';

const PUNCTUATION_AND_SYMBOLS = /[^\p{L}\p{N}\s]+/gu;
const WHITESPACE_RUN = /\s+/g;

/** Lowercase, punctuation and symbols stripped, whitespace collapsed to single spaces. */
export function normaliseStoryText(passageText: string): string {
  return passageText.toLowerCase().replace(PUNCTUATION_AND_SYMBOLS, '').replace(WHITESPACE_RUN, ' ').trim();
}

/** `s` + the first 16 hex digits of sha256 of the normalised passage text. */
export function storyIdFor(passageText: string): string {
  const digest = createHash('sha256').update(normaliseStoryText(passageText)).digest('hex');
  return `s${digest.slice(0, 16)}`;
}
