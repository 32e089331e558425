/**
 * The admission ledger (`DATA_DIR/ledger.jsonl`) as an in-memory map from normalised URL to what
 * the ledger says about it, kept current by following the file: each lookup first reads what was
 * appended since the last one (a stat when nothing was). Reading is incremental and in chunks,
 * each parsed between awaits, so even a large ledger never holds the event loop for long; a
 * ledger that shrank or was replaced is read again from the start.
 */
import { open, stat } from 'node:fs/promises';
import { applyLedgerLine, normaliseUrl, type UrlLedgerState } from './urls.js';

/** Bytes read and parsed per step (about a millisecond of parsing). */
export const LEDGER_CHUNK_BYTES = 256 * 1024;

export class LedgerIndex {
  private states = new Map<string, UrlLedgerState>();
  private offset = 0;
  private inode = -1;
  private pendingLine = '';
  private decoder = new TextDecoder();
  private refreshing: Promise<void> | null = null;

  constructor(readonly path: string) {}

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
    if (!this.refreshing) {
      this.refreshing = this.catchUp().finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private reset(): void {
    this.states = new Map();
    this.offset = 0;
    this.pendingLine = '';
    this.decoder = new TextDecoder();
  }

  private async catchUp(): Promise<void> {
    let info;
    try {
      info = await stat(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        if (this.offset > 0) this.reset();
        return;
      }
      throw error;
    }
    if (info.ino !== this.inode || info.size < this.offset) {
      this.reset();
      this.inode = info.ino;
    }
    if (info.size === this.offset) return;
    const handle = await open(this.path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(LEDGER_CHUNK_BYTES);
      while (this.offset < info.size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, info.size - this.offset), this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        const text = this.pendingLine + this.decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
        const lines = text.split('\n');
        this.pendingLine = lines.pop() ?? '';
        for (const line of lines) applyLedgerLine(this.states, line);
      }
    } finally {
      await handle.close();
    }
  }
}
