/**
 * The HTTP/1.1 transport (node:http): routes a request to its handler and writes the answer,
 * plain text for every error, `x-request-id` on every answer. node:http keeps the protocol
 * right where a handler cannot: pipelined requests are answered in order, HEAD gets the headers
 * of GET without the body, HTTP/1.0 is served, and a request the parser refuses gets a
 * text/plain 400 (431 for oversized headers, 505 only for an HTTP version it does not speak).
 *
 * Every answer, parser refusals included, is reported once to `onAnswered` (metrics and the
 * request's log line) with its route pattern, status and latency.
 *
 * Shutdown in two steps: `stopIntake` closes the listening socket and the idle connections, and
 * answers any further request on a kept-alive one 503 (retry-after, nothing run or charged,
 * `connection: close`); `closeConnections` drops what is left once the calls under way are done.
 */
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errors } from '@evidence/schemas';
import { newRequestReport, type AnsweredRequest, type RequestReport } from '../observability/logging.js';
import { errorAnswer, textAnswer, type HttpAnswer } from './answer.js';
import { snapshotRequest, splitTarget } from './request.js';
import type { Router } from './router.js';

/** Request header bytes accepted (431 past it). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Time to receive a request's headers, and the whole request, before a 408. */
export const HEADERS_TIMEOUT_MS = 20_000;
export const REQUEST_TIMEOUT_MS = 60_000;
/** How late past HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS a request may be refused. */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/** An idle kept-alive connection is closed after this long. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** The status a request is reported with when its client closed the connection before the answer (nginx's 499). */
export const CLIENT_CLOSED_REQUEST = 499;

/** Route labels of requests no route pattern matched, and of requests the parser refused. */
export const UNMATCHED_ROUTE = '(unmatched)';
export const MALFORMED_ROUTE = '(malformed)';

/** What the transport knows of a request while it is served, for its report when answered. */
interface Served {
  route: string;
  method: string;
  requestId: string;
  startedAt: number;
  report: RequestReport;
}

/** A caller's `x-request-id` is echoed when it looks like an id (no spaces, no control characters). */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && WELL_FORMED_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** The body of a route that reads one, or null past `maxBytes` (declared or counted). */
function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) return Promise.resolve(null);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.off('data', onData);
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () => resolve(Buffer.concat(chunks, size)));
    request.on('error', () => resolve(null));
  });
}

const VERSION_NOT_SUPPORTED = 'http version not supported: send HTTP/1.1 or HTTP/1.0';

/** A request line that names an HTTP version other than 1.0 and 1.1 (`GET / HTTP/9.9`), and nothing else wrong. */
const OTHER_VERSION = /^[A-Z]+ \S+ HTTP\/(?!1\.[01]\r?$)\d\.\d\r?$/;

/** What a request the HTTP parser refused is answered with (node:http gives no response object then). */
function parserRefusal(code: string | undefined, rawPacket: Buffer | undefined): { status: number; body: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, body: `request header fields too large: at most ${MAX_HEADER_BYTES} bytes of headers` };
    case 'HPE_INVALID_VERSION': {
      // Only a well-formed request line naming another version is a version mismatch; a
      // malformed one (an extra token, bare LF line endings) is a bad request.
      const requestLine = rawPacket?.toString('latin1').split('\n', 1)[0] ?? '';
      if (OTHER_VERSION.test(requestLine)) return { status: 505, body: VERSION_NOT_SUPPORTED };
      return { status: 400, body: 'bad request: malformed request line' };
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return { status: 408, body: 'request timeout: the request did not arrive in time' };
    default:
      return { status: 400, body: `bad request: malformed HTTP request (${code ?? 'parse error'})` };
  }
}

export class HttpTransport {
  readonly server: Server;
  private closing = false;

  constructor(
    private readonly router: Router,
    private readonly onAnswered: (answered: AnsweredRequest) => void = () => {},
  ) {
    this.server = createServer(
      {
        maxHeaderSize: MAX_HEADER_BYTES,
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        // How often node:http looks for requests past those two timeouts: by default every 30 s,
        // so a trickled request was refused up to 30 s late (measured: 68 s for the 60 s bound).
        connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
        keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
        // No route depends on Host; node:http would otherwise refuse an HTTP/1.1 request without
        // one with a bare 400 that has no body or content type.
        requireHostHeader: false,
      },
      (request, response) => this.serve(request, response),
    );
    this.server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) {
        socket.destroy();
        return;
      }
      const { status, body } = parserRefusal(error.code, error.rawPacket);
      this.onAnswered({
        route: MALFORMED_ROUTE,
        method: '',
        status,
        seconds: 0,
        requestId: randomUUID(),
        report: newRequestReport(),
        cause: error.code,
      });
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: text/plain; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    });
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /** No new connections, idle ones closed, and further requests on open ones answered 503. */
  stopIntake(): void {
    this.closing = true;
    this.server.close();
    this.server.closeIdleConnections();
  }

  /** Drop every connection left (after the calls under way have answered). */
  closeConnections(): void {
    this.server.closeAllConnections();
  }

  private serve(request: IncomingMessage, response: ServerResponse): void {
    const startedAt = performance.now();
    const requestId = requestIdOf(request);
    const method = request.method ?? 'GET';
    const { path, rawQuery } = splitTarget(request.url ?? '/');
    const match = this.router.match(method, path);
    const served: Served = { route: match.pattern ?? UNMATCHED_ROUTE, method, requestId, startedAt, report: newRequestReport() };
    if (this.closing) {
      this.write(response, errorAnswer(errors.shuttingDown()), served);
      return;
    }
    // The parser lets HTTP/0.9 and HTTP/2.0 request lines through (9.9 it refuses, above).
    if (request.httpVersion !== '1.1' && request.httpVersion !== '1.0') {
      this.write(response, textAnswer(505, VERSION_NOT_SUPPORTED, { connection: 'close' }), served);
      return;
    }
    if (!match.found) {
      const answer =
        match.allow.length === 0
          ? textAnswer(404, `not found: no route ${method} ${path}`)
          : textAnswer(405, `method not allowed: ${path} takes ${match.allow.join(', ')}`, { allow: match.allow.join(', ') });
      this.write(response, answer, served);
      return;
    }
    const { route } = match;
    const body = route.maxBodyBytes === undefined ? Promise.resolve(null) : readBody(request, route.maxBodyBytes);
    void body
      .then((read): Promise<HttpAnswer> | HttpAnswer => {
        if (route.maxBodyBytes !== undefined && read === null) {
          response.shouldKeepAlive = false;
          return errorAnswer(errors.payloadTooLarge(route.maxBodyBytes));
        }
        // Inside the chain: whatever reading the request throws answers 500, never an exception
        // out of the request listener (which left the request unanswered).
        const snapshot = snapshotRequest(request, path, rawQuery, match.parameters, requestId);
        snapshot.report = served.report;
        return route.handler({ snapshot, headers: request.headers, body: read });
      })
      .then(
        (answer) => this.write(response, answer, served),
        (error: unknown) => this.write(response, errorAnswer(error, {}, requestId), served),
      );
  }

  /**
   * Status, headers and body at once; HEAD drops the body. When the client has gone nothing is
   * written, and the request is reported with status 499 (the client closed it first).
   */
  private write(response: ServerResponse, answer: HttpAnswer, served: Served): void {
    const gone = response.destroyed || response.writableEnded;
    if (!gone) {
      const headers: Record<string, string | number> = {
        'content-type': answer.contentType,
        'content-length': Buffer.byteLength(answer.body),
        'x-request-id': served.requestId,
        ...answer.headers,
      };
      if (this.closing) headers.connection = 'close';
      response.writeHead(answer.status, headers);
      response.end(answer.body);
    }
    this.onAnswered({
      route: served.route,
      method: served.method,
      status: gone ? CLIENT_CLOSED_REQUEST : answer.status,
      seconds: (performance.now() - served.startedAt) / 1000,
      requestId: served.requestId,
      report: served.report,
      cause: answer.cause,
    });
  }
}
