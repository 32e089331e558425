/**
 * The gather half of a scatter, apart from the pool: what each shard answered to one search
 * (the engine's MessagePack bytes, or why it did not answer), as plain data that crosses threads
 * with its bytes moved, and the merged answer made from it. The pool gathers its own searches
 * with it; the evidence workers gather the answers the pool hands them, so hits are decoded once,
 * where they are used.
 */
import { decodeSearchResult, type SearchRequest, type ShardSearchResult } from '@evidence/native';
import { errors } from '@evidence/schemas';
import { mergeTopK } from './merge.js';
import type { PoolSearchResult } from './shard-pool.js';

/** One search of a scatter: the engine's request without its deadline (the deadline is the scatter's). */
export type ScatterRequest = Omit<SearchRequest, 'timeoutMs'>;

/**
 * What one shard answered to one search: its result's bytes, or why there is none: `expired`
 * (the deadline passed before it ran), `timeout` (no answer by the deadline), `queue_full` (its
 * queue held MAX_QUEUE tasks), `failed` (the shard is down or its worker failed).
 */
export type ShardAnswer = { bytes: Uint8Array } | { missed: 'expired' | 'timeout' | 'queue_full' | 'failed' };

/** Each answer's bytes, for a transfer list. */
export function answerBuffers(answers: ShardAnswer[][]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const perShard of answers) for (const answer of perShard) if ('bytes' in answer) buffers.push(answer.bytes.buffer as ArrayBuffer);
  return buffers;
}

/**
 * One search's merged answer from its shards' answers (in shard order): top-k merge, summed
 * totals, `partial` when a shard missed. No shard answering is a 503 (`no_shard`), a 408 when
 * every shard ran out of time, and a 503 at capacity when a full queue refused it and no shard
 * answered.
 */
export function gatherSearch(request: Pick<ScatterRequest, 'limit' | 'sort' | 'collapse'>, answers: ShardAnswer[]): PoolSearchResult {
  const results: ShardSearchResult[] = [];
  let shardsDown = 0;
  let partial = false;
  const unanswered = answers.every((answer) => 'missed' in answer && answer.missed !== 'expired');
  for (const answer of answers) {
    if ('missed' in answer) {
      if (answer.missed === 'queue_full' && unanswered) throw errors.atCapacity(1);
      shardsDown++;
      partial = true;
      continue;
    }
    const result = decodeSearchResult(answer.bytes);
    if (result.timed_out) partial = true;
    results.push(result);
  }
  if (results.length === 0 && shardsDown === answers.length) {
    const late = answers.every((answer) => 'missed' in answer && (answer.missed === 'expired' || answer.missed === 'timeout'));
    throw late ? errors.timeout() : errors.noShard();
  }
  const merged = mergeTopK(results, { limit: request.limit, sort: request.sort, collapse: request.collapse });
  const gathered: PoolSearchResult = {
    hits: merged.hits,
    total: merged.total,
    partial,
    shardsDown,
    passages: results.reduce((sum, result) => sum + (result.passages ?? 0), 0),
    embedded: results.reduce((sum, result) => sum + (result.embedded ?? 0), 0),
  };
  if (merged.facets) gathered.facets = merged.facets;
  if (merged.verticalCounts) gathered.verticalCounts = merged.verticalCounts;
  return gathered;
}
