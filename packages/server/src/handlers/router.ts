/**
 * The vertical router. With no `vertical` named, the query runs across all verticals first;
 * when at least ROUTE_MIN_HITS of the top ROUTE_PROBE hits exist and ROUTE_SHARE of them belong
 * to one vertical, the query clearly belongs there: the answer is that vertical's (`routed:
 * true`, `vertical` set; a second scatter filtered to it, unless every match was already seen
 * and in it). Otherwise the all-vertical answer stands (`routed: true`, `vertical: null`).
 */
import type { NativeHit } from '@evidence/native';

export const ROUTE_PROBE = 20;
export const ROUTE_MIN_HITS = 5;
export const ROUTE_SHARE = 0.7;

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
