/**
 * The features the instruction_like model reads from one sentence, hashed into 2^bits signed
 * buckets (FNV-1a; the top bit of the hash gives the sign), L2-normalised:
 *
 * - word unigrams and bigrams of the normalised sentence, with a sentence-start marker (so an
 *   imperative opening such as "<s> ignore" is a feature) and without the final punctuation;
 * - character 3- to 5-grams inside each word, so a misspelling ("iunstructions") still shares most
 *   of its grams with the word it imitates;
 * - a few cues shared across attack families ({@link CONCEPTS}): the model's own output ("your
 *   reply"), directives, an override verb, a role set-up, a role marker, a reply verb, "the user",
 *   shouting, a code fence, a URL or an e-mail address, a question, the second person.
 *
 * The trainer (bench/src/risk/train.ts) and the detector use this one definition.
 */
import { normalise } from './characters.js';

/** Buckets of the hashed feature space: 2^17. */
export const FEATURE_BITS = 17;
/** Words of a sentence read at most (a long sentence's tail adds nothing the head did not). */
const MAX_TOKENS = 200;
/** Characters of a word read for its character grams. */
const MAX_WORD_CHARS = 40;
/** Weight of a character gram next to a word feature (there are many more of them). */
const GRAM_WEIGHT = 0.5;
/** Weight of a cue: they are few, and they are what carries across families. */
const CONCEPT_WEIGHT = 3;

const TOKEN = /\p{L}[\p{L}\p{M}\p{N}'_]*|\p{N}+|[^\s\p{L}\p{N}]/gu;
const WORD = /\p{L}[\p{L}\p{M}'-]*/gu;
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/u;

/** Cues that name what an injection addresses, matched on the normalised sentence. */
const CONCEPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['ai', /\b(?:ai|a\.i\.|assistant|chat ?bot|chatgpt|gpt[-\w.]*|llms?|language models?|model|bot|claude|gemini|copilot|bard)\b/],
  ['your-output', /\byour (?:responses?|repl(?:y|ies)|answers?|outputs?|messages?|completions?|summary|solution|code|codebase|implementation|elucidation|explanation|text|algorithm|script)\b/],
  ['directives', /\b(?:instructions?|prompts?|directives?|guidelines|system prompt|rules|programming)\b/],
  ['override', /\b(?:ignore|disregard|forget|override|bypass|nevermind|never mind)\b/],
  ['role', /\b(?:you are (?:now|going to|a|an|to)|act as|pretend|role ?-?play|from now on|you will (?:now )?(?:act|be|respond))\b/],
  ['system-marker', /(?:^|[\s#(\[<{|])(?:system|assistant|user|developer|admin)(?:[\s_-]*(?:message|prompt|instruction|note|override))?\s*[\]):>}|]/],
  ['say-verb', /\b(?:print|say|output|respond|reply|answer|repeat|write|display|show)\b/],
  ['the-user', /\bthe user(?:'s)?\b/],
  ['imperative-your-output', /^(?:please )?\p{L}+ (?:the |a |an )?.*\byour (?:responses?|repl(?:y|ies)|answers?|outputs?|messages?)\b/u],
];

export interface SparseFeatures {
  indices: Int32Array;
  values: Float32Array;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a of `text`, continued from `hash` (start: {@link FNV_OFFSET}); the result is unsigned. */
function fnv1a(text: string, hash = FNV_OFFSET): number {
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), FNV_PRIME);
  return hash >>> 0;
}

const GRAM_PREFIX = fnv1a('c:');

/** Hashes of the character 3- to 5-grams of one word, as fnv1a(`c:${gram}`) (none for a one-letter word outside CJK). */
function characterGramHashes(token: string, emit: (hash: number) => void): void {
  if (token.length < 2 && !CJK.test(token)) return;
  const padded = ` ${token.slice(0, MAX_WORD_CHARS)} `;
  for (let start = 0; start + 3 <= padded.length; start++) {
    let hash = GRAM_PREFIX;
    for (let length = 1; length <= 5 && start + length <= padded.length; length++) {
      hash = Math.imul(hash ^ padded.charCodeAt(start + length - 1), FNV_PRIME);
      if (length >= 3) emit(hash >>> 0);
    }
  }
}

/** The words of a normalised sentence as the model reads them (final punctuation dropped). */
function tokensOf(normalised: string): string[] {
  return (normalised.replace(/[\s.!?;:,]+$/u, '').match(TOKEN) ?? []).slice(0, MAX_TOKENS);
}

/** The words of a sentence as the model reads them (normalised, final punctuation dropped). */
export function sentenceTokens(sentence: string): string[] {
  return tokensOf(normalise(sentence));
}

const signedWeight = (hash: number, weights: Float32Array, mask: number) => (hash & 0x80000000 ? -1 : 1) * weights[hash & mask];

/**
 * How much one word pushes a sentence's score by itself (its unigram and character grams under
 * `weights`), for the explanation of a flag.
 */
export function wordWeight(token: string, weights: Float32Array, bits = FEATURE_BITS): number {
  const mask = (1 << bits) - 1;
  let sum = signedWeight(fnv1a(`w:${token}`), weights, mask);
  characterGramHashes(token, (hash) => (sum += GRAM_WEIGHT * signedWeight(hash, weights, mask)));
  return sum;
}

/** Scratch space of {@link sentenceFeatures}: one dense accumulator per feature width, and the buckets touched. */
const scratch = new Map<number, { sums: Float64Array; touched: Int32Array }>();

/** The hashed, L2-normalised features of one sentence. */
export function sentenceFeatures(sentence: string, bits = FEATURE_BITS): SparseFeatures {
  const mask = (1 << bits) - 1;
  let space = scratch.get(bits);
  if (space === undefined) {
    space = { sums: new Float64Array(1 << bits), touched: new Int32Array(1 << 12) };
    scratch.set(bits, space);
  }
  const { sums } = space;
  let touched = space.touched;
  let size = 0;
  const addHash = (hash: number, weight: number) => {
    const index = hash & mask;
    if (sums[index] === 0) {
      if (size === touched.length) {
        const grown = new Int32Array(touched.length * 2);
        grown.set(touched);
        touched = space.touched = grown;
      }
      touched[size++] = index;
    }
    sums[index] += hash & 0x80000000 ? -weight : weight;
    // A bucket that cancels to exactly zero stays listed (its value is 0, harmless).
    if (sums[index] === 0) sums[index] = Number.MIN_VALUE;
  };
  const add = (feature: string, weight = 1) => addHash(fnv1a(feature), weight);

  const text = normalise(sentence);
  const tokens = tokensOf(text);
  let previous = '<s>';
  for (const token of tokens) {
    add(`w:${token}`);
    add(`b:${previous} ${token}`);
    previous = token;
  }
  for (const token of tokens) {
    if (token.length < 2 && !CJK.test(token)) continue;
    const padded = ` ${token.length > MAX_WORD_CHARS ? token.slice(0, MAX_WORD_CHARS) : token} `;
    for (let start = 0; start + 3 <= padded.length; start++) {
      let hash = GRAM_PREFIX;
      const last = Math.min(5, padded.length - start);
      for (let length = 1; length <= last; length++) {
        hash = Math.imul(hash ^ padded.charCodeAt(start + length - 1), FNV_PRIME);
        if (length >= 3) addHash(hash >>> 0, GRAM_WEIGHT);
      }
    }
  }
  let letters = 0;
  let upper = 0;
  for (const character of sentence) {
    if (character.toLowerCase() !== character) {
      letters++;
      upper++;
    } else if (character.toUpperCase() !== character) letters++;
  }
  if (letters >= 8 && upper / letters > 0.7) add('s:shouting');
  const words = sentence.match(WORD) ?? [];
  if (words.length >= 2 && words.filter((word) => word[0].toLowerCase() !== word[0]).length >= 0.8 * words.length) add('s:title-case');
  if (sentence.includes('```')) add('s:fence');
  if (/https?:\/\/|www\./i.test(sentence)) add('s:url');
  if (sentence.includes('@') && /[\w.+-]+@[\w-]+\.[\w.]+/.test(sentence)) add('s:email');
  if (/\?\s*$/.test(sentence)) add('s:question');
  const you = (text.match(/\b(?:you|your|yours|yourself)\b/g) ?? []).length;
  if (you > 0) add(`s:you${Math.min(3, you)}`);
  for (const [name, pattern] of CONCEPTS) if (pattern.test(text)) add(`k:${name}`, CONCEPT_WEIGHT);

  const indices = touched.slice(0, size);
  const values = new Float32Array(size);
  let norm = 0;
  for (let index = 0; index < size; index++) {
    const value = sums[indices[index]];
    norm += value * value;
  }
  norm = Math.sqrt(norm) || 1;
  for (let index = 0; index < size; index++) {
    values[index] = sums[indices[index]] / norm;
    sums[indices[index]] = 0;
  }
  return { indices, values };
}

/** Words of a sentence, for the model's minimum (a heading or a name is no instruction). */
export function wordCount(sentence: string): number {
  return sentence.match(/\p{L}[\p{L}\p{N}'_-]*/gu)?.length ?? 0;
}

/** Whether a sentence is written in a script without spaces between words (its word count means little). */
export function isUnspacedScript(sentence: string): boolean {
  return CJK.test(sentence);
}
