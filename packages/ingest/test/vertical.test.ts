/**
 * The vertical model's dense features: a model that carries weights for the page vector
 * (`denseScale` > 0) reads the vector of `verticalText` from the real static model
 * (potion-base-2M, models/, `npm run models`) when the record gives none. The page is a real
 * labelled site's home page text (shared/data/signals/vertical, Curlie crowd labels, MIT).
 */
import { describe, expect, it } from 'vitest';
import { StaticEmbedder } from '@evidence/embedders';
import { GENERAL_VERTICAL } from '@evidence/schemas';
import { deriveVertical, MIN_CONFIDENCE, parseVerticalModel, verticalModel, verticalText } from '../src/signals/vertical.js';
import { VERTICAL_TRAINING, VERTICAL_WEIGHTS } from '../src/signals/vertical-weights.generated.js';

const CLASSES = ['arts', 'health'];
const page = { title: 'Cardiology Associates', text: 'Our physicians diagnose and treat heart disease, arrhythmia and hypertension.', host: 'www.heart-care.example' };

/** A two-class model: one known word with no weight, and health's dense weights the vector of a description of health. */
function denseModel(denseScale: number) {
  const health = StaticEmbedder.openSync().vector('medicine, health care, conditions, treatments and wellbeing');
  const dense = Array.from(health, (value, index) => `~${index} 1=${(value * 20).toFixed(4)}`).join(';');
  return parseVerticalModel({ classes: CLASSES, bias: [0.5, 0], weights: `physicians;${dense}`, denseScale });
}

describe('vertical: dense features', () => {
  it('embeds the title, the first 400 words of the text and the host labels', () => {
    const text = verticalText({ title: 'T', text: Array.from({ length: 500 }, (_, index) => `w${index}`).join(' '), host: 'www.good-food.co.uk' });
    expect(text.startsWith('T\nw0 w1 ')).toBe(true);
    expect(text).toContain(' w399\n');
    expect(text).not.toContain('w400');
    expect(text.endsWith('good food co')).toBe(true);
  });

  it("reads the page's static vector when the model has dense weights, and not otherwise", () => {
    const withVector = deriveVertical(page, undefined, denseModel(1));
    expect(withVector).toMatchObject({ value: 'health', source: 'derived' });
    expect(withVector.reason).toMatch(/page vector/);
    // The same weights as a words-only model: the bias decides.
    expect(deriveVertical(page, undefined, denseModel(0)).value).toBe('arts');
  });

  it('leaves a page with no word the model knows at general, whatever its vector says', () => {
    expect(deriveVertical({ title: 'Cardiology', text: 'Arrhythmia and hypertension', host: 'x.example' }, undefined, denseModel(1))).toMatchObject({ value: GENERAL_VERTICAL, source: 'default' });
  });
});

describe('vertical: the abstention threshold', () => {
  const words = { classes: CLASSES, bias: [0, 0], weights: 'physicians 1=1;hypertension 1=1' };

  it("abstains below the model file's own threshold and says so, and reads 0.12 from a file that names none", () => {
    const old = parseVerticalModel(words);
    expect(old.minConfidence).toBe(MIN_CONFIDENCE);
    const derived = deriveVertical(page, undefined, old);
    expect(derived).toMatchObject({ value: 'health', source: 'derived' });
    const strict = parseVerticalModel({ ...words, minConfidence: 0.9 });
    expect(strict.minConfidence).toBe(0.9);
    expect(derived.confidence).toBeLessThan(0.9);
    const abstained = deriveVertical(page, undefined, strict);
    expect(abstained).toMatchObject({ value: GENERAL_VERTICAL, source: 'default', confidence: derived.confidence, reason: 'best vertical health below 0.9' });
  });

  it('ships the threshold train:vertical chose by cross-validation, written in the weights file', () => {
    expect(typeof VERTICAL_WEIGHTS.minConfidence).toBe('number');
    expect(VERTICAL_WEIGHTS.minConfidence).toBe(VERTICAL_TRAINING.minConfidence);
    expect(VERTICAL_TRAINING.thresholdCrossValidation.chosen.minConfidence).toBe(VERTICAL_WEIGHTS.minConfidence);
    expect(VERTICAL_TRAINING.thresholdCrossValidation.chosen.nonDefault).toBeGreaterThanOrEqual(VERTICAL_TRAINING.thresholdCrossValidation.minNonDefault);
    expect(verticalModel().minConfidence).toBe(VERTICAL_WEIGHTS.minConfidence);
  });
});
