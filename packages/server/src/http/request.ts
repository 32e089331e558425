/**
 * Copy what a handler needs out of a uWS request synchronously: the request object does not
 * outlive the callback, so nothing may read it after the first await.
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { parseQuery, type RequestSnapshot } from './answer.js';

export type { RequestSnapshot };

/**
 * A path parameter that is not valid percent-encoding (`/doc/%`) reads as empty, which the
 * capability's schema refuses with a 400; decodeURIComponent would throw inside the uWS callback
 * and take the whole process down.
 */
function decodeParameter(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

export function snapshotRequest(res: HttpResponse, req: HttpRequest, parameterCount = 0): RequestSnapshot {
  const query = parseQuery(req.getQuery() ?? '');
  const parameters: string[] = [];
  for (let index = 0; index < parameterCount; index++) parameters.push(decodeParameter(req.getParameter(index) ?? ''));
  const xApiKey = req.getHeader('x-api-key');
  const authorization = req.getHeader('authorization');
  return {
    method: req.getCaseSensitiveMethod(),
    url: req.getUrl(),
    query,
    headers: { xApiKey: xApiKey || null, authorization: authorization || null },
    address: Buffer.from(res.getRemoteAddressAsText()).toString(),
    parameters,
  };
}
