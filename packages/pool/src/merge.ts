/**
 * Gather: merge per-shard top-k lists into one top-k in the order the shards used (score, or
 * the sort field; ties by id so equal keys order the same way every time), collapse groups
 * that span shards (summing group sizes), sum exact totals and facet counts.
 */
import type { NativeHit, ShardFacets, ShardSearchResult } from '@evidence/native';
import type { CollapseBy, SearchSort } from '@evidence/schemas';

export interface MergeOptions {
  limit: number;
  sort?: SearchSort;
  collapse?: CollapseBy;
}

export interface MergedSearch {
  hits: NativeHit[];
  total: number;
  facets?: ShardFacets;
  verticalCounts?: Record<string, number>;
}

const SORT_VALUE: Record<SearchSort, (hit: NativeHit) => number> = {
  relevance: (hit) => hit.score,
  recency: (hit) => hit.fetched_at,
  host_rank: (hit) => hit.host_rank,
  quality: (hit) => hit.quality,
  published: (hit) => hit.published_at ?? Number.NEGATIVE_INFINITY,
  words: (hit) => hit.word_count ?? Number.NEGATIVE_INFINITY,
  centrality: (hit) => hit.centrality ?? Number.NEGATIVE_INFINITY,
};

const COLLAPSE_KEY: Record<Exclude<CollapseBy, 'none'>, (hit: NativeHit) => string> = {
  host: (hit) => hit.host,
  page: (hit) => hit.id.slice(0, hit.id.lastIndexOf(':')),
  story: (hit) => hit.story_id,
};

function sumInto(into: Record<string, number>, from: Record<string, number>): void {
  for (const key in from) into[key] = (into[key] ?? 0) + from[key];
}

export function mergeFacets(all: ShardFacets[]): ShardFacets {
  const merged: ShardFacets = { host: {}, vertical: {}, source: {}, content_type: {}, authority: {}, topics: {}, published_year: {} };
  for (const facets of all) {
    sumInto(merged.host, facets.host);
    sumInto(merged.vertical, facets.vertical);
    sumInto(merged.source, facets.source);
    sumInto(merged.content_type, facets.content_type);
    sumInto(merged.authority, facets.authority);
    sumInto(merged.topics, facets.topics);
    sumInto(merged.published_year, facets.published_year);
  }
  return merged;
}

export function mergeTopK(results: ShardSearchResult[], options: MergeOptions | number): MergedSearch {
  const { limit, sort = 'relevance', collapse = 'none' } = typeof options === 'number' ? { limit: options } : options;
  let total = 0;
  const candidates: NativeHit[] = [];
  const facets: ShardFacets[] = [];
  let verticalCounts: Record<string, number> | undefined;
  for (const result of results) {
    total += result.total;
    for (const hit of result.hits) candidates.push(hit);
    if (result.facets) facets.push(result.facets);
    if (result.vertical_counts) sumInto((verticalCounts ??= {}), result.vertical_counts);
  }
  const value = SORT_VALUE[sort];
  candidates.sort((left, right) => value(right) - value(left) || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
  let hits = candidates;
  if (collapse !== 'none') {
    const keyOf = COLLAPSE_KEY[collapse];
    const kept = new Map<string, NativeHit>();
    for (const hit of candidates) {
      const key = keyOf(hit);
      const first = kept.get(key);
      if (first) first.group_size = (first.group_size ?? 1) + (hit.group_size ?? 1);
      else kept.set(key, hit);
    }
    hits = [...kept.values()];
  }
  const merged: MergedSearch = { hits: hits.slice(0, limit), total };
  if (facets.length > 0) merged.facets = mergeFacets(facets);
  if (verticalCounts) merged.verticalCounts = verticalCounts;
  return merged;
}
