/**
 * Peer server (run as its own process by bench/src/http-load.ts): an HTTP layer and nothing
 * else. Every GET is answered with the same JSON body of FIXED_BODY_BYTES bytes (the bench
 * passes the mean size of a keyword /search answer), so its throughput is what the HTTP layer
 * alone costs per request on this machine: the most any HTTP layer change could give back.
 *
 *   HTTP_LAYER=node (default)  node:http, keep-alive, one writeHead + end per request
 *   HTTP_LAYER=uws             uWebSockets.js, loaded from UWS_MODULE (a path: no registry
 *                              carries a build for this project's Node and glibc; see
 *                              bench/results/2026-11-23-peers-round2.md), one cork per answer
 *
 *   FIXED_BODY_BYTES=4096 HTTP_LAYER=node PORT=0 node bench/dist/peers/fixed-body.js
 */
import { createRequire } from 'node:module';
import { createServer } from 'node:http';

const bytes = Math.max(2, Number(process.env.FIXED_BODY_BYTES || 4096));
const layer = process.env.HTTP_LAYER || 'node';
const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 0);
// {"pad":"xxx..."}: valid JSON of exactly `bytes` bytes (at least 12)
const body = Buffer.from(`{"pad":"${'x'.repeat(Math.max(0, bytes - 10))}"}`);
const contentType = 'application/json; charset=utf-8';

interface UwsResponse {
  cork(work: () => void): void;
  writeStatus(status: string): UwsResponse;
  writeHeader(name: string, value: string): UwsResponse;
  end(body: Buffer): void;
}
interface UwsApp {
  get(pattern: string, handler: (response: UwsResponse) => void): UwsApp;
  listen(host: string, port: number, done: (socket: unknown) => void): void;
}
interface UwsModule {
  App(): UwsApp;
  us_socket_local_port(socket: unknown): number;
}

if (layer === 'uws') {
  const modulePath = process.env.UWS_MODULE;
  if (!modulePath) {
    console.error('HTTP_LAYER=uws needs UWS_MODULE: the path of a uWebSockets.js build for this Node');
    process.exit(2);
  }
  const uws = createRequire(import.meta.url)(modulePath) as UwsModule;
  uws
    .App()
    .get('/*', (response) => {
      response.cork(() => {
        response.writeStatus('200 OK').writeHeader('content-type', contentType).end(body);
      });
    })
    .listen(host, port, (socket) => {
      if (!socket) {
        console.error(`uWS could not listen on ${host}:${port}`);
        process.exit(1);
      }
      console.log(`fixed-body uws listening on http://${host}:${uws.us_socket_local_port(socket)} (${body.length} bytes, node ${process.version})`);
    });
} else {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': contentType, 'content-length': body.length }).end(body);
  });
  server.listen(port, host, () => {
    const address = server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    console.log(`fixed-body node:http listening on http://${host}:${bound} (${body.length} bytes, node ${process.version})`);
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
