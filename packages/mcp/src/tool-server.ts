/**
 * An MCP server over a toolset: initialize (2025 revisions), server/discover (2026-07-28), ping,
 * tools/list and tools/call. It is the low-level SDK `Server` rather than `McpServer` because
 * validation belongs to the capability (so a 400 reads as it does over REST) and the listing is
 * generated once from the schemas. One instance serves one HTTP request or one stdio connection
 * (the SDK's factories build one per serving unit).
 */
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { callTool } from './tool-call.js';
import type { Toolset } from './tool-listing.js';
import type { ToolInvoker } from './tool.js';

export const SERVER_INFO = { name: 'evidence-search', version: '0.1.0' } as const;

export const SERVER_INSTRUCTIONS =
  'Search and evidence retrieval over an admission-controlled index of web passages. ' +
  'A small result set usually means the index holds little on the topic, not that the query was wrong; ' +
  'partial=true means part of the index was unreachable and the answer is incomplete. ' +
  'Each tool costs credits (see its description); a result with isError carries the service error text.';

/**
 * Left to itself every SDK server builds its own Ajv instance (about 0.13 ms, most of the cost
 * of a server per HTTP request); one shared instance serves them all. The server only uses it
 * for elicitation, which these tools never request.
 */
const sharedJsonSchemaValidator = new AjvJsonSchemaValidator();

export function createToolServer(toolset: Toolset, invoke: ToolInvoker): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: SERVER_INSTRUCTIONS,
    jsonSchemaValidator: sharedJsonSchemaValidator,
  });
  server.setRequestHandler('tools/list', () => toolset.listing);
  server.setRequestHandler('tools/call', (request) => {
    const tool = toolset.find(request.params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool: ${request.params.name}`);
    return callTool(tool, request.params.arguments, invoke);
  });
  return server;
}
