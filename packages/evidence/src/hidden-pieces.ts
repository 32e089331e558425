/**
 * Which hidden pieces of a page raise `hidden_text` (SPEC 2.3): text hidden from human readers
 * that a machine reading the HTML takes in, the way prompt injections hide. Hiding alone is not
 * enough: pages hide menus, dialogs, cookie notices, comments and labels all the time. A piece
 * raises the flag when
 *
 * 1. it addresses an AI system (the `instruction_like` detector, risk.ts, finds an instruction in
 *    it), whatever hid it and wherever it sits; or
 * 2. it is prose of at least {@link HIDDEN_PROSE_MIN_WORDS} words hidden by CSS or an attribute
 *    inside the page's main text, and nothing marks it as furniture (no form, dialog, menu or
 *    link list around it, no furniture words; extraction records that). Comments and
 *    `<noscript>` blocks count only by rule 1: authors leave notes in comments, and a noscript
 *    block is what a reader without scripts sees.
 *
 * A JSONL record's own `hidden_text` (technique `declared`) counts by rule 1, or as prose of
 * that length (nothing tells furniture from it). Measured with `npm run bench:extract` on the
 * hidden-text set and on real crawled pages (README, Risk flags).
 */
import type { HiddenPiece, HiddenPieceRecord } from '@evidence/schemas';
import { instructionFindings } from './risk.js';

/** Words of prose a hidden piece needs to raise the flag by rule 2 (a short sentence). */
export const HIDDEN_PROSE_MIN_WORDS = 5;
/** Characters of a piece kept as its excerpt. */
export const HIDDEN_EXCERPT_CHARS = 200;

const TECHNIQUE_NAMES: Record<HiddenPieceRecord['technique'], string> = {
  display_none: 'display:none',
  visibility_hidden: 'visibility:hidden',
  hidden_attribute: 'the hidden attribute',
  opacity_zero: 'opacity:0',
  font_size_zero: 'font-size:0',
  color_as_background: 'text coloured as its background',
  transparent_text: 'transparent text',
  offscreen: 'off-screen positioning',
  zero_size: 'a zero-size box',
  aria_hidden_clip: 'aria-hidden with a 1-pixel clip',
  html_comment: 'an HTML comment',
  noscript: 'a <noscript> block',
  declared: 'the ingested record (hidden_text)',
};

function wordCount(text: string): number {
  return (text.match(/[\p{L}\p{N}_]+/gu) ?? []).length;
}

function excerpt(text: string): string {
  return text.length > HIDDEN_EXCERPT_CHARS ? `${text.slice(0, HIDDEN_EXCERPT_CHARS - 3)}...` : text;
}

/** Why a hidden piece raises `hidden_text`, or null when it does not. `instructionOnly`: rule 1 alone (pieces of unknown origin). */
export function hiddenPieceReason(piece: HiddenPieceRecord, instructionOnly = false): string | null {
  const hiddenBy = `hidden by ${TECHNIQUE_NAMES[piece.technique]}`;
  const instruction = instructionFindings(piece.text)[0];
  if (instruction !== undefined) return `${hiddenBy}, addresses an AI system (${instruction.reason})`;
  if (instructionOnly || !isHiddenProse(piece)) return null;
  return piece.technique === 'declared' ? `${hiddenBy}: prose` : `${hiddenBy}: prose inside the page's main text`;
}

/** Rule 2 alone: prose hidden by CSS or an attribute inside the main text, not furniture (or declared by the record). */
export function isHiddenProse(piece: HiddenPieceRecord): boolean {
  if (wordCount(piece.text) < HIDDEN_PROSE_MIN_WORDS) return false;
  if (piece.technique === 'declared') return true;
  if (piece.technique === 'html_comment' || piece.technique === 'noscript') return false;
  return piece.in_main === true && piece.furniture === undefined;
}

/** The pieces that raise `hidden_text`, as reported (technique, excerpt, element, reason). */
export function flaggedHiddenPieces(pieces: readonly HiddenPieceRecord[], instructionOnly = false): HiddenPiece[] {
  const flagged: HiddenPiece[] = [];
  for (const piece of pieces) {
    const reason = hiddenPieceReason(piece, instructionOnly);
    if (reason === null) continue;
    const reported: HiddenPiece = { technique: piece.technique, excerpt: excerpt(piece.text), reason };
    if (piece.element !== undefined) reported.element = piece.element;
    flagged.push(reported);
  }
  return flagged;
}
