/**
 * The HTTP/1.1 layer on uWebSockets.js (`@uwsjs/core`, loaded by layer.ts where it can be):
 * the same router, handlers, error bodies and reports as node:http (transport.ts), written the
 * way uWS needs:
 *
 * - `onAborted` is attached before anything can wait, and an aborted request is never written
 *   to (it is reported 499, as node:http's);
 * - the request (method, path, query, headers, address) is copied into plain values before the
 *   callback returns: uWS's request object is dead after it; a body is copied chunk by chunk;
 * - status, headers and body are written in one `cork` (one syscall for the whole answer);
 * - a body past BACKPRESSURE_BYTES goes out with `tryEnd`, resumed by `onWritable` as the client
 *   reads, instead of being buffered whole;
 * - HEAD gets GET's headers and content-length without the body (`endWithoutBody`);
 * - a body that has not arrived REQUEST_TIMEOUT_MS after its request began is answered 408.
 *
 * What uWS decides in its own parser, before any of this runs, and so differs from node:http
 * (README, "HTTP layers"): requests it cannot parse, HTTP/1.0 and other versions (400, 505),
 * oversized headers (431: UWS_HTTP_MAX_HEADERS_SIZE, set to MAX_HEADER_BYTES by layer.ts) are
 * answered by uWS with its own HTML bodies and never reach `onAnswered`; a request pipelined
 * behind one still being answered closes the connection (uWS refuses asynchronous pipelining);
 * a connection idle 10 s (headers trickling in included) is closed without an answer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@uwsjs/core';
import { textAnswer, type HttpAnswer } from './answer.js';
import type { Router } from './router.js';
import {
  answeredRequest,
  answerHeaders,
  BodyCollector,
  CLIENT_CLOSED_REQUEST,
  closesConnection,
  declaresTooLarge,
  REQUEST_TIMEOUT,
  REQUEST_TIMEOUT_MS,
  serveRequest,
  type OnAnswered,
  type Served,
  type Transport,
} from './transport.js';

/** The module `@uwsjs/core` exports (what this layer uses of it). */
export type UwsModule = typeof import('@uwsjs/core');

/** Bodies larger than this are written with tryEnd/onWritable instead of one end(). */
export const BACKPRESSURE_BYTES = 64 * 1024;

const decoder = new TextDecoder();

const STATUS_LINES = new Map<number, string>();

/** `200 OK`: the status line uWS writes (the reason phrase node:http would use). */
function statusLine(status: number): string {
  let line = STATUS_LINES.get(status);
  if (line === undefined) {
    line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
    STATUS_LINES.set(status, line);
  }
  return line;
}

/** One request's state on its connection: aborted by the client, answered, and its body's timer. */
interface Exchange {
  res: HttpResponse;
  aborted: boolean;
  done: boolean;
  head: boolean;
  served: Served | null;
  timer: NodeJS.Timeout | null;
}

export class UwsTransport implements Transport {
  readonly layer = 'uws' as const;
  private readonly app: TemplatedApp;
  private listenSocket: us_listen_socket | null = null;
  private closing = false;

  constructor(
    private readonly uws: UwsModule,
    private readonly router: Router,
    private readonly onAnswered: OnAnswered = () => {},
  ) {
    this.app = uws.App();
    this.app.any('/*', (res, req) => this.serve(res, req));
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(host, port, (socket) => {
        if (!socket) {
          reject(new Error(`uWebSockets.js could not listen on ${host}:${port} (in use, or not an address of this host)`));
          return;
        }
        this.listenSocket = socket;
        resolve(this.uws.us_socket_local_port(socket));
      });
    });
  }

  stopIntake(): void {
    this.closing = true;
    if (this.listenSocket) this.uws.us_listen_socket_close(this.listenSocket);
    this.listenSocket = null;
  }

  closeConnections(): void {
    this.app.close();
  }

  private serve(res: HttpResponse, req: HttpRequest): void {
    const exchange: Exchange = { res, aborted: false, done: false, head: false, served: null, timer: null };
    // First, before anything can wait: after an abort `res` must not be touched.
    res.onAborted(() => {
      // after the answer was reported (a large body still going out): nothing more to report
      const answered = exchange.done;
      exchange.aborted = true;
      this.finish(exchange);
      if (!answered && exchange.served) this.onAnswered(answeredRequest(exchange.served, CLIENT_CLOSED_REQUEST, undefined));
    });
    // Copied now: `req` is valid only until this callback returns.
    const method = req.getCaseSensitiveMethod();
    exchange.head = method === 'HEAD';
    // No prototype: a header named constructor or toString would read Object's members as an earlier value.
    const headers = Object.create(null) as IncomingHttpHeaders;
    req.forEach((name, value) => {
      const earlier = headers[name];
      headers[name] = earlier === undefined ? value : `${earlier as string}, ${value}`;
    });
    const incoming = { method, path: req.getUrl(), rawQuery: req.getQuery() ?? '', headers, address: decoder.decode(res.getRemoteAddressAsText()) };
    const { served, answer } = serveRequest(this.router, incoming, (maxBytes) => this.readBody(exchange, headers, maxBytes), { closing: this.closing });
    exchange.served = served;
    if (answer instanceof Promise) {
      void answer.then((ready) => this.write(exchange, ready));
    } else {
      this.write(exchange, answer);
    }
  }

  /**
   * The body, or null past `maxBytes` (declared or counted). Each chunk is copied (uWS reuses
   * its memory after the callback); past REQUEST_TIMEOUT_MS from the start the request is
   * answered 408 and the body is never resolved.
   */
  private readBody(exchange: Exchange, headers: IncomingHttpHeaders, maxBytes: number): Promise<Buffer | null> {
    if (declaresTooLarge(headers, maxBytes)) return Promise.resolve(null);
    return new Promise((resolve) => {
      const body = new BodyCollector(maxBytes);
      let over = false;
      exchange.timer = setTimeout(() => {
        exchange.timer = null;
        this.write(exchange, textAnswer(408, REQUEST_TIMEOUT, { connection: 'close' }));
      }, REQUEST_TIMEOUT_MS);
      exchange.res.onData((chunk, isLast) => {
        if (over || exchange.done) return;
        if (!body.admits(chunk.byteLength)) {
          over = true;
          this.clearTimer(exchange);
          resolve(null);
          return;
        }
        // Copied before the callback returns: uWS reuses the chunk's memory.
        body.keep(Buffer.from(chunk.slice(0)));
        if (isLast) {
          this.clearTimer(exchange);
          resolve(body.bytes());
        }
      });
    });
  }

  private clearTimer(exchange: Exchange): void {
    if (exchange.timer) clearTimeout(exchange.timer);
    exchange.timer = null;
  }

  private finish(exchange: Exchange): void {
    exchange.done = true;
    this.clearTimer(exchange);
  }

  /** Status, headers and body in one cork; a large body with backpressure; nothing once aborted or answered. */
  private write(exchange: Exchange, answer: HttpAnswer): void {
    if (exchange.done) return;
    this.finish(exchange);
    const { res, served } = exchange;
    const headers = answerHeaders(answer, served!, this.closing);
    const close = closesConnection(headers);
    delete headers.connection; // uWS writes its own `Connection: close` when told to close
    const { body } = answer;
    res.cork(() => {
      res.writeStatus(statusLine(answer.status));
      for (const name in headers) res.writeHeader(name, headers[name]);
      if (exchange.head) {
        res.endWithoutBody(Buffer.byteLength(body), close);
      } else if (body.length <= BACKPRESSURE_BYTES / 3 || close || Buffer.byteLength(body) <= BACKPRESSURE_BYTES) {
        // (a string of n UTF-16 units is at most 3n bytes of UTF-8: short ones need no count)
        res.end(body, close);
      } else {
        this.writeWithBackpressure(exchange, Buffer.from(body));
      }
    });
    this.onAnswered(answeredRequest(served!, answer.status, answer.cause));
  }

  /** tryEnd as much as the socket takes; the rest from onWritable as the client reads. */
  private writeWithBackpressure(exchange: Exchange, body: Buffer): void {
    const { res } = exchange;
    const start = res.getWriteOffset();
    const [, done] = res.tryEnd(body, body.length);
    if (done) return;
    res.onWritable((offset) => {
      if (exchange.aborted) return true;
      const [ok] = res.tryEnd(body.subarray(offset - start), body.length);
      return ok;
    });
  }
}
