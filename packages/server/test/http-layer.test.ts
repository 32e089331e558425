/**
 * The HTTP layer (issue 34): the server names the layer it serves on (start log line and
 * /metrics), HTTP_LAYER forces one and is refused clearly where it cannot be, and what only a
 * layer's writing decides (a large answer to a slow reader, HEAD) holds on the layer under test
 * (HTTP_LAYER of the run: CI runs this file on node:http and again on uWS).
 */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUws, logListening, readConfig, startServer } from '@evidence/server';
import { HTTP_LAYER, passage, startTestServer, type TestServer } from './fixture.js';

const lines: string[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(line);
    done();
  },
});

let service: TestServer;
beforeAll(async () => {
  service = await startTestServer([[passage('a:0', 'rye sourdough starter')], [passage('b:0', 'wheat levain')]], { LOG_LEVEL: 'info' }, { logDestination: destination });
  logListening(service.server, readConfig({ DATA_DIR: service.dataDir, PORT: String(service.server.port) }));
});
afterAll(() => service.close());

/** Bytes a raw request gets back once the server closes the connection, read slowly when `slow`. */
function rawRead(request: string, slow: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(service.server.port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (slow) {
        // the client stops reading for a while after each chunk: the server meets backpressure
        socket.pause();
        setTimeout(() => socket.resume(), 5);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

describe('the HTTP layer', () => {
  it(`serves on ${HTTP_LAYER}, and says so in its start line and in /metrics`, async () => {
    expect(service.server.httpLayer).toBe(HTTP_LAYER);
    const started = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => typeof line.msg === 'string' && line.msg.includes('listening on'));
    expect(started?.http_layer).toBe(HTTP_LAYER);
    const metrics = await (await fetch(`${service.base}/metrics`)).text();
    expect(metrics).toContain(`evidence_http_layer{layer="${HTTP_LAYER}"} 1`);
  });

  it('HTTP_LAYER takes uws or node, and refuses anything else naming it', () => {
    expect(readConfig({ HTTP_LAYER: 'uws' }).httpLayer).toBe('uws');
    expect(readConfig({ HTTP_LAYER: 'node' }).httpLayer).toBe('node');
    expect(readConfig({}).httpLayer).toBeUndefined();
    expect(() => readConfig({ HTTP_LAYER: 'uWebSockets' })).toThrow(/invalid HTTP_LAYER: expected uws or node/);
  });

  it.runIf('error' in loadUws())('HTTP_LAYER=uws where uWS does not load stops the start with the reason and the way out', async () => {
    const config = readConfig({ DATA_DIR: service.dataDir, PORT: '0', LOG_LEVEL: 'silent', HTTP_LAYER: 'uws' });
    await expect(startServer(config)).rejects.toThrow(/HTTP_LAYER=uws: uWebSockets\.js does not load here .*glibc 2\.38.*HTTP_LAYER=node/s);
  });

  it('a large answer reaches a client that reads slowly whole, and HEAD of it has its length and no body', async () => {
    const whole = await (await fetch(`${service.base}/openapi.json`)).text();
    expect(Buffer.byteLength(whole)).toBeGreaterThan(64 * 1024);
    const raw = await rawRead('GET /openapi.json HTTP/1.1\r\nHost: x\r\nconnection: close\r\n\r\n', true);
    const split = raw.indexOf('\r\n\r\n');
    expect(raw.subarray(0, split).toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw.subarray(split + 4).toString('utf8')).toBe(whole);
    const head = await rawRead('HEAD /openapi.json HTTP/1.1\r\nHost: x\r\nconnection: close\r\n\r\n', false);
    const text = head.toString('latin1');
    expect(text).toMatch(new RegExp(`content-length: ${Buffer.byteLength(whole)}\\r\\n`, 'i'));
    expect(text.endsWith('\r\n\r\n')).toBe(true);
  });

  it('a client that leaves before its body is in is reported 499, once, and the server goes on', async () => {
    const before = lines.length;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(service.server.port, '127.0.0.1', () => {
        socket.write(`POST /mcp HTTP/1.1\r\nHost: x\r\nx-api-key: ${service.key}\r\nx-request-id: leaves-early\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"jsonrpc":`);
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('error', reject);
      socket.on('close', () => resolve());
    });
    for (let waited = 0; waited < 2000 && !lines.slice(before).some((line) => line.includes('leaves-early')); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const logged = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.request_id === 'leaves-early');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ route: '/mcp', method: 'POST', status: 499, credits: 0 });
    expect((await fetch(`${service.base}/healthz`)).status).toBe(200);
  });

  it('one request log line per answer, in pino\'s format, off the request path', async () => {
    const before = lines.length;
    const ids = ['layer-a', 'layer-b', 'layer-c'];
    for (const id of ids) await (await fetch(`${service.base}/healthz`, { headers: { 'x-request-id': id } })).text();
    // written within the request log's flush interval (10 ms)
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => ids.includes(line.request_id as string));
    expect(logged.map((line) => line.request_id)).toEqual(ids);
    expect(Object.keys(logged[0])).toEqual(['level', 'time', 'pid', 'route', 'method', 'status', 'latency_ms', 'credits', 'tenant', 'request_id', 'partial', 'msg']);
    expect(logged[0]).toMatchObject({ level: 'info', pid: process.pid, route: '/healthz', method: 'GET', status: 200, credits: 0, tenant: null, partial: false });
  });
});
