/**
 * The vertical router. With no `vertical` named, the query runs across all verticals first (the
 * probe: a few more hits than asked for, plus the exact match count per vertical). When at
 * least ROUTE_MIN_HITS of the top ROUTE_PROBE hits exist and ROUTE_SHARE of them belong to one
 * vertical, the query clearly belongs there and the answer is that vertical's (`routed: true`,
 * `vertical` set). Filtering to a vertical changes no score, so the probe's hits of that
 * vertical, in the probe's order, ARE the filtered ranking: the probe answers by itself when it
 * holds enough of them; only otherwise does a second scatter run with the vertical filter.
 * When no vertical dominates, the all-vertical answer stands (`routed: true`, `vertical: null`).
 */
import type { NativeHit } from '@evidence/native';
import type { PoolSearchResult } from '@evidence/pool';
import type { SearchParams } from '@evidence/schemas';

export const ROUTE_PROBE = 20;
export const ROUTE_MIN_HITS = 5;
export const ROUTE_SHARE = 0.7;
/** The probe asks for this many times the caller's limit, so it can usually answer alone. */
export const PROBE_OVERFETCH = 2;

export function probeLimit(limit: number): number {
  return Math.min(Math.max(limit * PROBE_OVERFETCH, ROUTE_PROBE), 200);
}

export function chooseVertical(topHits: NativeHit[]): string | null {
  const probe = topHits.slice(0, ROUTE_PROBE);
  if (probe.length < ROUTE_MIN_HITS) return null;
  const counts = new Map<string, number>();
  for (const hit of probe) counts.set(hit.vertical, (counts.get(hit.vertical) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [vertical, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && vertical < best)) {
      best = vertical;
      bestCount = count;
    }
  }
  return bestCount / probe.length >= ROUTE_SHARE ? best : null;
}

/**
 * The routed answer read off the probe, or null when a second scatter is needed: facets and
 * collapse groups are counted over the match set, which the probe took across all verticals.
 */
export function answerFromProbe(probe: PoolSearchResult, vertical: string, params: SearchParams): PoolSearchResult | null {
  if (params.facets || params.collapse !== 'none' || !probe.verticalCounts) return null;
  const inside = probe.hits.filter((hit) => hit.vertical === vertical);
  const matchesInside = probe.verticalCounts[vertical] ?? 0;
  const enough = inside.length >= params.limit || inside.length >= matchesInside;
  if (!enough) return null;
  return { ...probe, hits: inside.slice(0, params.limit), total: matchesInside, verticalCounts: undefined };
}
