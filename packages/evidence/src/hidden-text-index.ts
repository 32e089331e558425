/**
 * The pages that hid text from their readers, as crawl ingest recorded them in
 * `DATA_DIR/hidden-text.jsonl` (`{"page_id","url","fetched_at","hidden_text":[...]}`, one line
 * per admitted page; the hidden prose itself is kept out of the passages). The `hidden_text` risk
 * flag of every passage of such a page reads it: the text an agent gets is clean, but the page
 * addressed something to whoever reads its source. Followed like the ledger; held in memory as
 * the set of page ids only.
 */
import { AppendedLines } from './appended-lines.js';

export class HiddenTextIndex {
  private pages = new Set<string>();
  private readonly file: AppendedLines;

  constructor(readonly path: string) {
    this.file = new AppendedLines(
      path,
      (line) => this.apply(line),
      () => {
        this.pages = new Set();
      },
    );
  }

  private apply(line: string): void {
    if (line.trim() === '') return;
    try {
      const record = JSON.parse(line) as { page_id?: unknown; hidden_text?: unknown };
      if (typeof record.page_id === 'string' && Array.isArray(record.hidden_text) && record.hidden_text.length > 0) this.pages.add(record.page_id);
    } catch {
      // a line that is not JSON is not a record of ours
    }
  }

  /** Of these page ids, those whose page hid text (after reading what was appended). */
  async hidingPages(pageIds: Iterable<string>): Promise<Set<string>> {
    await this.file.catchUp();
    const hiding = new Set<string>();
    for (const pageId of pageIds) if (this.pages.has(pageId)) hiding.add(pageId);
    return hiding;
  }
}
