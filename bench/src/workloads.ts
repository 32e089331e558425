/**
 * What the load benchmarks send: per workload, the HTTP requests (every BENCH_QUERIES query, in
 * order) and the same work in-process (the floor). Every request asks for the top 10.
 *
 *   search-keyword  GET /search?q=...&mode=keyword&limit=10  floor: the search handler's run
 *   search-hybrid   GET /search?q=...&mode=hybrid&limit=10   floor: the search handler's run
 *   ground          GET /ground?objective=...                floor: the ground handler's run
 *
 * A floor is the capability's own work in-process, parameters validated once beforehand: for
 * /search the vertical router and the shard pool's scatter-gather (the router is query work the
 * answer depends on, not transport); for /ground its pool searches, story expansion and the
 * evidence worker. What HTTP adds on top: parsing, authentication, metering (a durable ledger
 * row per call), JSON.
 */
import { parseParams, type GroundResponse, type WebSearchResponse } from '@evidence/schemas';
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
  floor(services: Services, capabilityAt: (path: string) => Capability): (index: number) => Promise<unknown>;
  /** Whether a floor answer is partial (part of the index missed the deadline). */
  floorPartial(answer: unknown): boolean;
}

const query = encodeURIComponent;

function searchWorkload(name: WorkloadName, mode: 'keyword' | 'hybrid'): Workload {
  return {
    name,
    paths: BENCH_QUERIES.map((q) => `/search?q=${query(q)}&mode=${mode}&limit=${RESULT_LIMIT}`),
    peerPaths: mode === 'keyword' ? BENCH_QUERIES.map((q) => `/search?q=${query(q)}&limit=${RESULT_LIMIT}`) : undefined,
    floor: (services, capabilityAt) => {
      const search = capabilityAt('/search');
      const params = BENCH_QUERIES.map((q) => parseParams(search.params, { q, mode, limit: String(RESULT_LIMIT) }));
      return (index) => search.run(params[index % params.length], services);
    },
    floorPartial: (answer) => Boolean((answer as WebSearchResponse).partial),
  };
}

export const WORKLOADS: Record<WorkloadName, Workload> = {
  'search-keyword': searchWorkload('search-keyword', 'keyword'),
  'search-hybrid': searchWorkload('search-hybrid', 'hybrid'),
  ground: {
    name: 'ground',
    paths: BENCH_QUERIES.map((objective) => `/ground?objective=${query(objective)}`),
    floor: (services, capabilityAt) => {
      const ground = capabilityAt('/ground');
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
