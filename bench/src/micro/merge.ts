/**
 * Top-k merge: the pool's gather step (mergeTopK) over fixed per-shard results, against the
 * plainest merge there is.
 */
import type { NativeHit, ShardSearchResult } from '@evidence/native';
import { mergeTopK } from '@evidence/pool';
import { shardResults } from './fixtures/hits.js';
import type { MicroCase, MicroGroup } from './group.js';

const SHARD_COUNTS = [2, 4, 8];
const HITS_PER_SHARD = 50;
const LIMIT = 10;

function concatAndSort(results: ShardSearchResult[]): NativeHit[] {
  return ([] as NativeHit[])
    .concat(...results.map((result) => result.hits))
    .sort((left, right) => right.score - left.score)
    .slice(0, LIMIT);
}

function caseOf(shards: number): MicroCase {
  const results = shardResults(shards, HITS_PER_SHARD);
  return {
    label: `${shards} x ${HITS_PER_SHARD} hits`,
    baseline: { name: 'concat + Array.sort on score', fn: () => concatAndSort(results) },
    tasks: [
      { name: `mergeTopK top-${LIMIT}`, fn: () => mergeTopK(results, { limit: LIMIT }) },
      { name: `mergeTopK top-${LIMIT}, collapse story`, fn: () => mergeTopK(results, { limit: LIMIT, collapse: 'story' }) },
      { name: `mergeTopK top-${LIMIT}, sort recency`, fn: () => mergeTopK(results, { limit: LIMIT, sort: 'recency' }) },
    ],
  };
}

export const mergeGroup: MicroGroup = {
  name: 'merge',
  title: 'Top-k merge across shards (packages/pool merge.ts)',
  legend:
    `baseline: concat the shards' hits + Array.sort on score + top-${LIMIT}. Rows: mergeTopK (ties by id, totals summed), ` +
    `also with collapse=story (every hit its own story: the grouping's cost, nothing folded) and sort=recency. Fixed results: ${HITS_PER_SHARD} hits per shard with every engine field, each shard in score order.`,
  async setup() {
    return { cases: SHARD_COUNTS.map(caseOf) };
  },
};
