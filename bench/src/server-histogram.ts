/**
 * The server's own latency histogram (`evidence_http_request_duration_seconds` on /metrics,
 * from a request's handler start to its answer written) read before and after a load, so a
 * load's rows can show what the server measured beside what the load generator saw. A client's
 * p99 on two shared cores also counts the time a request waited for a core before the server
 * read it; the server's histogram does not.
 */

const METRIC = 'evidence_http_request_duration_seconds_bucket';

/** Cumulative counts per upper bound (seconds; Infinity for +Inf), for one route. */
export type Buckets = Map<number, number>;

/** The route's buckets from a Prometheus text body. */
export function parseBuckets(body: string, route: string): Buckets {
  const buckets: Buckets = new Map();
  for (const line of body.split('\n')) {
    if (!line.startsWith(METRIC)) continue;
    const labels = /\{([^}]*)\}\s+(\S+)/.exec(line);
    if (!labels) continue;
    const routeLabel = /(?:^|,)route="([^"]*)"/.exec(labels[1]);
    const bound = /(?:^|,)le="([^"]*)"/.exec(labels[1]);
    if (!routeLabel || !bound || routeLabel[1] !== route) continue;
    buckets.set(bound[1] === '+Inf' ? Infinity : Number(bound[1]), Number(labels[2]));
  }
  return buckets;
}

/** Read the route's buckets from the server at `url`, or undefined when /metrics is not there. */
export async function readBuckets(url: string, route: string): Promise<Buckets | undefined> {
  try {
    const answer = await fetch(`${url}/metrics`);
    if (!answer.ok) return undefined;
    return parseBuckets(await answer.text(), route);
  } catch {
    return undefined;
  }
}

export interface ServerLatency {
  /** Answers the server timed between the two readings. */
  count: number;
  /** The upper bound (ms) of the first bucket that holds 99% of them (Infinity past the last). */
  p99AtMostMs: number;
  /** Share of the answers within `withinMs` (a bucket bound). */
  shareWithin: number;
  withinMs: number;
}

/** What the server measured between `before` and `after` (buckets of one route). */
export function serverLatency(before: Buckets, after: Buckets, withinMs: number): ServerLatency | undefined {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const count = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  if (bounds.length === 0 || count <= 0) return undefined;
  const within = (bound: number) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0);
  const p99Bound = bounds.find((bound) => within(bound) >= 0.99 * count) ?? Infinity;
  const withinBound = bounds.find((bound) => Math.abs(bound * 1000 - withinMs) < 1e-9);
  return {
    count,
    p99AtMostMs: p99Bound * 1000,
    shareWithin: withinBound === undefined ? NaN : within(withinBound) / count,
    withinMs,
  };
}

/** The route pattern of a bench path (`/search?q=...` is `/search`). */
export function routeOf(path: string): string {
  return path.split('?')[0];
}
