/**
 * The shards of a run, each written by its own worker thread (see shard-worker.ts), with a
 * pending batch each: passages reach the engine a thousand at a time, every passage of a page
 * lands on the page's shard, and requests to a shard are applied in the order they were made.
 * A batch is stamped (`beforeSend`) just before it leaves, so it carries the story counts of
 * that moment rather than of when its passages were read.
 */
import { availableParallelism } from 'node:os';
import { shardDirectory, type Passage, type ShardOptions } from '@evidence/native';
import { passageIdFor } from './page-id.js';
import { ShardConnection } from './shard-connection.js';
import type { StoryRewrite } from './shard-protocol.js';
import { shardForPage } from './shard-router.js';

export const PASSAGES_PER_ADD = 1000;
/** Unanswered requests a shard may have before the reader waits: bounds memory held in messages. */
const REQUESTS_IN_FLIGHT_PER_SHARD = 4;

export interface ShardTotals {
  added: number;
  skipped: number;
  deleted: number;
  /** Passages rewritten because their story's independent host count rose. */
  rewritten: number;
}

export class ShardWriters {
  readonly shards: number;
  private readonly connections: ShardConnection[];
  private readonly pending: Passage[][];
  /**
   * Pages deleted since the shard's last commit. The engine answers "already present" for a
   * committed passage even after an uncommitted delete, so re-adding such a page must follow a
   * commit or it would be skipped and lost.
   */
  private readonly deletedSinceCommit: Set<string>[];
  private readonly totals: ShardTotals = { added: 0, skipped: 0, deleted: 0, rewritten: 0 };
  /** Called with each batch just before it is sent. */
  beforeSend: ((passages: Passage[]) => void) | undefined;

  private constructor(connections: ShardConnection[]) {
    this.shards = connections.length;
    this.connections = connections;
    this.pending = connections.map(() => []);
    this.deletedSinceCommit = connections.map(() => new Set<string>());
  }

  /** Open every shard's writer; a shard another process writes to fails the whole open. */
  static async open(dataDir: string, shards: number, shardOptions: ShardOptions, lockWaitMs: number): Promise<ShardWriters> {
    const opening = [];
    for (let shard = 0; shard < shards; shard++) {
      opening.push(ShardConnection.open(shard, { directory: shardDirectory(dataDir, shard), shardOptions, lockWaitMs }));
    }
    const outcomes = await Promise.allSettled(opening);
    const connections: ShardConnection[] = [];
    let firstFailure: unknown;
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') connections.push(outcome.value);
      else firstFailure ??= outcome.reason;
    }
    if (firstFailure === undefined) return new ShardWriters(connections);
    await Promise.all(connections.map((connection) => connection.close()));
    const message = firstFailure instanceof Error ? firstFailure.message : String(firstFailure);
    if (message.includes('ELOCKED')) throw new Error(`the index in ${dataDir} is locked by another writer (is another ingest running?): ${message}`);
    throw new Error(message);
  }

  get counts(): Readonly<ShardTotals> {
    return this.totals;
  }

  /** Queue the passages of one page; they go to the engine when the shard's batch is full. */
  queuePage(pageId: string, passages: Passage[]): void {
    const shard = shardForPage(pageId, this.shards);
    if (this.deletedSinceCommit[shard].has(pageId)) this.commitShard(shard);
    const batch = this.pending[shard];
    for (const passage of passages) batch.push(passage);
    if (batch.length >= PASSAGES_PER_ADD) this.sendBatch(shard);
  }

  /** Delete passages `pageId:0..span-1` (counted in `deleted` once the shard answers). */
  deletePage(pageId: string, passageSpan: number): void {
    if (passageSpan <= 0) return;
    const shard = shardForPage(pageId, this.shards);
    // The page may still sit in the pending batch: send it first so the delete covers it.
    this.sendBatch(shard);
    const ids: string[] = [];
    for (let passageNo = 0; passageNo < passageSpan; passageNo++) ids.push(passageIdFor(pageId, passageNo));
    this.connections[shard].send({ op: 'delete', ids }).then((reply) => {
      if (reply.kind === 'deleted') this.totals.deleted += reply.deleted;
    }, () => {});
    this.deletedSinceCommit[shard].add(pageId);
  }

  private sendBatch(shard: number): void {
    const batch = this.pending[shard];
    if (batch.length === 0) return;
    this.pending[shard] = [];
    this.beforeSend?.(batch);
    this.connections[shard].send({ op: 'add', passages: batch }).then((reply) => {
      if (reply.kind !== 'added') return;
      this.totals.added += reply.added;
      this.totals.skipped += reply.skipped;
    }, () => {});
  }

  private commitShard(shard: number): Promise<unknown> {
    this.sendBatch(shard);
    this.deletedSinceCommit[shard].clear();
    return this.connections[shard].send({ op: 'commit' });
  }

  /** Send every shard's pending batch now. */
  sendPending(): void {
    for (let shard = 0; shard < this.shards; shard++) this.sendBatch(shard);
  }

  /**
   * Ask every shard to rewrite its committed passages of these stories (a story's passages can
   * sit on any shard). Applied in order with everything else; durable at the next commit.
   */
  rewriteStories(stories: StoryRewrite[]): void {
    if (stories.length === 0) return;
    for (const connection of this.connections) {
      connection.send({ op: 'replace', stories }).then((reply) => {
        if (reply.kind === 'replaced') this.totals.rewritten += reply.replaced;
      }, () => {});
    }
  }

  /** Wait while any shard is too far behind the reader; raises a shard's failure. */
  async waitForCapacity(): Promise<void> {
    for (const connection of this.connections) await connection.settle(REQUESTS_IN_FLIGHT_PER_SHARD);
  }

  /** Send every pending batch and commit every shard (each commit rewrites its commit.json). */
  async commitAll(): Promise<void> {
    const commits = [];
    for (let shard = 0; shard < this.shards; shard++) commits.push(this.commitShard(shard));
    await Promise.all(commits);
    // Every reply is in once the commits are: the totals are final here.
    for (const connection of this.connections) connection.throwIfFailed();
  }

  /**
   * Put every committed vector of every shard into its HNSW graph (the shards in parallel, the
   * cores shared among them); returns the tail records merged. Searches scan the vectors not yet
   * in a graph exactly, so this only makes them fast.
   */
  async buildVectors(): Promise<{ records: number; graphVectors: number }> {
    const threads = Math.max(1, Math.floor(availableParallelism() / this.shards));
    const replies = await Promise.all(this.connections.map((connection) => connection.send({ op: 'buildVectors', threads })));
    for (const connection of this.connections) connection.throwIfFailed();
    let records = 0;
    let graphVectors = 0;
    for (const reply of replies) {
      if (reply.kind !== 'vectorsBuilt') continue;
      records += reply.records;
      graphVectors += reply.graphVectors;
    }
    return { records, graphVectors };
  }

  /** Committed vectors of every shard not yet in its graph. */
  async vectorTail(): Promise<number> {
    const replies = await Promise.all(this.connections.map((connection) => connection.send({ op: 'vectorTail' })));
    for (const connection of this.connections) connection.throwIfFailed();
    return replies.reduce((sum, reply) => sum + (reply.kind === 'vectorTail' ? reply.records : 0), 0);
  }

  /** Release the writer locks and end the threads; anything not committed is dropped. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}
