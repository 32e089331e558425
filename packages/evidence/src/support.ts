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
  if (mode === 'semantic' || (vectorsMatch && mode === 'hybrid')) return { hits, dropped: 0 };
  const terms = objectiveTerms(objective);
  if (terms.length === 0 || hits.length === 0) return { hits, dropped: 0 };
  const holding = textsHoldingTerms(
    terms,
    hits.map((hit) => `${hit.title} ${hit.snippet}`),
  );
  const kept = hits.filter((_, index) => holding[index]);
  return { hits: kept, dropped: hits.length - kept.length };
}
