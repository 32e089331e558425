/**
 * The admission ledger `DATA_DIR/ledger.jsonl`: append-only, one JSON event per line, recording
 * every page admitted and every removal with its reason (why_not and changes read it). Events
 * are buffered and written with an fsync at each index commit, after the shards committed: a
 * crash then leaves the ledger behind the index, never ahead of it, and the next run re-derives
 * what was lost.
 */
import { closeSync, existsSync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { readLineBatches } from './line-reader.js';
import type { RemovalReason } from './vocabulary.js';

/** A page (or, with `passage_no`, one passage of a page) entered the index. */
export interface AdmittedEvent {
  event: 'admitted';
  url: string;
  page_id: string;
  /** Passages admitted by this event. */
  passages: number;
  /** Set when a passage record (`id` = page:no) admitted a single passage. */
  passage_no?: number;
  fetched_at: number;
  /** Unix seconds when ingest admitted it. */
  at: number;
}

/** A URL's passages left the index. */
export interface RemovedEvent {
  event: 'removed';
  url: string;
  /** The page that was current for the URL, or null when none was. */
  page_id: string | null;
  reason: RemovalReason;
  /** For `superseded`: the first passage of the page that replaced it. */
  superseded_by?: string;
  removed_at: number;
  /** Unix seconds when ingest recorded it. */
  at: number;
}

export type LedgerEvent = AdmittedEvent | RemovedEvent;

function isLedgerEvent(value: unknown): value is LedgerEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Partial<AdmittedEvent> & Partial<Omit<RemovedEvent, 'event'>> & { event?: unknown };
  if (typeof event.url !== 'string') return false;
  if (event.event === 'admitted') return typeof event.page_id === 'string' && typeof event.fetched_at === 'number';
  if (event.event === 'removed') return typeof event.removed_at === 'number' && typeof event.reason === 'string';
  return false;
}

/** Replay the ledger in order; torn or foreign lines (a crash mid-append) are passed over. */
export async function replayLedger(path: string, onEvent: (event: LedgerEvent) => void): Promise<number> {
  if (!existsSync(path)) return 0;
  let events = 0;
  for await (const batch of readLineBatches(path)) {
    for (const line of batch.lines) {
      if (line.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      if (!isLedgerEvent(parsed)) continue;
      onEvent(parsed);
      events++;
    }
  }
  return events;
}

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

/** Appends events to the ledger; nothing reaches the file before `flush`. */
export class LedgerWriter {
  private readonly descriptor: number;
  private pendingLines: string[] = [];

  private constructor(descriptor: number) {
    this.descriptor = descriptor;
  }

  static open(path: string): LedgerWriter {
    // A torn last line from a crash must not swallow the first new event.
    const needsNewline = existsSync(path) && !endsWithNewline(path);
    const descriptor = openSync(path, 'a');
    if (needsNewline) writeSync(descriptor, '\n');
    return new LedgerWriter(descriptor);
  }

  append(event: LedgerEvent): void {
    this.pendingLines.push(JSON.stringify(event));
  }

  get pendingEvents(): number {
    return this.pendingLines.length;
  }

  /** Write what was appended and fsync it. */
  flush(): void {
    if (this.pendingLines.length === 0) return;
    const text = `${this.pendingLines.join('\n')}\n`;
    this.pendingLines = [];
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(this.descriptor, bytes, written, bytes.length - written);
    fsyncSync(this.descriptor);
  }

  /** Close without writing: callers flush at commit, and unflushed events match uncommitted work. */
  close(): void {
    closeSync(this.descriptor);
  }
}
