/**
 * The server's own latency histogram as the open-loop rows read it: a real server over a real
 * index, known traffic between two readings of its /metrics, the difference counted per route.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShardWriter, ensureManifest, shardDirectory, type Passage } from '@evidence/native';
import { readConfig, startServer, type RunningServer } from '@evidence/server';
import { parseBuckets, readBuckets, routeOf, serverLatency } from '../src/server-histogram.js';

const passage = (n: number): Passage => ({
  id: `page-${n}:0`, pageId: `page-${n}`, passageNo: 0, url: `https://example.org/${n}`, host: 'example.org',
  registrableDomain: 'example.org', owner: 'example.org', title: `Tide tables ${n}`, text: `Tide tables for harbour ${n}: high water and low water times.`,
  vertical: 'travel', lang: 'en', hostRank: 0.5, quality: 50, fetchedAt: 1_700_000_000, source: 'cc', storyId: `s-${n}`, tld: 'org', wordCount: 10,
});

describe("the server's latency histogram between two readings", () => {
  let dataDir = '';
  let server: RunningServer;
  let base = '';
  let key = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bench-histogram-'));
    ensureManifest(dataDir, 1);
    const writer = ShardWriter.open(shardDirectory(dataDir, 0));
    writer.add([1, 2, 3].map(passage));
    writer.commit();
    writer.close();
    server = await startServer(readConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }));
    key = (await server.services.stores.ensureDevelopmentKey())!;
    base = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts the answers of one route only, and places its p99 on a bucket bound', async () => {
    const path = '/search?q=tide&mode=keyword&limit=10';
    const route = routeOf(path);
    expect(route).toBe('/search');
    await fetch(`${base}${path}`, { headers: { 'x-api-key': key } }); // the route has buckets from here on
    const before = await readBuckets(base, route);
    expect(before).toBeDefined();
    for (let i = 0; i < 7; i++) {
      const answer = await fetch(`${base}${path}`, { headers: { 'x-api-key': key } });
      expect(answer.status).toBe(200);
    }
    for (let i = 0; i < 3; i++) await (await fetch(`${base}/account`, { headers: { 'x-api-key': key } })).arrayBuffer();
    const after = await readBuckets(base, route);
    const latency = serverLatency(before!, after!, 25);
    expect(latency?.count).toBe(7);
    expect(latency!.shareWithin).toBeGreaterThan(0);
    expect(latency!.shareWithin).toBeLessThanOrEqual(1);
    expect([0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, Infinity]).toContain(latency!.p99AtMostMs);
  });

  it('has nothing to say for a route without answers, or a server without /metrics', async () => {
    const body = await (await fetch(`${base}/metrics`)).text();
    const buckets = parseBuckets(body, '/no-such-route');
    expect(buckets.size).toBe(0);
    expect(serverLatency(buckets, buckets, 25)).toBeUndefined();
    expect(await readBuckets('http://127.0.0.1:1', '/search')).toBeUndefined();
  });
});
