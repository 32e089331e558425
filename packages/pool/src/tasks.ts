/** Messages between the pool (main thread) and its shard workers. */
import type { SearchRequest } from '@evidence/native';

interface TaskBase {
  /** Commit generation the main thread has seen; the worker reloads when it is behind. */
  generation: number;
  /** Epoch ms after which the answer is no longer wanted (checked before running). */
  deadlineAt: number;
}

/** Several searches of one scatter in one task: one message each way per shard, however many searches. */
export interface SearchesTask extends TaskBase {
  op: 'searches';
  requests: Omit<SearchRequest, 'timeoutMs'>[];
}

export interface DocumentTask extends TaskBase {
  op: 'document';
  id: string;
}

export interface VectorTask extends TaskBase {
  op: 'vector';
  id: string;
}

export type ShardTask = SearchesTask | DocumentTask | VectorTask;

/** A worker's answer to a searches task: each search's MessagePack bytes, or null when the deadline passed before it ran. */
export type SearchesAnswer = (Uint8Array | null)[];

/** A worker answers a task that waited past its deadline with this, without running it. */
export interface ExpiredAnswer {
  expired: true;
}
