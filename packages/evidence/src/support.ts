/**
 * Lexical support: whether a passage shares at least one content word with the objective.
 *
 * Vector ranking always returns neighbours, even for a query nothing in the index is about, and
 * in hybrid mode a passage found only by its vector still scores. Such a passage is not evidence
 * for the objective, so outside semantic mode (where the caller asked for vector similarity
 * alone) a candidate needs lexical support to be considered: one of the objective's content
 * words (stop words, negations and words under three letters dropped, terms excluded with a
 * leading `-` ignored) in its title or text. An objective with no content words supports
 * everything.
 *
 * Words match as the index matches them: the engine's analyser (crates/engine analyzer.rs:
 * lower-cased, ASCII-folded, Snowball-stemmed) gives the objective's terms and reads the
 * passages, so "running" finds "runs" and "café" finds "cafe", as the search that found them did.
 *
 * Coverage (`objectiveCoverage`): which share of the objective's words a candidate holds, each
 * word weighted by how rare it is among the candidates (a word most candidates hold, "work",
 * "people", "program", says little; one few hold, "WeWork", "Mastodon", "Taliban", says what the
 * objective is about). Ground counts an origin towards its bar only when its candidate holds at
 * least half the coverage of the best-covered candidate (analysis.ts, BEARING_COVERAGE): a
 * page that shares one common word of the question is not evidence for it. Measured, like the
 * word test, only where the word test applies (not in semantic mode nor with a model's vectors).
 *
 * Corroborate's near-paraphrases are counted the same way (`termsHeld`: how many of a passage's
 * content terms another passage holds).
 *
 * A model's vectors are another matter: the engine keeps a neighbour only above the model's
 * least similarity (VectorScoring.min_similarity), so a passage found by its vector alone is
 * about the objective in other words ("bike tire puncture" for "flat bicycle tyre"), and counts.
 */
import { analyseWords, textsHoldingTerms } from '@evidence/native';
import { isContentWord } from './claims.js';
import type { EvidenceHit } from './types.js';

/** A text's content words as the index holds them (their terms), in order, once each. */
export function contentTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const { word, term } of analyseWords(text)) if (isContentWord(word)) terms.add(term);
  return [...terms];
}

/** The objective's content words as the index holds them (its terms), in order, once each. */
export function objectiveTerms(objective: string): string[] {
  const kept = objective
    .split(/\s+/)
    .filter((term) => !term.startsWith('-'))
    .join(' ');
  return contentTerms(kept);
}

/** For each text, how many of `terms` (indexed terms, as `contentTerms` gives them) it holds. */
export function termsHeld(terms: string[], texts: string[]): number[] {
  if (terms.length === 0) return texts.map(() => 0);
  return texts.map((text) => {
    const held = new Set(analyseWords(text).map((word) => word.term));
    return terms.reduce((count, term) => count + Number(held.has(term)), 0);
  });
}

/** Whether the word test applies: not in semantic mode, nor in hybrid mode when the vectors come from a model (a paraphrase there may hold other words). */
function wordTestApplies(mode: string, vectorsMatch: boolean): boolean {
  return mode !== 'semantic' && !(vectorsMatch && mode === 'hybrid');
}

/**
 * The hits with lexical support (all of them in semantic mode, or when the vectors come from a
 * model: `vectorsMatch`), and how many were dropped.
 */
export function supportedHits<Hit extends Pick<EvidenceHit, 'title' | 'snippet'>>(
  objective: string,
  mode: string,
  hits: Hit[],
  vectorsMatch = false,
): { hits: Hit[]; dropped: number } {
  if (!wordTestApplies(mode, vectorsMatch)) return { hits, dropped: 0 };
  const terms = objectiveTerms(objective);
  if (terms.length === 0 || hits.length === 0) return { hits, dropped: 0 };
  const holding = textsHoldingTerms(
    terms,
    hits.map((hit) => `${hit.title} ${hit.snippet}`),
  );
  const kept = hits.filter((_, index) => holding[index]);
  return { hits: kept, dropped: hits.length - kept.length };
}

/**
 * For each hit, the share of the objective's content terms it holds (title and text), each term
 * weighted by its rarity among these hits, ln(1 + n / (1 + holders)); null where the word test
 * does not apply (semantic mode, a model's vectors: see `supportedHits`) or the objective has no
 * content word. See the module comment.
 */
export function objectiveCoverage<Hit extends Pick<EvidenceHit, 'title' | 'snippet'>>(
  objective: string,
  mode: string,
  hits: Hit[],
  vectorsMatch = false,
): number[] | null {
  if (!wordTestApplies(mode, vectorsMatch)) return null;
  const terms = objectiveTerms(objective);
  if (terms.length === 0 || hits.length === 0) return null;
  const held = hits.map((hit) => new Set(analyseWords(`${hit.title} ${hit.snippet}`).map((word) => word.term)));
  const weights = terms.map((term) => Math.log(1 + hits.length / (1 + held.filter((words) => words.has(term)).length)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return held.map((words) => terms.reduce((sum, term, index) => sum + (words.has(term) ? weights[index] : 0), 0) / total);
}
