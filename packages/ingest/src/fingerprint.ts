/**
 * Passage fingerprints for near-duplicate clustering: a MinHash signature over the word
 * 3-shingles of the normalised text (one-permutation hashing, densified) and a 64-bit hash of
 * the exact normalised token sequence. One pass over the characters, no regular expressions and
 * no intermediate strings: this runs on every passage.
 *
 * Normalisation (the same as `normaliseStoryText`, approximately): lowercase; letters and digits
 * make words; whitespace separates them; punctuation, symbols and zero-width characters are
 * dropped without separating (so `It's` is `its` and `clinical-stage` is `clinicalstage`).
 */
import { isSpace } from './words.js';

/** Bins of the one-permutation MinHash signature (one byte kept per bin). */
export const SIGNATURE_BINS = 32;
const BIN_SHIFT = 27; // 32 - log2(SIGNATURE_BINS)
const BIN_VALUE_MASK = (1 << BIN_SHIFT) - 1;
const EMPTY_BIN = 0xffffffff;

/** The fingerprints of a page's passages, flat: passage i owns signature bytes [32i, 32i+32). */
export interface Fingerprints {
  count: number;
  signatures: Uint8Array;
  /** Exact-text hash, two 32-bit halves per passage. */
  exactHi: Uint32Array;
  exactLo: Uint32Array;
  /** Words as `countWords` counts them (runs of non-space), taken in the same pass. */
  words: Uint32Array;
  /**
   * Normalised words: runs of letters and digits, as the shingles see them, plus one for every
   * two characters of a script written without spaces (CJK, kana, Thai, Lao), whose runs are
   * whole phrases. What a story's minimum length and a page's shared share are counted in.
   */
  tokens: Uint32Array;
}

/** murmur3's 32-bit finaliser: full avalanche in five operations. */
export function mix32(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** Simple lowercase mapping of every UTF-16 code unit (what `toLowerCase` does one unit at a time). */
const LOWER = (() => {
  const table = new Uint16Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    const lower = code >= 0xd800 && code <= 0xdfff ? code : String.fromCharCode(code).toLowerCase();
    table[code] = typeof lower === 'number' || lower.length !== 1 ? code : lower.charCodeAt(0);
  }
  return table;
})();

/** 0: separates words; 1: part of a word; 2: dropped. `code` is lowercased already. */
function characterClass(code: number): number {
  if (code < 128) {
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) return 1;
    return code === 32 || (code >= 9 && code <= 13) ? 0 : 2;
  }
  if (isSpace(code)) return 0;
  if (code <= 0xbf) return code === 0xaa || code === 0xb5 || code === 0xba ? 1 : 2;
  if (code === 0xd7 || code === 0xf7) return 2;
  // General punctuation, super/subscripts, currency, letterlike, arrows, maths, technical, boxes,
  // dingbats, misc symbols; CJK punctuation; surrogates (emoji and other astral symbols);
  // variation selectors and specials.
  if (code >= 0x2000 && code <= 0x2bff) return 2;
  if (code >= 0x3000 && code <= 0x303f) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 2;
  if (code >= 0xfe00 && code <= 0xfe0f) return 2;
  if (code >= 0xfff0) return 2;
  return 1;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Scratch bins, reused: fingerprints are computed one passage at a time on one thread. */
const bins = new Uint32Array(SIGNATURE_BINS);

function shingleHash(first: number, second: number, third: number): number {
  return mix32(Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca77) ^ third);
}

function addToBins(shingle: number): void {
  const bin = shingle >>> BIN_SHIFT;
  const value = shingle & BIN_VALUE_MASK;
  if (value < bins[bin]) bins[bin] = value;
}

/**
 * Fill empty bins from the first non-empty bin of a probe sequence that depends only on the
 * bin (optimal densification, Shrivastava 2017), so similar sets fill alike.
 */
function densifyInto(signatures: Uint8Array, offset: number): void {
  for (let bin = 0; bin < SIGNATURE_BINS; bin++) {
    let value = bins[bin];
    if (value === EMPTY_BIN) {
      for (let attempt = 1; ; attempt++) {
        const source = mix32(Math.imul(bin + 1, 0x9e3779b1) + Math.imul(attempt, 0x85ebca77)) >>> BIN_SHIFT;
        if (bins[source] !== EMPTY_BIN) {
          value = mix32(bins[source] ^ Math.imul(bin + 1, 0x27d4eb2f));
          break;
        }
      }
    }
    signatures[offset + bin] = value & 0xff;
  }
}

/** Fingerprint passage `index` of `into` from `text`. */
function fingerprintInto(text: string, into: Fingerprints, index: number): void {
  bins.fill(EMPTY_BIN);
  let first = 0;
  let second = 0;
  let word = FNV_OFFSET;
  let inWord = false;
  let tokens = 0;
  /** Characters of scripts written without spaces. */
  let unspaced = 0;
  /** Runs of non-space, for the word count. */
  let runs = 0;
  let inRun = false;
  let exactHi = 0x6a09e667;
  let exactLo = 0xbb67ae85;
  const length = text.length;
  for (let position = 0; position <= length; position++) {
    let code = 32;
    if (position < length) {
      code = text.charCodeAt(position);
      // ASCII letters and digits are nearly every character: decide them without a call.
      if (code >= 97 ? code <= 122 : code >= 65 ? code <= 90 : code >= 48 && code <= 57) {
        word = Math.imul(word ^ (code | (code <= 90 ? 0x20 : 0)), FNV_PRIME);
        inWord = true;
        if (!inRun) {
          runs++;
          inRun = true;
        }
        continue;
      }
      if (code !== 32) {
        code = LOWER[code];
        const kind = characterClass(code);
        if (kind !== 0 && !inRun) {
          runs++;
          inRun = true;
        }
        if (kind === 1) {
          if ((code >= 0x3040 && code <= 0x9fff) || (code >= 0x0e00 && code <= 0x0eff) || (code >= 0xf900 && code <= 0xfaff)) unspaced++;
          word = Math.imul(word ^ code, FNV_PRIME);
          inWord = true;
          continue;
        }
        if (kind === 2) continue;
      }
    }
    inRun = false;
    if (!inWord) continue;
    const wordHash = word >>> 0;
    tokens++;
    exactHi = Math.imul((exactHi << 5) | (exactHi >>> 27), 0x9e3779b1) ^ wordHash;
    exactLo = Math.imul((exactLo << 7) | (exactLo >>> 25), 0x85ebca77) ^ mix32(wordHash ^ 0x5bd1e995);
    if (tokens >= 3) addToBins(shingleHash(first, second, wordHash));
    first = second;
    second = wordHash;
    word = FNV_OFFSET;
    inWord = false;
  }
  into.words[index] = runs;
  into.tokens[index] = tokens + (unspaced >>> 1);
  if (tokens < 3) {
    // Too short for a 3-shingle: the whole token sequence is the one shingle (or, with no
    // letters or digits at all, the raw text), so such passages only match exact copies.
    let raw = FNV_OFFSET;
    if (tokens === 0) for (let position = 0; position < length; position++) raw = Math.imul(raw ^ LOWER[text.charCodeAt(position)], FNV_PRIME);
    const shingle = shingleHash(first, second, raw ^ tokens);
    addToBins(shingle);
    if (tokens === 0) {
      exactHi ^= shingle;
      exactLo ^= mix32(shingle);
    }
  }
  densifyInto(into.signatures, index * SIGNATURE_BINS);
  into.exactHi[index] = mix32(exactHi ^ tokens);
  into.exactLo[index] = mix32(exactLo + Math.imul(tokens, 0x27d4eb2f));
}

/** Room for `count` passages, reusing `into` when it is large enough. */
function fingerprintsFor(count: number, into: Fingerprints | undefined): Fingerprints {
  if (into !== undefined && into.exactHi.length >= count) {
    into.count = count;
    return into;
  }
  const capacity = Math.max(count, into === undefined ? 0 : into.exactHi.length * 2);
  return {
    count,
    signatures: new Uint8Array(capacity * SIGNATURE_BINS),
    exactHi: new Uint32Array(capacity),
    exactLo: new Uint32Array(capacity),
    words: new Uint32Array(capacity),
    tokens: new Uint32Array(capacity),
  };
}

/**
 * Fingerprints of `texts`, in order. With `into`, its arrays are reused when large enough (the
 * result is then `into`, overwritten by the next call): a run fingerprints every page.
 */
export function fingerprintTexts(texts: readonly string[], into?: Fingerprints): Fingerprints {
  const fingerprints = fingerprintsFor(texts.length, into);
  for (let index = 0; index < texts.length; index++) fingerprintInto(texts[index], fingerprints, index);
  return fingerprints;
}

/** Equal bytes of two 32-bit words: the zero bytes of their xor. */
function equalBytes(left: number, right: number): number {
  const difference = left ^ right;
  let zeroBytes = ~(((difference & 0x7f7f7f7f) + 0x7f7f7f7f) | difference | 0x7f7f7f7f);
  zeroBytes >>>= 7;
  // One bit per zero byte, at bits 0, 8, 16, 24: sum them.
  return (Math.imul(zeroBytes & 0x01010101, 0x01010101) >>> 24) & 0xff;
}

/** Estimated Jaccard similarity of two signatures (fraction of equal bins, corrected for byte collisions). */
export function estimatedJaccard(left: Uint8Array, leftOffset: number, right: Uint8Array, rightOffset: number): number {
  let equal = 0;
  for (let bin = 0; bin < SIGNATURE_BINS; bin += 4) {
    const leftWord = left[leftOffset + bin] | (left[leftOffset + bin + 1] << 8) | (left[leftOffset + bin + 2] << 16) | (left[leftOffset + bin + 3] << 24);
    const rightWord = right[rightOffset + bin] | (right[rightOffset + bin + 1] << 8) | (right[rightOffset + bin + 2] << 16) | (right[rightOffset + bin + 3] << 24);
    equal += equalBytes(leftWord, rightWord);
  }
  const chance = 1 / 256;
  return Math.max(0, (equal / SIGNATURE_BINS - chance) / (1 - chance));
}

const HEX_BYTE = Array.from({ length: 256 }, (_, value) => value.toString(16).padStart(2, '0'));

/** Eight lowercase hex digits. */
export function hex32(value: number): string {
  return HEX_BYTE[value >>> 24] + HEX_BYTE[(value >>> 16) & 0xff] + HEX_BYTE[(value >>> 8) & 0xff] + HEX_BYTE[value & 0xff];
}

let titleFingerprint: Fingerprints | undefined;

/**
 * The 64-bit hash of a page: its normalised title and its passages' hashes in order. Pages equal
 * once normalised, and only those (up to hash collisions), hash alike.
 */
export function pageHash(title: string, fingerprints: Fingerprints): { hi: number; lo: number } {
  titleFingerprint = fingerprintTexts([title], titleFingerprint);
  let hi = mix32(0x3c6ef372 ^ fingerprints.count ^ titleFingerprint.exactHi[0]);
  let lo = mix32(0xa54ff53a ^ Math.imul(fingerprints.count, 0x9e3779b1) ^ titleFingerprint.exactLo[0]);
  for (let index = 0; index < fingerprints.count; index++) {
    hi = mix32(Math.imul((hi << 5) | (hi >>> 27), 0x9e3779b1) ^ fingerprints.exactHi[index]);
    lo = mix32(Math.imul((lo << 7) | (lo >>> 25), 0x85ebca77) ^ fingerprints.exactLo[index]);
  }
  return { hi, lo };
}
