/** Messages between the ingest run and a shard worker thread (see shard-worker.ts). */
import type { Passage } from '@evidence/native';

export interface ShardWorkerData {
  directory: string;
  dimensions: number;
}

export type ShardRequest =
  | { op: 'add'; passages: Passage[] }
  | { op: 'delete'; ids: string[] }
  | { op: 'commit' }
  | { op: 'close' };

/** One reply per request, in request order; `opened` (or `failed`) comes first, unasked. */
export type ShardReply =
  | { kind: 'opened' }
  | { kind: 'added'; added: number; skipped: number }
  | { kind: 'deleted'; deleted: number }
  | { kind: 'committed' }
  | { kind: 'closed' }
  | { kind: 'failed'; message: string };
