/**
 * The claim relation's model: a logistic regression over the features (features.ts) giving the
 * probability that a passage which bears on a claim contradicts it, and the two thresholds that
 * turn it into a relation, with how often each relation so asserted was right on the tuning half. The numbers are in model.generated.ts, written by
 * `npm run train:claims` (bench/src/claims-train.ts) from the tuning half of SciFact's train claims.
 */
import { CLAIM_MODEL } from './model.generated.js';

export interface ClaimModel {
  /** Feature names, in the order of `weights`: CLAIM_FEATURES when it was trained (a test checks). */
  features: readonly string[];
  weights: readonly number[];
  bias: number;
  /** Assert `supports` when P(contradicts) is at most this. */
  supportsAtMost: number;
  /** Assert `contradicts` when P(contradicts) is at least this. */
  contradictsAtLeast: number;
  /** How often an asserted `supports` was right on the tuning half (held back by cross-validation): its relation_confidence. */
  supportsPrecision: number;
  /** How often an asserted `contradicts` was right on the tuning half (held back by cross-validation): its relation_confidence. */
  contradictsPrecision: number;
  /** What it was trained on and how the thresholds were chosen. */
  trainedOn: string;
}

/** P(contradicts | the passage bears on the claim) for a feature vector. */
export function contradictionProbability(features: readonly number[], model: ClaimModel = CLAIM_MODEL): number {
  let score = model.bias;
  for (let index = 0; index < features.length; index++) score += model.weights[index] * features[index];
  return 1 / (1 + Math.exp(-score));
}

export { CLAIM_MODEL };
