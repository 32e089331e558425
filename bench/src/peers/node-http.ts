/**
 * Peer server (run as its own process by bench/src/http-load.ts): the same engine and the same
 * capability path as packages/server (openServices, then answerAuthenticated + capabilityWork:
 * authentication, validation, metering and ledger, the handler, JSON serialisation), behind
 * a bare `node:http` handler (no route table, request ids or shutdown states). Against the real
 * server it measures what the server's transport layer costs.
 * It serves the catalog's GET routes without path parameters (/search, /ground, ...).
 *
 *   DATA_DIR=DIR PORT=0 node bench/dist/peers/node-http.js
 */
import { createServer, type IncomingMessage } from 'node:http';
import { answerAuthenticated, capabilityWork, CATALOG, closeServices, openServices, parseQuery, readConfig, type RequestSnapshot } from '@evidence/server';

const config = readConfig();
const services = await openServices(config);
const routes = new Map(
  CATALOG.filter((entry) => entry.rest.pathParameters.length === 0).map((entry) => [entry.rest.path, capabilityWork(services, entry.capability)]),
);

function header(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) || null;
}

const server = createServer((request, response) => {
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  const work = request.method === 'GET' ? routes.get(path) : undefined;
  if (!work) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: no route ${request.method} ${path}`);
    return;
  }
  const snapshot: RequestSnapshot = {
    method: request.method!,
    url: path,
    query: parseQuery(queryStart < 0 ? '' : url.slice(queryStart + 1)),
    headers: { xApiKey: header(request, 'x-api-key'), authorization: header(request, 'authorization') },
    address: request.socket.remoteAddress ?? '',
    parameters: [],
    requestId: '',
  };
  void answerAuthenticated(services, snapshot, work).then((answer) => {
    if (response.destroyed) return;
    response.writeHead(answer.status, { 'content-type': answer.contentType, ...answer.headers }).end(answer.body);
  });
});

await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
console.log(`node:http peer listening on http://${config.host}:${port} (data ${config.dataDir}, ${services.pool.shards} shards x ${config.replicas} replicas)`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.close();
    server.closeAllConnections();
    closeServices(services).then(() => process.exit(0), () => process.exit(1));
  });
}
