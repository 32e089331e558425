/**
 * Lexical support: whether a passage shares at least one content word with the objective.
 *
 * Vector ranking always returns neighbours, even for a query nothing in the index is about, and
 * in hybrid mode a passage found only by its vector still scores. Such a passage is not evidence
 * for the objective, so outside semantic mode (where the caller asked for vector similarity
 * alone) a candidate needs lexical support to be considered: one of the objective's content
 * words (stop words dropped, lightly folded, terms excluded with a leading `-` ignored) in its
 * title or text. An objective with no content words supports everything.
 *
 * A model's vectors are another matter: the engine keeps a neighbour only above the model's
 * least similarity (VectorScoring.min_similarity), so a passage found by its vector alone is
 * about the objective in other words ("bike tire puncture" for "flat bicycle tyre"), and counts.
 */
import { contentWords } from './claims.js';
import type { EvidenceHit } from './types.js';

export function objectiveWords(objective: string): Set<string> {
  const kept = objective
    .split(/\s+/)
    .filter((term) => !term.startsWith('-'))
    .join(' ');
  return contentWords(kept);
}

export function hasLexicalSupport(words: Set<string>, hit: Pick<EvidenceHit, 'title' | 'snippet'>): boolean {
  if (words.size === 0) return true;
  const found = contentWords(`${hit.title} ${hit.snippet}`);
  for (const word of words) if (found.has(word)) return true;
  return false;
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
  const words = objectiveWords(objective);
  const kept = hits.filter((hit) => hasLexicalSupport(words, hit));
  return { hits: kept, dropped: hits.length - kept.length };
}
