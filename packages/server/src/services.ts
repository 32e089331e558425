/** What handlers run against: the shard pool, the stores and the settings. */
import type { ShardPool } from '@evidence/pool';
import type { Stores } from '@evidence/stores';
import type { ServerConfig } from './config.js';

export interface Services {
  pool: ShardPool;
  stores: Stores;
  config: ServerConfig;
}
