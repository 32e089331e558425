import { z } from 'zod';
import { Toolset, handleStatelessRequest, createToolServer } from '@evidence/mcp';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
const toolset = new Toolset([{ name: 't', description: 'd', params: z.object({ q: z.string() }), response: z.object({ n: z.number() }), argumentAliases: {} }]);
const invoke = async () => ({ n: 1 });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const body = (method, params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
async function bench(label, fn, n = 3000) {
  for (let i = 0; i < 300; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label.padEnd(40), ((performance.now() - t) / n * 1000).toFixed(1), 'us');
}
await bench('new Request only', async () => new Request('http://x/mcp', { method: 'POST', headers, body: body('ping', {}) }));
await bench('createToolServer only', async () => createToolServer(toolset, invoke));
await bench('server+transport connect+close', async () => { const s = createToolServer(toolset, invoke); const t = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }); await s.connect(t); await s.close(); });
await bench('handleStatelessRequest ping', async () => (await handleStatelessRequest(new Request('http://x/mcp', { method: 'POST', headers, body: body('ping', {}) }), toolset, invoke, { maxBodyBytes: 1 << 20 })).text());
await bench('handleStatelessRequest tools/call', async () => (await handleStatelessRequest(new Request('http://x/mcp', { method: 'POST', headers, body: body('tools/call', { name: 't', arguments: { q: 'x' } }) }), toolset, invoke, { maxBodyBytes: 1 << 20 })).text());
