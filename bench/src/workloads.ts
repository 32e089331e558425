/**
 * What the load benchmarks send: per workload, the HTTP requests (every BENCH_QUERIES query, in
 * order) and the same work in-process (the floor). Every request asks for the top 10.
 *
 *   search-keyword  GET /search?q=...&mode=keyword&limit=10  floor: one ShardPool.search, keyword
 *   search-hybrid   GET /search?q=...&mode=hybrid&limit=10   floor: one ShardPool.search, hybrid
 *   ground          GET /ground?objective=...                floor: the ground handler's run
 *                   (its pool searches, story expansion and the evidence worker), parameters
 *                   validated once beforehand
 *
 * The /search floor is the engine's search alone: the route also runs the vertical router (a
 * probe with vertical counts, and a second search when it routes), which the floor does not.
 */
import type { PoolSearchResult } from '@evidence/pool';
import type { GroundResponse } from '@evidence/schemas';
import type { Capability, Services } from '@evidence/server';
import { BENCH_QUERIES } from './queries.js';

export const WORKLOAD_NAMES = ['search-keyword', 'search-hybrid', 'ground'] as const;
export type WorkloadName = (typeof WORKLOAD_NAMES)[number];

export const RESULT_LIMIT = 10;

export interface Workload {
  name: WorkloadName;
  /** HTTP paths with query strings, one per bench query. */
  paths: string[];
  /** The same requests to the Fastify + MiniSearch peer, when it can answer them (keyword search only). */
  peerPaths?: string[];
  /** The in-process work of request `index` (cycling through the queries). */
  floor(services: Services, groundCapability: Capability): (index: number) => Promise<unknown>;
  /** Whether a floor answer is partial (part of the index missed the deadline). */
  floorPartial(answer: unknown): boolean;
}

const query = encodeURIComponent;

function searchWorkload(name: WorkloadName, mode: 'keyword' | 'hybrid'): Workload {
  return {
    name,
    paths: BENCH_QUERIES.map((q) => `/search?q=${query(q)}&mode=${mode}&limit=${RESULT_LIMIT}`),
    peerPaths: mode === 'keyword' ? BENCH_QUERIES.map((q) => `/search?q=${query(q)}&limit=${RESULT_LIMIT}`) : undefined,
    floor: (services) => (index) =>
      services.pool.search({
        query: BENCH_QUERIES[index % BENCH_QUERIES.length],
        mode,
        limit: RESULT_LIMIT,
        filters: { safe: true },
        timeoutMs: services.config.searchTimeoutMs,
      }),
    floorPartial: (answer) => (answer as PoolSearchResult).partial,
  };
}

export const WORKLOADS: Record<WorkloadName, Workload> = {
  'search-keyword': searchWorkload('search-keyword', 'keyword'),
  'search-hybrid': searchWorkload('search-hybrid', 'hybrid'),
  ground: {
    name: 'ground',
    paths: BENCH_QUERIES.map((objective) => `/ground?objective=${query(objective)}`),
    floor: (services, ground) => {
      const params = BENCH_QUERIES.map((objective) => ground.params.parse({ objective }));
      return (index) => ground.run(params[index % params.length], services);
    },
    floorPartial: (answer) => (answer as GroundResponse).coverage.partial,
  },
};

/** The label a table shows for a workload: its route and mode. */
export function workloadLabel(name: WorkloadName): string {
  return name === 'ground' ? '/ground' : `/search ${name.slice('search-'.length)}`;
}
