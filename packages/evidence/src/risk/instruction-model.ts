/**
 * The learned half of `instruction_like`: a logistic regression over the hashed features of one
 * sentence (`instruction-features.ts`), trained by `npm run train:risk` (bench/src/risk-train.ts)
 * on the injection-train pool and committed as `model/instruction-weights.ts` (int8 weights,
 * base64). Deterministic: the same sentence always gets the same score.
 */
import { FEATURE_BITS, isUnspacedScript, sentenceFeatures, sentenceTokens, wordCount, wordWeight, type SparseFeatures } from './instruction-features.js';
import { INSTRUCTION_WEIGHTS } from './model/instruction-weights.js';

/** A sentence the model scores at or above this probability is instruction-like. */
export const MODEL_THRESHOLD = 0.99;
/**
 * Sentences shorter than this (in words, markup tags not counted) are never flagged by the model:
 * headings, names, links, and markup fragments such as a commented-out `<dt>p</dt> <dd>1,0</dd>`.
 * The model reads a sentence's text without its tags: it learned prose, and on markup (a page's
 * commented-out menu, `<li><a href=...>`) its n-grams scored 0.99 and more.
 */
export const MIN_MODEL_WORDS = 4;

/** An HTML or XML tag, opening or closing: markup, not words of the sentence. */
const MARKUP_TAG = /<\/?[A-Za-z][^<>]*>/g;

/** Weights of a trained model, ready to score. */
export interface InstructionModel {
  bits: number;
  bias: number;
  /** One weight per hashed n-gram bucket (2^bits). */
  weights: Float32Array;
  /** One weight per dimension of the sentence vector (empty: a model of n-grams alone). */
  vectorWeights: Float32Array;
  /** What the sentence vector is multiplied by before its weights (its share next to the unit-length n-grams). */
  vectorScale: number;
  /**
   * Where the sentence vector comes from (an embedding model's vector of the sentence's text);
   * required when vectorWeights is not empty. The committed model has no vector part (measured by
   * `npm run bench:risk`, it added nothing across families; see the README), so only the bench sets it.
   */
  embed?: (sentence: string) => Float32Array | null;
}

/** The committed form of a model: int8 n-gram weights times `scale`, base64; the vector part as float32, base64. */
export interface EncodedModel {
  bits: number;
  bias: number;
  scale: number;
  weights: string;
  vectorScale: number;
  vectorWeights: string;
}

export function decodeModel(encoded: EncodedModel): InstructionModel {
  const bytes = Buffer.from(encoded.weights, 'base64');
  if (bytes.length !== 1 << encoded.bits) throw new Error(`instruction model: ${bytes.length} weights for ${encoded.bits} bits`);
  const weights = new Float32Array(bytes.length);
  for (let index = 0; index < bytes.length; index++) weights[index] = ((bytes[index] << 24) >> 24) * encoded.scale;
  const vector = Buffer.from(encoded.vectorWeights, 'base64');
  const vectorWeights = new Float32Array(vector.length / 4);
  for (let index = 0; index < vectorWeights.length; index++) vectorWeights[index] = vector.readFloatLE(index * 4);
  return { bits: encoded.bits, bias: encoded.bias, weights, vectorWeights, vectorScale: encoded.vectorScale };
}

export function encodeModel(model: InstructionModel): EncodedModel {
  let largest = 0;
  for (const weight of model.weights) largest = Math.max(largest, Math.abs(weight));
  const scale = largest / 127 || 1;
  const bytes = Buffer.alloc(model.weights.length);
  model.weights.forEach((weight, index) => bytes.writeInt8(Math.max(-127, Math.min(127, Math.round(weight / scale))), index));
  const vector = Buffer.alloc(model.vectorWeights.length * 4);
  model.vectorWeights.forEach((weight, index) => vector.writeFloatLE(weight, index * 4));
  return { bits: model.bits, bias: model.bias, scale, weights: bytes.toString('base64'), vectorScale: model.vectorScale, vectorWeights: vector.toString('base64') };
}

let shipped: InstructionModel | undefined;

/** The model committed in the repository (decoded once). */
export function shippedModel(): InstructionModel {
  shipped ??= decodeModel(INSTRUCTION_WEIGHTS);
  if (shipped.bits !== FEATURE_BITS) throw new Error(`instruction model: trained on ${shipped.bits} bits, features have ${FEATURE_BITS}`);
  return shipped;
}

/** The model's log-odds for a sentence's n-gram features and its vector (null: the n-grams alone). */
export function modelLogit(model: InstructionModel, features: SparseFeatures, vector: Float32Array | null = null): number {
  let logit = model.bias;
  for (let index = 0; index < features.indices.length; index++) logit += model.weights[features.indices[index]] * features.values[index];
  if (vector !== null && model.vectorWeights.length > 0) {
    if (vector.length !== model.vectorWeights.length) throw new Error(`instruction model: a vector of ${vector.length} dimensions for ${model.vectorWeights.length} weights`);
    let dot = 0;
    for (let index = 0; index < vector.length; index++) dot += model.vectorWeights[index] * vector[index];
    logit += model.vectorScale * dot;
  }
  return logit;
}

/** The probability that one sentence addresses an AI system, or null when it is too short to judge. */
export function modelScore(model: InstructionModel, sentence: string): number | null {
  const text = sentence.includes('<') ? sentence.replace(MARKUP_TAG, ' ') : sentence;
  if (wordCount(text) < MIN_MODEL_WORDS && !isUnspacedScript(text)) return null;
  let vector: Float32Array | null = null;
  if (model.vectorWeights.length > 0) {
    if (!model.embed) throw new Error('instruction model: a vector part without an embed function');
    vector = model.embed(text);
  }
  return 1 / (1 + Math.exp(-modelLogit(model, sentenceFeatures(text, model.bits), vector)));
}

/** Words named in a model flag's explanation. */
const EXPLAINED_WORDS = 3;

/** Why the model flagged a sentence: its probability against the threshold and the words that pushed it most. */
export function modelReason(model: InstructionModel, sentence: string, probability: number, threshold = MODEL_THRESHOLD): string {
  const words = [...new Set(sentenceTokens(sentence))]
    .filter((token) => /\p{L}/u.test(token))
    .map((token) => ({ token, weight: wordWeight(token, model.weights, model.bits) }))
    .filter((word) => word.weight > 0)
    .sort((left, right) => right.weight - left.weight || (left.token < right.token ? -1 : 1))
    .slice(0, EXPLAINED_WORDS)
    .map((word) => `"${word.token}"`);
  return `learned model (word and character n-grams): p=${probability.toFixed(3)} >= ${threshold}` + (words.length > 0 ? `; strongest words ${words.join(', ')}` : '');
}
