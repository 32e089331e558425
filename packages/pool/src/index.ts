export { ShardPool, type ShardCommitState, type ShardPoolOptions, type ShardStats, type PoolSearchRequest, type PoolSearchResult } from './shard-pool.js';
export { mergeTopK, mergeFacets, type MergedSearch, type MergeOptions } from './merge.js';
export { settleWithin, type Settled } from './deadline.js';
export { gatherSearch, answerBuffers, type ScatterRequest, type ShardAnswer } from './gather.js';
export type { ShardTask, SearchesTask, SearchesAnswer, DocumentTask, VectorTask } from './tasks.js';
