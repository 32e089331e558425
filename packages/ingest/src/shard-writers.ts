/**
 * One engine writer per shard, with a pending batch each: passages reach the engine a batch at
 * a time (one native call per thousand passages, not per passage) and every passage of a page
 * lands on the page's shard.
 */
import { ShardWriter, shardDirectory, type Passage } from '@evidence/native';
import { passageIdFor } from './page-id.js';
import { shardForPage } from './shard-router.js';

export const PASSAGES_PER_ADD = 1000;

export interface ShardTotals {
  added: number;
  skipped: number;
  deleted: number;
}

export class ShardWriters {
  readonly shards: number;
  private readonly writers: ShardWriter[];
  private readonly pending: Passage[][];
  /**
   * Pages deleted since the last commit, per shard. The engine answers "already present" for a
   * committed passage even after an uncommitted delete, so re-adding such a page must wait for
   * a commit or it would be skipped and lost.
   */
  private readonly deletedSinceCommit: Set<string>[];
  private readonly totals: ShardTotals = { added: 0, skipped: 0, deleted: 0 };

  private constructor(writers: ShardWriter[]) {
    this.shards = writers.length;
    this.writers = writers;
    this.pending = writers.map(() => []);
    this.deletedSinceCommit = writers.map(() => new Set<string>());
  }

  /** Open the writer of every shard; a shard another process writes to fails the whole open. */
  static open(dataDir: string, shards: number, dimensions: number): ShardWriters {
    const writers: ShardWriter[] = [];
    try {
      for (let shard = 0; shard < shards; shard++) {
        writers.push(ShardWriter.open(shardDirectory(dataDir, shard), { dimensions }));
      }
    } catch (error) {
      for (const writer of writers) writer.close();
      const message = error instanceof Error ? error.message : String(error);
      if (message.startsWith('ELOCKED')) {
        throw new Error(`shard ${writers.length} of ${dataDir} is locked by another writer (is another ingest running?): ${message}`);
      }
      throw error;
    }
    return new ShardWriters(writers);
  }

  get counts(): Readonly<ShardTotals> {
    return this.totals;
  }

  /** Whether `pageId` was deleted since the last commit (re-adding it then needs a commit first). */
  deletedUncommitted(pageId: string): boolean {
    return this.deletedSinceCommit[shardForPage(pageId, this.shards)].has(pageId);
  }

  /** Queue the passages of one page; they go to the engine when the shard's batch is full. */
  queuePage(pageId: string, passages: Passage[]): void {
    const shard = shardForPage(pageId, this.shards);
    const batch = this.pending[shard];
    for (const passage of passages) batch.push(passage);
    if (batch.length >= PASSAGES_PER_ADD) this.flushShard(shard);
  }

  /** Delete passages `pageId:0..span-1`; returns how many were live. */
  deletePage(pageId: string, passageSpan: number): number {
    const shard = shardForPage(pageId, this.shards);
    // The page may still sit in the pending batch: send it first so the delete covers it.
    this.flushShard(shard);
    const ids: string[] = [];
    for (let passageNo = 0; passageNo < passageSpan; passageNo++) ids.push(passageIdFor(pageId, passageNo));
    const deleted = ids.length === 0 ? 0 : this.writers[shard].delete(ids);
    this.deletedSinceCommit[shard].add(pageId);
    this.totals.deleted += deleted;
    return deleted;
  }

  private flushShard(shard: number): void {
    const batch = this.pending[shard];
    if (batch.length === 0) return;
    this.pending[shard] = [];
    const report = this.writers[shard].add(batch);
    this.totals.added += report.added;
    this.totals.skipped += report.skipped;
  }

  /** Send every pending batch and commit every shard (each commit rewrites its commit.json). */
  commitAll(): void {
    for (let shard = 0; shard < this.shards; shard++) {
      this.flushShard(shard);
      this.writers[shard].commit();
      this.deletedSinceCommit[shard].clear();
    }
  }

  /** Release the writer locks; anything not committed is dropped. */
  close(): void {
    for (const writer of this.writers) writer.close();
  }
}
