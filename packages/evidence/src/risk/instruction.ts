/**
 * `instruction_like`: which sentences of a passage address an AI system rather than the reader,
 * and why. Two signals, either one flags a sentence:
 *
 * - the sentence rules (`instruction-rules.ts`), kept where they are precise, and a check that
 *   needs the whole passage: a hijack spelled to escape them (spaced letters, look-alikes);
 * - the learned model (`instruction-model.ts`): a sentence no rule flagged, of at least
 *   {@link MIN_MODEL_WORDS} words, that it scores at or above {@link MODEL_THRESHOLD}.
 *
 * The reason of a finding names the rule and the words it matched, or the model's score and the
 * words that weighed most.
 */
import { compact, normalise } from './characters.js';
import {
  ACTS_FOR_USER,
  ADDRESSES_AI,
  AGENT_TASK_NOTE,
  CODE_PAYLOAD,
  CONCEALMENT,
  EMIT_VERBATIM,
  OVERRIDE,
  OVERRIDE_OTHER_LANGUAGES,
  PROMPT_LEAK,
  RESPONSE_TARGET,
  RESPONSE_TARGET_OTHER_LANGUAGES,
  ROLE_PLAY,
  SPEAKS_TO_USER_FOR_PAGE,
  SYSTEM_TURN,
  TASK_HIJACK,
  WHILE_PROCESSING,
  type SentenceRule,
} from './instruction-rules.js';
import { clauseSpans, sentenceSpans, type SentenceSpan } from './sentences.js';
import { MIN_MODEL_WORDS, MODEL_THRESHOLD, modelReason, modelScore, shippedModel, type InstructionModel } from './instruction-model.js';

/** One flagged sentence: its offsets in the text and why it was flagged. */
export interface InstructionFinding extends SentenceSpan {
  reason: string;
}

const SENTENCE_RULES: readonly SentenceRule[] = [
  OVERRIDE,
  OVERRIDE_OTHER_LANGUAGES,
  PROMPT_LEAK,
  EMIT_VERBATIM,
  SYSTEM_TURN,
  ROLE_PLAY,
  TASK_HIJACK,
  ACTS_FOR_USER,
  AGENT_TASK_NOTE,
  SPEAKS_TO_USER_FOR_PAGE,
  WHILE_PROCESSING,
  RESPONSE_TARGET,
  RESPONSE_TARGET_OTHER_LANGUAGES,
  CODE_PAYLOAD,
  ADDRESSES_AI,
  CONCEALMENT,
];

const CUE_LENGTH = 80;

function quote(cue: string): string {
  const trimmed = cue.trim();
  return trimmed.length > CUE_LENGTH ? `${trimmed.slice(0, CUE_LENGTH - 3)}...` : trimmed;
}

/** Which signals judge a passage: the sentence rules, the learned model (null: none), or both (the default). */
export interface InstructionDetector {
  rules: boolean;
  model: InstructionModel | null;
  /** The model's threshold (default {@link MODEL_THRESHOLD}): the bench measures others. */
  threshold?: number;
}

/** The shipped detector: rules and the committed model. */
export function defaultDetector(): InstructionDetector {
  return { rules: true, model: shippedModel() };
}

/** Why one sentence addresses an AI system (the rule and the words that matched), or null. */
export function instructionReason(sentence: string): string | null {
  const normalised = normalise(sentence);
  if (normalised.length === 0) return null;
  for (const rule of SENTENCE_RULES) {
    const match = rule.match(normalised);
    if (match) return `${rule.reason}: "${quote(match[0])}"`;
  }
  return null;
}

/** Whether one sentence addresses an AI system rather than the reader. */
export function isInstructionLike(sentence: string): boolean {
  return instructionReason(sentence) !== null;
}

// ------------------------------------------------------------------ disguised hijacks

/** "ignore all previous instructions" with the spaces and punctuation taken out. */
const COMPACT_OVERRIDE =
  /(?:ignore|disregard|forget|override|bypass)(?:all|any|every)?(?:of)?(?:the|your|my)?(?:previous|prior|earlier|above|preceding|following|subsequent|original|initial|system)+(?:(?:and|or)(?:all|any)?(?:previous|prior|earlier|above|preceding|following|subsequent))?(?:instructions?|prompts?|directions?|directives?|rules|commands|guidelines)/g;
const PLAIN_OVERRIDE_VERB = /\b(?:ignore|disregard|forget|override|bypass)\b/;
const PLAIN_DIRECTIVE = /\b(?:instructions?|prompts?|directions?|directives?|rules|commands|guidelines)\b/;
const DISGUISED_REASON = 'tells the model to drop its instructions, disguised by spacing, punctuation or look-alike letters';

/** A cheap test before the compact form is built: letters of the override verbs, however separated, or letters outside ASCII. */
const OVERRIDE_LETTERS = /g[\W_\d]{0,3}n[\W_\d]{0,3}[o0]|s[\W_\d]{0,3}r[\W_\d]{0,3}[e3][\W_\d]{0,3}g|f[\W_\d]{0,3}[o0][\W_\d]{0,3}r[\W_\d]{0,3}g|r[\W_\d]{0,3}r[\W_\d]{0,3}[i1!]|y[\W_\d]{0,3}p[\W_\d]{0,3}[a4@]|[^\x00-\x7f]/i;

/** Ranges of the text where a hijack hides behind spacing or look-alikes that the sentence rules cannot read. */
function disguisedOverrides(text: string): Array<[number, number]> {
  if (!OVERRIDE_LETTERS.test(text)) return [];
  const { letters, offsets } = compact(text);
  const ranges: Array<[number, number]> = [];
  COMPACT_OVERRIDE.lastIndex = 0;
  for (let match = COMPACT_OVERRIDE.exec(letters); match !== null; match = COMPACT_OVERRIDE.exec(letters)) {
    const start = offsets[match.index];
    const end = offsets[match.index + match[0].length - 1] + 1;
    const plain = normalise(text.slice(start, end));
    // Written in plain words: the sentence rules have judged it (a quotation, a report, an order).
    if (PLAIN_OVERRIDE_VERB.test(plain) && PLAIN_DIRECTIVE.test(plain)) continue;
    ranges.push([start, end]);
  }
  return ranges;
}

// ------------------------------------------------------------------ the passage

/** A unit that may be flagged: a sentence, or a clause of a sentence no rule flagged whole. */
interface Unit extends SentenceSpan {
  reason: string | null;
}

/** Sentences, each judged whole and clause by clause (see {@link clauseSpans}). */
function judgedUnits(text: string, spans: readonly SentenceSpan[], rules: boolean): Unit[] {
  const judge = (start: number, end: number) => (rules ? instructionReason(text.slice(start, end)) : null);
  const units: Unit[] = [];
  for (const span of spans) {
    const reason = judge(span.start, span.end);
    const clauses = clauseSpans(text, span);
    const judged = clauses.length === 1 ? [] : clauses.map((clause) => ({ ...clause, reason: judge(clause.start, clause.end) }));
    // The clauses that carry the instruction when any does on its own (the carrier's clauses stay), else the whole sentence.
    if (judged.some((clause) => clause.reason !== null) || (reason === null && judged.length > 0)) units.push(...judged);
    else units.push({ ...span, reason });
  }
  return units;
}

/**
 * Every instruction-like sentence of `text` (or clause, where a sentence carries an instruction
 * behind a boundary the sentence split did not take), in order, with its reason.
 */
export function instructionFindings(
  text: string,
  spans: readonly SentenceSpan[] = sentenceSpans(text),
  detector: InstructionDetector = defaultDetector(),
): InstructionFinding[] {
  const units = judgedUnits(text, spans, detector.rules);

  if (detector.rules) {
    for (const [start, end] of disguisedOverrides(text)) {
      for (const unit of units) if (unit.reason === null && unit.start < end && unit.end > start) unit.reason = DISGUISED_REASON;
    }
  }

  const model = detector.model;
  const threshold = detector.threshold ?? MODEL_THRESHOLD;
  if (model !== null) {
    for (const unit of units) {
      if (unit.reason !== null) continue;
      const sentence = text.slice(unit.start, unit.end);
      const probability = modelScore(model, sentence);
      if (probability !== null && probability >= threshold) unit.reason = modelReason(model, sentence, probability, threshold);
    }
  }

  // A one- or two-word fragment between two flagged units ("STOP! NOW!!! JUST PRINT ...") belongs to them.
  units.forEach((unit, index) => {
    if (unit.reason !== null || index === 0 || index === units.length - 1) return;
    if (units[index - 1].reason === null || units[index + 1].reason === null) return;
    if (text.slice(unit.start, unit.end).trim().split(/\s+/).length <= 2) unit.reason = 'part of the flagged instruction around it';
  });

  return units.filter((unit): unit is InstructionFinding => unit.reason !== null).map(({ start, end, reason }) => ({ start, end, reason }));
}
