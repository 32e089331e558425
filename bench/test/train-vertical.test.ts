/**
 * The vertical trainer on real Curlie-labelled sites (`../shared/data/signals/vertical`, the
 * development half; skipped when the data is absent): a one-vs-rest fit is written with its
 * sigmoid link and scores each vertical on its own, the cross-validation scores every setting on
 * the training half and keeps the best, and the committed model, fitted to every labelled site,
 * names the setting it chose on that half.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveVertical, parseVerticalModel, scoreVerticals, VERTICAL_TRAINING, verticalFeatures } from '@evidence/ingest';
import { VERTICAL_WEIGHTS } from '../../packages/ingest/src/signals/vertical-weights.generated.js';
import { signalsDataDir } from '../src/signals/data-dir.js';
import { atThreshold, chooseDense, chooseSetting, chooseThreshold, crossValidate, DENSE_SCALES, MIN_NON_DEFAULT, THRESHOLDS, trainVerticalModel, withStaticVectors } from '../src/signals/train-vertical.js';
import { readVerticalSites, TRAIN_HALF } from '../src/signals/vertical-data.js';

const hasData = existsSync(join(signalsDataDir(), 'vertical', 'records.jsonl'));

describe.skipIf(!hasData)('train:vertical', () => {
  const sites = hasData ? readVerticalSites().filter((site) => site.half === TRAIN_HALF).slice(0, 60) : [];

  it('writes a one-vs-rest fit with a sigmoid link, whose probabilities are each vertical\'s own', () => {
    const model = parseVerticalModel(trainVerticalModel(sites, { seedPrior: 2, l2TowardPrior: 0.003, rounds: 60, target: 'membership' }));
    expect(model.link).toBe('sigmoid');
    const { probabilities } = scoreVerticals(model, verticalFeatures({ title: 'Guitar lessons and concerts', text: 'music school for artists', host: 'example.com' }, model.weights));
    expect(probabilities.every((value) => value > 0 && value < 1)).toBe(true);
    expect(probabilities.reduce((sum, value) => sum + value, 0)).not.toBeCloseTo(1, 2);
    const shares = parseVerticalModel(trainVerticalModel(sites, { seedPrior: 2, l2TowardPrior: 0.003, rounds: 60, target: 'votes' }));
    expect(shares.link).toBe('softmax');
    expect(deriveVertical({ title: 'Guitar lessons and concerts', text: 'music school for artists', host: 'example.com' }, undefined, shares).value).toBe('arts');
  });

  it('cross-validates each setting on the training half and keeps the best hit rate', () => {
    const grid = [
      { seedPrior: 2, l2TowardPrior: 0.003, rounds: 30, target: 'votes' as const },
      { seedPrior: 2, l2TowardPrior: 0.003, rounds: 30, target: 'topics' as const },
    ];
    const results = crossValidate(sites, grid);
    expect(results.map((result) => result.options)).toEqual(grid);
    for (const result of results) {
      expect(result.hitRate).toBeGreaterThan(0);
      expect(result.hitRate).toBeLessThanOrEqual(result.nonDefault);
    }
    expect(chooseSetting(results).hitRate).toBe(Math.max(...results.map((result) => result.hitRate)));
  });

  it('ships a model fitted to every labelled site with the setting cross-validation chose on one half', () => {
    const generated = readFileSync(new URL('../../packages/ingest/src/signals/vertical-weights.generated.ts', import.meta.url), 'utf8');
    expect(generated).toMatch(/Setting chosen by 5-fold cross-validation on half 1 by host alone: target (votes|topics|membership), L2 toward prior [\d.]+, \d+ rounds/);
    expect(VERTICAL_TRAINING.chosenOnHalf).toBe(TRAIN_HALF);
    expect(VERTICAL_TRAINING.sites).toBe(readVerticalSites().length);
  });

  it('tries the static page vector with the chosen words setting and takes it only beyond one standard error', () => {
    const withVectors = withStaticVectors(sites);
    if (withVectors === undefined) return; // potion-base-2M not in models/ (npm run models)
    expect(withVectors[0].vector).toHaveLength(64);
    const [words] = crossValidate(withVectors, [{ seedPrior: 2, l2TowardPrior: 0.003, rounds: 30, target: 'votes' }]);
    const choice = chooseDense(withVectors, words);
    expect(choice.dense.map((result) => result.options.denseScale)).toEqual([...DENSE_SCALES]);
    expect(choice.standardError).toBeCloseTo(Math.sqrt((words.hitRate * (1 - words.hitRate)) / withVectors.length), 10);
    const best = chooseSetting(choice.dense);
    expect(choice.chosen).toBe(best.hitRate > words.hitRate + choice.standardError ? best : words);
  });

  it('records the dense cross-validation in the shipped model, and ships words alone when it was within one standard error', () => {
    const { denseScale, denseCrossValidation } = VERTICAL_TRAINING;
    expect(denseCrossValidation?.candidates.map((candidate) => candidate.denseScale)).toEqual([...DENSE_SCALES]);
    const best = Math.max(...(denseCrossValidation?.candidates ?? []).map((candidate) => candidate.hitRate));
    expect(best <= denseCrossValidation!.wordsHitRate + denseCrossValidation!.standardError).toBe(denseScale === 0);
    expect(parseVerticalModel(VERTICAL_WEIGHTS).denseScale).toBe(denseScale);
  });

  it('chooses the abstention threshold from the out-of-fold predictions: best hit rate given a vertical with enough sites given one', () => {
    const [result] = crossValidate(sites, [{ seedPrior: 2, l2TowardPrior: 0.003, rounds: 30, target: 'votes' }]);
    expect(result.outOfFold).toHaveLength(sites.length);
    // The setting's own figures are those at the default threshold, as deriveVertical applies it.
    expect(atThreshold(result.outOfFold, 0.12)).toMatchObject({ hitRate: result.hitRate, nonDefault: result.nonDefault });
    const choice = chooseThreshold(result.outOfFold);
    expect(choice.candidates.map((candidate) => candidate.minConfidence)).toEqual([...THRESHOLDS]);
    const allowed = choice.candidates.filter((candidate) => candidate.nonDefault >= MIN_NON_DEFAULT);
    if (allowed.length > 0) {
      expect(choice.chosen.nonDefault).toBeGreaterThanOrEqual(MIN_NON_DEFAULT);
      expect(choice.chosen.hitGiven).toBe(Math.max(...allowed.map((candidate) => candidate.hitGiven)));
    } else expect(choice.chosen.minConfidence).toBe(0);
    // A threshold above every probability gives no site a vertical.
    expect(atThreshold(result.outOfFold, 1.01)).toMatchObject({ nonDefault: 0, hitRate: 0, hitGiven: 0 });
  });

  it('ships the chosen threshold in the weights file', () => {
    const { minConfidence, thresholdCrossValidation } = VERTICAL_TRAINING;
    expect(thresholdCrossValidation.minNonDefault).toBe(MIN_NON_DEFAULT);
    expect(thresholdCrossValidation.chosen.minConfidence).toBe(minConfidence);
    expect(parseVerticalModel(VERTICAL_WEIGHTS).minConfidence).toBe(minConfidence);
  });
});
