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
 * 3. A logistic regression (claims/logistic.ts: deterministic gradient descent, L2 1),
 *    weights rounded to 4 decimals (steps 3 and 4 are claims/fit.ts `trainModel`).
 * 4. Thresholds, chosen by ten-fold cross-validation inside the tuning half (claim id / 2
 *    mod FOLDS): each fold's examples are scored by a model fitted on the other folds, and on those
 *    held-back probabilities `contradictsAtLeast` is the lowest that keeps the precision of
 *    asserted contradicts at CLAIMS_CONTRADICTS_TARGET (default 0.60) or more, `supportsAtMost` the
 *    highest that keeps that of supports at CLAIMS_SUPPORTS_TARGET (default 0.78: the held-back precision of supports tops out there; at 0.80 none is asserted on 10 or more examples) or more, each
 *    over at least MIN_ASSERTED (10) examples (else that relation is never asserted); each set
 *    midway to the next probability. The held-back precision each reached is written beside it:
 *    it is the relation_confidence ground states (a precision measured on examples the model that
 *    scored them was not fitted on, so it does not flatter the model as the fit's own would).
 *    The thresholds apply to the model fitted on the whole tuning half (step 3).
 *
 * The held-out half (odd ids) is never read here: `npm run bench:claims` reports on it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAIM_FEATURES } from '@evidence/evidence';
import { bearingExamples, FOLDS, L2, precisionOf, trainModel } from './claims/fit.js';
import { groundClaims, halfOf, loadClaims } from './claims/scifact.js';

const MODEL_FILE = join(process.cwd(), 'packages', 'evidence', 'src', 'claims', 'model.generated.ts');

function target(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value > 0 && value <= 1)) throw new Error(`${name} must be a number in (0, 1], got ${JSON.stringify(raw)}`);
  return value;
}

const stated = (chosen: { asserted: number; right: number }) => `${chosen.asserted > 0 ? (chosen.right / chosen.asserted).toFixed(2) : 'n/a'} on ${chosen.asserted}`;

async function main(): Promise<void> {
  const supportsTarget = target('CLAIMS_SUPPORTS_TARGET', 0.78);
  const contradictsTarget = target('CLAIMS_CONTRADICTS_TARGET', 0.6);
  const tuning = loadClaims().filter((claim) => halfOf(claim) === 'tuning');
  const { grounded } = await groundClaims(tuning, { mode: 'keyword', log: (line) => console.log(line) });
  const examples = bearingExamples(grounded).map(({ claimId, cues, label }) => ({ claimId, features: cues, label }));
  const contradicting = examples.filter((example) => example.label === 1).length;
  console.log(`${examples.length} returned gold abstracts bear on their tuning claim (${contradicting} CONTRADICT, ${examples.length - contradicting} SUPPORT)`);
  const { weights, bias, supports, contradicts } = trainModel(examples, L2, supportsTarget, contradictsTarget);
  const contradictsAtLeast = contradicts.threshold ?? 1.01;
  const supportsAtMost = Math.min(supports.threshold ?? -0.01, contradictsAtLeast - 0.0001);
  const trainedOn =
    `SciFact train claims with even ids (${tuning.length} claims; ${examples.length} returned gold abstracts that bear on their claim), keyword mode; ` +
    `L2 ${L2}; thresholds by ${FOLDS}-fold cross-validation inside the tuning half: supports at held-back precision ${stated(supports)}, ` +
    `contradicts at ${stated(contradicts)} ` +
    `(targets ${supportsTarget} and ${contradictsTarget})`;
  const source = `// Written by npm run train:claims (bench/src/claims-train.ts); do not edit by hand.
import type { ClaimModel } from './model.js';

export const CLAIM_MODEL: ClaimModel = {
  features: ${JSON.stringify(CLAIM_FEATURES).replaceAll(',', ', ').replaceAll('"', "'")},
  weights: ${JSON.stringify(weights).replaceAll(',', ', ')},
  bias: ${bias},
  supportsAtMost: ${supportsAtMost},
  contradictsAtLeast: ${contradictsAtLeast},
  supportsPrecision: ${precisionOf(supports)},
  contradictsPrecision: ${precisionOf(contradicts)},
  trainedOn: ${JSON.stringify(trainedOn).replaceAll("'", "\\'").replace(/^"|"$/g, "'")},
};
`;
  writeFileSync(MODEL_FILE, source);
  console.log(CLAIM_FEATURES.map((name, index) => `  ${name.padEnd(18)} ${weights[index] >= 0 ? '+' : ''}${weights[index]}`).join('\n'));
  console.log(`  bias ${bias}\n${trainedOn}\nwrote ${MODEL_FILE}; rebuild (npm run build:ts) before npm run bench:claims`);
}

await main();
