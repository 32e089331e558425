/**
 * The vertical model's dense features: a model that carries weights for the page vector
 * (`denseScale` > 0) reads the vector of `verticalText` from the real static model
 * (potion-base-2M, models/, `npm run models`) when the record gives none. The page is a real
 * labelled site's home page text (shared/data/signals/vertical, Curlie crowd labels, MIT).
 */
import { describe, expect, it } from 'vitest';
import { StaticEmbedder } from '@evidence/embedders';
import { GENERAL_VERTICAL } from '@evidence/schemas';
import { deriveVertical, parseVerticalModel, verticalText } from '../src/signals/vertical.js';

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
