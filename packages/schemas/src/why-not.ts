/** Coverage transparency (SPEC 4.8 why_not, 2.5, 3.4): is a URL in the index, and if not, why. */
import { z } from 'zod';
import { HitSchema } from './search.js';

export const REMOVAL_REASONS = ['redundant', 'superseded', 'stale', 'access-starved', 'lost-replacement', 'tombstoned-source'] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

export const URL_STATUSES = ['present', 'removed', 'unknown'] as const;
export type UrlStatus = (typeof URL_STATUSES)[number];

function isHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

export const WhyNotParamsSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .refine(isHttpUrl, { message: 'an absolute http or https URL' })
    // The URLs the WHATWG parser takes for certain (host labels starting with a letter, a port
    // of at most 4 digits, printable ASCII after it); others it takes are accepted too.
    .meta({ pattern: '^[hH][tT][tT][pP][sS]?://[A-Za-z][A-Za-z0-9-]*([.][A-Za-z][A-Za-z0-9-]*)*(:[0-9]{1,4})?(/[!-~]*)?$' })
    .describe('an absolute http or https URL'),
});
export type WhyNotParams = z.output<typeof WhyNotParamsSchema>;

export const WhyNotResponseSchema = z.object({
  status: z.enum(URL_STATUSES).describe('present, removed (with a reason) or unknown (never admitted or never seen)'),
  hit: HitSchema.optional().describe('the first passage of the URL, when present'),
  reason: z.enum(REMOVAL_REASONS).optional().describe('when removed'),
  removed_at: z.number().int().optional().describe('unix seconds, when removed'),
  superseded_by: z.string().nullable().optional().describe('when removed: id of the replacing passage, or null when there is none'),
});
export type WhyNotResponse = z.infer<typeof WhyNotResponseSchema>;
