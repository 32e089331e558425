/**
 * POST /mcp (SPEC 4.9): MCP over Streamable HTTP, JSON-RPC 2.0, stateless. The second adapter
 * over the catalog's capabilities, beside the REST one: the key is checked with the REST header
 * rules before the SDK sees anything, and a tools/call runs `executeCapability` exactly as the
 * REST route does, so bodies and charges agree.
 *
 * Answers that concern the key or its allowance (401, 402, 429) keep their HTTP status and
 * plain-text body, also when the allowance runs out during a tools/call; every other failure of
 * a tool is a tool result with `isError`. `?profile=grounding` serves only that profile's tools.
 */
import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { handleStatelessRequest, type Toolset } from '@evidence/mcp';
import { ServiceError } from '@evidence/schemas';
import type { AuthenticatedCaller } from '@evidence/stores';
import { catalogToolInvoker, toolsetFor } from '../discovery/tools.js';
import { snapshotRequest } from '../http/request.js';
import { respond, respondError, type Headers, type ResponseState } from '../http/respond.js';
import type { Services } from '../services.js';

/** Bound on a JSON-RPC request body; a tools/call is a few hundred bytes. */
export const MCP_MAX_BODY_BYTES = 1 << 20;

const PLAIN_TEXT = 'text/plain; charset=utf-8';

function payloadTooLarge(): ServiceError {
  return new ServiceError('payload_too_large', `payload too large: an MCP request body may hold at most ${MCP_MAX_BODY_BYTES} bytes`);
}

/**
 * Collect the request body, at most `maxBytes`; resolves null past the bound. uWS hands out
 * chunks that are reused after the callback returns, so each is copied.
 */
function readBody(res: HttpResponse, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    res.onData((chunk, isLast) => {
      if (finished) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        finished = true;
        resolve(null);
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        finished = true;
        resolve(Buffer.concat(chunks, size));
      }
    });
  });
}

/** Every header of the request, for the Web Request the SDK reads. */
function copyHeaders(req: HttpRequest): globalThis.Headers {
  const headers = new globalThis.Headers();
  req.forEach((name, value) => headers.append(name, value));
  return headers;
}

/** Write a Web Response (status, headers, body) in one cork, as `respond` does for ours. */
async function respondWeb(res: HttpResponse, state: ResponseState, response: Response, extraHeaders: Headers): Promise<void> {
  const body = response.body === null ? '' : await response.text();
  if (state.aborted) return;
  res.cork(() => {
    res.writeStatus(`${response.status} ${STATUS_CODES[response.status] ?? 'Status'}`);
    response.headers.forEach((value, name) => {
      // uWS writes content-length itself.
      if (name !== 'content-length') res.writeHeader(name, value);
    });
    for (const name in extraHeaders) res.writeHeader(name, extraHeaders[name]);
    res.end(body);
  });
}

async function serveMcpRequest(
  res: HttpResponse,
  state: ResponseState,
  services: Services,
  caller: AuthenticatedCaller,
  toolset: Toolset,
  request: { url: string; headers: globalThis.Headers },
): Promise<void> {
  const rateHeaders = (): Headers => ({
    'x-ratelimit-remaining': String(services.stores.meter.remainingThisMinute(caller.tenant)),
  });
  const body = await readBody(res, MCP_MAX_BODY_BYTES);
  if (state.aborted) return;
  if (body === null) {
    respondError(res, state, payloadTooLarge(), rateHeaders());
    return;
  }
  const access: { error: ServiceError | null } = { error: null };
  const invoke = catalogToolInvoker(services, caller, (error) => {
    access.error ??= error;
  });
  const response = await handleStatelessRequest({ url: request.url, headers: request.headers, body: body.toString('utf8') }, toolset, invoke);
  if (access.error) {
    respondError(res, state, access.error, rateHeaders());
    return;
  }
  await respondWeb(res, state, response, rateHeaders());
}

export function registerMcp(app: TemplatedApp, services: Services): void {
  app.post('/mcp', (res, req) => {
    const state: ResponseState = { aborted: false };
    res.onAborted(() => {
      state.aborted = true;
    });
    // The request object dies with this callback: copy everything now.
    const snapshot = snapshotRequest(res, req);
    const headers = copyHeaders(req);
    const rawQuery = req.getQuery();
    const url = `http://${headers.get('host') || 'localhost'}/mcp${rawQuery ? `?${rawQuery}` : ''}`;

    let caller: AuthenticatedCaller;
    let toolset: Toolset;
    try {
      caller = services.stores.authenticate(snapshot.headers, snapshot.address);
      toolset = toolsetFor(snapshot.query.profile ?? null);
      const declaredLength = Number(headers.get('content-length') ?? 0);
      if (declaredLength > MCP_MAX_BODY_BYTES) throw payloadTooLarge();
    } catch (error) {
      respondError(res, state, error);
      return;
    }
    serveMcpRequest(res, state, services, caller, toolset, { url, headers }).catch((error: unknown) => respondError(res, state, error));
  });

  // Stateless: no server-initiated stream to GET and no session to DELETE. The SDK client takes
  // a 405 on GET as "no stream offered".
  const notAllowed = (res: HttpResponse) => {
    respond(res, { aborted: false }, 405, PLAIN_TEXT, 'method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST', {
      allow: 'POST',
    });
  };
  app.get('/mcp', notAllowed);
  app.del('/mcp', notAllowed);
}

