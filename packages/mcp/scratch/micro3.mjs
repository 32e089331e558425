import { z } from 'zod';
import { Toolset, createToolServer } from '@evidence/mcp';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { JSONRPCMessageSchema, CallToolRequestSchema, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
const toolset = new Toolset([{ name: 't', description: 'd', params: z.object({ q: z.string() }), response: z.object({ n: z.number() }), argumentAliases: {} }]);
const invoke = async () => ({ n: 1 });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const msg = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { q: 'x' } } };
const text = JSON.stringify(msg);
async function bench(label, fn, n = 5000) {
  for (let i = 0; i < 1000; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label.padEnd(40), ((performance.now() - t) / n * 1000).toFixed(1), 'us');
}
async function handle(parsed) {
  const s = createToolServer(toolset, invoke);
  const t = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await s.connect(t);
  const r = parsed ? await t.handleRequest(new Request('http://x/mcp', { method: 'POST', headers }), { parsedBody: JSON.parse(text) })
                   : await t.handleRequest(new Request('http://x/mcp', { method: 'POST', headers, body: text }));
  await s.close();
  return r.text();
}
for (let k = 0; k < 2; k++) {
await bench('body via Request', () => handle(false));
await bench('parsedBody', () => handle(true));
await bench('zod JSONRPCMessage parse', async () => JSONRPCMessageSchema.parse(msg));
await bench('zod CallToolRequest parse', async () => CallToolRequestSchema.parse(msg));
await bench('zod CallToolResult parse', async () => CallToolResultSchema.parse({ content: [{ type: 'text', text: '{"n":1}' }], structuredContent: { n: 1 } }));
}
