/**
 * The text part of content_type: a multinomial logistic model over the words of a text, its
 * word pairs and a few register tokens (question and exclamation marks, currency, numbers and
 * years), each feature weighted log(1 + count) and the vector L2-normalised. The weights are
 * trained by `npm run train:content-type` (bench/src/train-content-type.ts) and committed in
 * content-type-model.generated.ts; this file is the one definition of the features, used by
 * both the trainer and ingest.
 */

/** Tokens read from a text (its first 3,000 word-like tokens). */
export const TEXT_TOKEN_LIMIT = 3000;

export interface LinearModel {
  labels: readonly string[];
  features: readonly string[];
  /** One row per label: a weight per feature, then the bias. */
  weights: readonly (readonly number[])[];
  /** Scores are multiplied by it before the softmax, so that probabilities match measured accuracy (1 when absent). */
  temperature?: number;
}

/** Lower-cased words, numbers as `<num>`/`<year>`, register punctuation, and each adjacent pair. */
export function registerTokens(text: string): string[] {
  const tokens: string[] = [];
  const words = text.toLowerCase().match(/[\p{L}][\p{L}'’]*|\d+|[?!$€£%:;()"“”]/gu) ?? [];
  let previous = '';
  for (const raw of words.slice(0, TEXT_TOKEN_LIMIT)) {
    const word = raw.replace(/’/g, "'");
    const token = /^\d+$/.test(word) ? (word.length === 4 && /^(?:19|20)/.test(word) ? '<year>' : '<num>') : word;
    tokens.push(token);
    if (previous !== '') tokens.push(`${previous} ${token}`);
    previous = token;
  }
  return tokens;
}

/** The model's input: feature index -> log(1 + count), L2-normalised. */
export function featureVector(text: string, index: ReadonlyMap<string, number>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const token of registerTokens(text)) {
    const at = index.get(token);
    if (at !== undefined) counts.set(at, (counts.get(at) ?? 0) + 1);
  }
  let norm = 0;
  for (const [at, count] of counts) {
    const value = Math.log1p(count);
    counts.set(at, value);
    norm += value * value;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [at, value] of counts) counts.set(at, value / norm);
  return counts;
}

/** Class probabilities (softmax of the linear scores), in the model's label order. */
export function probabilities(model: LinearModel, vector: ReadonlyMap<number, number>): number[] {
  const bias = model.features.length;
  const scale = model.temperature ?? 1;
  const scores = model.weights.map((row) => {
    let sum = row[bias];
    for (const [at, value] of vector) sum += row[at] * value;
    return sum * scale;
  });
  const max = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - max));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

const indexes = new WeakMap<LinearModel, Map<string, number>>();

/** Probabilities of a text under `model` (its feature index built once per model). */
export function classifyText(model: LinearModel, text: string): number[] {
  let index = indexes.get(model);
  if (index === undefined) {
    index = new Map(model.features.map((feature, at) => [feature, at]));
    indexes.set(model, index);
  }
  return probabilities(model, featureVector(text, index));
}
