/**
 * The admission ledger (`DATA_DIR/ledger.jsonl`) as an in-memory map from normalised URL to what
 * the ledger says about it, kept current by following the file (see `AppendedLines`): each lookup
 * first reads what was appended since the last one.
 */
import { AppendedLines, APPENDED_CHUNK_BYTES } from './appended-lines.js';
import { applyLedgerLine, normaliseUrl, type UrlLedgerState } from './urls.js';

/** Bytes read and parsed per step. */
export const LEDGER_CHUNK_BYTES = APPENDED_CHUNK_BYTES;

export class LedgerIndex {
  private states = new Map<string, UrlLedgerState>();
  private readonly file: AppendedLines;

  constructor(readonly path: string) {
    this.file = new AppendedLines(
      path,
      (line) => applyLedgerLine(this.states, line),
      () => {
        this.states = new Map();
      },
    );
  }

  /** URLs the ledger has seen. */
  get size(): number {
    return this.states.size;
  }

  /** What the ledger says about a URL (after reading what was appended), or undefined. */
  async lookup(url: string): Promise<UrlLedgerState | undefined> {
    await this.refresh();
    const key = normaliseUrl(url);
    return key === null ? undefined : this.states.get(key);
  }

  /** Read what was appended since the last refresh; concurrent callers share one read. */
  refresh(): Promise<void> {
    return this.file.catchUp();
  }
}
