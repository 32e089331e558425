/**
 * The polarity-pair model `npm run bench:claims` measures beside the shipped one (not shipped:
 * README, "Claim relation"). Fitted in the bench run on the tuning half (even ids) as train:claims
 * fits the cue model (fit.ts `trainModel`): the six cues and the polarity pairs (pairs.ts), L2
 * PAIR_L2, its supports threshold at CLAIMS_PAIR_SUPPORTS_TARGET (default 0.85, the bar)
 * held-back precision. As a judge it asserts supports from this model and contradicts from the
 * shipped CLAIM_MODEL, unresolved when both or neither speak.
 */
import { alignSentences, bearsOnClaim, CLAIM_MODEL, claimFeatures, contentWords, contradictionProbability } from '@evidence/evidence';
import { bearingExamples, L2, PAIR_L2, probabilityOf, repeatedCrossValidation, trainModel, type CrossValidated, type TrainedModel } from './fit.js';
import { PAIR_FEATURES, pairFeatures } from './pairs.js';

/** The pair features that compare a word or number of the claim with the sentences' without reading the claim's polarity class. */
export const RELATIONAL_PAIRS = ['polar_word_same', 'polar_word_negation_differs', 'number_same', 'number_differs'] as const;
import type { GroundedClaim } from './scifact.js';

/** Fold assignments the cross-validated comparison is repeated over. */
export const REPETITIONS = 5;

export interface PairModelRun {
  model: TrainedModel;
  target: number;
  /** Repeated cross-validation inside the tuning half: the cue model, the pair model, and the cues with the claim's polarity classes (a prior on its wording). */
  cues: CrossValidated;
  pairs: CrossValidated;
  claimPrior: CrossValidated;
  /** The cues and only the pair features that read no class of the claim: RELATIONAL_PAIRS. */
  relational: CrossValidated;
  examples: number;
  relation: (claim: string, passage: string) => string;
}

/** Fit the pair model on the tuning half's grounded claims (`tuning`: even ids only). */
export function fitPairModel(tuning: GroundedClaim[]): PairModelRun {
  const raw = process.env.CLAIMS_PAIR_SUPPORTS_TARGET;
  const target = raw === undefined || raw === '' ? 0.85 : Number(raw);
  if (!(target > 0 && target <= 1)) throw new Error(`CLAIMS_PAIR_SUPPORTS_TARGET must be a number in (0, 1], got ${JSON.stringify(raw)}`);
  if (tuning.some((answer) => answer.claim.id % 2 !== 0)) throw new Error('the pair model is fitted on the tuning half (even ids) only');
  const bearing = bearingExamples(tuning);
  const withCues = bearing.map(({ claimId, cues, label }) => ({ claimId, features: cues, label }));
  const withPairs = bearing.map(({ claimId, cues, pairs, label }) => ({ claimId, features: [...cues, ...pairs], label }));
  const model = trainModel(withPairs, PAIR_L2, target, 1);
  const relation = (claim: string, passage: string): string => {
    const words = contentWords(claim);
    const aligned = alignSentences(words, passage);
    if (!bearsOnClaim(words.size, aligned[0])) return 'unresolved';
    const cues = claimFeatures(claim, passage, aligned);
    const supports = model.supports.threshold !== null && probabilityOf([...cues, ...pairFeatures(claim, aligned)], model) <= model.supports.threshold;
    const contradicts = contradictionProbability(cues) >= CLAIM_MODEL.contradictsAtLeast;
    if (supports && !contradicts) return 'supports';
    if (contradicts && !supports) return 'contradicts';
    return 'unresolved';
  };
  return {
    model,
    target,
    cues: repeatedCrossValidation(withCues, L2, REPETITIONS),
    pairs: repeatedCrossValidation(withPairs, PAIR_L2, REPETITIONS),
    relational: repeatedCrossValidation(
      bearing.map(({ claimId, cues, pairs, label }) => ({ claimId, features: [...cues, ...RELATIONAL_PAIRS.map((name) => pairs[PAIR_FEATURES.indexOf(name)])], label })),
      PAIR_L2,
      REPETITIONS,
    ),
    claimPrior: repeatedCrossValidation(
      bearing.map(({ claimId, cues, claimPolarity, label }) => ({ claimId, features: [...cues, ...claimPolarity], label })),
      PAIR_L2,
      REPETITIONS,
    ),
    examples: bearing.length,
    relation,
  };
}
