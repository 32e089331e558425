/**
 * Hidden text (SPEC 2.3 risk flags): text a page hides from its human readers that a machine
 * reading the HTML takes in, the way prompt injections hide. Crawl ingest records each hidden
 * piece of a page in `DATA_DIR/hidden-text.jsonl` (one line per page, {@link HiddenTextLine});
 * the evidence layer decides which pieces raise `hidden_text` and `/doc?risk=true` lists them
 * ({@link HiddenPieceSchema}).
 */
import { z } from 'zod';

/** How a piece was hidden. */
export const HiddenTechniqueSchema = z
  .enum([
    'display_none',
    'visibility_hidden',
    'hidden_attribute',
    'opacity_zero',
    'font_size_zero',
    'color_as_background',
    'transparent_text',
    'offscreen',
    'zero_size',
    'aria_hidden_clip',
    'html_comment',
    'noscript',
    'declared',
  ])
  .describe(
    'how the piece was hidden: CSS display:none, visibility:hidden, the HTML hidden attribute, opacity 0 with no script that reveals it, font-size 0, text coloured as its background, transparent text, positioned off screen, a zero-size box with overflow hidden, aria-hidden with a 1-pixel clip, an HTML comment, a <noscript> block; declared: the ingested record listed it in hidden_text',
  );
export type HiddenTechnique = z.infer<typeof HiddenTechniqueSchema>;

/** One hidden piece of a page that raised `hidden_text`, as `/doc?risk=true` reports it and `DATA_DIR/hidden-text.jsonl` records it. */
export const HiddenPieceSchema = z.object({
  technique: HiddenTechniqueSchema,
  excerpt: z.string().describe('the hidden text, cut to 200 characters'),
  element: z.string().optional().describe('the hiding element as tag.class#id, when an element hid it'),
  reason: z.string().describe('why the piece raised hidden_text: it addresses an AI system (the rule and the words that matched), or it is prose hidden inside the page\'s main text'),
});
export type HiddenPiece = z.infer<typeof HiddenPieceSchema>;

/** A hidden piece as extraction finds it, before it is judged (the JSONL field `hidden_pieces`). */
export interface HiddenPieceRecord {
  technique: HiddenTechnique;
  /** The hidden text, whitespace collapsed, cut to 1,200 characters. */
  text: string;
  /** The hiding element as tag.class#id (absent for comments and declared pieces). */
  element?: string;
  /** Why the piece looks like page furniture (a menu, a form, a cookie notice, ...), when it does. */
  furniture?: string;
  /** The piece sits inside the page's main text (the words just before or after it are main text). */
  in_main?: boolean;
}

/** One line of `DATA_DIR/hidden-text.jsonl`: a page with hidden pieces that raised `hidden_text`. */
export interface HiddenTextLine {
  page_id: string;
  url: string;
  fetched_at: number;
  hidden_pieces?: HiddenPiece[];
  /** Lines written before hidden pieces were judged: the hidden prose, judged again when read. */
  hidden_text?: string[];
}
