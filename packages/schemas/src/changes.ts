/** The changes capability (SPEC 4.5, 2.7, 3.3): what changed in the evidence for an objective since an instant. */
import { z } from 'zod';
import { ABSOLUTE_SINCE_MIN, resolveSince } from './durations.js';
import {
  BudgetSchema,
  CoverageReceiptSchema,
  EvidenceItemSchema,
  GROUND_DEFAULTS,
  NextActionSchema,
  OriginSchema,
  ProvenanceSchema,
  SourceRoleSchema,
  tokenBudgetSchema,
} from './ground.js';
import { flag, inList, optionalQueryText, queryText, trimmedText } from './params.js';
import { SearchModeSchema } from './search.js';
import { SEARCH_MODES } from './vocabulary.generated.js';

export const CHANGES_STATUSES = ['changed', 'unchanged', 'partial'] as const;
export type ChangesStatus = (typeof CHANGES_STATUSES)[number];

/** URL presence (SPEC 3.4); `error` only in changes' known_urls. */
export const KNOWN_URL_STATUSES = ['present', 'removed', 'unknown', 'error'] as const;
export type KnownUrlStatus = (typeof KNOWN_URL_STATUSES)[number];

/** known_urls a call may name. */
export const KNOWN_URLS_MAX = 50;

const SINCE_ACCEPTS =
  `an instant in the past: absolute unix seconds (a bare number >= ${ABSOLUTE_SINCE_MIN}), seconds ago (a bare number below that), ` +
  'or a duration ago (30m, 12h, 1d, 2w; "ago" may follow)';

/**
 * The text forms of a since the server accepts, as a JSON Schema pattern, for the instants it
 * can state without knowing the time: a duration ago (each unit up to the digits that stay after
 * 1970), seconds ago, or an absolute timestamp up to 1699999999 (November 2023). A later absolute
 * timestamp is accepted too while it lies in the past, which no fixed pattern can say.
 */
export const SINCE_PATTERN =
  '^([1-9][0-9]{0,8}|1[0-6][0-9]{8}|([1-9][0-9]{0,8} *[sS]|[1-9][0-9]{0,6} *[mM]|[1-9][0-9]{0,4} *[hH]|[1-9][0-9]{0,3} *[dD]|[1-9][0-9]{0,2} *[wW])( +[aA][gG][oO])?)$';

export function sinceSchema() {
  return z
    .union([z.string().meta({ pattern: SINCE_PATTERN }), z.number()])
    .transform((value, context) => {
      const instant = resolveSince(value, Math.floor(Date.now() / 1000));
      if (instant === null) {
        context.addIssue({ code: 'custom', message: SINCE_ACCEPTS });
        return z.NEVER;
      }
      return instant;
    })
    .describe(SINCE_ACCEPTS);
}

export const ChangesParamsSchema = z.object({
  objective: queryText('a non-empty question, task or claim (REST also accepts q)'),
  since: sinceSchema(),
  token_budget: tokenBudgetSchema(GROUND_DEFAULTS.token_budget, 'ceiling on new_evidence returned, in estimated tokens'),
  known_urls: inList(`URLs previously relied on, at most ${KNOWN_URLS_MAX}; each is reported present, removed (with reason and superseding passage) or unknown`, {
    // A comma inside a URL stays: only a comma before the next http(s) URL separates.
    separator: /,(?=\s*https?:\/\/)/i,
    maxItems: KNOWN_URLS_MAX,
  })
    .refine((urls) => urls.length <= KNOWN_URLS_MAX, { message: `at most ${KNOWN_URLS_MAX} URLs` })
    .optional(),
  claim: optionalQueryText('experimental: also report evidence that newly contradicts this claim'),
  mode: SearchModeSchema.default(GROUND_DEFAULTS.mode).describe(`one of ${SEARCH_MODES.join(', ')}`),
  vertical: trimmedText(1).optional().describe('restrict to one vertical'),
  lang: trimmedText(2).optional().describe('a single language code, e.g. en'),
  safe: flag('true drops explicit content; false allows everything').default(GROUND_DEFAULTS.safe),
});
export type ChangesParams = z.output<typeof ChangesParamsSchema>;

export const KnownUrlSchema = z.object({
  url: z.string(),
  status: z.enum(KNOWN_URL_STATUSES),
  reason: z.string().optional().describe('removal reason when removed; what went wrong when error'),
  removed_at: z.number().int().optional(),
  superseded_by: z.string().optional().describe('id of the replacing passage'),
});
export type KnownUrl = z.infer<typeof KnownUrlSchema>;

export const ChangesResponseSchema = z.object({
  status: z.enum(CHANGES_STATUSES).describe('read first: changed, unchanged, or partial (part of the index was unreachable)'),
  objective: z.string(),
  since: z.number().int().describe('instant diffed against, unix seconds'),
  new_evidence: z.array(EvidenceItemSchema).describe('items that did not exist as of since'),
  origins_gained: z.array(OriginSchema),
  roles_gained: z.array(SourceRoleSchema).describe('source roles present now that were missing as of since'),
  independent_origins: z.object({ before: z.number().int(), after: z.number().int() }),
  coverage: CoverageReceiptSchema,
  coverage_before: CoverageReceiptSchema,
  budget: BudgetSchema,
  next_actions: z.array(NextActionSchema),
  provenance: ProvenanceSchema,
  contradictions_gained: z.array(z.string()).optional(),
  known_urls: z.array(KnownUrlSchema).optional(),
});
export type ChangesResponse = z.infer<typeof ChangesResponseSchema>;
