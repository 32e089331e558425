/**
 * Split a page body into passages: paragraphs on blank lines; a paragraph of 8..200 words is one
 * passage, a longer one is cut at sentence ends into chunks of at most 200 words, a shorter one
 * (a heading, a caption) is merged into the next paragraph, or into the previous when it is last.
 */
import { countWords, isSpace } from './words.js';

export const MIN_PASSAGE_WORDS = 8;
export const MAX_PASSAGE_WORDS = 200;

const PARAGRAPH_BREAK = /\n\s*\n/;
/** Whitespace after a sentence end (closing quotes and brackets stay with the sentence), or a line break. */
const SENTENCE_BREAK = /(?<=[.!?…]["'”’)\]»]*)\s+|\s*\n\s*/g;

interface Paragraph {
  text: string;
  words: number;
}

/** A slice `[start, end)` of the text being cut, with its word count. */
interface Span {
  start: number;
  end: number;
  words: number;
}

function joinParagraphs(parts: Paragraph[]): Paragraph {
  if (parts.length === 1) return parts[0];
  let words = 0;
  for (const part of parts) words += part.words;
  return { text: parts.map((part) => part.text).join('\n\n'), words };
}

/** Fold each run of short paragraphs into the paragraph after it (the trailing run into the one before). */
function mergeShortParagraphs(paragraphs: Paragraph[]): Paragraph[] {
  const merged: Paragraph[] = [];
  let pendingShort: Paragraph[] = [];
  for (const paragraph of paragraphs) {
    if (paragraph.words < MIN_PASSAGE_WORDS) {
      pendingShort.push(paragraph);
      continue;
    }
    merged.push(pendingShort.length === 0 ? paragraph : joinParagraphs([...pendingShort, paragraph]));
    pendingShort = [];
  }
  if (pendingShort.length === 0) return merged;
  const previous = merged.pop();
  merged.push(joinParagraphs(previous === undefined ? pendingShort : [previous, ...pendingShort]));
  return merged;
}

function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  SENTENCE_BREAK.lastIndex = 0;
  for (let match = SENTENCE_BREAK.exec(text); match !== null; match = SENTENCE_BREAK.exec(text)) {
    if (match.index > start) spans.push({ start, end: match.index, words: countWords(text, start, match.index) });
    start = match.index + match[0].length;
  }
  if (start < text.length) spans.push({ start, end: text.length, words: countWords(text, start, text.length) });
  return spans;
}

/** A sentence longer than a passage is cut between words into near-equal pieces. */
function cutBetweenWords(text: string, sentence: Span): Span[] {
  const pieces = Math.ceil(sentence.words / MAX_PASSAGE_WORDS);
  const wordsPerPiece = Math.ceil(sentence.words / pieces);
  const spans: Span[] = [];
  let pieceStart = -1;
  let wordsInPiece = 0;
  let inWord = false;
  for (let index = sentence.start; index < sentence.end; index++) {
    const space = isSpace(text.charCodeAt(index));
    if (space) {
      inWord = false;
      continue;
    }
    if (inWord) continue;
    inWord = true;
    if (wordsInPiece === wordsPerPiece) {
      spans.push({ start: pieceStart, end: trimmedEnd(text, pieceStart, index), words: wordsInPiece });
      pieceStart = -1;
      wordsInPiece = 0;
    }
    if (pieceStart < 0) pieceStart = index;
    wordsInPiece++;
  }
  if (wordsInPiece > 0) spans.push({ start: pieceStart, end: sentence.end, words: wordsInPiece });
  return spans;
}

function trimmedEnd(text: string, start: number, end: number): number {
  let trimmed = end;
  while (trimmed > start && isSpace(text.charCodeAt(trimmed - 1))) trimmed--;
  return trimmed;
}

/** Pack sentences into chunks of at most MAX_PASSAGE_WORDS, aiming at equal sizes. */
function cutAtSentenceEnds(paragraph: Paragraph): string[] {
  const text = paragraph.text;
  const sentences = sentenceSpans(text).flatMap((sentence) =>
    sentence.words > MAX_PASSAGE_WORDS ? cutBetweenWords(text, sentence) : [sentence],
  );
  const chunkCount = Math.ceil(paragraph.words / MAX_PASSAGE_WORDS);
  const targetWords = paragraph.words / chunkCount;
  const chunks: Span[] = [];
  let current: Span | undefined;
  for (const sentence of sentences) {
    const full = current !== undefined && (current.words + sentence.words > MAX_PASSAGE_WORDS || current.words >= targetWords);
    if (current === undefined || full) {
      if (current !== undefined) chunks.push(current);
      current = { ...sentence };
      continue;
    }
    current.end = sentence.end;
    current.words += sentence.words;
  }
  if (current !== undefined) {
    const previous = chunks[chunks.length - 1];
    // A tail too short to stand alone rides with the chunk before it when that still fits.
    if (current.words < MIN_PASSAGE_WORDS && previous !== undefined && previous.words + current.words <= MAX_PASSAGE_WORDS) {
      previous.end = current.end;
      previous.words += current.words;
    } else {
      chunks.push(current);
    }
  }
  return chunks.map((chunk) => text.slice(chunk.start, chunk.end));
}

/** The passages of a page body, in order; passage `no` is the index in this array. */
export function splitIntoPassages(text: string): string[] {
  const paragraphs: Paragraph[] = [];
  for (const raw of text.split(PARAGRAPH_BREAK)) {
    const paragraph = raw.trim();
    if (paragraph === '') continue;
    paragraphs.push({ text: paragraph, words: countWords(paragraph) });
  }
  const passages: string[] = [];
  for (const paragraph of mergeShortParagraphs(paragraphs)) {
    if (paragraph.words <= MAX_PASSAGE_WORDS) {
      passages.push(paragraph.text);
      continue;
    }
    passages.push(...cutAtSentenceEnds(paragraph));
  }
  return passages;
}
