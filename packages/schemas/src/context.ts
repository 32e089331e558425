/** The context pack (SPEC 4.4, 2.4): corroborated, story-deduplicated, trust-ranked passages under a token budget. */
import { z } from 'zod';
import { tokenBudgetSchema } from './ground.js';
import { queryText } from './params.js';
import { HitSchema, SearchModeSchema } from './search.js';
import { SEARCH_MODES } from './vocabulary.generated.js';

export const CONTEXT_BUDGET_DEFAULT = 4000;

export const ContextParamsSchema = z.object({
  q: queryText('a non-empty query: terms (OR-ed, ranked), AND, OR, -term, "exact phrase"'),
  budget: tokenBudgetSchema(CONTEXT_BUDGET_DEFAULT, 'tokens the pack may hold, honoured as a ceiling'),
  mode: SearchModeSchema.default('hybrid').describe(`one of ${SEARCH_MODES.join(', ')}`),
});
export type ContextParams = z.output<typeof ContextParamsSchema>;

export const ContextPackSchema = z.object({
  query: z.string(),
  token_budget: z.number().int(),
  estimated_tokens: z.number().int().describe('estimated tokens of what was packed'),
  items: z.array(z.object({ hit: HitSchema, reason: z.string().describe('why the passage earned its place') })),
  partial: z.boolean().optional().describe('present and true when part of the index was unreachable: the pack is incomplete'),
});
export type ContextPack = z.infer<typeof ContextPackSchema>;
