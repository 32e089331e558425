/**
 * Restatement: whether a text restates a sentence, says the opposite or hedges it, from cues.
 * Corroborate asks this without a claim (corroboration.ts `judgeAgainstPassage`: does a copy or
 * near-paraphrase confirm what the seed passage says?); it was ground's claim relation before the
 * model (claims.ts), and `npm run bench:claims` measures it beside the model as the baseline.
 *
 * 1. The sentence of the text sharing the most of the statement's content words is judged; below
 *    half of them (or fewer than two, when the statement has two or more) it is `unresolved`.
 * 2. A negation cue in that sentence but not in the statement, or the reverse: `contradicts`;
 *    otherwise a hedge cue (may, might, preliminary, however, ...) in it and not in the
 *    statement: `qualifies`; otherwise `supports`.
 * 3. Confidence grows with the overlap and stays at or below 0.8: cues are weak evidence.
 */
import type { ClaimRelation, RelationSentence } from '@evidence/schemas';
import { sentenceSpans } from '../risk.js';
import { round } from '../hits.js';
import { contentWords } from './words.js';

export interface Restatement {
  relation: ClaimRelation;
  confidence: number;
  /** The sentence judged, with its offsets in the text, when one shared enough content words. */
  sentence?: RelationSentence;
}

const NEGATION_CUE =
  /\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without|(?:ca|wo|is|are|was|were|does|do|did|has|have|had|should|would|could)n['’]?t|fail(?:s|ed)? to|lacks?|absence of|den(?:y|ies|ied)|refut(?:e|es|ed)|debunk(?:s|ed)?|disprov(?:e|es|ed)|false|untrue|incorrect|myth|contrary to|no evidence)\b/i;
const HEDGE_CUE =
  /\b(?:may|might|could|possibly|perhaps|likely|unlikely|suggests?|suggested|preliminary|partial(?:ly)?|in part|limited|unclear|uncertain|mixed|modest|only if|unless|except|however|although|though|but|depends?|depending|in some cases|not yet|early (?:data|evidence|results))\b/i;

export function judgeRestatement(statement: string, text: string): Restatement {
  const statementWords = contentWords(statement);
  if (statementWords.size === 0) return { relation: 'unresolved', confidence: 0 };
  const needed = statementWords.size >= 2 ? Math.max(2, Math.ceil(statementWords.size / 2)) : 1;
  let best: { sentence: string; shared: number; start: number } | null = null;
  for (const { start, end } of sentenceSpans(text)) {
    const sentence = text.slice(start, end);
    const words = contentWords(sentence);
    let shared = 0;
    for (const word of statementWords) if (words.has(word)) shared++;
    if (!best || shared > best.shared) best = { sentence, shared, start };
  }
  const overlap = best ? best.shared / statementWords.size : 0;
  if (!best || best.shared < needed) return { relation: 'unresolved', confidence: round(0.3 * overlap) };
  const sentence = { start: best.start, end: best.start + best.sentence.length, text: best.sentence };
  if (NEGATION_CUE.test(statement) !== NEGATION_CUE.test(best.sentence)) return { relation: 'contradicts', confidence: round(Math.min(0.8, 0.35 + 0.35 * overlap)), sentence };
  if (HEDGE_CUE.test(best.sentence) && !HEDGE_CUE.test(statement)) return { relation: 'qualifies', confidence: round(Math.min(0.8, 0.3 + 0.3 * overlap)), sentence };
  return { relation: 'supports', confidence: round(Math.min(0.8, 0.4 + 0.4 * overlap)), sentence };
}
