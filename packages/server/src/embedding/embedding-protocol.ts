/** Messages between the service and its background embedder thread (embedding-worker.ts). */
import type { ShardOptions } from '@evidence/native';

export interface EmbeddingWorkerData {
  dataDir: string;
  /** The shards this node embeds (every shard of the index). */
  shards: number[];
  shardOptions: ShardOptions;
  /** The index's embedder (a catalog name of `runs: 'model'`). */
  embedder: string;
  /** Threads of the model (EMBED_THREADS). */
  threads: number;
}

/** A shard's state after a pass: its live passages, how many have a vector, and what this pass stored. */
export interface EmbeddingProgress {
  kind: 'progress';
  shard: number;
  passages: number;
  embedded: number;
  stored: number;
  embedMs: number;
}

/** A shard the thread cannot read or write (message), or that it can again (null). */
export interface EmbeddingShardNotice {
  kind: 'shard';
  shard: number;
  message: string | null;
}

export type EmbeddingWorkerMessage = { kind: 'stop' };
