/**
 * Shard search on the index in DATA_DIR: one shard searched in this thread (the engine alone)
 * against the same search through the shard pool (every shard, worker threads, MessagePack,
 * merge).
 */
import { ShardReader, decodeSearchResult, readManifest, shardDirectory, shardOptionsOf } from '@evidence/native';
import { ShardPool } from '@evidence/pool';
import { probeLimit } from '@evidence/server';
import { BENCH_QUERIES } from '../queries.js';
import type { MicroGroup } from './group.js';

const TIMEOUT_MS = 5000;

export const shardSearchGroup: MicroGroup = {
  name: 'shard',
  title: 'Shard search on the index in DATA_DIR',
  legend:
    "baseline: one shard searched in this thread, top-10, MessagePack decoded. Rows: the same shard as /search's vertical router probes it " +
    '(top-20 and the matches per vertical, when the request names no vertical); the shard pool over every shard ' +
    '(worker threads, MessagePack, merge), top-10 and count only. Queries cycle through bench/src/queries.ts.',
  async setup() {
    const dataDir = process.env.DATA_DIR || './data';
    const manifest = readManifest(dataDir);
    if (!manifest) {
      return { unavailable: `no index in ${dataDir}: set DATA_DIR, or build one with npm start (demo corpus) or npm run ingest` };
    }
    const reader = ShardReader.open(shardDirectory(dataDir, 0), shardOptionsOf(manifest));
    const pool = new ShardPool({ dataDir, shards: manifest.shards, replicas: Number(process.env.REPLICAS || 1), shardOptions: shardOptionsOf(manifest), maxQueue: 1024 });
    let passages = 0;
    for (let shard = 0; shard < manifest.shards; shard++) {
      const counted = ShardReader.open(shardDirectory(dataDir, shard), shardOptionsOf(manifest));
      passages += counted.numDocs();
      counted.close();
    }
    await pool.search({ query: 'warm up', limit: 10, timeoutMs: TIMEOUT_MS });
    let next = 0;
    const query = () => BENCH_QUERIES[next++ % BENCH_QUERIES.length];
    return {
      note: `index: ${dataDir}, ${passages} passages in ${manifest.shards} shards`,
      cases: [
        {
          label: `${manifest.shards} shards`,
          baseline: { name: 'one shard, this thread, top-10 + decode', fn: () => decodeSearchResult(reader.search({ query: query(), limit: 10 })) },
          tasks: [
            {
              name: "one shard, this thread: /search's router probe (top-20 + counts per vertical) + decode",
              fn: () => decodeSearchResult(reader.search({ query: query(), limit: probeLimit(10), verticalCounts: true })),
            },
            { name: `pool: ${manifest.shards} shards scattered, merged top-10`, fn: () => pool.search({ query: query(), limit: 10, timeoutMs: TIMEOUT_MS }) },
            { name: 'pool: count only (limit 0)', fn: () => pool.search({ query: query(), limit: 0, timeoutMs: TIMEOUT_MS }) },
          ],
        },
      ],
      close: async () => {
        reader.close();
        await pool.close();
      },
    };
  },
};
