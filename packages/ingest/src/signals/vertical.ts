/**
 * vertical: the page's topic area, from its own words, when the record names none.
 *
 * A linear (softmax) model over the page's words: its title, the first MAX_TEXT_WORDS words of
 * its text, and its host name (labels split on dots and hyphens, and the taxonomy's seed words
 * found inside run-together labels: `koshericecream` gives `cream`). Each feature is a distinct
 * word, weighted 1/sqrt(distinct words) so long pages and short ones score on one scale. The
 * weights (`vertical-weights.generated.ts`) start from a zero-shot prior, a few dozen seed words
 * per vertical that describe it (`bench/src/signals/vertical-seeds.ts`), and are fitted to the
 * crowd votes of Curlie-labelled sites (`npm run train:vertical`, README; the trainer picks its
 * target, regularisation and rounds by cross-validation on its training half). The model's link
 * is softmax (one distribution over the verticals) or sigmoid (one-vs-rest), as the trainer wrote
 * it. The classes are the default taxonomy in `@evidence/schemas` (`DERIVED_VERTICALS`).
 *
 * What it cannot know: the labelled sites are home pages (title and meta description), mostly
 * English; a page in another language, or one whose words the model never saw, falls back to
 * the class prior or, below the model's abstention threshold (`minConfidence`, chosen by the
 * trainer's cross-validation and written in the weights file) or with no known word, to `general`.
 */
import { StaticEmbedder } from '@evidence/embedders';
import { DERIVED_VERTICALS, GENERAL_VERTICAL } from '@evidence/schemas';
import { fromRecord, type Derived } from './derived.js';
import { VERTICAL_WEIGHTS } from './vertical-weights.generated.js';

/** Words of the text read after the title: enough for the topic, bounded cost on long pages. */
export const MAX_TEXT_WORDS = 400;
/**
 * Features weigh 1/sqrt(distinct words) up to this many words, and no less beyond: the labelled
 * sites have a title and a sentence, real pages hundreds of words, and a long page's evidence
 * should add up rather than be diluted to nothing under the class prior.
 */
export const NORMALISE_UP_TO = 30;
/**
 * The abstention threshold of a model file that names none (files written before the trainer
 * chose it): below this probability of its best vertical the page stays `general`. The shipped
 * file names its own (`VERTICAL_WEIGHTS.minConfidence`), which the model carries.
 */
export const MIN_CONFIDENCE = 0.12;
/** Seed words looked for inside a run-together host label are this long or longer. */
const MIN_EMBEDDED_WORD = 4;
const MAX_EMBEDDED_WORD = 12;

const STOPWORDS = new Set(
  'the and for with from that this your you our are was were have has had not but all can will more about into their they them its his her www com net org http https html index home page welcome official site'.split(' '),
);
const WORD = /\p{L}[\p{L}\p{N}]*/gu;

function wordsOf(text: string, limit: number, into: Set<string>): void {
  let taken = 0;
  for (const match of text.toLowerCase().matchAll(WORD)) {
    if (taken >= limit) return;
    const word = match[0];
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    into.add(word);
    taken++;
  }
}

/** The host's labels as words, less the top-level label and `www`. */
function hostWords(host: string): string[] {
  const labels = host.toLowerCase().replace(/^www\./, '').split('.');
  return labels
    .slice(0, -1)
    .flatMap((label) => label.split('-'))
    .filter((label) => label !== '');
}

export interface VerticalInput {
  title: string;
  text: string;
  host: string;
  /** The page's dense vector (`verticalText` embedded by the static model), when one was computed. */
  vector?: Float32Array;
}

/** Dense features are named by this prefix and the dimension (`~0`, `~1`, ...): no word starts with it. */
export const DENSE_PREFIX = '~';

/** What is embedded for the dense features: the title, the first MAX_TEXT_WORDS words of the text, the host's labels. */
export function verticalText(input: VerticalInput): string {
  const words: string[] = [];
  for (const match of input.text.matchAll(/\S+/g)) {
    if (words.length >= MAX_TEXT_WORDS) break;
    words.push(match[0]);
  }
  return `${input.title}\n${words.join(' ')}\n${hostWords(input.host).join(' ')}`;
}

/** The model's features of a page: each distinct word and its weight (shared by training and inference). */
export function verticalFeatures(input: VerticalInput, knownWords: ReadonlySet<string> | ReadonlyMap<string, unknown>, denseScale = 0): Map<string, number> {
  const words = new Set<string>();
  wordsOf(input.title, Number.POSITIVE_INFINITY, words);
  wordsOf(input.text, MAX_TEXT_WORDS, words);
  for (const label of hostWords(input.host)) {
    if (label.length >= 2 && !STOPWORDS.has(label) && !/^\d+$/.test(label)) words.add(label);
    for (let start = 0; start < label.length; start++) {
      for (let length = MIN_EMBEDDED_WORD; length <= MAX_EMBEDDED_WORD && start + length <= label.length; length++) {
        if (length === label.length) continue;
        const inside = label.slice(start, start + length);
        if (knownWords.has(inside)) words.add(inside);
      }
    }
  }
  const features = new Map<string, number>();
  const weight = words.size > 0 ? 1 / Math.sqrt(Math.min(words.size, NORMALISE_UP_TO)) : 0;
  for (const word of words) features.set(word, weight);
  if (denseScale > 0 && input.vector !== undefined) input.vector.forEach((value, index) => features.set(`${DENSE_PREFIX}${index}`, value * denseScale));
  return features;
}

/**
 * How a model's logits become probabilities: `softmax`, one distribution over the verticals; or
 * `sigmoid`, each vertical's own probability that the page belongs to it (a one-vs-rest model:
 * a page may belong to several, and the best is the one most likely to be among them).
 */
export type VerticalLink = 'softmax' | 'sigmoid';

export interface VerticalModel {
  classes: readonly string[];
  bias: Float64Array;
  weights: ReadonlyMap<string, Float64Array>;
  link: VerticalLink;
  /** The dense vector's features weigh its values times this; 0 for a words-only model. */
  denseScale: number;
  /** Below this probability of its best vertical a page stays `general` (the abstention threshold). */
  minConfidence: number;
}

/** The compact text form of a model: `bias` then one `word k=w k=w` entry per word, `;`-separated. */
export function parseVerticalModel(serialised: { classes: readonly string[]; bias: readonly number[]; weights: string; link?: VerticalLink; denseScale?: number; minConfidence?: number }): VerticalModel {
  const classCount = serialised.classes.length;
  const weights = new Map<string, Float64Array>();
  for (const entry of serialised.weights.split(';')) {
    if (entry === '') continue;
    const [word, ...pairs] = entry.split(' ');
    const row = new Float64Array(classCount);
    for (const pair of pairs) {
      const equals = pair.indexOf('=');
      row[Number(pair.slice(0, equals))] = Number(pair.slice(equals + 1));
    }
    weights.set(word, row);
  }
  return { classes: serialised.classes, bias: Float64Array.from(serialised.bias), weights, link: serialised.link ?? 'softmax', denseScale: serialised.denseScale ?? 0, minConfidence: serialised.minConfidence ?? MIN_CONFIDENCE };
}

export interface VerticalScores {
  probabilities: Float64Array;
  /** How many of the page's words the model has a weight for (dense features are not counted). */
  knownFeatures: number;
}

export function scoreVerticals(model: VerticalModel, features: ReadonlyMap<string, number>): VerticalScores {
  const classCount = model.classes.length;
  const logits = Float64Array.from(model.bias);
  let knownFeatures = 0;
  for (const [word, value] of features) {
    const row = model.weights.get(word);
    if (row === undefined) continue;
    if (!word.startsWith(DENSE_PREFIX)) knownFeatures++;
    for (let index = 0; index < classCount; index++) logits[index] += row[index] * value;
  }
  if (model.link === 'sigmoid') {
    for (let index = 0; index < classCount; index++) logits[index] = 1 / (1 + Math.exp(-logits[index]));
    return { probabilities: logits, knownFeatures };
  }
  return { probabilities: softmaxInPlace(logits), knownFeatures };
}

/** Logits to probabilities, in place (shifted by the largest for stability); shared by scoring and `npm run train:vertical`. */
export function softmaxInPlace(logits: Float64Array): Float64Array {
  let largest = Number.NEGATIVE_INFINITY;
  for (const logit of logits) largest = Math.max(largest, logit);
  let sum = 0;
  for (let index = 0; index < logits.length; index++) {
    logits[index] = Math.exp(logits[index] - largest);
    sum += logits[index];
  }
  for (let index = 0; index < logits.length; index++) logits[index] /= sum;
  return logits;
}

let shippedModel: VerticalModel | undefined;

/** The committed model (parsed once). */
export function verticalModel(): VerticalModel {
  if (shippedModel === undefined) {
    shippedModel = parseVerticalModel(VERTICAL_WEIGHTS);
    const known = new Set(DERIVED_VERTICALS.map((vertical) => vertical.name));
    for (const name of shippedModel.classes) if (!known.has(name)) throw new Error(`vertical model class ${name} is not in the taxonomy`);
  }
  return shippedModel;
}

/** The static model (potion-base-2M) for a model with dense features: opened once; null when its files are missing. */
let staticEmbedder: StaticEmbedder | null | undefined;

function staticVector(text: string): Float32Array | undefined {
  if (staticEmbedder === undefined) {
    try {
      staticEmbedder = StaticEmbedder.openSync();
    } catch {
      staticEmbedder = null;
    }
  }
  return staticEmbedder?.vector(text);
}

/**
 * The vertical of a page: the record's own when it named one, else the model's, else `general`
 * (no word the model knows, or its best vertical's probability below `model.minConfidence`; the
 * reason says which).
 * A model with dense features (`denseScale` > 0) reads the page's vector: the input's, else the
 * static model's of `verticalText`; when the static model's files are missing it scores the
 * words alone (the dense terms count zero), so ingest never needs them.
 */
export function deriveVertical(input: VerticalInput, declared?: string, model: VerticalModel = verticalModel()): Derived<string> {
  if (declared !== undefined) return fromRecord(declared);
  const vector = model.denseScale > 0 ? (input.vector ?? staticVector(verticalText(input))) : undefined;
  const features = verticalFeatures(vector === undefined ? input : { ...input, vector }, model.weights, model.denseScale);
  const { probabilities, knownFeatures } = scoreVerticals(model, features);
  if (knownFeatures === 0) return { value: GENERAL_VERTICAL, source: 'default', confidence: 0, reason: 'no word the model knows' };
  let best = 0;
  for (let index = 1; index < probabilities.length; index++) if (probabilities[index] > probabilities[best]) best = index;
  const confidence = Math.round(probabilities[best] * 1000) / 1000;
  if (confidence < model.minConfidence) return { value: GENERAL_VERTICAL, source: 'default', confidence, reason: `best vertical ${model.classes[best]} below ${model.minConfidence}` };
  return { value: model.classes[best], source: 'derived', confidence, reason: `linear model over ${knownFeatures} known words${vector === undefined ? '' : ' and the page vector'}` };
}
