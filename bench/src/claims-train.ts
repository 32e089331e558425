/**
 * `npm run train:claims`: trains the claim relation's model (packages/evidence/src/claims/model.ts)
 * on the tuning half of SciFact's train claims (even ids; scifact.ts) and writes
 * packages/evidence/src/claims/model.generated.ts.
 *
 * 1. Ground every tuning claim through the real path (scifact.ts: a temporary index of the
 *    abstracts, a real server, GET /ground in keyword mode).
 * 2. Examples: each gold abstract that came back (its first item), when its passage bears on the
 *    claim (claims.ts `bearsOnClaim`); label 1 for CONTRADICT, 0 for SUPPORT; the features are
 *    claims/features.ts's on the passage as ground returned it.
 * 3. A logistic regression (claims/logistic.ts: deterministic gradient descent, L2 {@link L2}),
 *    weights rounded to 4 decimals.
 * 4. Thresholds, chosen by {@link FOLDS}-fold cross-validation inside the tuning half (claim id / 2
 *    mod FOLDS): each fold's examples are scored by a model fitted on the other folds, and on those
 *    held-back probabilities `contradictsAtLeast` is the lowest that keeps the precision of
 *    asserted contradicts at CLAIMS_CONTRADICTS_TARGET (default 0.60) or more, `supportsAtMost` the
 *    highest that keeps that of supports at CLAIMS_SUPPORTS_TARGET (default 0.78: the held-back precision of supports tops out there; at 0.80 none is asserted on 10 or more examples) or more, each
 *    over at least {@link MIN_ASSERTED} examples (else that relation is never asserted); each set
 *    midway to the next probability. The held-back precision each reached is written beside it:
 *    it is the relation_confidence ground states (a precision measured on examples the model that
 *    scored them was not fitted on, so it does not flatter the model as the fit's own would).
 *    The thresholds apply to the model fitted on the whole tuning half (step 3).
 *
 * The held-out half (odd ids) is never read here: `npm run bench:claims` reports on it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alignSentences, bearsOnClaim, CLAIM_FEATURES, claimFeatures, contentWords } from '@evidence/evidence';
import { fitLogistic } from './claims/logistic.js';
import { groundClaims, halfOf, loadClaims, returnedGold } from './claims/scifact.js';

export const L2 = 1;
export const MIN_ASSERTED = 10;
/** Folds of the tuning half the thresholds are cross-validated on: claim id / 2 mod FOLDS. */
export const FOLDS = 10;
const MODEL_FILE = join(process.cwd(), 'packages', 'evidence', 'src', 'claims', 'model.generated.ts');

function target(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value > 0 && value <= 1)) throw new Error(`${name} must be a number in (0, 1], got ${JSON.stringify(raw)}`);
  return value;
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * The threshold asserting a relation on the largest number of examples at `wanted` precision or
 * more: examples sorted so the surest come first, cut only between distinct probabilities.
 */
function chooseThreshold(scored: Array<{ probability: number; right: boolean }>, wanted: number, surestFirst: (left: number, right: number) => number): { threshold: number | null; asserted: number; right: number } {
  const sorted = [...scored].sort((left, right) => surestFirst(left.probability, right.probability));
  let best: { threshold: number | null; asserted: number; right: number } = { threshold: null, asserted: 0, right: 0 };
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

async function main(): Promise<void> {
  const supportsTarget = target('CLAIMS_SUPPORTS_TARGET', 0.78);
  const contradictsTarget = target('CLAIMS_CONTRADICTS_TARGET', 0.6);
  const tuning = loadClaims().filter((claim) => halfOf(claim) === 'tuning');
  const { grounded } = await groundClaims(tuning, { mode: 'keyword', log: (line) => console.log(line) });
  const examples = returnedGold(grounded)
    .map((gold) => {
      const aligned = alignSentences(contentWords(gold.claim.claim), gold.passage);
      return { gold, aligned, bears: bearsOnClaim(contentWords(gold.claim.claim).size, aligned[0]) };
    })
    .filter((example) => example.bears)
    .map(({ gold, aligned }) => ({ claimId: gold.claim.id, features: claimFeatures(gold.claim.claim, gold.passage, aligned), label: gold.label === 'CONTRADICT' ? 1 : 0 }));
  const contradicting = examples.filter((example) => example.label === 1).length;
  console.log(`${examples.length} returned gold abstracts bear on their tuning claim (${contradicting} CONTRADICT, ${examples.length - contradicting} SUPPORT)`);
  const fit = fitLogistic(
    examples.map((example) => example.features),
    examples.map((example) => example.label),
    L2,
  );
  const weights = fit.weights.map(round4);
  const bias = round4(fit.bias);
  const probability = (features: number[], model: { weights: number[]; bias: number }) =>
    1 / (1 + Math.exp(-(model.bias + features.reduce((sum, value, index) => sum + value * model.weights[index], 0))));
  // Held-back probabilities: each fold scored by the model fitted on the other.
  const scored: Array<{ probability: number; label: number }> = [];
  const foldOf = (example: { claimId: number }) => (example.claimId / 2) % FOLDS;
  for (let fold = 0; fold < FOLDS; fold++) {
    const fitting = examples.filter((example) => foldOf(example) !== fold);
    const held = examples.filter((example) => foldOf(example) === fold);
    const foldFit = fitLogistic(
      fitting.map((example) => example.features),
      fitting.map((example) => example.label),
      L2,
    );
    for (const example of held) scored.push({ probability: probability(example.features, foldFit), label: example.label });
  }
  const contradicts = chooseThreshold(
    scored.map((entry) => ({ probability: entry.probability, right: entry.label === 1 })),
    contradictsTarget,
    (left, right) => right - left,
  );
  const supports = chooseThreshold(
    scored.map((entry) => ({ probability: entry.probability, right: entry.label === 0 })),
    supportsTarget,
    (left, right) => left - right,
  );
  const contradictsAtLeast = contradicts.threshold ?? 1.01;
  const supportsAtMost = Math.min(supports.threshold ?? -0.01, contradictsAtLeast - 0.0001);
  const trainedOn =
    `SciFact train claims with even ids (${tuning.length} claims; ${examples.length} returned gold abstracts that bear on their claim), keyword mode; ` +
    `L2 ${L2}; thresholds by ${FOLDS}-fold cross-validation inside the tuning half: supports at held-back precision ${supports.asserted > 0 ? (supports.right / supports.asserted).toFixed(2) : 'n/a'} on ${supports.asserted}, ` +
    `contradicts at ${contradicts.asserted > 0 ? (contradicts.right / contradicts.asserted).toFixed(2) : 'n/a'} on ${contradicts.asserted} ` +
    `(targets ${supportsTarget} and ${contradictsTarget})`;
  const source = `// Written by npm run train:claims (bench/src/claims-train.ts); do not edit by hand.
import type { ClaimModel } from './model.js';

export const CLAIM_MODEL: ClaimModel = {
  features: ${JSON.stringify(CLAIM_FEATURES).replaceAll(',', ', ').replaceAll('"', "'")},
  weights: ${JSON.stringify(weights).replaceAll(',', ', ')},
  bias: ${bias},
  supportsAtMost: ${supportsAtMost},
  contradictsAtLeast: ${contradictsAtLeast},
  supportsPrecision: ${supports.asserted > 0 ? Math.round((supports.right / supports.asserted) * 100) / 100 : 0},
  contradictsPrecision: ${contradicts.asserted > 0 ? Math.round((contradicts.right / contradicts.asserted) * 100) / 100 : 0},
  trainedOn: ${JSON.stringify(trainedOn).replaceAll("'", "\\'").replace(/^"|"$/g, "'")},
};
`;
  writeFileSync(MODEL_FILE, source);
  console.log(CLAIM_FEATURES.map((name, index) => `  ${name.padEnd(18)} ${weights[index] >= 0 ? '+' : ''}${weights[index]}`).join('\n'));
  console.log(`  bias ${bias}\n${trainedOn}\nwrote ${MODEL_FILE}; rebuild (npm run build:ts) before npm run bench:claims`);
}

await main();
