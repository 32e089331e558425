/**
 * Claim relation (experimental, SPEC 2.6): how a passage relates to a claim, from cues only. No
 * model reads anything; this is a lexical heuristic and is labelled experimental everywhere.
 *
 * 1. The claim's content words (lower case, stop words and negation words left out, a light
 *    plural/verb-ending fold) are looked for in each sentence of the passage.
 * 2. The sentence sharing the largest share of them is the one judged; below half of the claim's
 *    content words (or fewer than two, when the claim has two or more) the relation is
 *    `unresolved`.
 * 3. A negation cue (not, never, no evidence, denied, false, ...) in that sentence but not in the
 *    claim, or in the claim but not in the sentence, makes it `contradicts`; otherwise a hedge
 *    cue (may, might, preliminary, only if, however, ...) makes it `qualifies`; otherwise
 *    `supports`.
 * 4. Confidence grows with the overlap and stays at or below 0.8: cues are weak evidence.
 */
import type { ClaimRelation } from '@evidence/schemas';
import { splitSentences } from './risk.js';
import { round } from './hits.js';

export interface ClaimJudgement {
  relation: ClaimRelation;
  confidence: number;
  /** The sentence judged, when one shared enough content words. */
  sentence?: string;
}

const STOP_WORDS = new Set(
  (
    'a an the and or of to in on at by for with from as is are was were be been being it its this that these those there their they them he she his her ' +
    'we our you your i me my which who whom whose what when where why how than then so such into over under about after before between during ' +
    'has have had do does did will would shall should can could may might must also only just very more most some any all each both few other ' +
    'up down out off again further once here same own too s t'
  ).split(' '),
);

const NEGATION_WORDS = new Set([
  'not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without',
  "can't", "won't", "isn't", "aren't", "wasn't", "weren't", "doesn't", "don't", "didn't", "hasn't", "haven't", "hadn't",
  "shouldn't", "wouldn't", "couldn't", 'cant', 'wont', 'isnt', 'arent', 'wasnt', 'werent', 'doesnt', 'dont', 'didnt',
]);

const NEGATION_CUE =
  /\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without|(?:ca|wo|is|are|was|were|does|do|did|has|have|had|should|would|could)n['’]?t|fail(?:s|ed)? to|lacks?|absence of|den(?:y|ies|ied)|refut(?:e|es|ed)|debunk(?:s|ed)?|disprov(?:e|es|ed)|false|untrue|incorrect|myth|contrary to|no evidence)\b/i;
const HEDGE_CUE =
  /\b(?:may|might|could|possibly|perhaps|likely|unlikely|suggests?|suggested|preliminary|partial(?:ly)?|in part|limited|unclear|uncertain|mixed|modest|only if|unless|except|however|although|though|but|depends?|depending|in some cases|not yet|early (?:data|evidence|results))\b/i;

function fold(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|us|is)$/.test(word)) return word;
  if (word.length > 3 && word.endsWith('s')) return word.slice(0, -1);
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  return word;
}

/** Whether a lower-cased word carries content: three letters or more, neither a stop word nor a negation. */
export function isContentWord(word: string): boolean {
  return word.length >= 3 && !STOP_WORDS.has(word) && !NEGATION_WORDS.has(word);
}

/** Content words of a text: lower-cased, stop and negation words dropped, lightly folded. */
export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const raw of text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}'’]+/u)) {
    const word = raw.replace(/^['’]+|['’]+$/g, '');
    if (!isContentWord(word)) continue;
    words.add(fold(word));
  }
  return words;
}

export function hasNegation(text: string): boolean {
  return NEGATION_CUE.test(text);
}

export function hasHedge(text: string): boolean {
  return HEDGE_CUE.test(text);
}

/** The relation of `text` to `claim` (see the module comment). */
export function judgeClaim(claim: string, text: string): ClaimJudgement {
  const claimWords = contentWords(claim);
  if (claimWords.size === 0) return { relation: 'unresolved', confidence: 0 };
  const needed = claimWords.size >= 2 ? Math.max(2, Math.ceil(claimWords.size / 2)) : 1;
  let best: { sentence: string; shared: number } | null = null;
  for (const sentence of splitSentences(text)) {
    const words = contentWords(sentence);
    let shared = 0;
    for (const word of claimWords) if (words.has(word)) shared++;
    if (!best || shared > best.shared) best = { sentence, shared };
  }
  const overlap = best ? best.shared / claimWords.size : 0;
  if (!best || best.shared < needed) return { relation: 'unresolved', confidence: round(0.3 * overlap) };
  const claimNegated = hasNegation(claim);
  const sentenceNegated = hasNegation(best.sentence);
  if (claimNegated !== sentenceNegated) return { relation: 'contradicts', confidence: round(Math.min(0.8, 0.35 + 0.35 * overlap)), sentence: best.sentence };
  if (hasHedge(best.sentence) && !hasHedge(claim)) return { relation: 'qualifies', confidence: round(Math.min(0.8, 0.3 + 0.3 * overlap)), sentence: best.sentence };
  return { relation: 'supports', confidence: round(Math.min(0.8, 0.4 + 0.4 * overlap)), sentence: best.sentence };
}
