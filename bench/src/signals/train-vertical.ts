/**
 * `npm run train:vertical`: fits the vertical model and writes
 * `packages/ingest/src/signals/vertical-weights.generated.ts` (deterministic: same data, same
 * bytes). Data: the Curlie-labelled sites of `../shared/data/signals/vertical` (or
 * SIGNALS_DATA/vertical), the TRAIN_HALF of them by host (`vertical-data.ts`); the other
 * half is what `npm run bench:signals` reports as not trained on.
 *
 * The model: softmax regression over `verticalFeatures` (ingest's own, so training and ingest
 * read a page alike), fitted to each site's crowd votes (the share of votes for each vertical's
 * Curlie category) by full-batch gradient descent, with an L2 pull toward the zero-shot prior
 * (`vertical-seeds.ts`: each seed word SEED_PRIOR for its vertical) rather than toward zero.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DERIVED_VERTICALS } from '@evidence/schemas';
import { softmaxInPlace, verticalFeatures } from '@evidence/ingest';
import { VERTICAL_SEEDS } from './vertical-seeds.js';
import { readVerticalSites, TRAIN_HALF, type VerticalSite } from './vertical-data.js';

export const SEED_PRIOR = 2;
export const L2_TOWARD_PRIOR = 0.003;
export const ROUNDS = 300;
export const LEARNING_RATE = 0.5;
/** Weights closer to zero than this are left out of the written model. */
const WRITTEN_PRECISION = 3;

const CLASSES = DERIVED_VERTICALS.map((vertical) => vertical.name);
const CLASS_OF_CURLIE = new Map(DERIVED_VERTICALS.map((vertical, index) => [vertical.curlie, index]));

interface Example {
  features: Map<string, number>;
  target: Float64Array;
}

function voteShares(site: VerticalSite): Float64Array | undefined {
  const target = new Float64Array(CLASSES.length);
  let total = 0;
  for (const [category, votes] of Object.entries(site.crowd_votes)) {
    const index = CLASS_OF_CURLIE.get(category);
    if (index === undefined) continue;
    target[index] += votes;
    total += votes;
  }
  if (total === 0) return undefined;
  for (let index = 0; index < target.length; index++) target[index] /= total;
  return target;
}

function priorWeights(seedPrior: number): Map<string, Float64Array> {
  const prior = new Map<string, Float64Array>();
  CLASSES.forEach((name, index) => {
    for (const word of VERTICAL_SEEDS[name] ?? []) {
      const row = prior.get(word) ?? new Float64Array(CLASSES.length);
      row[index] = seedPrior;
      prior.set(word, row);
    }
  });
  return prior;
}

export interface TrainedVerticalModel {
  classes: string[];
  bias: number[];
  weights: string;
}

export interface TrainingOptions {
  seedPrior: number;
  l2TowardPrior: number;
  rounds: number;
}

export const DEFAULT_TRAINING: TrainingOptions = { seedPrior: SEED_PRIOR, l2TowardPrior: L2_TOWARD_PRIOR, rounds: ROUNDS };

export function trainVerticalModel(sites: readonly VerticalSite[], options: TrainingOptions = DEFAULT_TRAINING): TrainedVerticalModel {
  const prior = priorWeights(options.seedPrior);
  // Words a host label may hide: the seeds and every word the training pages use.
  const known = new Set<string>(prior.keys());
  for (const site of sites) for (const word of verticalFeatures({ title: site.title, text: site.text, host: site.host }, new Set()).keys()) known.add(word);
  const examples: Example[] = [];
  for (const site of sites) {
    const target = voteShares(site);
    if (target !== undefined) examples.push({ features: verticalFeatures({ title: site.title, text: site.text, host: site.host }, known), target });
  }
  const classCount = CLASSES.length;
  const weights = new Map<string, Float64Array>();
  for (const [word, row] of prior) weights.set(word, Float64Array.from(row));
  for (const example of examples) for (const word of example.features.keys()) if (!weights.has(word)) weights.set(word, new Float64Array(classCount));
  const bias = new Float64Array(classCount);
  const logits = new Float64Array(classCount);
  for (let round = 0; round < options.rounds; round++) {
    const gradients = new Map<string, Float64Array>();
    const biasGradient = new Float64Array(classCount);
    for (const example of examples) {
      logits.set(bias);
      for (const [word, value] of example.features) {
        const row = weights.get(word)!;
        for (let index = 0; index < classCount; index++) logits[index] += row[index] * value;
      }
      softmaxInPlace(logits);
      for (let index = 0; index < classCount; index++) {
        logits[index] -= example.target[index];
        biasGradient[index] += logits[index];
      }
      for (const [word, value] of example.features) {
        let gradient = gradients.get(word);
        if (gradient === undefined) {
          gradient = new Float64Array(classCount);
          gradients.set(word, gradient);
        }
        for (let index = 0; index < classCount; index++) gradient[index] += logits[index] * value;
      }
    }
    const count = examples.length;
    for (let index = 0; index < classCount; index++) bias[index] -= (LEARNING_RATE * biasGradient[index]) / count;
    for (const [word, row] of weights) {
      const gradient = gradients.get(word);
      const start = prior.get(word);
      for (let index = 0; index < classCount; index++) {
        const pull = options.l2TowardPrior * (row[index] - (start === undefined ? 0 : start[index]));
        row[index] -= LEARNING_RATE * ((gradient === undefined ? 0 : gradient[index] / count) + pull);
      }
    }
  }
  const entries: string[] = [];
  for (const word of [...weights.keys()].sort()) {
    const pairs: string[] = [];
    weights.get(word)!.forEach((value, index) => {
      const rounded = Number(value.toFixed(WRITTEN_PRECISION));
      if (rounded !== 0) pairs.push(`${index}=${rounded}`);
    });
    if (pairs.length > 0) entries.push(`${word} ${pairs.join(' ')}`);
  }
  return { classes: CLASSES, bias: Array.from(bias, (value) => Number(value.toFixed(WRITTEN_PRECISION))), weights: entries.join(';') };
}

function generatedModule(model: TrainedVerticalModel, sites: number): string {
  return [
    '// Generated by `npm run train:vertical` (bench/src/signals/train-vertical.ts): do not edit.',
    `// Softmax weights over ${model.classes.length} verticals, fitted to ${sites} Curlie-labelled sites (half ${TRAIN_HALF} by host) from a seeded prior.`,
    `export const VERTICAL_WEIGHTS = ${JSON.stringify({ classes: model.classes, bias: model.bias })
      .slice(0, -1)
      .concat(`,\n  "weights": ${JSON.stringify(model.weights)}}`)} as const;`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const trainSites = readVerticalSites().filter((site) => site.half === TRAIN_HALF);
  const model = trainVerticalModel(trainSites);
  const target = join(dirname(fileURLToPath(import.meta.url)), '../../../packages/ingest/src/signals/vertical-weights.generated.ts');
  writeFileSync(target, generatedModule(model, trainSites.length));
  process.stdout.write(`wrote ${target}: ${model.weights.split(';').length} words, ${trainSites.length} training sites\n`);
}
