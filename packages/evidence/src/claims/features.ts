/**
 * What the claim relation's model reads (claims.ts): a few cues of a claim against the sentences
 * of a passage that bear on it (align.ts), each 0 or 1. Each compares the two: none is a prior on
 * the claim's wording alone (SciFact's negated claims are mostly contradicted, an artefact of how
 * they were written that a feature such as "the claim is negated" would learn). Their weights are
 * learnt from SciFact's train claims (bench/src/claims-train.ts writes model.generated.ts).
 *
 * - negation_differs: the best-aligned sentence is negated (not, no, fails to, unable, ...) and
 *   the claim not, or the reverse.
 * - antonym_opposed: a word of the claim has an antonym in the passage and the passage lacks the
 *   word itself ("decreases" against "increased", "scarce" against "expanded").
 * - direction_agrees: the claim's direction (its up words against its down words, flipped when it
 *   is negated) agrees with that of the two best-aligned sentences (none when they report a null
 *   result: no significant ..., similar, unchanged).
 * - restated: the best-aligned sentence holds at least {@link RESTATED_SHARE} of the claim's
 *   content words and no opposing cue fires (negation_differs, antonym_opposed, or the two
 *   best-aligned sentences' direction opposes the claim's).
 * - restated_opposed: it holds that much and an opposing cue fires.
 *
 * Chosen by two-fold cross-validation inside the tuning half (claim ids 0 and 2 mod 4): dropping
 * antonym_kept (the claim's antonym-bearing word is in the passage as such), direction_opposes
 * (read by the opposing cues above), null_result and null_opposes (a null result against a
 * directional claim) lowered the held-back log loss (0.644 with all
 * nine, 0.621 with these five); dropping any of these five raised it.
 */
import type { AlignedSentence } from './align.js';
import { antonymsOf, antonymStart, direction, lowerWords, NEGATION_CUE, NULL_RESULT_CUE } from './cues.js';

export const CLAIM_FEATURES = [
  'negation_differs',
  'antonym_opposed',
  'direction_agrees',
  'restated',
  'restated_opposed',
] as const;
export type ClaimFeature = (typeof CLAIM_FEATURES)[number];

/** Share of the claim's content words a sentence restating it holds. */
export const RESTATED_SHARE = 0.75;

/** Sentences of the passage the direction and null-result cues read: the best-aligned two. */
export const CUE_SENTENCES = 2;

/**
 * The antonym starts in `text` that oppose a word of `claim` whose own start `text` lacks
 * ("reduc" for "increases" in a text saying "reduction" and nothing starting "increas").
 */
export function opposingAntonyms(claim: string, text: string): Set<string> {
  const textStarts = new Set<string>();
  for (const word of lowerWords(text)) {
    const start = antonymStart(word);
    if (start !== undefined) textStarts.add(start);
  }
  const opposing = new Set<string>();
  for (const word of lowerWords(claim)) {
    const start = antonymStart(word);
    if (start === undefined || textStarts.has(start)) continue;
    for (const antonym of antonymsOf(start)) if (textStarts.has(antonym)) opposing.add(antonym);
  }
  return opposing;
}

/** The features of `claim` against `passage`, whose sentences `aligned` orders (best first), in CLAIM_FEATURES order. */
export function claimFeatures(claim: string, passage: string, aligned: readonly AlignedSentence[]): number[] {
  const best = aligned[0]?.text ?? '';
  const cueText = aligned
    .slice(0, CUE_SENTENCES)
    .map((sentence) => sentence.text)
    .join(' ');
  const claimNegated = NEGATION_CUE.test(claim);
  const opposed = opposingAntonyms(claim, passage).size > 0;
  const nullResult = NULL_RESULT_CUE.test(cueText);
  const claimDirection = claimNegated ? -direction(claim) : direction(claim);
  const passageDirection = nullResult ? 0 : direction(cueText);
  const negationDiffers = claimNegated !== NEGATION_CUE.test(best);
  const directionOpposes = claimDirection * passageDirection < 0;
  const anyOpposed = negationDiffers || opposed || directionOpposes;
  const restated = (aligned[0]?.share ?? 0) >= RESTATED_SHARE;
  const values: Record<ClaimFeature, boolean> = {
    negation_differs: negationDiffers,
    antonym_opposed: opposed,
    direction_agrees: claimDirection * passageDirection > 0,
    restated: restated && !anyOpposed,
    restated_opposed: restated && anyOpposed,
  };
  return CLAIM_FEATURES.map((name) => Number(values[name]));
}
