/**
 * `npm run train:safety`: fits the safety signal's host-name model and writes
 * `packages/ingest/src/signals/safety-model.generated.ts` (deterministic: same data, same bytes).
 *
 * Data: the labelled hosts of `../shared/data/signals/safety` (or SIGNALS_DATA/safety) in
 * TUNE_HALF only (`safety-data.ts`; the other half is what `npm run bench:signals` reports as not
 * tuned on), explicit true against explicit false, the hard negatives (lingerie shops,
 * sexual-health education) weighed HARD_WEIGHT; and as background negatives the hosts of the
 * source_role and vertical sets, together weighed BACKGROUND_SHARE of the safety negatives, so
 * that the model meets the ordinary web's names too (news, shops, universities) and not only the
 * labelled set's few, and the hosts of real crawled news and blog pages (TUNE_HALF of the
 * published_at set's) weighed CRAWLED_WEIGHT each, as much as a labelled negative: the hosts a
 * crawl does meet (`youtube.com` among them, whose `tube` the adult names share). Positives are
 * weighed so that they weigh as much as all negatives together. Explicit lexicon words
 * (EXPLICIT_WORDS) start from, and are pulled toward, WORD_PRIOR instead of 0.
 *
 * Model: logistic regression over `hostFeatures` (ingest's own, so training and ingest read a
 * host alike), Adagrad full-batch over ROUNDS rounds with L2. Threshold: four folds of the tuning half (by a hash
 * of the host) each scored by a model trained without it, together with the host-name rules
 * (safety.ts calls a host explicit when the rules or the model do); the threshold kept is the one with
 * the best F1 on those out-of-fold scores among those with precision >= MIN_PRECISION and at
 * most MAX_HARD_FALSE of the hard negatives called explicit (margins under the bars of
 * 0.90 and 10%, so the unseen half has room).
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPLICIT_AT, EXPLICIT_WORDS, hostFeatures, hostScore, MIN_LEANING_WORDS, safeContextWord, urlPoints, type SafetyModel } from '@evidence/ingest';
import { ROOT } from './halves.js';
import { backgroundNegatives, crawledHosts, isHardNegative, readSafetyRecords, safetyHalf, TUNE_HALF } from './safety-data.js';

export const ROUNDS = 400;
export const STEP = 0.5;
export const L2 = 0.002;
export const HARD_WEIGHT = 2;
export const BACKGROUND_SHARE = 1;
export const CRAWLED_WEIGHT = 1;
export const WORD_PRIOR = 2;
export const MIN_PRECISION = 0.95;
export const MAX_HARD_FALSE = 0.05;
/** The share of the hard negatives whose names may pass the host list's floor (a list holds a third of them: UT1 lists many lingerie shops as adult too). */
export const MAX_LIST_HARD = 0.2;
const FOLDS = 4;
const OUTPUT = join(ROOT, 'packages', 'ingest', 'src', 'signals', 'safety-model.generated.ts');

interface Example {
  host: string;
  /** The host-name rules alone call it explicit (then the model is not asked). */
  rules: boolean;
  /** The rules found a safe-context word (lingerie, education, health): the model is not asked. */
  safeContext: boolean;
  positive: boolean;
  hard: boolean;
  weight: number;
  features: string[];
}

function example(host: string, positive: boolean, hard: boolean, weight: number): Example {
  const { points } = urlPoints(host);
  return { host, rules: points >= EXPLICIT_AT, safeContext: safeContextWord(host) !== undefined, positive, hard, weight, features: [...hostFeatures(host)] };
}

export function trainSafetyModel(examples: readonly Example[]): Omit<SafetyModel, 'threshold' | 'listFloor'> {
  const hostsWith = new Map<string, number>();
  for (const item of examples) for (const feature of item.features) hostsWith.set(feature, (hostsWith.get(feature) ?? 0) + 1);
  // Every explicit word keeps its prior even when no training name holds it: that is what carries to unseen names.
  for (const word of EXPLICIT_WORDS) hostsWith.set(`w:${word}`, hostsWith.get(`w:${word}`) ?? 0);
  const kept = [...hostsWith.keys()].sort();
  const index = new Map(kept.map((feature, at) => [feature, at]));
  const rows = examples.map((item) => item.features.map((feature) => index.get(feature)).filter((at): at is number => at !== undefined));
  const prior = new Float64Array(kept.length);
  for (const word of EXPLICIT_WORDS) {
    const at = index.get(`w:${word}`);
    if (at !== undefined) prior[at] = WORD_PRIOR;
  }
  const weights = Float64Array.from(prior);
  const squared = new Float64Array(kept.length + 1);
  let bias = 0;
  const totalWeight = examples.reduce((sum, item) => sum + item.weight, 0);
  for (let round = 0; round < ROUNDS; round++) {
    const gradient = new Float64Array(kept.length);
    let biasGradient = 0;
    for (let at = 0; at < examples.length; at++) {
      let score = bias;
      for (const feature of rows[at]) score += weights[feature];
      const error = (1 / (1 + Math.exp(-score)) - (examples[at].positive ? 1 : 0)) * examples[at].weight;
      for (const feature of rows[at]) gradient[feature] += error;
      biasGradient += error;
    }
    for (let feature = 0; feature < kept.length; feature++) {
      const g = gradient[feature] / totalWeight + L2 * (weights[feature] - prior[feature]);
      squared[feature] += g * g;
      weights[feature] -= (STEP * g) / Math.sqrt(squared[feature] + 1e-9);
    }
    const g = biasGradient / totalWeight;
    squared[kept.length] += g * g;
    bias -= (STEP * g) / Math.sqrt(squared[kept.length] + 1e-9);
  }
  const written: Record<string, number> = {};
  for (let feature = 0; feature < kept.length; feature++) {
    const value = Math.round(weights[feature] * 1000) / 1000;
    if (value !== 0) written[kept[feature]] = value;
  }
  return { weights: written, bias: Math.round(bias * 1000) / 1000 };
}

interface Scored {
  /** The probability the model decides by (0 without evidence enough). */
  probability: number;
  /** The same with one leaning word as evidence enough (the alternative gate the trainer reports, not ships). */
  probabilityOneWord: number;
  /** The probability without the evidence gate (what the host list's floor reads). */
  raw: number;
  rules: boolean;
  safeContext: boolean;
  positive: boolean;
  hard: boolean;
}

/** The threshold (0.05..0.95 by 0.01) with the best F1 under the precision and hard-negative limits, scored out of fold. */
function chooseThreshold(scored: readonly Scored[]): { threshold: number; precision: number; recall: number; f1: number; hardFalse: number } {
  let best = { threshold: 0.95, precision: 0, recall: 0, f1: -1, hardFalse: 0 };
  const hardCount = Math.max(1, scored.filter((item) => item.hard).length);
  for (let step = 5; step <= 95; step++) {
    const threshold = step / 100;
    let tp = 0;
    let fp = 0;
    let fn = 0;
    let hardFalse = 0;
    for (const item of scored) {
      const said = item.rules || (!item.safeContext && item.probability >= threshold);
      if (said && item.positive) tp++;
      else if (said) fp++;
      else if (item.positive) fn++;
      if (said && item.hard) hardFalse++;
    }
    const precision = tp / Math.max(1, tp + fp);
    const recall = tp / Math.max(1, tp + fn);
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    if (precision >= MIN_PRECISION && hardFalse / hardCount <= MAX_HARD_FALSE && f1 > best.f1) best = { threshold, precision, recall, f1, hardFalse: hardFalse / hardCount };
  }
  return best;
}

/**
 * The host list's floor (0..0.5 by 0.01): the lowest at which at most MAX_LIST_HARD of the hard
 * negatives' out-of-fold probabilities (without the evidence gate) reach it, where the safe-context
 * words have not already kept them out. Chosen without the list: whatever list is configured, it is
 * believed unless the name reads as a shop or clinic.
 */
function chooseListFloor(scored: readonly Scored[]): { floor: number; positives: number; hard: number } {
  const hard = scored.filter((item) => item.hard && !item.safeContext);
  const hardCount = Math.max(1, scored.filter((item) => item.hard).length);
  const positives = scored.filter((item) => item.positive);
  for (let step = 0; step <= 50; step++) {
    const floor = step / 100;
    const hardShare = hard.filter((item) => item.raw >= floor).length / hardCount;
    if (hardShare <= MAX_LIST_HARD) return { floor, positives: positives.filter((item) => item.rules || item.raw >= floor).length / Math.max(1, positives.length), hard: hardShare };
  }
  return { floor: 0.5, positives: positives.filter((item) => item.rules || item.raw >= 0.5).length / Math.max(1, positives.length), hard: hard.filter((item) => item.raw >= 0.5).length / hardCount };
}

function render(model: SafetyModel, labelled: number, background: number): string {
  const entries = Object.entries(model.weights)
    .map(([feature, weight]) => `    ${JSON.stringify(feature)}: ${weight},`)
    .join('\n');
  return `// Generated by \`npm run train:safety\` (bench/src/signals/train-safety.ts): do not edit.
// Trained on ${labelled} labelled hosts, the tuning half of ../shared/data/signals/safety (UT1 lists,
// CC BY-SA 4.0; see that folder's README), and ${background} background negatives (the source_role and
// vertical sets' hosts). Weights only: no host of the data is written here.
import type { SafetyModel } from './safety-model.js';

export const SAFETY_MODEL: SafetyModel = {
  bias: ${model.bias},
  threshold: ${model.threshold},
  listFloor: ${model.listFloor},
  weights: {
${entries}
  },
};
`;
}

const started = Date.now();
const records = readSafetyRecords();
if (records.length === 0) {
  console.error('train:safety: no labelled hosts (set SIGNALS_DATA to the folder holding safety/records.jsonl)');
  process.exit(2);
}
const tuning = records.filter((record) => record.level === 'host' && record.explicit !== null && safetyHalf(record.host) === TUNE_HALF);
const background = backgroundNegatives(records);
const negatives = tuning.filter((record) => record.explicit === false);
const positives = tuning.length - negatives.length;
const negativeWeight = negatives.reduce((sum, record) => sum + (isHardNegative(record) ? HARD_WEIGHT : 1), 0);
const backgroundWeight = (BACKGROUND_SHARE * negativeWeight) / Math.max(1, background.length);
const positiveWeight = (negativeWeight * (1 + BACKGROUND_SHARE)) / Math.max(1, positives);
const labelledExamples = tuning.map((record) => example(record.host, record.explicit === true, isHardNegative(record), record.explicit ? positiveWeight : isHardNegative(record) ? HARD_WEIGHT : 1));
const crawled = new Set(crawledHosts(records, TUNE_HALF));
const backgroundExamples = background.map((host) => example(host, false, false, crawled.has(host) ? CRAWLED_WEIGHT : backgroundWeight));
const fold = (host: string): number => createHash('sha256').update(`fold:${host}`).digest()[0] % FOLDS;
const outOfFold: Scored[] = [];
for (let held = 0; held < FOLDS; held++) {
  const model = { ...trainSafetyModel([...labelledExamples.filter((item) => fold(item.host) !== held), ...backgroundExamples]), threshold: 0.5, listFloor: 0 };
  for (const item of labelledExamples.filter((candidate) => fold(candidate.host) === held)) {
    const { probability, evidence } = hostScore(model, new Set(item.features));
    const oneWord = hostScore(model, new Set(item.features), 1);
    outOfFold.push({ probability: evidence ? probability : 0, probabilityOneWord: oneWord.evidence ? oneWord.probability : 0, raw: probability, rules: item.rules, safeContext: item.safeContext, positive: item.positive, hard: item.hard });
  }
}
const chosen = chooseThreshold(outOfFold);
console.log('out-of-fold curve on the tuning half (rules or model at each threshold):');
const outOfFoldPositives = outOfFold.filter((item) => item.positive).length;
for (let step = 10; step <= 90; step += 10) {
  const threshold = step / 100;
  const said = (item: Scored): boolean => item.rules || (!item.safeContext && item.probability >= threshold);
  const truePositives = outOfFold.filter((item) => item.positive && said(item)).length;
  const falsePositives = outOfFold.filter((item) => !item.positive && said(item)).length;
  const hardFalse = outOfFold.filter((item) => item.hard && said(item)).length;
  const f1 = (2 * truePositives) / (truePositives + falsePositives + outOfFoldPositives);
  console.log(`  threshold ${threshold}: precision ${(truePositives / Math.max(1, truePositives + falsePositives)).toFixed(3)}, recall ${(truePositives / outOfFoldPositives).toFixed(3)}, F1 ${f1.toFixed(3)}, hard negatives called explicit ${hardFalse}`);
}
const listFloor = chooseListFloor(outOfFold);
console.log(
  `list floor ${listFloor.floor}: out of fold, ${(listFloor.positives * 100).toFixed(1)}% of the adult hosts and ${(listFloor.hard * 100).toFixed(1)}% of the hard negatives reach it ` +
    `(a host list holding them all would keep that share of the hard negatives explicit)`,
);
const model: SafetyModel = { ...trainSafetyModel([...labelledExamples, ...backgroundExamples]), threshold: chosen.threshold, listFloor: listFloor.floor };
writeFileSync(OUTPUT, render(model, tuning.length, background.length));
// The evidence gate: the shipped MIN_LEANING_WORDS against one word, out of fold on the labelled half and, with the final
// model (in sample), on the background hosts: the ordinary web's names, where a looser gate shows its cost.
const oneWord = chooseThreshold(outOfFold.map((item) => ({ ...item, probability: item.probabilityOneWord })));
const backgroundCalled = (minLeaningWords: number, threshold: number): number =>
  backgroundExamples.filter((item) => {
    const { probability, evidence } = hostScore(model, new Set(item.features), minLeaningWords);
    return item.rules || (!item.safeContext && evidence && probability >= threshold);
  }).length;
for (const [words, result] of [[MIN_LEANING_WORDS, chosen], [1, oneWord]] as const) {
  console.log(
    `evidence gate ${words} leaning word(s)${words === MIN_LEANING_WORDS ? ' (shipped)' : ''}: out of fold threshold ${result.threshold}, precision ${result.precision.toFixed(3)}, recall ${result.recall.toFixed(3)}, F1 ${result.f1.toFixed(3)}; ` +
      `background hosts called explicit (in sample) ${backgroundCalled(words, result.threshold)} of ${backgroundExamples.length}`,
  );
}
console.log(
  `out of fold on the tuning half: threshold ${chosen.threshold}, precision ${chosen.precision.toFixed(3)}, recall ${chosen.recall.toFixed(3)}, F1 ${chosen.f1.toFixed(3)}, hard negatives ${chosen.hardFalse.toFixed(3)}; ` +
    `${Object.keys(model.weights).length} weights from ${tuning.length} labelled hosts and ${background.length} background negatives in ${((Date.now() - started) / 1000).toFixed(1)} s; wrote ${OUTPUT}`,
);
