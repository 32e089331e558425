/**
 * Gather: merge per-shard top-k lists into one top-k (score descending, id ascending on ties,
 * so equal scores order the same way every time) and sum exact totals.
 */
import type { NativeHit, ShardSearchResult } from '@evidence/native';

export interface MergedSearch {
  hits: NativeHit[];
  total: number;
}

export function mergeTopK(results: ShardSearchResult[], limit: number): MergedSearch {
  let total = 0;
  const candidates: NativeHit[] = [];
  for (const result of results) {
    total += result.total;
    for (const hit of result.hits) candidates.push(hit);
  }
  candidates.sort((left, right) => right.score - left.score || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
  return { hits: candidates.slice(0, limit), total };
}
