/**
 * Sentence alignment: which sentences of a passage bear on a claim. Each sentence (risk/sentences.ts
 * spans, offsets into the passage as stored) is scored by the share of the claim's content words
 * it holds (claims.ts `contentWords`: stop words and negations dropped, a light plural and verb
 * ending fold), weighed down when a structured abstract's background label opens it (it states
 * the question, not a finding: x{@link BACKGROUND_WEIGHT}), up when it reports a finding
 * (x{@link FINDING_WEIGHT}) and when it is one of the last two (conclusions come last:
 * x{@link CLOSING_WEIGHT}). Best first, the earlier on a tie.
 */
import { sentenceSpans } from '../risk.js';
import { contentWords } from './words.js';
import { BACKGROUND_LABEL, FINDING_CUE } from './cues.js';

export const BACKGROUND_WEIGHT = 0.6;
export const FINDING_WEIGHT = 1.15;
export const CLOSING_WEIGHT = 1.1;

export interface AlignedSentence {
  /** Offset of its first character in the passage. */
  start: number;
  /** Offset just past its last character. */
  end: number;
  text: string;
  /** How many of the claim's content words it holds. */
  shared: number;
  /** shared / the claim's content words. */
  share: number;
  /** share with the weights above: what orders the sentences. */
  weight: number;
}

export function alignSentences(claimWords: ReadonlySet<string>, passage: string): AlignedSentence[] {
  const spans = sentenceSpans(passage);
  const aligned = spans.map((span, index): AlignedSentence => {
    const text = passage.slice(span.start, span.end);
    const words = contentWords(text);
    let shared = 0;
    for (const word of claimWords) if (words.has(word)) shared++;
    const share = claimWords.size > 0 ? shared / claimWords.size : 0;
    let weight = share;
    if (BACKGROUND_LABEL.test(text)) weight *= BACKGROUND_WEIGHT;
    if (FINDING_CUE.test(text)) weight *= FINDING_WEIGHT;
    if (index >= spans.length - 2) weight *= CLOSING_WEIGHT;
    return { start: span.start, end: span.end, text, shared, share, weight };
  });
  return aligned.map((sentence, index) => ({ sentence, index })).sort((left, right) => right.sentence.weight - left.sentence.weight || left.index - right.index).map(({ sentence }) => sentence);
}
