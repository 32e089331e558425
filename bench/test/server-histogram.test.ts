/**
 * The server's own latency histogram as the open-loop rows read it: a real server over a real
 * index (the server tests' fixture), known traffic between two readings of its /metrics, the
 * difference counted per route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passage, startTestServer, type TestServer } from '../../packages/server/test/fixture.js';
import { parseBuckets, readBuckets, routeOf, serverLatency } from '../src/server-histogram.js';

describe("the server's latency histogram between two readings", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer([[1, 2, 3].map((n) => passage(`page-${n}:0`, `Tide tables for harbour ${n}: high water and low water times.`))]);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('counts the answers of one route only, and places its p99 on a bucket bound', async () => {
    const path = '/search?q=tide&mode=keyword&limit=10';
    const route = routeOf(path);
    expect(route).toBe('/search');
    await (await server.get(path)).arrayBuffer(); // the route has buckets from here on
    const before = await readBuckets(server.base, route);
    expect(before).toBeDefined();
    for (let i = 0; i < 7; i++) {
      const answer = await server.get(path);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    for (let i = 0; i < 3; i++) await (await server.get('/account')).arrayBuffer();
    const after = await readBuckets(server.base, route);
    const latency = serverLatency(before!, after!, 25);
    expect(latency?.count).toBe(7);
    expect(latency!.shareWithin).toBeGreaterThan(0);
    expect(latency!.shareWithin).toBeLessThanOrEqual(1);
    expect([0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, Infinity]).toContain(latency!.p99AtMostMs);
  });

  it('has nothing to say for a route without answers, or a server without /metrics', async () => {
    const body = await (await fetch(`${server.base}/metrics`)).text();
    const buckets = parseBuckets(body, '/no-such-route');
    expect(buckets.size).toBe(0);
    expect(serverLatency(buckets, buckets, 25)).toBeUndefined();
    expect(await readBuckets('http://127.0.0.1:1', '/search')).toBeUndefined();
  });
});
