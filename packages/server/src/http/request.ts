/** A copied request (`IncomingRequest`) into the plain values a handler reads (`RequestSnapshot`). */
import { readQuery, type RequestSnapshot } from './answer.js';
import type { IncomingRequest } from './transport.js';

export type { RequestSnapshot };

/**
 * A path parameter that is not valid percent-encoding (`/doc/%`) reads as empty, which the
 * capability's schema refuses with a 400 naming it.
 */
function decodeParameter(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

function header(request: IncomingRequest, name: string): string | null {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) || null;
}

/** Path and raw query of a request target: origin form (`/a?b`) or absolute form (`http://h/a?b`). */
export function splitTarget(target: string): { path: string; rawQuery: string } {
  let rest = target;
  if (!rest.startsWith('/')) {
    const afterScheme = rest.indexOf('://');
    const pathStart = afterScheme < 0 ? -1 : rest.indexOf('/', afterScheme + 3);
    rest = pathStart < 0 ? '/' : rest.slice(pathStart);
  }
  const queryStart = rest.indexOf('?');
  return queryStart < 0 ? { path: rest, rawQuery: '' } : { path: rest.slice(0, queryStart), rawQuery: rest.slice(queryStart + 1) };
}

export function snapshotRequest(request: IncomingRequest, rawParameters: string[], requestId: string): RequestSnapshot {
  const { query, repeated } = readQuery(request.rawQuery);
  return {
    method: request.method,
    url: request.path,
    query,
    ...(repeated ? { repeated } : {}),
    headers: { xApiKey: header(request, 'x-api-key'), authorization: header(request, 'authorization') },
    address: request.address,
    parameters: rawParameters.map(decodeParameter),
    requestId,
  };
}
