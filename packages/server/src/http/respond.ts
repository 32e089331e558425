/**
 * The one writer of HTTP answers: status, headers and body inside a single cork, and nothing
 * at all when the client went away. Errors are plain text (SPEC 7).
 */
import type { HttpResponse } from 'uWebSockets.js';
import { errorAnswer, type Headers, type HttpAnswer } from './answer.js';

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  402: '402 Payment Required',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  408: '408 Request Timeout',
  413: '413 Payload Too Large',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

export interface ResponseState {
  aborted: boolean;
}

export type { Headers };

export function respond(res: HttpResponse, state: ResponseState, status: number, contentType: string, body: string, headers: Headers = {}): void {
  if (state.aborted) return;
  res.cork(() => {
    res.writeStatus(STATUS_TEXT[status] ?? `${status} Status`);
    res.writeHeader('content-type', contentType);
    for (const name in headers) res.writeHeader(name, headers[name]);
    res.end(body);
  });
}

export function respondAnswer(res: HttpResponse, state: ResponseState, answer: HttpAnswer): void {
  respond(res, state, answer.status, answer.contentType, answer.body, answer.headers);
}

export function respondError(res: HttpResponse, state: ResponseState, error: unknown, headers: Headers = {}): void {
  respondAnswer(res, state, errorAnswer(error, headers));
}
