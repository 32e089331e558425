/**
 * The state of one ingest run (pass 2): validate each line, derive passages with their
 * provenance, leave out redundant copies, route passages to the shard writers, apply re-crawls
 * and removals, and commit the shards, the story rewrites, the provenance logs and the admission
 * ledger together. `ingestFiles` (ingest.ts) drives it.
 */
import { flaggedHiddenPieces } from '@evidence/evidence';
import type { HiddenTextLine } from '@evidence/schemas';
import type { Passage } from '@evidence/native';
import type { AdmissionTable } from './admission.js';
import { deriveHostFields } from './derive.js';
import { fingerprintTexts, hex32, pageHash, type Fingerprints } from './fingerprint.js';
import type { LedgerEvent, LedgerWriter } from './ledger.js';
import type { CrawlItem, CrawlSkipKind } from './crawl-page.js';
import type { LineBatch } from './line-reader.js';
import { makePassage, numberedTexts, pageLanguage } from './passage-builder.js';
import { describePage } from './page-provenance.js';
import { passageIdFor, pageIdFor } from './page-id.js';
import type { ProvenanceState } from './provenance-state.js';
import { parseRecordLine, parseRecordObject, type ContentRecord, type RemovalRecord } from './record.js';
import { fnv1a32 } from './shard-router.js';
import type { ShardWriters } from './shard-writers.js';
import { damageKind, type CrawlCounts, type DamageKind, type IngestProgress, type IngestSummary } from './summary.js';

/** A systematically broken file must not bury the terminal; the count stays exact. */
const MALFORMED_LINES_SHOWN = 1000;

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class IngestRun {
  private readonly table: AdmissionTable;
  private readonly writers: ShardWriters;
  private readonly ledger: LedgerWriter;
  private readonly provenance: ProvenanceState;
  /** Reused for every page (fingerprints live only while their page is derived). */
  private fingerprints: Fingerprints | undefined;
  /** The story of each passage queued but not yet sent: its count is stamped when it leaves. */
  private readonly unsentStories = new Map<Passage, number>();
  private readonly dimensions: number;
  private readonly log: (line: string) => void;
  /** When the run started, pass 1 included. */
  private readonly startedAt: number;
  private readonly commitEvery: number;
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
    redundant: 0,
    pagesWithHiddenText: 0,
  };
  private readonly crawl: CrawlCounts = { records: 0, pages: 0, skipped: {}, damaged: {}, pastLimits: 0 };
  private damageReports = 0;
  readonly unreadableFiles: string[] = [];

  constructor(
    writers: ShardWriters,
    ledger: LedgerWriter,
    table: AdmissionTable,
    provenance: ProvenanceState,
    dimensions: number,
    log: (line: string) => void,
    commitEvery: number,
    startedAt: number,
  ) {
    this.commitEvery = commitEvery;
    this.startedAt = startedAt;
    this.writers = writers;
    this.ledger = ledger;
    this.table = table;
    this.provenance = provenance;
    this.dimensions = dimensions;
    this.log = log;
    writers.beforeSend = (passages) => this.stampStories(passages);
  }

  private record(event: LedgerEvent): void {
    this.ledger.append(event);
    this.table.apply(event);
    if (event.event === 'removed' && event.page_id !== null) this.provenance.copies.retire(event.page_id);
  }

  /** Write each passage's story host count as it is when the passage leaves for its shard. */
  private stampStories(passages: Passage[]): void {
    for (const passage of passages) {
      const story = this.unsentStories.get(passage);
      if (story === undefined) continue;
      this.unsentStories.delete(passage);
      passage.independentSources = this.provenance.clusters.stampSent(story);
    }
  }

  /** `where` is `:LINE` for a JSONL line, `@OFFSET` for a crawl record. */
  private reportMalformed(file: string, where: string, reason: string): void {
    this.counts.malformed++;
    if (this.counts.malformed <= MALFORMED_LINES_SHOWN) this.log(`${file}${where}: ${reason}`);
    if (this.counts.malformed === MALFORMED_LINES_SHOWN) this.log(`further malformed lines are counted but not shown`);
  }

  /** Whether enough passages were queued since the last commit to commit again. */
  get commitDue(): boolean {
    return this.passagesSinceCommit >= this.commitEvery;
  }

  /**
   * Commit the shards, then the logs. Stories that gained hosts after some of their passages
   * were sent are rewritten first (those committed already; the rest at the next commit, and at
   * the end of the run with one more commit).
   */
  async commit(final = false): Promise<void> {
    this.passagesSinceCommit = 0;
    const clusters = this.provenance.clusters;
    this.writers.sendPending();
    this.writers.rewriteStories(clusters.takeDueRewrites());
    await this.writers.commitAll();
    if (final && clusters.pendingRewrites > 0) {
      this.writers.rewriteStories(clusters.takeDueRewrites());
      await this.writers.commitAll();
    }
    // Shards first, then the logs: a crash in between leaves the logs behind, never ahead.
    this.provenance.flush();
    this.ledger.flush();
  }

  private languageOf(record: ContentRecord, pageId: string): string {
    if (record.lang !== undefined) return record.lang;
    if (this.lastPageLanguage !== undefined && this.lastPageLanguage.pageId === pageId) return this.lastPageLanguage.lang;
    const lang = pageLanguage(record);
    this.lastPageLanguage = { pageId, lang };
    return lang;
  }

  private ingestContent(record: ContentRecord, file: string, where: string): void {
    if (record.embedding !== undefined && record.embedding.length !== this.dimensions) {
      this.reportMalformed(file, where, `embedding must have ${this.dimensions} numbers (the index's dimensions), got ${record.embedding.length}`);
      return;
    }
    const pageId = record.passage?.pageId ?? pageIdFor(record.url, record.text);
    const verdict = this.table.judgeContent(record.url, pageId, record.fetchedAt);
    if (verdict.kind === 'outdated') {
      this.counts.outdated++;
      return;
    }
    const texts = numberedTexts(record);
    const fingerprints = fingerprintTexts(
      texts.map(([, text]) => text),
      this.fingerprints,
    );
    this.fingerprints = fingerprints;
    let copyHash: string | undefined;
    if (verdict.kind === 'admit' && record.passage === undefined) {
      const hash = pageHash(record.title, fingerprints);
      copyHash = `${hex32(hash.hi)}${hex32(hash.lo)}`;
      if (this.leftOutAsRedundant(record, pageId, copyHash, verdict.supersedes)) return;
    }
    if (record.passage === undefined) this.counts.pages++;
    else this.counts.passageRecords++;

    const passages = this.derivePassages(record, pageId, texts, fingerprints);
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
      const hiddenPieces = flaggedHiddenPieces([...(record.hiddenText ?? []).map((text) => ({ technique: 'declared' as const, text })), ...(record.hiddenPieces ?? [])]);
      if (hiddenPieces.length > 0) {
        // The engine has no field for it: the log keeps it beside the index, keyed by page.
        const line: HiddenTextLine = { page_id: pageId, url: record.url, fetched_at: record.fetchedAt, hidden_pieces: hiddenPieces };
        this.provenance.hiddenText.append(JSON.stringify(line));
        this.counts.pagesWithHiddenText++;
      }
      this.provenance.pageLinks.record(record.url, record.links);
      if (copyHash !== undefined) {
        const hostFields = deriveHostFields(record.hostname);
        this.provenance.copies.remember(copyHash, {
          pageId,
          publishedAt: record.publishedAt,
          siteDomain: hostFields.siteDomain,
          host: hostFields.host,
        });
      }
    } else if (record.passage !== undefined && record.passage.passageNo >= this.table.passageSpan(record.url, pageId)) {
      // A further passage of a page the index already holds.
      this.record(this.admittedEvent(record, pageId, passages));
      this.provenance.pageLinks.record(record.url, record.links);
    }
    this.writers.queuePage(pageId, passages);
    this.passagesQueued += passages.length;
    this.passagesSinceCommit += passages.length;
  }

  /**
   * A page identical to one the index keeps at another URL, and not a publication of its own
   * (copies.ts), is recorded `redundant` and not admitted. The URL's earlier page, if it had
   * one, leaves the index with it.
   */
  private leftOutAsRedundant(record: ContentRecord, pageId: string, copyHash: string, supersedes: { pageId: string; passageSpan: number } | undefined): boolean {
    const hostFields = deriveHostFields(record.hostname);
    const candidate = { url: record.url, pageId, publishedAt: record.publishedAt, siteDomain: hostFields.siteDomain, host: hostFields.host };
    const kept = this.provenance.copies.redundantWith(copyHash, candidate);
    if (kept === undefined) return false;
    if (supersedes !== undefined) {
      this.writers.deletePage(supersedes.pageId, supersedes.passageSpan);
      this.provenance.copies.retire(supersedes.pageId);
    }
    this.record({
      event: 'removed',
      url: record.url,
      page_id: pageId,
      reason: 'redundant',
      superseded_by: passageIdFor(kept.pageId, 0),
      removed_at: record.fetchedAt,
      at: unixNow(),
    });
    this.counts.redundant++;
    return true;
  }

  /** The engine passages of a record: page provenance once, then each passage's story and origin. */
  private derivePassages(record: ContentRecord, pageId: string, texts: Array<[number, string]>, fingerprints: Fingerprints): Passage[] {
    const { owners, hostSignals, clusters } = this.provenance;
    const page = describePage(record, owners, hostSignals);
    const lang = this.languageOf(record, pageId);
    const member = {
      host: page.hostFields.host,
      owner: page.owner,
      time: record.publishedAt ?? record.fetchedAt,
      pageKey: fnv1a32(pageId),
      pageOrigin: page.pageOrigin,
    };
    const passages: Passage[] = [];
    const stories = clusters.assignPage(fingerprints, member);
    for (let index = 0; index < texts.length; index++) {
      const [passageNo, text] = texts[index];
      const story = stories[index];
      const passage = makePassage(record, pageId, lang, page, passageNo, text, story, fingerprints.words[index]);
      this.unsentStories.set(passage, story.story);
      passages.push(passage);
    }
    return passages;
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

  /** Ingest lines of `batch` from `offset` until it ends or a commit is due; returns where it stopped. */
  ingestLines(file: string, batch: LineBatch, offset: number): number {
    let next = offset;
    while (next < batch.lines.length && !this.commitDue) {
      const line = batch.lines[next];
      const lineNumber = batch.firstLineNumber + next;
      next++;
      if (line.trim() === '') continue;
      this.counts.lines++;
      const parsed = parseRecordLine(line);
      if (parsed.kind === 'malformed') {
        this.reportMalformed(file, `:${lineNumber}`, parsed.reason);
        continue;
      }
      if (parsed.kind === 'removal') {
        this.ingestRemoval(parsed);
        continue;
      }
      this.ingestContent(parsed, file, `:${lineNumber}`);
    }
    return next;
  }

  /** Report damaged input (a WARC record, a gzip member, a broken stream) with its offset; counted by kind. */
  reportDamage(file: string, offset: number, reason: string): void {
    const kind: DamageKind = damageKind(reason);
    this.crawl.damaged[kind] = (this.crawl.damaged[kind] ?? 0) + 1;
    this.damageReports++;
    if (this.damageReports <= MALFORMED_LINES_SHOWN) this.log(`${file}@${offset}: ${reason}`);
    if (this.damageReports === MALFORMED_LINES_SHOWN) this.log(`further damaged records are counted but not shown`);
  }

  /** A page past an extraction limit: ingested the cheaper way, counted, and shown with its offset (as damage is). */
  private reportPastLimit(file: string, offset: number, note: string): void {
    this.crawl.pastLimits++;
    if (this.crawl.pastLimits <= MALFORMED_LINES_SHOWN) this.log(`${file}@${offset}: ${note}`);
    if (this.crawl.pastLimits === MALFORMED_LINES_SHOWN) this.log(`further pages past extraction limits are counted but not shown`);
  }

  private countSkip(skip: CrawlSkipKind): void {
    this.crawl.skipped[skip] = (this.crawl.skipped[skip] ?? 0) + 1;
  }

  /** Ingest crawl items of `items` from `offset` until they end or a commit is due; returns where it stopped. */
  ingestCrawlItems(file: string, items: CrawlItem[], offset: number): number {
    let next = offset;
    while (next < items.length && !this.commitDue) {
      const item = items[next];
      next++;
      if (item.kind === 'damaged') {
        this.reportDamage(file, item.offset, item.reason);
        continue;
      }
      this.crawl.records++;
      if (item.kind === 'skipped') {
        this.countSkip(item.skip);
        continue;
      }
      const parsed = parseRecordObject(item.record);
      if (parsed.kind !== 'content') {
        this.reportMalformed(file, `@${item.offset}`, parsed.kind === 'malformed' ? parsed.reason : 'not a page');
        continue;
      }
      this.crawl.pages++;
      if (item.note !== undefined) this.reportPastLimit(file, item.offset, item.note);
      this.ingestContent(parsed, file, `@${item.offset}`);
    }
    return next;
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
      crawl: this.crawl,
      unreadableFiles: this.unreadableFiles,
      passagesAdded: totals.added,
      passagesSkipped: totals.skipped,
      passagesDeleted: totals.deleted,
      passagesRewritten: totals.rewritten,
      shards: this.writers.shards,
      elapsedSeconds,
      passagesPerSecond: elapsedSeconds > 0 ? handled / elapsedSeconds : 0,
      vectorsMergedAtEnd: null,
      fullyIndexedSeconds: null,
    };
  }
}

