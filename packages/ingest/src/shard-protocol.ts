/** Messages between the ingest run and a shard worker thread (see shard-worker.ts). */
import type { Passage, ShardOptions } from '@evidence/native';

export interface ShardWorkerData {
  directory: string;
  shardOptions: ShardOptions;
  /** How long the open waits while another writer holds the shard (see IngestOptions.lockWaitMs). */
  lockWaitMs: number;
}

/** A story whose passages in the shard must carry a new independent host count. */
export interface StoryRewrite {
  storyId: string;
  independentSources: number;
}

export type ShardRequest =
  | { op: 'add'; passages: Passage[] }
  | { op: 'delete'; ids: string[] }
  /**
   * Rewrite (`ShardWriter.replace`) the committed passages of these stories whose count differs;
   * passages deleted since the last commit are left deleted.
   */
  | { op: 'replace'; stories: StoryRewrite[] }
  | { op: 'commit' }
  /** Put every committed vector into the shard's HNSW graph now (see ShardWriter.buildVectors). */
  | { op: 'buildVectors'; threads: number }
  /** Committed vectors not yet in the graph. */
  | { op: 'vectorTail' }
  | { op: 'close' };

/** One reply per request, in request order; `opened` (or `failed`) comes first, unasked. */
export type ShardReply =
  | { kind: 'opened' }
  | { kind: 'added'; added: number; skipped: number }
  | { kind: 'deleted'; deleted: number }
  | { kind: 'replaced'; replaced: number }
  | { kind: 'committed' }
  | { kind: 'vectorsBuilt'; records: number; graphVectors: number; seconds: number }
  | { kind: 'vectorTail'; records: number }
  | { kind: 'closed' }
  | { kind: 'failed'; message: string };
