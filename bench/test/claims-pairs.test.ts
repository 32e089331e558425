/**
 * The polarity pairs bench:claims measures (bench/src/claims/pairs.ts) on a real SciFact claim
 * and the passage ground returned for it (packages/evidence/test/fixtures/scifact-claims.json:
 * source and licence there), and the repeated cross-validation it is compared by (fit.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { alignSentences, contentWords } from '@evidence/evidence';
import { claimPolarity, PAIR_CLASSES, PAIR_FEATURES, pairFeatures, polarWords, quantities } from '../src/claims/pairs.js';
import { repeatedCrossValidation, trainModel } from '../src/claims/fit.js';

interface Pair {
  claim_id: number;
  claim: string;
  passage: string;
}
const { pairs } = JSON.parse(readFileSync(new URL('../../packages/evidence/test/fixtures/scifact-claims.json', import.meta.url), 'utf8')) as { pairs: Pair[] };

describe('polarity pairs', () => {
  it('pairs the claim\'s down word with the finding sentence\'s up word (SciFact claim 1347: "diminish" against "enhances")', () => {
    const { claim, passage } = pairs.find((pair) => pair.claim_id === 1347)!;
    const features = pairFeatures(claim, alignSentences(contentWords(claim), passage));
    const on = PAIR_FEATURES.filter((_, index) => features[index] === 1);
    expect(on).toContain('pair_down_up');
    expect(features.every((value) => value === 0 || value === 1)).toBe(true);
  });

  it('reads a negation\'s scope up to the clause end: "did not increase" is up_negated, the word after the comma is not', () => {
    expect(polarWords('Treatment did not increase mortality, but reduced relapse.').map((word) => word.kind)).toEqual(['negation', 'up_negated', 'down']);
    expect(polarWords("Levels weren't higher").map((word) => word.kind)).toEqual(['negation', 'up_negated']);
    const classes = claimPolarity('Treatment did not increase mortality, but reduced relapse.');
    expect(PAIR_CLASSES.filter((_, index) => classes[index] === 1)).toEqual(['up_negated', 'down', 'negation']);
  });

  it('compares quantities, not the digits of names', () => {
    expect([...quantities('16 of the 32,441 samples; 493 per million; CD4 and IL-6')]).toEqual([16, 32441, 493]);
    const aligned = alignSentences(contentWords('Screening saved 5 billion dollars.'), 'Screening saved 750 million dollars.');
    const features = pairFeatures('Screening saved 5 billion dollars.', aligned);
    expect(features[PAIR_FEATURES.indexOf('number_differs')]).toBe(1);
    expect(features[PAIR_FEATURES.indexOf('number_same')]).toBe(0);
  });

  it('cross-validates deterministically and chooses no threshold it cannot back with ten examples', () => {
    const examples = Array.from({ length: 60 }, (_, index) => ({ claimId: index * 2, features: [index % 3 === 0 ? 1 : 0, index % 5 === 0 ? 1 : 0], label: index % 3 === 0 ? 1 : 0 }));
    expect(repeatedCrossValidation(examples, 1, 2)).toEqual(repeatedCrossValidation(examples, 1, 2));
    const model = trainModel(examples, 1, 0.99, 0.99);
    expect(model.weights[0]).toBeGreaterThan(0);
    expect(model.supports.asserted === 0 || model.supports.asserted >= 10).toBe(true);
  });
});
