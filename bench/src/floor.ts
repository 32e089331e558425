/**
 * The in-process floor: the shard pool called directly (worker threads, msgpack, top-k merge;
 * no HTTP), in a closed loop at a given concurrency. HTTP figures are read against it.
 */
import type { ShardPool } from '@evidence/pool';
import { BENCH_QUERIES, percentile } from './queries.js';

export interface LoadFigures {
  requests: number;
  qps: number;
  p50: number;
  p99: number;
}

export async function measurePoolFloor(pool: ShardPool, concurrency: number, seconds: number, limit = 10): Promise<LoadFigures> {
  const latencies: number[] = [];
  const endAt = performance.now() + seconds * 1000;
  let next = 0;
  const startedAt = performance.now();
  async function loop() {
    while (performance.now() < endAt) {
      const query = BENCH_QUERIES[next++ % BENCH_QUERIES.length];
      const started = performance.now();
      await pool.search({ query, limit, timeoutMs: 2000 });
      latencies.push(performance.now() - started);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = (performance.now() - startedAt) / 1000;
  latencies.sort((left, right) => left - right);
  return { requests: latencies.length, qps: latencies.length / elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}
