/**
 * The token estimator of every budget (token_budget, budget, context_tokens, estimated_tokens):
 * ceil(characters / 4) of what a reader of the item consumes, its title, URL and text. Four
 * characters per token is the usual average for English with BPE tokenisers; it over-counts
 * short words and under-counts other scripts, and it is the same everywhere, so a budget means
 * the same thing on every call.
 */
import type { EvidenceHit } from './types.js';

export const CHARACTERS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/** Estimated tokens of one returned hit: title, URL and snippet (as returned, after any strip). */
export function hitTokens(hit: Pick<EvidenceHit, 'title' | 'url' | 'snippet'>): number {
  return estimateTokens(hit.title) + estimateTokens(hit.url) + estimateTokens(hit.snippet);
}
