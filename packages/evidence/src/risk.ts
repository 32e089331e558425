/**
 * Risk flags of a passage (SPEC 2.3, 2.6): deterministic rules and one small learned model whose
 * weights are committed in the repository; nothing fetched.
 *
 * - `instruction_like`: a sentence that addresses an AI system rather than the human reader: its
 *   answer, its instructions, its role, actions on the user's behalf (`risk/instruction.ts`: precise
 *   rules, and a logistic regression over word and character n-grams, `risk/instruction-model.ts`).
 * - `hidden_text`: text a reader would not see (`risk/hidden.ts`).
 * - `role_markers`: chat-template tokens and role prefixes (`risk/roles.ts`).
 * - `low_trust_source`: the host's trust prior is below {@link LOW_TRUST_HOST_RANK}.
 *
 * Flags are always computed on the original text, never on a stripped one. Each flag but
 * `low_trust_source` comes with the places that raised it ({@link riskReport}).
 */
import { RiskFlagSchema } from '@evidence/schemas';
import { hiddenFindings } from './risk/hidden.js';
import { instructionFindings } from './risk/instruction.js';
import { roleFindings } from './risk/roles.js';
import { sentenceSpans } from './risk/sentences.js';

export { normalise } from './risk/characters.js';
export { BLANK_LINE_RUN, INVISIBLE_RUN_LENGTH, SPACE_RUN_LENGTH } from './risk/hidden.js';
export { defaultDetector, instructionFindings, instructionReason, isInstructionLike, type InstructionDetector, type InstructionFinding } from './risk/instruction.js';
export {
  decodeModel,
  encodeModel,
  MIN_MODEL_WORDS,
  MODEL_THRESHOLD,
  modelScore,
  shippedModel,
  type EncodedModel,
  type InstructionModel,
} from './risk/instruction-model.js';
export { FEATURE_BITS, sentenceFeatures, type SparseFeatures } from './risk/instruction-features.js';
export { sentenceSpans, splitSentences, type SentenceSpan } from './risk/sentences.js';
/** The flags, in the order they are always listed (defined once, in the schemas). */
export const RISK_FLAGS = RiskFlagSchema.options;
export type RiskFlag = (typeof RISK_FLAGS)[number];

/** A host whose host_rank is below this is a low-trust source. */
export const LOW_TRUST_HOST_RANK = 0.2;

/** What `stripInstructionLike` puts in place of each instruction-like sentence (SPEC 4.2). */
export const INSTRUCTION_MARKER = '[removed: instruction-like text]';

export interface RiskContext {
  /** The host trust prior of the passage's host, 0..1. */
  hostRank: number;
  /**
   * The passage's page hid text from its readers (crawl ingest kept it out of the passage and
   * recorded it): `hidden_text` even though the text itself shows nothing hidden.
   */
  hiddenOnPage?: boolean;
}

/** One place of the text that raised a flag: offsets into the original text (UTF-16 code units) and why. */
export interface RiskSpan {
  flag: Exclude<RiskFlag, 'low_trust_source'>;
  start: number;
  end: number;
  reason: string;
}

export interface RiskReport {
  /** In the fixed order of {@link RISK_FLAGS}. */
  flags: RiskFlag[];
  /** Ordered by flag, then offset. instruction_like spans are whole sentences: exactly what strip removes. */
  spans: RiskSpan[];
}

/** The flags of a passage and the places that raised them, computed on `text` as given. */
export function riskReport(text: string, context: RiskContext): RiskReport {
  const sentences = sentenceSpans(text);
  const spans: RiskSpan[] = [
    ...instructionFindings(text, sentences).map((finding) => ({ flag: 'instruction_like' as const, ...finding })),
    ...hiddenFindings(text).map((finding) => ({ flag: 'hidden_text' as const, ...finding })),
    ...roleFindings(text, sentences).map((finding) => ({ flag: 'role_markers' as const, ...finding })),
  ];
  const raised = new Set<RiskFlag>(spans.map((span) => span.flag));
  if (Number.isFinite(context.hostRank) && context.hostRank < LOW_TRUST_HOST_RANK) raised.add('low_trust_source');
  if (context.hiddenOnPage) raised.add('hidden_text');
  return { flags: RISK_FLAGS.filter((flag) => raised.has(flag)), spans };
}

/** The risk flags of a passage, in the fixed order of {@link RISK_FLAGS}, computed on `text` as given. */
export function riskFlags(text: string, context: RiskContext): RiskFlag[] {
  return riskReport(text, context).flags;
}

/**
 * Replace each instruction-like sentence with {@link INSTRUCTION_MARKER}; everything else (other
 * sentences, whitespace, line breaks) is kept byte for byte.
 */
export function stripInstructionLike(text: string): { text: string; sentencesRemoved: number } {
  const findings = instructionFindings(text);
  if (findings.length === 0) return { text, sentencesRemoved: 0 };
  let out = '';
  let cursor = 0;
  for (const finding of findings) {
    out += text.slice(cursor, finding.start) + INSTRUCTION_MARKER;
    cursor = finding.end;
  }
  return { text: out + text.slice(cursor), sentencesRemoved: findings.length };
}
