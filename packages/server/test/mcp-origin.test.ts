/**
 * The MCP transport's Origin rule on POST /mcp (DNS rebinding), and the `www-authenticate` every
 * 401 carries, over a real server: no Origin and a loopback one are served, a foreign one is
 * refused with 403 text/plain before the key is looked at, also when Host names the same rebound
 * host, and ALLOWED_ORIGINS admits the ones it lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer([[passage('a:0', 'feed the sourdough starter daily')], [passage('b:0', 'fresh pasta needs eggs')]], {
    ALLOWED_ORIGINS: 'https://console.example.com, tools.example.net',
  });
});
afterAll(() => service.close());

const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

function postMcp(headers: Record<string, string>): Promise<Response> {
  return fetch(`${service.base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': service.key, ...headers },
    body: JSON.stringify(PING),
  });
}

/** A POST with a chosen Host (fetch will not send one): over a raw socket, HTTP/1.1. */
async function postRaw(host: string): Promise<{ status: number; text: string }> {
  const { request } = await import('node:http');
  const url = new URL(service.base);
  const body = JSON.stringify(PING);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: url.hostname, port: url.port, path: '/mcp', method: 'POST', setHost: false,
        headers: { host, origin: `http://${host}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': service.key, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('Origin on POST /mcp', () => {
  it('serves a request without Origin and one from a loopback origin', async () => {
    expect((await postMcp({})).status).toBe(200);
    for (const origin of [service.base, 'http://localhost:6274', 'http://[::1]:3000']) {
      const own = await postMcp({ origin });
      expect(own.status, origin).toBe(200);
      expect(await own.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
  });

  it('refuses a rebound name: Host and Origin both evil.example', async () => {
    const rebound = await postRaw('evil.example');
    expect(rebound.status).toBe(403);
    expect(rebound.text).toMatch(/^forbidden: Origin /);
  });

  it('refuses a foreign Origin with 403 text/plain, whatever the key', async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.2', 'http://localhost.evil.example', 'null', 'not a url']) {
      for (const key of [service.key, 'wrong']) {
        const response = await postMcp({ origin, 'x-api-key': key });
        expect(response.status, origin).toBe(403);
        expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await response.text()).toMatch(/^forbidden: Origin /);
      }
    }
  });

  it('serves the origins and hosts ALLOWED_ORIGINS lists', async () => {
    expect((await postMcp({ origin: 'https://console.example.com' })).status).toBe(200);
    expect((await postMcp({ origin: 'http://console.example.com' })).status).toBe(403); // an origin entry names its scheme
    expect((await postMcp({ origin: 'http://tools.example.net:3000' })).status).toBe(200); // a host entry: any scheme and port
    expect((await postMcp({ origin: 'https://other.example.net' })).status).toBe(403);
  });
});

describe('401', () => {
  it('names both accepted schemes in www-authenticate, with the one fixed body, over REST and MCP', async () => {
    const bodies = new Set<string>();
    for (const response of [
      await service.get('/search?q=bread', {}),
      await service.get('/search?q=bread', { 'x-api-key': 'unknown' }),
      await service.get('/account', { authorization: 'Bearer unknown' }),
      await postMcp({ 'x-api-key': 'unknown' }),
    ]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="evidence", ApiKey header="x-api-key"');
      bodies.add(await response.text());
    }
    expect([...bodies]).toEqual(['unauthenticated: missing, unknown or revoked api key']);
  });
});
