/**
 * The transport-neutral REST answer (http/answer.ts): a request snapshot in, what the caller
 * sees out (status, content type, headers, body). Each expectation is the literal answer a
 * caller gets for a real request on a real two-shard index, so a wrong status, content type,
 * header or body mapping fails here; the last case checks the HTTP server writes the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '@evidence/schemas';
import { answerAuthenticated, capabilityWork, parseQuery, searchCapability, type RequestSnapshot } from '@evidence/server';
import { passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer([[passage('a:0', 'feed the sourdough starter daily')], [passage('b:0', 'fresh pasta needs eggs and a sourdough crumb')]]);
});
afterAll(() => service.close());

const REQUEST_ID = 'req-answer-test-1';

function snapshotOf(query: string, key: string | null): RequestSnapshot {
  return {
    method: 'GET', url: '/search', query: parseQuery(query), headers: { xApiKey: key, authorization: null },
    address: '127.0.0.1', parameters: [], requestId: REQUEST_ID,
  };
}

function answer(query: string, key: string | null) {
  const services = service.server.services;
  return answerAuthenticated(services, snapshotOf(query, key), capabilityWork(services, searchCapability));
}

/** An authenticated answer carries exactly the rate header, a whole number of credits left. */
function expectRateHeaderOnly(headers: Record<string, string>, extra: Record<string, string> = {}) {
  expect(Object.keys(headers).sort()).toEqual(['x-ratelimit-remaining', ...Object.keys(extra)].sort());
  expect(headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  for (const [name, value] of Object.entries(extra)) expect(headers[name]).toBe(value);
}

describe('the transport-neutral REST answer', () => {
  it('parses a query string as the uWS adapter does: decoded, the first occurrence of a name wins', () => {
    expect(parseQuery('q=sour%20dough&mode=keyword&q=ignored&empty=')).toEqual({ q: 'sour dough', mode: 'keyword', empty: '' });
    expect(parseQuery('')).toEqual({});
  });

  it('answers a search 200 application/json with the hits of both shards and the rate header', async () => {
    const found = await answer('q=sourdough&mode=keyword', service.key);
    expect(found.status).toBe(200);
    expect(found.contentType).toBe('application/json');
    expectRateHeaderOnly(found.headers);
    expect(found.cause).toBeUndefined();
    const body = JSON.parse(found.body);
    expect(body).toMatchObject({ total: 2, mode: 'keyword', routed: true, vertical: null, partial: false });
    const byId = new Map(body.results.map((hit: { id: string }) => [hit.id, hit]));
    expect([...byId.keys()].sort()).toEqual(['a:0', 'b:0']);
    expect(byId.get('a:0')).toMatchObject({ url: 'https://example.org/a/0', host: 'example.org', title: 'Page a', snippet: 'feed the sourdough starter daily' });
    expect(byId.get('b:0')).toMatchObject({ url: 'https://example.org/b/0', snippet: 'fresh pasta needs eggs and a sourdough crumb' });

    const none = await answer('q=zanzibar&mode=keyword', service.key);
    expect(none.status).toBe(200);
    expect(JSON.parse(none.body)).toMatchObject({ total: 0, results: [] });
  });

  it('refuses a missing or unknown key 401 in plain text, naming the accepted schemes, without the rate header', async () => {
    for (const key of [null, 'ess_' + '0'.repeat(48)]) {
      const refused = await answer('q=sourdough', key);
      expect(refused.status).toBe(401);
      expect(refused.contentType).toBe('text/plain; charset=utf-8');
      expect(refused.body).toBe('unauthenticated: missing, unknown or revoked api key');
      expect(refused.headers).toEqual({ 'www-authenticate': 'Bearer realm="evidence", ApiKey header="x-api-key"' });
    }
  });

  it('refuses a bad parameter 400 in plain text naming it, with the rate header', async () => {
    const bad = await answer('q=sourdough&mode=telepathy', service.key);
    expect(bad.status).toBe(400);
    expect(bad.contentType).toBe('text/plain; charset=utf-8');
    expect(bad.body).toMatch(/^invalid parameter mode: /);
    expectRateHeaderOnly(bad.headers);
    const missing = await answer('limit=5', service.key);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatch(/^invalid parameter q: /);
  });

  it('answers a retryable service error with its status, text and retry-after', async () => {
    const services = service.server.services;
    const busy = await answerAuthenticated(services, snapshotOf('q=x', service.key), async () => {
      throw errors.atCapacity(7);
    });
    expect(busy.status).toBe(503);
    expect(busy.contentType).toBe('text/plain; charset=utf-8');
    expect(busy.body).toBe('at capacity, retry after 7s');
    expectRateHeaderOnly(busy.headers, { 'retry-after': '7' });
  });

  it('answers anything else 500 naming the request id, not the error text', async () => {
    const services = service.server.services;
    const failure = new Error('secret detail of the failure');
    const broken = await answerAuthenticated(services, snapshotOf('q=x', service.key), async () => {
      throw failure;
    });
    expect(broken.status).toBe(500);
    expect(broken.contentType).toBe('text/plain; charset=utf-8');
    expect(broken.body).toBe(`internal error (request id ${REQUEST_ID})`);
    expect(broken.body).not.toContain('secret');
    expect(broken.cause).toBe(failure);
    expectRateHeaderOnly(broken.headers);
  });

  it('is what the HTTP server sends for the same requests', async () => {
    const http = await service.get('/search?q=sourdough&mode=keyword');
    expect(http.status).toBe(200);
    expect(http.headers.get('content-type')).toBe('application/json');
    expect(http.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(JSON.parse((await answer('q=sourdough&mode=keyword', service.key)).body)).toEqual(await http.json());
    const keyless = await service.get('/search?q=sourdough', {});
    expect(keyless.status).toBe(401);
    expect(keyless.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(await keyless.text()).toBe('unauthenticated: missing, unknown or revoked api key');
  });
});
