/**
 * Polarity pairs: a second feature family for the claim relation, measured by `npm run
 * bench:claims` (claims/pair-model.ts) and not shipped: on the held-out half its supports were no
 * more precise than the six-cue model's, and most of its cross-validated gain is also reached by
 * {@link claimPolarity} alone, a prior on how the claim is worded (README, "Claim relation"). Where the service's cues (packages/evidence
 * claims/features.ts) ask fixed questions ("does the passage hold an antonym of
 * a claim word?"), these pair what the claim says with what the sentences bearing on it say and
 * let the model learn which pairings agree:
 *
 * - pair_<claim>_<sentence>: the claim holds a polarity word of one class and the
 *   {@link PAIR_SENTENCES} best-aligned sentences one of another. Classes: `up` (the cues' UP_WORD:
 *   increases, higher, promotes ...), `down` (DOWN_WORD: reduces, lower, inhibits ...), `antonym`
 *   (another word of the antonym list: associated, necessary, early ...), `negation` (not, no,
 *   lacking, fails ...); each of up, down and antonym also `negated` when a negation opens its
 *   clause up to {@link NEGATION_SCOPE} words before it ("did not increase" is up_negated). 7 x 7
 *   pairs (a negation word is not itself negated).
 * - polar_word_same: a polarity word (by its antonym-list start, else its first seven letters)
 *   of the claim is in those sentences with the same negation scope; polar_word_negation_differs:
 *   it is there, negated in one and not the other.
 * - number_same: a number of the claim (a quantity: 26, 0.5, 32441; not the digits of a name such
 *   as CD4) is in those sentences; number_differs: the claim has numbers, those sentences have
 *   others and none of the claim's ("$5 billion" against "$750 million").
 *
 * Each is 0 or 1. Like the cues, none reads the claim alone: each pairs it with the passage.
 */
import { antonymStart, DOWN_WORD, UP_WORD, type AlignedSentence } from '@evidence/evidence';

/** Best-aligned sentences the pairs read (three measured better than two under cross-validation). */
export const PAIR_SENTENCES = 3;
/** Words after a negation that it scopes over, within its clause. */
export const NEGATION_SCOPE = 4;

const NEGATION_WORD = /^(?:not|no|never|none|neither|nor|cannot|without|fail|fails|failed|lack|lacks|lacking|lacked|absence|absent|unable)$/;

const POLAR_CLASSES = ['up', 'down', 'antonym'] as const;
export const PAIR_CLASSES = [...POLAR_CLASSES.flatMap((name) => [name, `${name}_negated`]), 'negation'] as const;

export const PAIR_FEATURES = [
  ...PAIR_CLASSES.flatMap((claim) => PAIR_CLASSES.map((sentence) => `pair_${claim}_${sentence}`)),
  'polar_word_same',
  'polar_word_negation_differs',
  'number_same',
  'number_differs',
] as const;

interface PolarWord {
  /** The antonym-list start, else the first seven letters; 'not' for a negation word. */
  word: string;
  /** Its class in PAIR_CLASSES. */
  kind: string;
  negated: boolean;
}

/** The polarity words of a text, with their class and whether a negation scopes over them. */
export function polarWords(text: string): PolarWord[] {
  const tokens = text.toLowerCase().replace(/n['’]t\b/g, ' not').match(/[a-z][a-z-]*|[.,;:!?()]/g) ?? [];
  const found: PolarWord[] = [];
  let scopeEnd = -1;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (!/^[a-z]/.test(token)) {
      scopeEnd = -1;
      continue;
    }
    if (NEGATION_WORD.test(token)) {
      scopeEnd = index + NEGATION_SCOPE;
      found.push({ word: 'not', kind: 'negation', negated: false });
      continue;
    }
    const start = antonymStart(token);
    const polar = UP_WORD.test(token) ? 'up' : DOWN_WORD.test(token) ? 'down' : start !== undefined ? 'antonym' : undefined;
    if (polar === undefined) continue;
    const negated = index <= scopeEnd;
    found.push({ word: start ?? token.slice(0, 7), kind: negated ? `${polar}_negated` : polar, negated });
  }
  return found;
}

/** A number standing alone: not inside a name (CD4, IL-6) nor a decimal's tail; "26-week" counts. */
const QUANTITY = /(?<![\p{L}\d.]|[\p{L}\d]-)\d+(?:\.\d+)?(?![\p{L}\d])/gu;

/** The quantities of a text (thousands separators dropped), as numbers. */
export function quantities(text: string): Set<number> {
  return new Set((text.replace(/(\d),(?=\d{3}\b)/g, '$1').match(QUANTITY) ?? []).map(Number));
}

/**
 * Which polarity classes the claim holds, in PAIR_CLASSES order, each 0 or 1: read from the claim
 * alone. Not a feature of any model: bench:claims fits it beside the cues to measure how much of
 * the pairs' gain a prior on the claim's wording already gives.
 */
export function claimPolarity(claim: string): number[] {
  const kinds = new Set(polarWords(claim).map((word) => word.kind));
  return PAIR_CLASSES.map((kind) => Number(kinds.has(kind)));
}

/** The pair features of `claim` against its best-aligned sentences `aligned` (best first), in PAIR_FEATURES order. */
export function pairFeatures(claim: string, aligned: readonly AlignedSentence[]): number[] {
  const text = aligned
    .slice(0, PAIR_SENTENCES)
    .map((sentence) => sentence.text)
    .join(' ');
  const claimWords = polarWords(claim);
  const sentenceWords = polarWords(text);
  const on = new Set<string>();
  for (const left of claimWords) {
    for (const right of sentenceWords) {
      on.add(`pair_${left.kind}_${right.kind}`);
      if (left.kind === 'negation' || right.kind === 'negation' || left.word !== right.word) continue;
      on.add(left.negated === right.negated ? 'polar_word_same' : 'polar_word_negation_differs');
    }
  }
  const claimNumbers = quantities(claim);
  const sentenceNumbers = quantities(text);
  if (claimNumbers.size > 0) {
    if ([...claimNumbers].some((number) => sentenceNumbers.has(number))) on.add('number_same');
    else if (sentenceNumbers.size > 0) on.add('number_differs');
  }
  return PAIR_FEATURES.map((name) => Number(on.has(name)));
}
