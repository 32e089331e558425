export { ShardPool, type ShardPoolOptions, type PoolSearchRequest, type PoolSearchResult } from './shard-pool.js';
export { mergeTopK, type MergedSearch } from './merge.js';
export { settleWithin, type Settled } from './deadline.js';
export type { ShardTask, SearchTask, DocumentTask } from './tasks.js';
