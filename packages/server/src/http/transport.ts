/**
 * What every HTTP layer shares: the `Transport` interface (uws-transport.ts on uWebSockets.js,
 * node-transport.ts on node:http), and the path of a request once a layer has copied it into
 * plain values (`IncomingRequest`): the router, the 503 of a shutdown, 404/405, 413, the handler,
 * the error bodies, `x-request-id`, and the report of every answer to `onAnswered` (metrics and
 * the request's log line). A layer only reads requests and writes answers.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { errors } from '@evidence/schemas';
import { newRequestReport, type AnsweredRequest, type RequestReport } from '../observability/logging.js';
import { errorAnswer, textAnswer, type HttpAnswer } from './answer.js';
import { snapshotRequest } from './request.js';
import type { Router } from './router.js';

/** The HTTP layers: uWebSockets.js, node:http. */
export const HTTP_LAYERS = ['uws', 'node'] as const;
export type HttpLayer = (typeof HTTP_LAYERS)[number];

export interface Transport {
  readonly layer: HttpLayer;
  /** Listen on `host:port` (0: a free port); the port listened on. */
  listen(host: string, port: number): Promise<number>;
  /** No new connections, and further requests on open ones answered 503 (`connection: close`). */
  stopIntake(): void;
  /** Drop every connection left (after the calls under way have answered). */
  closeConnections(): void;
}

export type OnAnswered = (answered: AnsweredRequest) => void;

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

export const VERSION_NOT_SUPPORTED = 'http version not supported: send HTTP/1.1 or HTTP/1.0';
export const REQUEST_TIMEOUT = 'request timeout: the request did not arrive in time';

/** A request as a layer copied it, before any of it is routed or read by a handler. */
export interface IncomingRequest {
  method: string;
  /** The path of the request target, still percent-encoded. */
  path: string;
  /** The query string without `?` ('' when none). */
  rawQuery: string;
  /** Header names in lower case; a header given more than once joined with ', ' as node:http does. */
  headers: IncomingHttpHeaders;
  address: string;
}

/** What a layer knows of a request while it is served, for its report when answered. */
export interface Served {
  route: string;
  method: string;
  requestId: string;
  startedAt: number;
  report: RequestReport;
}

/** A caller's `x-request-id` is echoed when it looks like an id (no spaces, no control characters). */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdOf(sent: string | string[] | undefined): string {
  return typeof sent === 'string' && WELL_FORMED_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * Route a copied request and make its answer: at once (503 while closing, the layer's `refusal`
 * of a request it cannot serve, 404, 405) or once its
 * body (`readBody`, for routes that read one) and its handler are done. Whatever the handler or
 * reading the request throws answers 500. A 413 and a closing server's answers carry
 * `connection: close`.
 */
export function serveRequest(
  router: Router,
  request: IncomingRequest,
  readBody: (maxBytes: number) => Promise<Buffer | null>,
  state: { closing: boolean; refusal?: HttpAnswer },
): { served: Served; answer: HttpAnswer | Promise<HttpAnswer> } {
  const { closing, refusal } = state;
  const startedAt = performance.now();
  const requestId = requestIdOf(request.headers['x-request-id']);
  const match = router.match(request.method, request.path);
  const served: Served = { route: match.pattern ?? UNMATCHED_ROUTE, method: request.method, requestId, startedAt, report: newRequestReport() };
  if (closing) return { served, answer: errorAnswer(errors.shuttingDown()) };
  if (refusal) return { served, answer: refusal };
  if (!match.found) {
    const answer =
      match.allow.length === 0
        ? textAnswer(404, `not found: no route ${request.method} ${request.path}`)
        : textAnswer(405, `method not allowed: ${request.path} takes ${match.allow.join(', ')}`, { allow: match.allow.join(', ') });
    return { served, answer };
  }
  const { route } = match;
  if (route.maxBodyBytes === undefined) {
    // No body to wait for: the handler runs now, and a handler that answers at once (a probe,
    // a document) is answered in this turn (uWS then serves such requests pipelined, too).
    try {
      const snapshot = snapshotRequest(request, match.parameters, requestId);
      snapshot.report = served.report;
      const answer = route.handler({ snapshot, headers: request.headers, body: null });
      return { served, answer: answer instanceof Promise ? answer.catch((error: unknown) => errorAnswer(error, {}, requestId)) : answer };
    } catch (error) {
      return { served, answer: errorAnswer(error, {}, requestId) };
    }
  }
  const maxBodyBytes = route.maxBodyBytes;
  const answer = readBody(maxBodyBytes)
    .then((read): Promise<HttpAnswer> | HttpAnswer => {
      if (read === null) return errorAnswer(errors.payloadTooLarge(maxBodyBytes), { connection: 'close' });
      // Inside the chain: whatever reading the request throws answers 500, never an exception
      // out of the layer's request callback (which left the request unanswered).
      const snapshot = snapshotRequest(request, match.parameters, requestId);
      snapshot.report = served.report;
      return route.handler({ snapshot, headers: request.headers, body: read });
    })
    .catch((error: unknown) => errorAnswer(error, {}, requestId));
  return { served, answer };
}

/** The request declares a body longer than `maxBytes` (its content-length): refused before any is read. */
export function declaresTooLarge(headers: IncomingHttpHeaders, maxBytes: number): boolean {
  return Number(headers['content-length'] ?? 0) > maxBytes;
}

/**
 * A request body as its chunks arrive, up to `maxBytes`: each layer feeds it what its server
 * hands over (node:http's Buffers; uWS's chunks, copied by the caller only once admitted, since
 * uWS reuses their memory after its callback).
 */
export class BodyCollector {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** Count a chunk of `bytes`: false when the body is now past `maxBytes` (keep nothing more). */
  admits(bytes: number): boolean {
    this.size += bytes;
    return this.size <= this.maxBytes;
  }

  keep(chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  /** The whole body. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

/** The headers of an answer besides content-length: content type, request id, the answer's own, and `connection: close` while closing. */
export function answerHeaders(answer: HttpAnswer, served: Served, closing: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': answer.contentType, 'x-request-id': served.requestId, ...answer.headers };
  if (closing) headers.connection = 'close';
  return headers;
}

/** Whether an answer closes its connection (`connection: close`). */
export function closesConnection(headers: Record<string, string>): boolean {
  return headers.connection?.toLowerCase() === 'close';
}

/** The report of an answered request (status 499 when the client had gone). */
export function answeredRequest(served: Served, status: number, cause: unknown): AnsweredRequest {
  return {
    route: served.route,
    method: served.method,
    status,
    seconds: (performance.now() - served.startedAt) / 1000,
    requestId: served.requestId,
    report: served.report,
    cause,
  };
}

/** The report of a request a layer's parser refused (no route, no request id of the caller's). */
export function refusedRequest(status: number, cause: string): AnsweredRequest {
  return { route: MALFORMED_ROUTE, method: '', status, seconds: 0, requestId: randomUUID(), report: newRequestReport(), cause };
}
