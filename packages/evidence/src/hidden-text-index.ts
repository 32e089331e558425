/**
 * The pages whose hidden text raised `hidden_text`, as crawl ingest recorded them in
 * `DATA_DIR/hidden-text.jsonl` (one line per admitted page with such pieces:
 * `{"page_id","url","fetched_at","hidden_pieces":[{technique, excerpt, element?, reason}]}`;
 * the hidden text itself is kept out of the passages; hidden-pieces.ts decides which pieces
 * count). The `hidden_text` risk flag of every passage of such a page reads it: the text an agent
 * gets is clean, but the page addressed something to whoever reads its source; `/doc?risk=true`
 * lists the pieces. Lines written before pieces were judged (`hidden_text`: a list of strings)
 * are judged when read, by the instruction rule alone. Followed like the ledger; held in memory as the flagged pieces per page.
 */
import { HiddenPieceSchema, type HiddenPiece, type HiddenTextLine } from '@evidence/schemas';
import { AppendedLines } from './appended-lines.js';
import { flaggedHiddenPieces } from './hidden-pieces.js';

export class HiddenTextIndex {
  private pages = new Map<string, HiddenPiece[]>();
  private readonly file: AppendedLines;

  constructor(readonly path: string) {
    this.file = new AppendedLines(
      path,
      (line) => this.apply(line),
      () => {
        this.pages = new Map();
      },
    );
  }

  private apply(line: string): void {
    if (line.trim() === '') return;
    let record: Partial<HiddenTextLine>;
    try {
      record = JSON.parse(line) as Partial<HiddenTextLine>;
    } catch {
      return; // a line that is not JSON is not a record of ours
    }
    if (typeof record.page_id !== 'string') return;
    const pieces: HiddenPiece[] = [];
    if (Array.isArray(record.hidden_pieces)) {
      for (const piece of record.hidden_pieces) {
        // A piece /doc could not answer (a technique outside the vocabulary, an element that is no string) is not one of ours.
        const parsed = HiddenPieceSchema.safeParse(piece);
        if (parsed.success) pieces.push(parsed.data);
      }
    }
    if (Array.isArray(record.hidden_text)) {
      const legacy = record.hidden_text.filter((text): text is string => typeof text === 'string');
      // Their origin is unknown (old crawl ingest recorded comments and menus too): instructions only.
      pieces.push(...flaggedHiddenPieces(legacy.map((text) => ({ technique: 'declared' as const, text })), true));
    }
    if (pieces.length > 0) this.pages.set(record.page_id, pieces);
  }

  /** Of these page ids, those whose page hid text that raised `hidden_text` (after reading what was appended). */
  async hidingPages(pageIds: Iterable<string>): Promise<Set<string>> {
    await this.file.catchUp();
    const hiding = new Set<string>();
    for (const pageId of pageIds) if (this.pages.has(pageId)) hiding.add(pageId);
    return hiding;
  }

  /** The hidden pieces of a page that raised `hidden_text` (empty when none did). */
  async piecesOf(pageId: string): Promise<HiddenPiece[]> {
    await this.file.catchUp();
    return this.pages.get(pageId) ?? [];
  }
}
