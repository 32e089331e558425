/**
 * The ingest run: stream JSONL files, validate each line, split and derive passages, route them
 * to shards in batches, apply re-crawls and removals, and keep the admission ledger in step
 * with the index (both are committed together every COMMIT_EVERY_PASSAGES and at the end).
 */
import { statSync } from 'node:fs';
import { ensureManifest, ledgerPath, readManifest, type Passage } from '@evidence/native';
import { AdmissionTable } from './admission.js';
import { LedgerWriter, replayLedger, type LedgerEvent } from './ledger.js';
import { readLineBatches, type LineBatch } from './line-reader.js';
import { buildPassages, pageLanguage } from './passage-builder.js';
import { pageIdFor, passageIdFor } from './page-id.js';
import { parseRecordLine, type ContentRecord, type RemovalRecord } from './record.js';
import { ShardWriters } from './shard-writers.js';
import type { IngestProgress, IngestSummary } from './summary.js';

export const DEFAULT_SHARDS = 2;
/** Bounds writer memory and lets running servers see progress on long runs. */
export const COMMIT_EVERY_PASSAGES = 200_000;
/** A systematically broken file must not bury the terminal; the count stays exact. */
const MALFORMED_LINES_SHOWN = 1000;

export interface IngestOptions {
  dataDir: string;
  /** Shard count for a new index (default 2); an existing index keeps its own. */
  shards?: number;
  onProgress?: (progress: IngestProgress) => void;
  /** Where warnings and malformed-line reports go (default: stderr). */
  log?: (line: string) => void;
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The state of one run; `ingestFiles` is its only user. */
class IngestRun {
  private readonly table: AdmissionTable;
  private readonly writers: ShardWriters;
  private readonly ledger: LedgerWriter;
  private readonly dimensions: number;
  private readonly log: (line: string) => void;
  private readonly startedAt = performance.now();
  private passagesSinceCommit = 0;
  private passagesQueued = 0;
  /** Passage records of one page usually arrive together: detect its language once. */
  private lastPageLanguage: { pageId: string; lang: string } | undefined;
  private readonly counts = {
    files: 0,
    lines: 0,
    pages: 0,
    passageRecords: 0,
    malformed: 0,
    removals: 0,
    superseded: 0,
    outdated: 0,
  };
  readonly unreadableFiles: string[] = [];

  constructor(writers: ShardWriters, ledger: LedgerWriter, table: AdmissionTable, dimensions: number, log: (line: string) => void) {
    this.writers = writers;
    this.ledger = ledger;
    this.table = table;
    this.dimensions = dimensions;
    this.log = log;
  }

  private record(event: LedgerEvent): void {
    this.ledger.append(event);
    this.table.apply(event);
  }

  private reportMalformed(file: string, lineNumber: number, reason: string): void {
    this.counts.malformed++;
    if (this.counts.malformed <= MALFORMED_LINES_SHOWN) this.log(`${file}:${lineNumber}: ${reason}`);
    if (this.counts.malformed === MALFORMED_LINES_SHOWN) this.log(`further malformed lines are counted but not shown`);
  }

  /** Whether enough passages were queued since the last commit to commit again. */
  get commitDue(): boolean {
    return this.passagesSinceCommit >= COMMIT_EVERY_PASSAGES;
  }

  async commit(): Promise<void> {
    this.passagesSinceCommit = 0;
    // Shards first, then the ledger: a crash in between leaves the ledger behind, never ahead.
    await this.writers.commitAll();
    this.ledger.flush();
  }

  private languageOf(record: ContentRecord, pageId: string): string {
    if (record.lang !== undefined) return record.lang;
    if (this.lastPageLanguage !== undefined && this.lastPageLanguage.pageId === pageId) return this.lastPageLanguage.lang;
    const lang = pageLanguage(record);
    this.lastPageLanguage = { pageId, lang };
    return lang;
  }

  private ingestContent(record: ContentRecord, file: string, lineNumber: number): void {
    if (record.embedding !== undefined && record.embedding.length !== this.dimensions) {
      this.reportMalformed(file, lineNumber, `embedding must have ${this.dimensions} numbers (the index's dimensions), got ${record.embedding.length}`);
      return;
    }
    const pageId = record.passage?.pageId ?? pageIdFor(record.url, record.text);
    const verdict = this.table.judgeContent(record.url, pageId, record.fetchedAt);
    if (verdict.kind === 'outdated') {
      this.counts.outdated++;
      return;
    }
    if (record.passage === undefined) this.counts.pages++;
    else this.counts.passageRecords++;

    const passages = buildPassages(record, pageId, this.languageOf(record, pageId));
    if (verdict.kind === 'admit') {
      if (verdict.supersedes !== undefined) {
        this.writers.deletePage(verdict.supersedes.pageId, verdict.supersedes.passageSpan);
        this.record({
          event: 'removed',
          url: record.url,
          page_id: verdict.supersedes.pageId,
          reason: 'superseded',
          superseded_by: passageIdFor(pageId, passages[0].passageNo),
          removed_at: record.fetchedAt,
          at: unixNow(),
        });
        this.counts.superseded++;
      }
      this.record(this.admittedEvent(record, pageId, passages));
    } else if (record.passage !== undefined && record.passage.passageNo >= this.table.passageSpan(record.url, pageId)) {
      // A further passage of a page the index already holds.
      this.record(this.admittedEvent(record, pageId, passages));
    }
    this.writers.queuePage(pageId, passages);
    this.passagesQueued += passages.length;
    this.passagesSinceCommit += passages.length;
  }

  private admittedEvent(record: ContentRecord, pageId: string, passages: Passage[]): LedgerEvent {
    return {
      event: 'admitted',
      url: record.url,
      page_id: pageId,
      passages: passages.length,
      ...(record.passage === undefined ? {} : { passage_no: record.passage.passageNo }),
      fetched_at: record.fetchedAt,
      at: unixNow(),
    };
  }

  private ingestRemoval(removal: RemovalRecord): void {
    const verdict = this.table.judgeRemoval(removal.url, removal.removedAt);
    if (verdict.kind === 'outdated') {
      this.counts.outdated++;
      return;
    }
    if (verdict.current !== undefined) this.writers.deletePage(verdict.current.pageId, verdict.current.passageSpan);
    this.record({
      event: 'removed',
      url: removal.url,
      page_id: verdict.current?.pageId ?? null,
      reason: removal.reason,
      removed_at: removal.removedAt,
      at: unixNow(),
    });
    this.counts.removals++;
  }

  ingestBatch(file: string, batch: LineBatch): void {
    for (let offset = 0; offset < batch.lines.length; offset++) {
      const line = batch.lines[offset];
      if (line.trim() === '') continue;
      this.counts.lines++;
      const lineNumber = batch.firstLineNumber + offset;
      const parsed = parseRecordLine(line);
      if (parsed.kind === 'malformed') {
        this.reportMalformed(file, lineNumber, parsed.reason);
        continue;
      }
      if (parsed.kind === 'removal') {
        this.ingestRemoval(parsed);
        continue;
      }
      this.ingestContent(parsed, file, lineNumber);
    }
  }

  fileDone(): void {
    this.counts.files++;
  }

  fileUnreadable(file: string, error: unknown): void {
    this.unreadableFiles.push(file);
    this.log(`${file}: cannot read: ${errorMessage(error)}`);
  }

  elapsedSeconds(): number {
    return (performance.now() - this.startedAt) / 1000;
  }

  progress(file: string, bytesRead: number, bytesTotal: number): IngestProgress {
    const elapsedSeconds = this.elapsedSeconds();
    return {
      file,
      bytesRead,
      bytesTotal,
      lines: this.counts.lines,
      passages: this.passagesQueued,
      malformed: this.counts.malformed,
      elapsedSeconds,
      passagesPerSecond: elapsedSeconds > 0 ? this.passagesQueued / elapsedSeconds : 0,
    };
  }

  summary(): IngestSummary {
    const elapsedSeconds = this.elapsedSeconds();
    const totals = this.writers.counts;
    const handled = totals.added + totals.skipped;
    return {
      ...this.counts,
      unreadableFiles: this.unreadableFiles,
      passagesAdded: totals.added,
      passagesSkipped: totals.skipped,
      passagesDeleted: totals.deleted,
      shards: this.writers.shards,
      elapsedSeconds,
      passagesPerSecond: elapsedSeconds > 0 ? handled / elapsedSeconds : 0,
    };
  }
}

/** The shard count to use: an existing index keeps its own, with a warning when asked otherwise. */
function resolveShardCount(options: IngestOptions, log: (line: string) => void): { shards: number; dimensions: number } {
  const requested = options.shards ?? DEFAULT_SHARDS;
  if (!Number.isInteger(requested) || requested < 1) throw new Error(`shard count must be a positive integer, got ${requested}`);
  const existing = readManifest(options.dataDir);
  if (existing !== null && options.shards !== undefined && options.shards !== existing.shards) {
    log(`warning: SHARDS=${options.shards} asked for, but the index in ${options.dataDir} has ${existing.shards} shards; using ${existing.shards}`);
  }
  const manifest = ensureManifest(options.dataDir, requested);
  return { shards: manifest.shards, dimensions: manifest.dimensions };
}

/** Sizes of the files that can be read; the others are reported and left out. */
function measureFiles(files: string[], run: { fileUnreadable(file: string, error: unknown): void }): Array<{ file: string; bytes: number }> {
  const readable: Array<{ file: string; bytes: number }> = [];
  for (const file of files) {
    try {
      const stats = statSync(file);
      if (!stats.isFile()) throw new Error('not a regular file');
      readable.push({ file, bytes: stats.size });
    } catch (error) {
      run.fileUnreadable(file, error);
    }
  }
  return readable;
}

/** Ingest JSONL files into the index under `options.dataDir`, writing the admission ledger. */
export async function ingestFiles(files: string[], options: IngestOptions): Promise<IngestSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { shards, dimensions } = resolveShardCount(options, log);
  // The writers hold the shard locks: only then is the ledger ours to read and extend.
  const writers = await ShardWriters.open(options.dataDir, shards, dimensions);
  const table = new AdmissionTable();
  let ledger: LedgerWriter;
  try {
    await replayLedger(ledgerPath(options.dataDir), (event) => table.apply(event));
    ledger = LedgerWriter.open(ledgerPath(options.dataDir));
  } catch (error) {
    await writers.close();
    throw error;
  }
  const run = new IngestRun(writers, ledger, table, dimensions, log);
  try {
    const readable = measureFiles(files, run);
    const bytesTotal = readable.reduce((sum, entry) => sum + entry.bytes, 0);
    let bytesBeforeFile = 0;
    for (const { file, bytes } of readable) {
      const batches = readLineBatches(file);
      let readToEnd = true;
      try {
        for (;;) {
          let next: IteratorResult<LineBatch>;
          try {
            next = await batches.next();
          } catch (error) {
            run.fileUnreadable(file, error);
            readToEnd = false;
            break;
          }
          if (next.done) break;
          run.ingestBatch(file, next.value);
          if (run.commitDue) await run.commit();
          await writers.waitForCapacity();
          options.onProgress?.(run.progress(file, bytesBeforeFile + next.value.bytesRead, bytesTotal));
        }
      } finally {
        // Closes the file when the run fails part way through it.
        await batches.return(undefined);
      }
      if (readToEnd) run.fileDone();
      bytesBeforeFile += bytes;
    }
    await run.commit();
    return run.summary();
  } finally {
    await writers.close();
    ledger.close();
  }
}
