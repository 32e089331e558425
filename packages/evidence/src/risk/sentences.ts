/** Sentence spans of a passage: the unit that risk checks flag, explain and strip. */
import { INVISIBLE_CLASS } from './characters.js';

export interface SentenceSpan {
  /** Offset of the first character of the sentence in the text. */
  start: number;
  /** Offset just past its last character (terminator and closing quotes included). */
  end: number;
}

/** Tokens that close a chat turn: they stay with the sentence before them and end it. */
const CLOSING_TOKEN_SOURCE = '<\\|\\s*(?:im_end|end|eot_id|endoftext|end_header_id)\\s*\\|>|\\[\\/INST\\]|<<\\/SYS>>|<\\/s>|<end_of_turn>';
const CLOSING_TOKEN = new RegExp(`^(?:${CLOSING_TOKEN_SOURCE})`, 'i');
/** A sentence end: terminators, closing quotes/brackets (and invisible characters), or a closing chat token; then whitespace. */
const SENTENCE_END = new RegExp(
  `(?:[.!?\\u2026]+[\"'\\u201D\\u2019)\\]\\u00BB${INVISIBLE_CLASS}]*|(?:${CLOSING_TOKEN_SOURCE})[${INVISIBLE_CLASS}]*)(\\s+)`,
  'giu',
);
const LEADING_INVISIBLE = new RegExp(`^[${INVISIBLE_CLASS}]+`, 'u');
/** A role prefix starts a sentence even in lower case ("... today. system: you are ..."). */
const ROLE_PREFIX_START = /^(?:system|assistant|user|human)\s*:/i;
/** Words whose trailing period does not end a sentence. */
const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'cf', 'vs', 'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'jr', 'sr', 'no', 'fig', 'approx', 'al', 'ca', 'u.s', 'u.k', 'e.u', 'a.m', 'p.m',
]);
/** A fenced code block (``` ... ```): one unit, never split, so an instruction keeps the code it carries. */
const CODE_FENCE = /```[\s\S]*?(?:```|$)/g;
/** A short quotation on one line: never split, so "print 'It works. Really!'" stays one sentence. */
const QUOTATION = /"[^"\n]{1,300}"|\u201C[^\u201D\n]{1,300}\u201D/g;

function endsWithAbbreviation(text: string, dotIndex: number): boolean {
  const match = /(?:^|[\s(\[])([A-Za-z](?:\.?[A-Za-z])*)$/.exec(text.slice(Math.max(0, dotIndex - 12), dotIndex));
  if (!match) return false;
  const word = match[1];
  // An initial is a capital letter ("J. R. Tolkien"); "borrow v. Provide" ends a sentence.
  return (word.length === 1 && /[A-Z]/.test(word)) || ABBREVIATIONS.has(word.toLowerCase());
}

function rangesOf(pattern: RegExp, text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) ranges.push([match.index, match.index + match[0].length]);
  return ranges;
}

/** Offset ranges no sentence boundary may fall inside: fenced code blocks, short quotations. */
function fenceRanges(text: string): Array<[number, number]> {
  const fences = text.includes('```') ? rangesOf(CODE_FENCE, text) : [];
  const outsideFences = fences.length === 0 ? text : text.replace(CODE_FENCE, (block) => ' '.repeat(block.length));
  return [...fences, ...rangesOf(QUOTATION, outsideFences)];
}

const inside = (ranges: Array<[number, number]>, offset: number) => ranges.some(([start, end]) => offset > start && offset < end);

/**
 * Sentence spans of `text`: a sentence ends at `.`, `!`, `?` or `…` followed by whitespace and a
 * sentence start (not a lower-case word, not after an abbreviation or initial), or at a line break;
 * never inside a fenced code block. Spans exclude the surrounding whitespace and cover every
 * non-blank character exactly once.
 */
export function sentenceSpans(text: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  const fences = fenceRanges(text);
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    if (end > start) spans.push({ start, end });
  };
  // Lines first: a line break ends a sentence (outside code fences).
  const lines: Array<[number, number]> = [];
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (inside(fences, index)) continue;
    lines.push([lineStart, index]);
    lineStart = index + 1;
  }
  lines.push([lineStart, text.length]);
  for (const [lineFrom, lineTo] of lines) {
    const lineText = text.slice(lineFrom, lineTo);
    let start = 0;
    SENTENCE_END.lastIndex = 0;
    for (let match = SENTENCE_END.exec(lineText); match !== null; match = SENTENCE_END.exec(lineText)) {
      const end = match.index + match[0].length - match[1].length;
      if (inside(fences, lineFrom + end)) continue;
      const next = lineText.slice(match.index + match[0].length).replace(LEADING_INVISIBLE, '');
      if (next.length === 0) break;
      if (CLOSING_TOKEN.test(next)) continue;
      if (/^\p{Ll}/u.test(next) && !ROLE_PREFIX_START.test(next)) continue;
      if (match[0].startsWith('.') && !match[0].startsWith('..') && endsWithAbbreviation(lineText, match.index)) continue;
      push(lineFrom + start, lineFrom + end);
      start = match.index + match[0].length;
    }
    push(lineFrom + start, lineFrom + lineText.length);
  }
  return spans;
}

/** The sentences of `text` (see {@link sentenceSpans}). */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map((span) => text.slice(span.start, span.end));
}

/**
 * A boundary a careful sentence split does not take but a pasted-in instruction often sits behind:
 * a terminator before a capital even after an abbreviation or initial ("Mrs. Add ...", "T. Provide"),
 * a terminator glued to the next sentence ("account 7681.If you ..."), or the end of a code block.
 */
const CLAUSE_BOUNDARY = /[.!?\u2026]+["'\u201D\u2019)\]]*\s+(?=["'\u201C\u2018(\[]?\p{Lu})|(?<=[\p{Ll}\d)][.!?])(?=\p{Lu}\p{Ll})|(?<=\S["\u201D])\s+(?=\p{Lu})|```\s+(?=\S)/gu;

/**
 * The clauses of one sentence: the sentence cut at every {@link CLAUSE_BOUNDARY} outside a code
 * block's opening (a closing fence ends a clause). One clause when there is no such boundary.
 */
export function clauseSpans(text: string, sentence: SentenceSpan): SentenceSpan[] {
  const body = text.slice(sentence.start, sentence.end);
  const quotations = rangesOf(QUOTATION, body.replace(CODE_FENCE, (block) => ' '.repeat(block.length)));
  const clauses: SentenceSpan[] = [];
  let from = 0;
  CLAUSE_BOUNDARY.lastIndex = 0;
  for (let match = CLAUSE_BOUNDARY.exec(body); match !== null; match = CLAUSE_BOUNDARY.exec(body)) {
    if (match[0].length === 0) CLAUSE_BOUNDARY.lastIndex++;
    const isFence = match[0].startsWith('```');
    const insideFence = (body.slice(0, match.index).match(/```/g)?.length ?? 0) % 2 === 1;
    if (isFence ? !insideFence : insideFence) continue; // only a closing fence ends a clause; nothing inside code does
    if (inside(quotations, match.index + match[0].trimEnd().length)) continue;
    const end = match.index + (isFence ? 3 : match[0].trimEnd().length);
    if (body.slice(from, end).trim().length > 0) clauses.push({ start: sentence.start + from, end: sentence.start + end });
    from = match.index + match[0].length;
  }
  if (clauses.length === 0) return [sentence];
  if (body.slice(from).trim().length > 0) clauses.push({ start: sentence.start + from, end: sentence.end });
  return clauses;
}
