/**
 * A file that ingest only appends to (the admission ledger, the hidden-text log), followed line
 * by line: each `catchUp` reads what was appended since the last one (a stat when nothing was),
 * in chunks parsed between awaits, so even a large file never holds the event loop for long. A
 * file that shrank or was replaced is read again from the start (`onReset` clears what was built).
 */
import { open, stat } from 'node:fs/promises';

/** Bytes read and parsed per step (about a millisecond of parsing). */
export const APPENDED_CHUNK_BYTES = 256 * 1024;

export class AppendedLines {
  private offset = 0;
  private inode = -1;
  private pendingLine = '';
  private decoder = new TextDecoder();
  private refreshing: Promise<void> | null = null;

  constructor(
    readonly path: string,
    private readonly onLine: (line: string) => void,
    private readonly onReset: () => void,
    /** Bytes read and parsed per step between awaits. */
    private readonly chunkBytes = APPENDED_CHUNK_BYTES,
  ) {}

  /** Read what was appended since the last call; concurrent callers share one read. */
  catchUp(): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = this.read().finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private reset(): void {
    this.offset = 0;
    this.pendingLine = '';
    this.decoder = new TextDecoder();
    this.onReset();
  }

  private async read(): Promise<void> {
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
      const buffer = Buffer.allocUnsafe(this.chunkBytes);
      while (this.offset < info.size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, info.size - this.offset), this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        const text = this.pendingLine + this.decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
        const lines = text.split('\n');
        this.pendingLine = lines.pop() ?? '';
        for (const line of lines) this.onLine(line);
      }
    } finally {
      await handle.close();
    }
  }
}
