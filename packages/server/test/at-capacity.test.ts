/**
 * The shard queue at MAX_QUEUE, over real HTTP: a search that finds its shard's queue full is
 * answered 503 at_capacity with retry-after and costs nothing.
 *
 * How the queue fills without timing: three GETs pipelined on one connection reach the server
 * in one read, and node:http emits the three requests in one go. From there to the shard pool
 * a GET /search waits only on promises (no body to read, an in-memory key check and meter,
 * keyword mode so no query embedding), so all three reach the pool before the worker thread can
 * answer any: with one thread and MAX_QUEUE=1 the first runs, the second waits, the third
 * finds the queue at its limit.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsUsed } from './accounts-helpers.js';
import { HTTP_LAYER, passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer([[passage('a:0', 'feed the sourdough starter daily'), passage('a:1', 'a sourdough loaf')]], {
    MAX_QUEUE: '1',
    REPLICAS: '1',
  });
});
afterAll(() => service.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `paths` at once and reads their answers: pipelined GETs in a single write on node:http;
 * on uWS, which refuses asynchronous pipelining (README, "HTTP layers"), one connection each,
 * written in the same turn, and the answers ordered 2xx first (which request of the same three
 * the server took last is the kernel's order there).
 */
async function pipelined(paths: string[], key: string): Promise<RawResponse[]> {
  if (HTTP_LAYER === 'node') return exchange(paths, key);
  const sockets = await Promise.all(paths.map(() => opened()));
  const answers = await Promise.all(paths.map((path, index) => exchange([path], key, sockets[index])));
  return answers.flat().sort((left, right) => Number(left.status >= 300) - Number(right.status >= 300));
}

function opened(): Promise<Socket> {
  const { port } = new URL(service.base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes `paths` as GETs in one write (on `connected`, else a new connection) and reads that many responses. */
function exchange(paths: string[], key: string, connected?: Socket): Promise<RawResponse[]> {
  const { port } = new URL(service.base);
  const request = paths
    .map((path) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-api-key: ${key}\r\n\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = connected ?? connect(Number(port), '127.0.0.1', () => socket.write(request));
    if (connected) socket.write(request);
    let buffered = Buffer.alloc(0);
    const responses: RawResponse[] = [];
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine, ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length']);
        if (buffered.length < end + 4 + length) return;
        responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: buffered.subarray(end + 4, end + 4 + length).toString('utf8') });
        buffered = buffered.subarray(end + 4 + length);
        if (responses.length === paths.length) {
          socket.destroy();
          resolve(responses);
          return;
        }
      }
    });
  });
}

describe('a shard queue at MAX_QUEUE', () => {
  it('answers 503 at_capacity with retry-after, and does not charge the refused call', async () => {
    const search = '/search?q=sourdough&mode=keyword&vertical=cooking';
    // The worker thread is up and idle.
    expect((await service.get(search)).status).toBe(200);
    const before = await creditsUsed(service, service.key);

    const [running, waiting, refused] = await pipelined([search, search, search], service.key);
    expect([running.status, waiting.status]).toEqual([200, 200]);
    expect(JSON.parse(running.body)).toMatchObject({ total: 2, partial: false });
    expect(JSON.parse(waiting.body)).toMatchObject({ total: 2, partial: false });
    expect(refused.status).toBe(503);
    expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(refused.body).toBe('at capacity, retry after 1s');

    // The two searches that ran cost 1 credit each; the refused one costs nothing.
    expect(await creditsUsed(service, service.key)).toBe(before + 2);
    // Once the queue drains the shard answers again.
    expect((await service.get(search)).status).toBe(200);
  });
});
