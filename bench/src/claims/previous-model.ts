/**
 * The claim relation's model as main held it before issue 33's second pass (a42adc4): five cues,
 * thresholds chosen on the fit's own probabilities. `npm run bench:claims` runs it beside the
 * current model on the same passages: its weights over the first five of today's CLAIM_FEATURES
 * (the same five cues; negation_differs now also reads "lacking" and "absent", so this is that
 * model on today's cues, not a byte-for-byte replay of a42adc4).
 *
 * And the shipped six-cue CLAIM_MODEL computed here from the returned passage, outside the server:
 * it must agree with ground's answer (a check that the bench reads what the service decides).
 */
import { alignSentences, bearsOnClaim, CLAIM_FEATURES, CLAIM_MODEL, claimFeatures, contentWords, contradictionProbability, type ClaimModel } from '@evidence/evidence';

export const PREVIOUS_MODEL: ClaimModel = {
  features: ['negation_differs', 'antonym_opposed', 'direction_agrees', 'restated', 'restated_opposed'],
  weights: [0.5018, 0.919, -0.2735, -0.1944, 0.7928],
  bias: -0.8726,
  supportsAtMost: 0.2753,
  contradictsAtLeast: 0.4259,
  supportsPrecision: 0.8,
  contradictsPrecision: 0.6,
  trainedOn: 'main a42adc4: SciFact train claims with even ids, five cues, thresholds on the fit\'s own probabilities (supports 0.80 on 46, contradicts 0.60 on 43)',
};

/** A cue model's relation of a passage to a claim, both thresholds its own. */
function cueModelRelation(claim: string, passage: string, model: ClaimModel): string {
  const words = contentWords(claim);
  const aligned = alignSentences(words, passage);
  if (!bearsOnClaim(words.size, aligned[0])) return 'unresolved';
  const all = claimFeatures(claim, passage, aligned);
  const features = model.features.map((name) => all[CLAIM_FEATURES.indexOf(name as (typeof CLAIM_FEATURES)[number])]);
  const probability = contradictionProbability(features, model);
  if (probability >= model.contradictsAtLeast) return 'contradicts';
  if (probability <= model.supportsAtMost) return 'supports';
  return 'unresolved';
}

/** The five-cue model's relation of a passage to a claim (main a42adc4). */
export function previousModelRelation(claim: string, passage: string): string {
  return cueModelRelation(claim, passage, PREVIOUS_MODEL);
}

/** The shipped six-cue model's relation of a passage to a claim, computed in the bench. */
export function cueOnlyRelation(claim: string, passage: string): string {
  return cueModelRelation(claim, passage, CLAIM_MODEL);
}
