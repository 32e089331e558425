/**
 * quality: how much a page's text reads like prose written for people (0 to 100, SPEC's integer
 * quality scale; the old constant default was 50), from the published web-text quality
 * heuristics, when the record does not say:
 *
 * - Gopher quality filter (Rae et al. 2021, "Scaling Language Models", appendix A): 50 to
 *   100,000 words; mean word length 3 to 10 characters; symbol-to-word ratio (`#`, `...`) at most
 *   0.1; at most 90% of lines starting with a bullet, at most 30% ending with an ellipsis; at
 *   least 80% of words with a letter; at least 2 of the stop words the, be, to, of, and, that,
 *   have, with.
 * - Gopher repetition filter: at most 30% of lines duplicated, at most 20% of characters in
 *   duplicated lines.
 * - C4 (Raffel et al. 2020): lines that end in terminal punctuation; no `lorem ipsum`, no
 *   `{` (code or templates in prose), no `javascript` notices.
 * - FineWeb (Penedo et al. 2024): at least 12% of lines ending in punctuation, at most 67% of
 *   lines shorter than 30 characters (boilerplate: menus, buttons, link lists).
 *
 * Each check gives a part score in 0..1 (a page that passes the paper's bound scores at least
 * 0.6 to 0.7 on it and more the further inside it is: longer, more stop words, fewer short or
 * duplicated lines; falling linearly to 0 outside it) and the score is the weighted mean times
 * 100, so it orders pages rather than only cutting them. Text in languages without spaces and short passage records fail the length and
 * stop-word checks: a low score there says "few grounds", not "bad".
 */
import { fromRecord, type Derived } from './derived.js';

/** Bounds as the papers set them. */
export const GOPHER = {
  minWords: 50,
  maxWords: 100_000,
  minMeanWordLength: 3,
  maxMeanWordLength: 10,
  maxSymbolRatio: 0.1,
  maxBulletLines: 0.9,
  maxEllipsisLines: 0.3,
  minAlphabeticWords: 0.8,
  minStopwords: 2,
  maxDuplicateLines: 0.3,
  maxDuplicateLineChars: 0.2,
} as const;
export const FINEWEB = { minPunctuatedLines: 0.12, maxShortLines: 0.67, shortLineChars: 30 } as const;

const GOPHER_STOPWORDS = new Set(['the', 'be', 'to', 'of', 'and', 'that', 'have', 'with']);
const BULLET = /^\s*(?:[-*•‣◦▪●–]|\d+[.)])\s/;
const TERMINAL = /[.!?"'”’)\]]$/;
const ELLIPSIS = /(?:\.\.\.|…)$/;
const WORD = /\S+/g;
const HAS_LETTER = /\p{L}/u;

/** 1 inside [low, high]; falling linearly to 0 at `slack` times the bound's distance outside. */
function within(value: number, low: number, high: number, slack: number): number {
  if (value < low) return Math.max(0, 1 - (low - value) / (low * slack || 1));
  if (value > high) return Math.max(0, 1 - (value - high) / (high * slack || 1));
  return 1;
}

export interface QualityChecks {
  words: number;
  meanWordLength: number;
  symbolRatio: number;
  bulletLines: number;
  ellipsisLines: number;
  alphabeticWords: number;
  stopwords: number;
  duplicateLines: number;
  duplicateLineChars: number;
  punctuatedLines: number;
  shortLines: number;
  boilerplateMarkers: number;
}

/** A page's first characters stand for it: the checks are ratios, and this bounds their cost. */
export const MAX_SCORED_CHARS = 50_000;

export function qualityChecks(fullText: string): QualityChecks {
  const text = fullText.length > MAX_SCORED_CHARS ? fullText.slice(0, MAX_SCORED_CHARS) : fullText;
  const lines = text
    .split(/\n+/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const words = text.match(WORD) ?? [];
  let letters = 0;
  let alphabetic = 0;
  const stopwords = new Set<string>();
  for (const word of words) {
    letters += word.length;
    if (HAS_LETTER.test(word)) alphabetic++;
    // The stop words are 2 to 4 letters: only short words (with their punctuation) can be one.
    if (word.length <= 6 && stopwords.size < GOPHER_STOPWORDS.size) {
      const lower = word.toLowerCase().replace(/[^a-z]/g, '');
      if (GOPHER_STOPWORDS.has(lower)) stopwords.add(lower);
    }
  }
  const symbols = (text.match(/#/g)?.length ?? 0) + (text.match(/\.\.\.|…/g)?.length ?? 0);
  const seen = new Map<string, number>();
  for (const line of lines) seen.set(line, (seen.get(line) ?? 0) + 1);
  let duplicateLines = 0;
  let duplicateChars = 0;
  let allChars = 0;
  for (const line of lines) allChars += line.length;
  for (const [line, count] of seen) {
    if (count < 2) continue;
    duplicateLines += count;
    duplicateChars += line.length * (count - 1);
  }
  const lineCount = Math.max(1, lines.length);
  const lower = text.toLowerCase();
  return {
    words: text === fullText ? words.length : Math.round((words.length * fullText.length) / text.length),
    meanWordLength: words.length > 0 ? letters / words.length : 0,
    symbolRatio: words.length > 0 ? symbols / words.length : 0,
    bulletLines: lines.filter((line) => BULLET.test(line)).length / lineCount,
    ellipsisLines: lines.filter((line) => ELLIPSIS.test(line)).length / lineCount,
    alphabeticWords: words.length > 0 ? alphabetic / words.length : 0,
    stopwords: stopwords.size,
    duplicateLines: duplicateLines / lineCount,
    duplicateLineChars: allChars > 0 ? duplicateChars / allChars : 0,
    punctuatedLines: lines.filter((line) => TERMINAL.test(line)).length / lineCount,
    shortLines: lines.filter((line) => line.length < FINEWEB.shortLineChars).length / lineCount,
    boilerplateMarkers: (lower.includes('lorem ipsum') ? 1 : 0) + (lower.includes('{') ? 1 : 0) + (/enable javascript|javascript is (?:disabled|required)/.test(lower) ? 1 : 0),
  };
}

/** Inside a "lower is better" bound: 1 at zero, LOWER_IS_BETTER_FLOOR at the bound, then falling to 0. */
function lowerIsBetter(value: number, high: number, slack: number): number {
  if (value <= high) return 1 - (1 - LOWER_IS_BETTER_FLOOR) * (value / (high || 1));
  return LOWER_IS_BETTER_FLOOR * within(value, 0, high, slack);
}
const LOWER_IS_BETTER_FLOOR = 0.7;
/** Words at which the length check gives full marks (a short article); 50 words (Gopher's floor) give 0.6. */
const FULL_LENGTH_WORDS = 1000;

/** Each check's weight and part score (0..1): 1 is the best a page can do, the papers' bounds sit below it. */
function partScores(checks: QualityChecks): Array<[number, number]> {
  const length = checks.words < GOPHER.minWords ? within(checks.words, GOPHER.minWords, GOPHER.maxWords, 1) * 0.6 : checks.words > GOPHER.maxWords ? within(checks.words, GOPHER.minWords, GOPHER.maxWords, 1) : Math.min(1, 0.6 + (0.4 * Math.log(checks.words / GOPHER.minWords)) / Math.log(FULL_LENGTH_WORDS / GOPHER.minWords));
  return [
    [3, length],
    [1, within(checks.meanWordLength, GOPHER.minMeanWordLength, GOPHER.maxMeanWordLength, 0.5)],
    [1, lowerIsBetter(checks.symbolRatio, GOPHER.maxSymbolRatio, 1)],
    [1, lowerIsBetter(checks.bulletLines, GOPHER.maxBulletLines, 0.1)],
    [1, lowerIsBetter(checks.ellipsisLines, GOPHER.maxEllipsisLines, 1)],
    [1, within(checks.alphabeticWords, GOPHER.minAlphabeticWords, 1, 1)],
    // Gopher asks for 2 of its 8 stop words; prose in English has most of them.
    [2, 0.6 * Math.min(1, checks.stopwords / GOPHER.minStopwords) + 0.4 * (checks.stopwords / GOPHER_STOPWORDS.size)],
    [1, lowerIsBetter(checks.duplicateLines, GOPHER.maxDuplicateLines, 1)],
    [1, lowerIsBetter(checks.duplicateLineChars, GOPHER.maxDuplicateLineChars, 1)],
    [2, within(checks.punctuatedLines, FINEWEB.minPunctuatedLines, 1, 1) * (0.5 + 0.5 * checks.punctuatedLines)],
    [2, lowerIsBetter(checks.shortLines, FINEWEB.maxShortLines, 0.5)],
    [1, checks.boilerplateMarkers === 0 ? 1 : 0],
  ];
}

export function qualityScore(text: string): number {
  let sum = 0;
  let weights = 0;
  for (const [weight, score] of partScores(qualityChecks(text))) {
    sum += weight * score;
    weights += weight;
  }
  return Math.round((100 * sum) / weights);
}

export function deriveQuality(text: string, declared?: number): Derived<number> {
  if (declared !== undefined) return fromRecord(declared);
  const score = qualityScore(text);
  return { value: score, source: 'derived', confidence: 1, reason: 'Gopher, C4 and FineWeb heuristics' };
}
