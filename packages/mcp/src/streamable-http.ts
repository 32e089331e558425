/**
 * Stateless MCP over Streamable HTTP: one POST in, one `Response` out, JSON (not SSE) answers,
 * in every protocol revision the SDK serves. A request carrying the 2026-07-28 per-request
 * envelope (`server/discover`, then each request stating its revision) goes to the SDK's
 * `createMcpHandler`, modern-only; a 2025-era request (`initialize`, then plain requests) to a
 * stateless Streamable HTTP transport with JSON answers, as `isLegacyRequest` (the handler's own
 * classification) routes them. Both build a fresh server per request from the one toolset; the
 * expensive part, the tool listing, is computed once in the toolset.
 */
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Toolset } from './tool-listing.js';
import { createToolServer } from './tool-server.js';
import { jsonRpcError, JsonRpcErrorCode, messageId } from './json-rpc.js';
import type { ToolInvoker } from './tool.js';

export interface StatelessRequest {
  /** Absolute URL of the request (the SDK reads it into the handlers' request info). */
  url: string;
  headers: Headers;
  /** The whole body; the caller has bounded its size. */
  body: string;
  /** The body already parsed as JSON, when the caller has done so (one message of a batch). */
  parsedBody?: unknown;
}

/**
 * What is wrong with a tools/call request's params, or null. The SDK would parse them with its
 * own schema inside the handler and answer a failure as -32603 (Internal error) with the schema
 * library's dump; JSON-RPC's answer to bad params is -32602 with a sentence.
 */
function toolCallParamsProblem(message: unknown): string | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'tools/call' || messageId(message) === undefined) return null; // a notification is answered by nothing
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return 'tools/call takes params, an object with name and arguments';
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') return 'tools/call takes params.name, the name of a tool (a string)';
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return 'tools/call takes params.arguments as an object of named arguments';
  return null;
}

export async function handleStatelessRequest(request: StatelessRequest, toolset: Toolset, invoke: ToolInvoker): Promise<Response> {
  // Handing the SDK the parsed body spares it a body stream; a body that is not JSON goes in
  // raw so that the SDK answers its own parse error.
  let parsedBody: unknown = request.parsedBody;
  let parsed = true;
  try {
    if (parsedBody === undefined) parsedBody = JSON.parse(request.body);
  } catch {
    parsed = false;
  }
  const problem = parsed ? toolCallParamsProblem(parsedBody) : null;
  if (problem !== null) return Response.json(jsonRpcError(messageId(parsedBody) ?? null, JsonRpcErrorCode.InvalidParams, `Invalid params: ${problem}`));
  const factory = () => createToolServer(toolset, invoke);
  const webRequest = (withBody: boolean) => new Request(request.url, { method: 'POST', headers: request.headers, ...(withBody ? { body: request.body } : {}) });
  if (parsed && !(await isLegacyRequest(webRequest(false), parsedBody))) {
    // 2026-07-28: the SDK checks the envelope, the revision header against it and the media
    // types, and answers in JSON (no mid-call notifications are sent by these tools).
    const modern = createMcpHandler(factory, { legacy: 'reject', responseMode: 'json' });
    return modern.fetch(webRequest(false), { parsedBody });
  }
  const server = factory();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  if (!parsed) return transport.handleRequest(webRequest(true));
  // No close(): once the JSON answer exists nothing of this server or transport is pending (no
  // timers, no open stream), and closing would only build a "connection closed" error and
  // abort signals for nobody (a third of the cost of a request). Both are garbage from here.
  return transport.handleRequest(webRequest(false), { parsedBody });
}
