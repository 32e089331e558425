/**
 * Claim relation (SPEC 2.6): how a passage relates to a claim, decided from the sentences of the
 * passage that bear on it. Deterministic: the same claim and passage give the same answer.
 *
 * 1. Alignment (claims/align.ts): the passage's sentences ordered by the share of the claim's
 *    content words each holds (finding sentences and the closing two weighed up, a structured
 *    abstract's background sentences down).
 * 2. Bearing: the passage bears on the claim when its best sentence holds at least
 *    {@link BEARING_MIN_SHARE} of the claim's content words and at least two of them (one for a
 *    one-word claim). One that does not is `unresolved` with confidence 0 and no sentences.
 * 3. Cues (claims/features.ts): negation, antonyms, direction words, restatement and shared
 *    figures (tokens with digits: "26", "CD4") of the claim against the best-aligned sentences.
 * 4. Model (claims/model.ts): a logistic regression trained on SciFact's train claims gives
 *    P(contradicts); at or above the model's `contradictsAtLeast` the relation is `contradicts`,
 *    at or below `supportsAtMost` it is `supports`, between them `unresolved` (the cues cannot
 *    tell; confidence 0). The thresholds were chosen by cross-validation inside the tuning half
 *    for a precision target per relation; the confidence of an asserted relation is how often it
 *    was right there on examples the scoring model was not fitted on (`supportsPrecision`,
 *    `contradictsPrecision`; the README has the held-out figure beside it).
 *
 * `qualifies` stays in the vocabulary, but this model does not assert it.
 * The sentences returned are those the cues read (the best-aligned {@link CUE_SENTENCES}
 * holding any claim word, and the best-aligned sentence holding an opposing antonym when that cue
 * fired and they hold none), with their offsets into the passage as stored, so they can be quoted.
 */
import type { ClaimRelation, RelationSentence } from '@evidence/schemas';
import { alignSentences, type AlignedSentence } from './claims/align.js';
import { antonymStart, lowerWords } from './claims/cues.js';
import { claimCues, CUE_SENTENCES } from './claims/features.js';
import { CLAIM_MODEL, contradictionProbability } from './claims/model.js';
import { contentWords } from './claims/words.js';

export { contentWords, isContentWord } from './claims/words.js';
export { CLAIM_FEATURES, claimCues, claimFeatures, type ClaimCues } from './claims/features.js';
export { alignSentences, type AlignedSentence } from './claims/align.js';
export { judgeRestatement, type Restatement } from './claims/restatement.js';
export { CLAIM_MODEL, contradictionProbability, type ClaimModel } from './claims/model.js';
export { antonymStart, DOWN_WORD, UP_WORD } from './claims/cues.js';

/** Least share of the claim's content words the best sentence must hold for the passage to bear on the claim. */
export const BEARING_MIN_SHARE = 1 / 3;


export interface ClaimJudgement {
  relation: ClaimRelation;
  /** For supports and contradicts: how often the model's assertion of it was right on the tuning half (CLAIM_MODEL); 0 for unresolved. */
  confidence: number;
  /** Whether the passage bears on the claim (step 2). */
  bears: boolean;
  /** P(contradicts) when the passage bears on the claim. */
  contradictionProbability?: number;
  /** The sentences the judgement rests on, best first (empty when the passage does not bear on the claim). */
  sentences: RelationSentence[];
}

/** Whether the best-aligned sentence holds enough of the claim's words (step 2). */
export function bearsOnClaim(claimWordCount: number, best: AlignedSentence | undefined): boolean {
  if (!best || claimWordCount === 0) return false;
  const needed = claimWordCount >= 2 ? 2 : 1;
  return best.shared >= needed && best.share >= BEARING_MIN_SHARE;
}

/** The relation of `passage` to `claim` (see the module comment). */
export function judgeClaim(claim: string, passage: string): ClaimJudgement {
  const claimWords = contentWords(claim);
  const aligned = alignSentences(claimWords, passage);
  if (!bearsOnClaim(claimWords.size, aligned[0])) return { relation: 'unresolved', confidence: 0, bears: false, sentences: [] };
  const { features, opposing } = claimCues(claim, passage, aligned);
  const probability = contradictionProbability(features);
  const resting = aligned.slice(0, CUE_SENTENCES).filter((sentence) => sentence.shared > 0);
  if (opposing.size > 0) {
    // The antonym may sit outside the best-aligned sentences: add the best-aligned one holding it.
    const holds = (sentence: AlignedSentence) => lowerWords(sentence.text).some((word) => opposing.has(antonymStart(word) ?? ''));
    if (!resting.some(holds)) {
      const holding = aligned.find(holds);
      if (holding) resting.push(holding);
    }
  }
  const sentences = resting.map(({ start, end, text }) => ({ start, end, text }));
  const judged = { bears: true, contradictionProbability: probability, sentences };
  if (probability >= CLAIM_MODEL.contradictsAtLeast) return { relation: 'contradicts', confidence: CLAIM_MODEL.contradictsPrecision, ...judged };
  if (probability <= CLAIM_MODEL.supportsAtMost) return { relation: 'supports', confidence: CLAIM_MODEL.supportsPrecision, ...judged };
  return { relation: 'unresolved', confidence: 0, ...judged };
}
