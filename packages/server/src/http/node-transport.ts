/**
 * The HTTP/1.1 layer on node:http. node:http keeps the protocol right where a handler cannot:
 * pipelined requests are answered in order, HEAD gets the headers of GET without the body,
 * HTTP/1.0 is served, and a request the parser refuses gets a text/plain 400 (431 for oversized
 * headers, 505 only for an HTTP version it does not speak, 408 past the timeouts).
 *
 * Shutdown in two steps: `stopIntake` closes the listening socket and the idle connections, and
 * answers any further request on a kept-alive one 503 (retry-after, nothing run or charged,
 * `connection: close`); `closeConnections` drops what is left once the calls under way are done.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { textAnswer, type HttpAnswer } from './answer.js';
import { splitTarget } from './request.js';
import type { Router } from './router.js';
import {
  answeredRequest,
  answerHeaders,
  BodyCollector,
  CLIENT_CLOSED_REQUEST,
  declaresTooLarge,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_HEADER_BYTES,
  refusedRequest,
  REQUEST_TIMEOUT,
  REQUEST_TIMEOUT_MS,
  serveRequest,
  TIMEOUT_CHECK_INTERVAL_MS,
  VERSION_NOT_SUPPORTED,
  type OnAnswered,
  type Served,
  type Transport,
} from './transport.js';

/** The body of a route that reads one, or null past `maxBytes` (declared or counted). */
function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  if (declaresTooLarge(request.headers, maxBytes)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const body = new BodyCollector(maxBytes);
    const onData = (chunk: Buffer) => {
      if (!body.admits(chunk.length)) {
        request.off('data', onData);
        resolve(null);
        return;
      }
      body.keep(chunk);
    };
    request.on('data', onData);
    request.on('end', () => resolve(body.bytes()));
    request.on('error', () => resolve(null));
  });
}

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
      return { status: 408, body: REQUEST_TIMEOUT };
    default:
      return { status: 400, body: `bad request: malformed HTTP request (${code ?? 'parse error'})` };
  }
}

export class NodeTransport implements Transport {
  readonly layer = 'node' as const;
  readonly server: Server;
  private closing = false;

  constructor(
    private readonly router: Router,
    private readonly onAnswered: OnAnswered = () => {},
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
      this.onAnswered(refusedRequest(status, error.code ?? 'parse error'));
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

  stopIntake(): void {
    this.closing = true;
    this.server.close();
    this.server.closeIdleConnections();
  }

  closeConnections(): void {
    this.server.closeAllConnections();
  }

  private serve(request: IncomingMessage, response: ServerResponse): void {
    const method = request.method ?? 'GET';
    const { path, rawQuery } = splitTarget(request.url ?? '/');
    const incoming = { method, path, rawQuery, headers: request.headers, address: request.socket.remoteAddress ?? '' };
    // The parser lets HTTP/0.9 and HTTP/2.0 request lines through (9.9 it refuses, above).
    const refusal = request.httpVersion !== '1.1' && request.httpVersion !== '1.0' ? textAnswer(505, VERSION_NOT_SUPPORTED, { connection: 'close' }) : undefined;
    const { served, answer } = serveRequest(this.router, incoming, (maxBytes) => readBody(request, maxBytes), { closing: this.closing, refusal });
    if (answer instanceof Promise) {
      void answer.then((ready) => this.write(response, ready, served));
    } else {
      this.write(response, answer, served);
    }
  }

  /**
   * Status, headers and body at once; HEAD drops the body. When the client has gone nothing is
   * written, and the request is reported with status 499 (the client closed it first).
   */
  private write(response: ServerResponse, answer: HttpAnswer, served: Served): void {
    const gone = response.destroyed || response.writableEnded;
    if (!gone) {
      const headers: Record<string, string | number> = answerHeaders(answer, served, this.closing);
      headers['content-length'] = Buffer.byteLength(answer.body);
      response.writeHead(answer.status, headers);
      response.end(answer.body);
    }
    this.onAnswered(answeredRequest(served, gone ? CLIENT_CLOSED_REQUEST : answer.status, answer.cause));
  }
}
