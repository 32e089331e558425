/**
 * The transport-neutral REST answer (http/answer.ts): for the same request it gives what the
 * uWS server sends (status, content type, rate header, body), so another transport serving
 * through it serves the same API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAuthenticated, capabilityWork, parseQuery, searchCapability, type RequestSnapshot } from '@evidence/server';
import { passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer([[passage('a:0', 'feed the sourdough starter daily')], [passage('b:0', 'fresh pasta needs eggs and a sourdough crumb')]]);
});
afterAll(() => service.close());

function snapshotOf(query: string, key: string | null): RequestSnapshot {
  return { method: 'GET', url: '/search', query: parseQuery(query), headers: { xApiKey: key, authorization: null }, address: '127.0.0.1', parameters: [] };
}

async function answer(query: string, key: string | null) {
  const services = service.server.services;
  return answerAuthenticated(services, snapshotOf(query, key), capabilityWork(services, searchCapability));
}

describe('the transport-neutral REST answer', () => {
  it('parses a query string as the uWS adapter does: decoded, the first occurrence of a name wins', () => {
    expect(parseQuery('q=sour%20dough&mode=keyword&q=ignored&empty=')).toEqual({ q: 'sour dough', mode: 'keyword', empty: '' });
    expect(parseQuery('')).toEqual({});
  });

  it('answers a search with the body, status and headers the server sends', async () => {
    const query = 'q=sourdough&mode=keyword';
    const neutral = await answer(query, service.key);
    const http = await service.get(`/search?${query}`);
    expect(neutral.status).toBe(200);
    expect(neutral.contentType).toBe(http.headers.get('content-type'));
    expect(Number(neutral.headers['x-ratelimit-remaining'])).toBeGreaterThan(0);
    expect(http.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(JSON.parse(neutral.body)).toEqual(await http.json());
  });

  it('refuses a missing key and a bad parameter as the server does', async () => {
    const keyless = await answer('q=sourdough', null);
    const keylessHttp = await service.get('/search?q=sourdough', {});
    expect(keyless.status).toBe(keylessHttp.status);
    expect(keyless.body).toBe(await keylessHttp.text());
    expect(keyless.headers['x-ratelimit-remaining']).toBeUndefined();

    const bad = await answer('q=sourdough&mode=telepathy', service.key);
    const badHttp = await service.get('/search?q=sourdough&mode=telepathy');
    expect(bad.status).toBe(400);
    expect(badHttp.status).toBe(400);
    expect(bad.contentType).toBe('text/plain; charset=utf-8');
    expect(bad.body).toBe(await badHttp.text());
    expect(bad.headers['x-ratelimit-remaining']).toBeDefined();
  });
});
