/**
 * An append-only line file written at commit: lines are buffered and reach the file, with an
 * fsync, only on `flush`, which callers run after the shards committed. A crash then leaves the
 * file behind the index, never ahead of it. The admission ledger, the story log, the copy log
 * and the link graph all append this way.
 */
import { closeSync, existsSync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';

function endsWithNewline(path: string): boolean {
  const size = statSync(path).size;
  if (size === 0) return true;
  const descriptor = openSync(path, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(descriptor, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Lines are joined into one flat string every this many: a long run buffers hundreds of
 * thousands of lines until its commit, and as separate (often concatenated) strings they cost
 * the garbage collector far more than their bytes.
 */
const LINES_PER_CHUNK = 1024;

export class LineAppender {
  private readonly descriptor: number;
  private pendingLines: string[] = [];
  private pendingChunks: string[] = [];
  private pendingTotal = 0;

  private constructor(descriptor: number) {
    this.descriptor = descriptor;
  }

  static open(path: string): LineAppender {
    // A torn last line from a crash must not swallow the first new line.
    const needsNewline = existsSync(path) && !endsWithNewline(path);
    const descriptor = openSync(path, 'a');
    if (needsNewline) writeSync(descriptor, '\n');
    return new LineAppender(descriptor);
  }

  /** Buffer one line (without its newline). */
  append(line: string): void {
    this.pendingLines.push(line);
    this.pendingTotal++;
    if (this.pendingLines.length >= LINES_PER_CHUNK) {
      this.pendingChunks.push(`${this.pendingLines.join('\n')}\n`);
      this.pendingLines = [];
    }
  }

  get pendingCount(): number {
    return this.pendingTotal;
  }

  /** Write what was appended and fsync it. */
  flush(): void {
    if (this.pendingTotal === 0) return;
    if (this.pendingLines.length > 0) this.pendingChunks.push(`${this.pendingLines.join('\n')}\n`);
    const chunks = this.pendingChunks;
    this.pendingLines = [];
    this.pendingChunks = [];
    this.pendingTotal = 0;
    for (const chunk of chunks) {
      const bytes = Buffer.from(chunk, 'utf8');
      let written = 0;
      while (written < bytes.length) written += writeSync(this.descriptor, bytes, written, bytes.length - written);
    }
    fsyncSync(this.descriptor);
  }

  /** Close without writing: callers flush at commit, and unflushed lines match uncommitted work. */
  close(): void {
    closeSync(this.descriptor);
  }
}
