/** Messages between the pool (main thread) and its shard workers. */
import type { SearchRequest } from '@evidence/native';

interface TaskBase {
  /** Commit generation the main thread has seen; the worker reloads when it is behind. */
  generation: number;
  /** Epoch ms after which the answer is no longer wanted (checked before running). */
  deadlineAt: number;
}

export interface SearchTask extends TaskBase {
  op: 'search';
  request: Omit<SearchRequest, 'timeoutMs'>;
}

export interface DocumentTask extends TaskBase {
  op: 'document';
  id: string;
}

export interface VectorTask extends TaskBase {
  op: 'vector';
  id: string;
}

export type ShardTask = SearchTask | DocumentTask | VectorTask;

/** A worker answers a task that waited past its deadline with this, without running it. */
export interface ExpiredAnswer {
  expired: true;
}
