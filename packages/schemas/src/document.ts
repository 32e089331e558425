/** The document capability: full text of one passage (SPEC 4.2, 2.3). */
import { z } from 'zod';
import { HiddenPieceSchema } from './hidden-text.js';
import { flag } from './params.js';

/** A boolean parameter that defaults to false and keeps its description (the 400 names what it accepts). */
function optionalFlag(description: string) {
  const base = flag(description);
  return base.default(false).describe(`${base.description}, default false`);
}

export const DocumentParamsSchema = z.object({
  id: z.string().min(1).describe('a passage id of the form page:no'),
  risk: optionalFlag('also return risk_flags'),
  strip: optionalFlag("replace each instruction-like sentence with '[removed: instruction-like text]' and return sentences_removed; implies risk"),
});
export type DocumentParams = z.output<typeof DocumentParamsSchema>;

/** Risk flags of a passage (SPEC 2.3, 2.6), in this order when present. */
export const RiskFlagSchema = z.enum(['instruction_like', 'hidden_text', 'role_markers', 'low_trust_source']);

/** One place of the text that raised a flag (every flag but low_trust_source, which reads the host). */
export const RiskSpanSchema = z.object({
  flag: RiskFlagSchema.exclude(['low_trust_source']),
  start: z.number().int().describe('offset of the first character in the original text (UTF-16 code units, as JavaScript indexes strings)'),
  end: z.number().int().describe('offset just past the last character'),
  reason: z.string().describe('why this place raised the flag: the rule and the words it matched, or for instruction_like the learned model, its probability against its threshold and the words that weighed most'),
});
export type RiskSpan = z.infer<typeof RiskSpanSchema>;

export const DocumentSchema = z.object({
  id: z.string(),
  url: z.string(),
  host: z.string(),
  title: z.string(),
  vertical: z.string(),
  lang: z.string(),
  host_rank: z.number(),
  quality: z.number().int(),
  text: z.string().describe('full cleaned body'),
  risk_flags: z
    .array(RiskFlagSchema)
    .optional()
    .describe('present when risk or strip was set; computed on the original text (instruction_like: the text addresses an AI system rather than the reader)'),
  risk_spans: z
    .array(RiskSpanSchema)
    .optional()
    .describe(
      'present when risk or strip was set: where each flag was raised, by flag then offset, as offsets into the original text; an instruction_like span is a whole sentence (or the clause of one that carries the instruction), exactly what strip replaces',
    ),
  hidden_pieces: z
    .array(HiddenPieceSchema)
    .optional()
    .describe(
      "present when risk or strip was set and the passage's page hid text that raised hidden_text: each hidden piece with how it was hidden, an excerpt and why it counts (the hidden text itself is never part of text)",
    ),
  sentences_removed: z.number().int().optional().describe('present when strip was set: instruction-like sentences replaced by the marker'),
});
export type Document = z.infer<typeof DocumentSchema>;
