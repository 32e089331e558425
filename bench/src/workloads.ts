/**
 * What the load benchmarks send: per workload, the HTTP requests (every BENCH_QUERIES query, in
 * order) and the same work in-process (the floor). Every request asks for the top 10.
 *
 *   search-keyword  GET /search?q=...&mode=keyword&limit=10  floor: the search handler's run
 *   search-hybrid   GET /search?q=...&mode=hybrid&limit=10   floor: the search handler's run
 *   search-hybrid-new  the same with a query text never sent before (a bench query and a
 *                   number): on an index whose vectors come from a model, every call runs the
 *                   model for its query vector, where search-hybrid's texts come from the cache
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

export const WORKLOAD_NAMES = ['search-keyword', 'search-hybrid', 'search-hybrid-new', 'ground'] as const;
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

/**
 * Query texts no run repeats: each bench query followed by a number (a word no passage holds),
 * `variants` per query, in a random-looking order so that neighbours differ. Distinct per
 * process start too (the seed is the start time), so a server that served an earlier run has
 * none of them cached.
 */
function newTexts(variants: number): string[] {
  const seed = Date.now() % 1_000_000;
  const texts: string[] = [];
  for (let variant = 0; variant < variants; variant++) for (const q of BENCH_QUERIES) texts.push(`${q} ${seed}x${variant}`);
  return texts;
}

/** Distinct texts of search-hybrid-new: more than 10 s at 1,000 calls per second would use. */
const NEW_TEXTS = 20_000;

function searchWorkload(name: WorkloadName, mode: 'keyword' | 'hybrid', texts: string[] = BENCH_QUERIES): Workload {
  return {
    name,
    paths: texts.map((q) => `/search?q=${query(q)}&mode=${mode}&limit=${RESULT_LIMIT}`),
    peerPaths: mode === 'keyword' ? texts.map((q) => `/search?q=${query(q)}&limit=${RESULT_LIMIT}`) : undefined,
    floor: (services, capabilityAt) => {
      const search = capabilityAt('/search');
      // the floor's own texts: none of the server's calls warmed its cache
      const floorTexts = texts === BENCH_QUERIES ? texts : newTexts(Math.ceil(NEW_TEXTS / BENCH_QUERIES.length)).map((q) => `floor ${q}`);
      const params = floorTexts.map((q) => parseParams(search.params, { q, mode, limit: String(RESULT_LIMIT) }));
      return (index) => search.run(params[index % params.length], services);
    },
    floorPartial: (answer) => Boolean((answer as WebSearchResponse).partial),
  };
}

export const WORKLOADS: Record<WorkloadName, Workload> = {
  'search-keyword': searchWorkload('search-keyword', 'keyword'),
  'search-hybrid': searchWorkload('search-hybrid', 'hybrid'),
  'search-hybrid-new': searchWorkload('search-hybrid-new', 'hybrid', newTexts(Math.ceil(NEW_TEXTS / BENCH_QUERIES.length))),
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
