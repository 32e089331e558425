/**
 * The admission ledger `DATA_DIR/ledger.jsonl`: append-only, one JSON event per line, recording
 * every page admitted and every removal with its reason (why_not and changes read it). Events
 * are buffered and written with an fsync at each index commit, after the shards committed: a
 * crash then leaves the ledger behind the index, never ahead of it, and the next run re-derives
 * what was lost.
 */
import { existsSync } from 'node:fs';
import { LineAppender } from './line-appender.js';
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
  /** For `superseded`: the first passage of the page that replaced it; for `redundant`: the kept passage it copies. */
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

/** Appends events to the ledger; nothing reaches the file before `flush`. */
export class LedgerWriter {
  private readonly file: LineAppender;

  private constructor(file: LineAppender) {
    this.file = file;
  }

  static open(path: string): LedgerWriter {
    return new LedgerWriter(LineAppender.open(path));
  }

  append(event: LedgerEvent): void {
    this.file.append(JSON.stringify(event));
  }

  get pendingEvents(): number {
    return this.file.pendingCount;
  }

  /** Write what was appended and fsync it. */
  flush(): void {
    this.file.flush();
  }

  /** Close without writing: callers flush at commit, and unflushed events match uncommitted work. */
  close(): void {
    this.file.close();
  }
}
