/**
 * POST /mcp (SPEC 4.9): MCP over Streamable HTTP, JSON-RPC 2.0, stateless. The second adapter
 * over the catalog's capabilities, beside the REST one: the key is checked with the REST header
 * rules before the SDK sees anything, and a tools/call runs `executeCapability` exactly as the
 * REST route does, so bodies and charges agree.
 *
 * Answers that concern the key or its allowance (401, 402, 429) keep their HTTP status and
 * plain-text body when the request is one call, also when the allowance runs out during a
 * tools/call; every other failure of a tool is a tool result with `isError`. A batch (a JSON
 * array of at most MCP_MAX_BATCH_MESSAGES, not nested, not empty) runs its messages one by one,
 * in order, the event loop free between them: each answers as it would alone, a call refused
 * for the key or its allowance answers a JSON-RPC error object (code MCP_ACCESS_REFUSED, data
 * with the HTTP status and retry-after) in its place, and only a batch whose every call was
 * refused answers with that HTTP status. `?profile=grounding` serves only that profile's tools.
 * A browser request from a foreign Origin is refused with 403 first (http/origin.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { handleStatelessRequest, jsonRpcError, JsonRpcErrorCode, messageId, type JsonRpcId, type Toolset } from '@evidence/mcp';
import { errors, type ServiceError } from '@evidence/schemas';
import type { AuthenticatedCaller } from '@evidence/stores';
import { catalogToolInvoker, toolsetFor } from '../mcp-tools.js';
import { authenticateRequest, errorAnswer, jsonAnswer, rateLimitHeaders, textAnswer, type Headers, type HttpAnswer } from '../http/answer.js';
import { originRefusal, ownHostnames } from '../http/origin.js';
import type { RouteRequest, Router } from '../http/router.js';
import type { Services } from '../services.js';

/** Bound on a JSON-RPC request body; a tools/call is a few hundred bytes. */
export const MCP_MAX_BODY_BYTES = 1 << 20;

/** JSON-RPC error code (implementation-defined server error range) of a batch call refused for its key or allowance. */
export const MCP_ACCESS_REFUSED = -32001;

/**
 * Bound on the messages of one JSON-RPC batch (413 past it, nothing run). Each answer is held
 * until the batch's last one: 7,000 `tools/list` (85 KB each, free) once took 3 GB and 30 s of
 * the event loop and ended in a 500.
 */
export const MCP_MAX_BATCH_MESSAGES = 32;

/** JSON-RPC's generic server error, the code the SDK answers its own 415 (wrong content-type) with. */
const JSON_RPC_SERVER_ERROR = -32000;

function invalidRequest(message: string): unknown {
  return jsonRpcError(null, JsonRpcErrorCode.InvalidRequest, `Invalid Request: ${message}`);
}

/** Whether an accept header lists both media types Streamable HTTP answers with. */
function acceptsBoth(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((type) => type.split(';')[0].trim().toLowerCase());
  return types.includes('application/json') && types.includes('text/event-stream');
}

/** Let the event loop serve other connections (probes among them) between a batch's messages. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The URL the SDK reads into its request info. It is fixed: the caller's Host header names no
 * resource here, and an odd one (`a b`, `[`, `x:99999`) must not fail building the Request.
 */
const MCP_URL = 'http://localhost/mcp';

/** The request's headers as Web Headers for the SDK; a header a Web Request cannot carry is left out. */
function webHeaders(headers: IncomingHttpHeaders): globalThis.Headers {
  const copied = new globalThis.Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    try {
      copied.append(name, Array.isArray(value) ? value.join(', ') : value);
    } catch {
      // skipped: not a valid Web header
    }
  }
  return copied;
}

/** A Web Response as an answer; the transport writes content-length itself. */
async function webAnswer(response: Response, extraHeaders: Headers): Promise<HttpAnswer> {
  const body = response.body === null ? '' : await response.text();
  const headers: Headers = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'content-type') headers[name] = value;
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? 'application/json', body, headers: { ...headers, ...extraHeaders } };
}

interface MessageOutcome {
  response: Response;
  /** A 401, 402 or 429 raised by a tools/call of this message, if any. */
  refused: ServiceError | null;
}

function refusalObject(id: JsonRpcId, error: ServiceError): unknown {
  return jsonRpcError(id, MCP_ACCESS_REFUSED, error.message, { status: error.status, ...(error.retryAfter !== undefined ? { retry_after: error.retryAfter } : {}) });
}

export function registerMcp(router: Router, services: Services): void {
  const ownHosts = ownHostnames(services.config.host);
  const serve = async ({ snapshot, headers, body }: RouteRequest): Promise<HttpAnswer> => {
    // Before the key: a page from a foreign origin learns nothing, not even whether a key works.
    const forbidden = originRefusal(headers.origin, ownHosts, services.config.allowedOrigins);
    if (forbidden !== null) return textAnswer(403, forbidden);
    const authenticated = await authenticateRequest(services, snapshot);
    if (authenticated instanceof Error) return errorAnswer(authenticated, {}, snapshot.requestId);
    const caller: AuthenticatedCaller = authenticated;
    let toolset: Toolset;
    try {
      toolset = toolsetFor(snapshot.query.profile ?? null);
    } catch (error) {
      return errorAnswer(error, {}, snapshot.requestId);
    }
    const rateHeaders = (): Promise<Headers> => rateLimitHeaders(services, caller.tenant);
    const encoding = headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      // The body is read as it arrives: a compressed one would be parsed as if it were not.
      const refusal = jsonRpcError(null, JSON_RPC_SERVER_ERROR, `Unsupported Media Type: content-encoding ${encoding.slice(0, 40)} is not accepted; send the body uncompressed`);
      return { ...jsonAnswer(refusal, await rateHeaders()), status: 415 };
    }
    const requestHeaders = webHeaders(headers);
    const url = snapshot.query.profile ? `${MCP_URL}?profile=${encodeURIComponent(snapshot.query.profile)}` : MCP_URL;
    const text = (body ?? Buffer.alloc(0)).toString('utf8');
    const run = async (parsedBody?: unknown): Promise<MessageOutcome> => {
      const access: { refused: ServiceError | null } = { refused: null };
      const invoke = catalogToolInvoker(
        services,
        caller,
        (error) => {
          access.refused ??= error;
        },
        snapshot.report,
      );
      const response = await handleStatelessRequest({ url, headers: requestHeaders, body: text, parsedBody }, toolset, invoke);
      return { response, refused: access.refused };
    };

    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed)) {
      const { response, refused } = await run(parsed);
      return refused ? errorAnswer(refused, await rateHeaders(), snapshot.requestId) : webAnswer(response, await rateHeaders());
    }
    if (parsed.length === 0) return { ...jsonAnswer(invalidRequest('an empty batch'), await rateHeaders()), status: 400 };
    if (!acceptsBoth(headers.accept)) {
      // The SDK's transport checks accept per message, and a malformed item never reaches it:
      // the batch, which the SDK never sees whole, is checked here as one message would be.
      return { ...jsonAnswer(jsonRpcError(null, JSON_RPC_SERVER_ERROR, 'Not Acceptable: Client must accept both application/json and text/event-stream'), await rateHeaders()), status: 406 };
    }
    if (parsed.length > MCP_MAX_BATCH_MESSAGES) {
      return errorAnswer(errors.batchTooLarge(MCP_MAX_BATCH_MESSAGES, parsed.length), await rateHeaders(), snapshot.requestId);
    }

    const answers: unknown[] = [];
    let firstRefusal: ServiceError | null = null;
    let refusals = 0;
    for (const [index, message] of parsed.entries()) {
      if (index > 0) await nextTurn();
      if (Array.isArray(message)) {
        // JSON-RPC 2.0 batches do not nest: run as one, it would pass the bound above
        answers.push(invalidRequest('a batch inside a batch'));
        continue;
      }
      const { response, refused } = await run(message);
      if (refused) {
        refusals++;
        firstRefusal ??= refused;
        const id = messageId(message);
        if (id !== undefined) answers.push(refusalObject(id, refused));
        continue;
      }
      const answer = response.body === null ? '' : await response.text();
      if (answer === '') continue; // a notification: nothing to answer
      try {
        const decoded: unknown = JSON.parse(answer);
        answers.push(...(Array.isArray(decoded) ? decoded : [decoded]));
      } catch {
        answers.push(jsonRpcError(messageId(message) ?? null, JsonRpcErrorCode.InternalError, 'internal error'));
      }
    }
    if (firstRefusal && refusals === parsed.length) return errorAnswer(firstRefusal, await rateHeaders(), snapshot.requestId);
    if (answers.length === 0) return { status: 202, contentType: 'application/json', body: '', headers: await rateHeaders() };
    return jsonAnswer(answers, await rateHeaders());
  };
  router.post('/mcp', serve, { maxBodyBytes: MCP_MAX_BODY_BYTES });

  // Stateless: no server-initiated stream to GET and no session to DELETE. Every method but POST
  // gets the router's 405 with `allow: POST`; the SDK client takes a 405 on GET as "no stream
  // offered".
}
