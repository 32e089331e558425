/**
 * Stateless MCP over Streamable HTTP: one POST in, one `Response` out, JSON (not SSE) answers.
 * The SDK's stateless transport refuses to serve a second request, and an SDK server binds one
 * transport at a time, so each request gets a fresh server and transport. Both are cheap (a few
 * microseconds with the shared validator of `createToolServer`); the expensive part, the tool
 * listing, is computed once in the toolset.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Toolset } from './tool-listing.js';
import { createToolServer } from './tool-server.js';
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

export async function handleStatelessRequest(request: StatelessRequest, toolset: Toolset, invoke: ToolInvoker): Promise<Response> {
  const server = createToolServer(toolset, invoke);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  // Handing the SDK the parsed body spares it a body stream; a body that is not JSON goes in
  // raw so that the SDK answers its own parse error.
  let parsedBody: unknown = request.parsedBody;
  try {
    if (parsedBody === undefined) parsedBody = JSON.parse(request.body);
  } catch {
    return transport.handleRequest(new Request(request.url, { method: 'POST', headers: request.headers, body: request.body }));
  }
  // No close(): once the JSON answer exists nothing of this server or transport is pending (no
  // timers, no open stream), and closing would only build a "connection closed" error and
  // abort signals for nobody (a third of the cost of a request). Both are garbage from here.
  return transport.handleRequest(new Request(request.url, { method: 'POST', headers: request.headers }), { parsedBody });
}
