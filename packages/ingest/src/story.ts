/**
 * Story ids. A story is a cluster of near-duplicate passages (see story-clusters.ts); its id is
 * taken from the exact normalised text of the passage that founded it, so the same first
 * passage founds a story of the same id in any index, and exact copies always share a story.
 */
import { fingerprintTexts, hex32 } from './fingerprint.js';

const PUNCTUATION_AND_SYMBOLS = /[^\p{L}\p{N}\s]+/gu;
const WHITESPACE_RUN = /\s+/g;

/** Lowercase, punctuation and symbols stripped, whitespace collapsed to single spaces. */
export function normaliseStoryText(passageText: string): string {
  return passageText.toLowerCase().replace(PUNCTUATION_AND_SYMBOLS, '').replace(WHITESPACE_RUN, ' ').trim();
}

/** `s` + 16 hex digits: the exact-text hash of a story's founding passage. */
export function formatStoryId(exactHi: number, exactLo: number): string {
  return `s${hex32(exactHi)}${hex32(exactLo)}`;
}

/** The id of a story founded by `passageText` (equal for texts equal once normalised). */
export function storyIdFor(passageText: string): string {
  const fingerprints = fingerprintTexts([passageText]);
  return formatStoryId(fingerprints.exactHi[0], fingerprints.exactLo[0]);
}
