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
  weights: Float32Array;
}

/** The committed form of a model: int8 weights times `scale`, base64. */
export interface EncodedModel {
  bits: number;
  bias: number;
  scale: number;
  weights: string;
}

export function decodeModel(encoded: EncodedModel): InstructionModel {
  const bytes = Buffer.from(encoded.weights, 'base64');
  if (bytes.length !== 1 << encoded.bits) throw new Error(`instruction model: ${bytes.length} weights for ${encoded.bits} bits`);
  const weights = new Float32Array(bytes.length);
  for (let index = 0; index < bytes.length; index++) weights[index] = ((bytes[index] << 24) >> 24) * encoded.scale;
  return { bits: encoded.bits, bias: encoded.bias, weights };
}

export function encodeModel(model: InstructionModel): EncodedModel {
  let largest = 0;
  for (const weight of model.weights) largest = Math.max(largest, Math.abs(weight));
  const scale = largest / 127 || 1;
  const bytes = Buffer.alloc(model.weights.length);
  model.weights.forEach((weight, index) => bytes.writeInt8(Math.max(-127, Math.min(127, Math.round(weight / scale))), index));
  return { bits: model.bits, bias: model.bias, scale, weights: bytes.toString('base64') };
}

let shipped: InstructionModel | undefined;

/** The model committed in the repository (decoded once). */
export function shippedModel(): InstructionModel {
  shipped ??= decodeModel(INSTRUCTION_WEIGHTS);
  if (shipped.bits !== FEATURE_BITS) throw new Error(`instruction model: trained on ${shipped.bits} bits, features have ${FEATURE_BITS}`);
  return shipped;
}

/** The model's log-odds for features. */
export function modelLogit(model: InstructionModel, features: SparseFeatures): number {
  let logit = model.bias;
  for (let index = 0; index < features.indices.length; index++) logit += model.weights[features.indices[index]] * features.values[index];
  return logit;
}

/** The probability that one sentence addresses an AI system, or null when it is too short to judge. */
export function modelScore(model: InstructionModel, sentence: string): number | null {
  const text = sentence.includes('<') ? sentence.replace(MARKUP_TAG, ' ') : sentence;
  if (wordCount(text) < MIN_MODEL_WORDS && !isUnspacedScript(text)) return null;
  return 1 / (1 + Math.exp(-modelLogit(model, sentenceFeatures(text, model.bits))));
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
