/**
 * `npm run bench`: tinybench micro-benchmarks of search on the index in DATA_DIR.
 * Baseline: one shard searched in this thread (the engine alone). Beside it: the same search
 * through the shard pool (every shard, worker threads, MessagePack, merge).
 */
import { Bench } from 'tinybench';
import { unpack } from 'msgpackr';
import { ShardReader, readManifest, shardDirectory } from '@evidence/native';
import { ShardPool } from '@evidence/pool';
import { BENCH_QUERIES } from './queries.js';

const dataDir = process.env.DATA_DIR || './data';
const manifest = readManifest(dataDir);
if (!manifest) {
  console.error(`no index in ${dataDir}: run npm start once (it builds the demo corpus) or npm run ingest`);
  process.exit(2);
}
const reader = ShardReader.open(shardDirectory(dataDir, 0), { dimensions: manifest.dimensions });
const pool = new ShardPool({ dataDir, shards: manifest.shards, replicas: Number(process.env.REPLICAS || 1), dimensions: manifest.dimensions, maxQueue: 1024 });
let passages = 0;
for (let shard = 0; shard < manifest.shards; shard++) {
  passages += ShardReader.open(shardDirectory(dataDir, shard), { dimensions: manifest.dimensions }).numDocs();
}
await pool.search({ query: 'warm up', limit: 10, timeoutMs: 5000 });

let next = 0;
const bench = new Bench({ time: Number(process.env.BENCH_MS || 3000), warmup: true });
bench
  .add('baseline: one shard, this thread, top-10 + decode', () => {
    unpack(reader.search({ query: BENCH_QUERIES[next++ % BENCH_QUERIES.length], limit: 10 }));
  })
  .add(`pool: ${manifest.shards} shards scattered, merged top-10`, async () => {
    await pool.search({ query: BENCH_QUERIES[next++ % BENCH_QUERIES.length], limit: 10, timeoutMs: 5000 });
  })
  .add('pool: count only (limit 0)', async () => {
    await pool.search({ query: BENCH_QUERIES[next++ % BENCH_QUERIES.length], limit: 0, timeoutMs: 5000 });
  });
await bench.run();

const baseline = bench.tasks[0].result;
console.log(`index: ${dataDir}, ${passages} passages in ${manifest.shards} shards`);
console.table(
  bench.tasks.map((task) => {
    const result = task.result as { throughput: { mean: number }; latency: { p50?: number; p99?: number } };
    const base = baseline as unknown as { throughput: { mean: number } };
    return {
      task: task.name,
      'ops/s': Math.round(result.throughput.mean),
      'p50 ms': Number((result.latency.p50 ?? 0).toFixed(3)),
      'p99 ms': Number((result.latency.p99 ?? 0).toFixed(3)),
      'vs baseline': `${(result.throughput.mean / base.throughput.mean).toFixed(2)}x`,
    };
  }),
);
await pool.close();
