/**
 * Fitting a claim-relation model on the tuning half, for `npm run train:claims` (the shipped cue
 * model) and `npm run bench:claims` (the polarity-pair model it measures beside it):
 *
 * - bearingExamples: each returned gold abstract of a tuning claim whose passage bears on the
 *   claim (claims.ts `bearsOnClaim`), with the cues (features.ts) and the polarity pairs
 *   (pairs.ts) and the claim's polarity classes (pairs.ts `claimPolarity`, read from the claim
 *   alone); label 1 for CONTRADICT, 0 for SUPPORT.
 * - trainModel: a logistic regression on all of them (logistic.ts; weights rounded to 4
 *   decimals) and thresholds chosen on {@link FOLDS}-fold held-back probabilities (claim id / 2 mod
 *   FOLDS): the one asserting a relation on the most examples at the wanted precision or more,
 *   over at least {@link MIN_ASSERTED}, set midway to the next probability.
 * - repeatedCrossValidation: the same fit scored over several fold assignments (the first is
 *   trainModel's, the others a hash of the claim id), so a figure does not rest on one split of
 *   about 220 examples: held-back log loss, AUC, and the precision of the most confident 50, 70
 *   and 90 supports and 25 and 35 contradicts (ties in probability broken by example order).
 */
import { alignSentences, bearsOnClaim, claimFeatures, contentWords } from '@evidence/evidence';
import { fitLogistic, type LogisticFit } from './logistic.js';
import { claimPolarity, pairFeatures } from './pairs.js';
import { returnedGold, type GroundedClaim } from './scifact.js';

/** L2 of the shipped cue model. */
export const L2 = 1;
/** L2 of the pair model (59 features on about 220 examples): repeated ten-fold cross-validation preferred 4 to 1, 2 and 8. */
export const PAIR_L2 = 4;
export const MIN_ASSERTED = 10;
/** Folds of the tuning half the thresholds are cross-validated on: claim id / 2 mod FOLDS. */
export const FOLDS = 10;

export interface BearingExample {
  claimId: number;
  cues: number[];
  pairs: number[];
  /** claimPolarity: the claim's polarity classes, read from the claim alone (a measured prior, not a model's input). */
  claimPolarity: number[];
  label: number;
}

export interface Example {
  claimId: number;
  features: number[];
  label: number;
}

export interface Chosen {
  threshold: number | null;
  asserted: number;
  right: number;
}

export interface TrainedModel {
  weights: number[];
  bias: number;
  supports: Chosen;
  contradicts: Chosen;
}

/** The returned gold abstracts of `grounded` that bear on their claim, featurised. */
export function bearingExamples(grounded: GroundedClaim[]): BearingExample[] {
  return returnedGold(grounded).flatMap((gold) => {
    const words = contentWords(gold.claim.claim);
    const aligned = alignSentences(words, gold.passage);
    if (!bearsOnClaim(words.size, aligned[0])) return [];
    return [{ claimId: gold.claim.id, cues: claimFeatures(gold.claim.claim, gold.passage, aligned), pairs: pairFeatures(gold.claim.claim, aligned), claimPolarity: claimPolarity(gold.claim.claim), label: gold.label === 'CONTRADICT' ? 1 : 0 }];
  });
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

export const precisionOf = (chosen: { asserted: number; right: number }) => (chosen.asserted > 0 ? Math.round((chosen.right / chosen.asserted) * 100) / 100 : 0);

export function probabilityOf(features: readonly number[], model: { weights: readonly number[]; bias: number }): number {
  let score = model.bias;
  for (let index = 0; index < features.length; index++) score += model.weights[index] * features[index];
  return 1 / (1 + Math.exp(-score));
}

/**
 * The threshold asserting a relation on the largest number of examples at `wanted` precision or
 * more: examples sorted so the surest come first, cut only between distinct probabilities.
 */
function chooseThreshold(scored: Array<{ probability: number; right: boolean }>, wanted: number, surestFirst: (left: number, right: number) => number): Chosen {
  const sorted = [...scored].sort((left, right) => surestFirst(left.probability, right.probability));
  let best: Chosen = { threshold: null, asserted: 0, right: 0 };
  let right = 0;
  for (let index = 0; index < sorted.length; index++) {
    right += Number(sorted[index].right);
    const next = sorted[index + 1];
    if (next && next.probability === sorted[index].probability) continue;
    const asserted = index + 1;
    if (asserted >= MIN_ASSERTED && right / asserted >= wanted && asserted > best.asserted) {
      const threshold = next ? round4((sorted[index].probability + next.probability) / 2) : sorted[index].probability;
      best = { threshold, asserted, right };
    }
  }
  return best;
}

const fit = (examples: Example[], l2: number): LogisticFit =>
  fitLogistic(
    examples.map((example) => example.features),
    examples.map((example) => example.label),
    l2,
  );

/** Held-back probabilities, in `examples` order: each fold scored by the model fitted on the others. */
function heldBack(examples: Example[], l2: number, foldOf: (claimId: number) => number): number[] {
  const probabilities = new Array<number>(examples.length).fill(0);
  for (let fold = 0; fold < FOLDS; fold++) {
    const fitting = examples.filter((example) => foldOf(example.claimId) !== fold);
    const foldFit = fit(fitting, l2);
    examples.forEach((example, index) => {
      if (foldOf(example.claimId) === fold) probabilities[index] = probabilityOf(example.features, foldFit);
    });
  }
  return probabilities;
}

const canonicalFold = (claimId: number) => (claimId / 2) % FOLDS;

/** Fit on all examples; thresholds for the two precision targets on the canonical folds' held-back probabilities. */
export function trainModel(examples: Example[], l2: number, supportsTarget: number, contradictsTarget: number): TrainedModel {
  const whole = fit(examples, l2);
  const probabilities = heldBack(examples, l2, canonicalFold);
  const scored = (right: (label: number) => boolean) => examples.map((example, index) => ({ probability: probabilities[index], right: right(example.label) }));
  return {
    weights: whole.weights.map(round4),
    bias: round4(whole.bias),
    contradicts: chooseThreshold(
      scored((label) => label === 1),
      contradictsTarget,
      (left, right) => right - left,
    ),
    supports: chooseThreshold(
      scored((label) => label === 0),
      supportsTarget,
      (left, right) => left - right,
    ),
  };
}

export interface CrossValidated {
  logLoss: number;
  auc: number;
  /** Precision of the 50, 70 and 90 lowest-scored (supports), mean over the repetitions. */
  supportsAt: [number, number, number];
  /** Precision of the 25 and 35 highest-scored (contradicts), mean over the repetitions. */
  contradictsAt: [number, number];
}

function hashFold(claimId: number, repetition: number): number {
  let hash = 2166136261;
  for (const char of `${claimId}:${repetition}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return (hash >>> 0) % FOLDS;
}

/** Held-back figures of a fit over `repetitions` fold assignments (the first the canonical one). */
export function repeatedCrossValidation(examples: Example[], l2: number, repetitions: number): CrossValidated {
  let logLoss = 0;
  let auc = 0;
  const supportsAt: [number, number, number] = [0, 0, 0];
  const contradictsAt: [number, number] = [0, 0];
  for (let repetition = 0; repetition < repetitions; repetition++) {
    const probabilities = heldBack(examples, l2, repetition === 0 ? canonicalFold : (claimId) => hashFold(claimId, repetition));
    const order = examples.map((_, index) => index).sort((left, right) => probabilities[left] - probabilities[right] || left - right);
    examples.forEach((example, index) => (logLoss -= Math.log(example.label === 1 ? probabilities[index] : 1 - probabilities[index])));
    [50, 70, 90].forEach((count, slot) => (supportsAt[slot] += order.slice(0, count).filter((index) => examples[index].label === 0).length / count));
    [25, 35].forEach((count, slot) => (contradictsAt[slot] += order.slice(-count).filter((index) => examples[index].label === 1).length / count));
    // AUC: the share of (contradicting, supporting) pairs scored in that order, a tie counting half.
    let pairs = 0;
    let ordered = 0;
    examples.forEach((contradicting, left) => {
      if (contradicting.label !== 1) return;
      examples.forEach((supporting, right) => {
        if (supporting.label !== 0) return;
        pairs++;
        ordered += probabilities[left] > probabilities[right] ? 1 : probabilities[left] === probabilities[right] ? 0.5 : 0;
      });
    });
    auc += ordered / Math.max(1, pairs);
  }
  return {
    logLoss: logLoss / (repetitions * examples.length),
    auc: auc / repetitions,
    supportsAt: supportsAt.map((value) => value / repetitions) as [number, number, number],
    contradictsAt: contradictsAt.map((value) => value / repetitions) as [number, number],
  };
}
