/**
 * The native load generators' output as the bench reads it, and wrk (when installed) really
 * cycling through the bench's paths against a server.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { findWrk, parseOhaJson, parseWrkSummary, wrkLoad } from '../src/native-load.js';

describe('wrk summary', () => {
  it('counts answers below 400 as throughput and every error kind as failed', () => {
    const stdout = [
      'Running 10s test @ http://127.0.0.1:1234',
      'WRK_SUMMARY {"requests":1000,"duration_us":2000000,"connect":0,"read":1,"write":0,"status":100,"timeout":2,"p50_us":1500,"p99_us":9000}',
    ].join('\n');
    const figures = parseWrkSummary(stdout);
    expect(figures.requests).toBe(900);
    expect(figures.qps).toBe(450);
    expect(figures.p50).toBe(1.5);
    expect(figures.p99).toBe(9);
    expect(figures.errors).toBe(103);
  });

  it('says so when wrk printed no summary', () => {
    expect(() => parseWrkSummary('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/no summary/);
  });
});

describe('oha JSON', () => {
  it('reads answered rate, latency in ms and refusals plus transport errors', () => {
    const stdout = JSON.stringify({
      summary: { total: 10, requestsPerSec: 99, successRate: 0.9 },
      latencyPercentiles: { p50: 0.002, p99: 0.031 },
      statusCodeDistribution: { '200': 980, '503': 15 },
      errorDistribution: { 'aborted due to deadline': 5 },
    });
    const figures = parseOhaJson(stdout, 10);
    expect(figures.qps).toBe(98);
    expect(figures.p50).toBe(2);
    expect(figures.p99).toBe(31);
    expect(figures.errors).toBe(20);
    expect(figures.sent).toBe(1000);
  });
});

const wrk = findWrk();
describe.skipIf(!wrk)('wrk against a server', () => {
  it('sends every path in turn, with the headers given', async () => {
    const seen = new Map<string, number>();
    const keys = new Set<string | undefined>();
    const server = createServer((request, response) => {
      seen.set(request.url!, (seen.get(request.url!) ?? 0) + 1);
      keys.add(request.headers['x-api-key'] as string | undefined);
      response.writeHead(request.url === '/refused' ? 503 : 200).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const figures = await wrkLoad(wrk!, url, ['/search?q=a', '/search?q=b%20c', '/refused'], 2, 1, { 'x-api-key': 'k1' });
      expect([...seen.keys()].sort()).toEqual(['/refused', '/search?q=a', '/search?q=b%20c']);
      expect([...keys]).toEqual(['k1']);
      // wrk stops at its deadline without counting the answers still in flight: at most one per connection
      const refused = seen.get('/refused')!;
      const answered = seen.get('/search?q=a')! + seen.get('/search?q=b%20c')!;
      expect(refused - figures.errors).toBeGreaterThanOrEqual(0);
      expect(refused - figures.errors).toBeLessThanOrEqual(2);
      expect(answered - figures.requests).toBeGreaterThanOrEqual(0);
      expect(answered - figures.requests).toBeLessThanOrEqual(2);
      expect(figures.errors).toBeGreaterThan(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
