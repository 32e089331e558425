import { z } from 'zod';
import { Toolset, createToolServer } from '@evidence/mcp';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
const toolset = new Toolset([{ name: 't', description: 'd', params: z.object({ q: z.string() }), response: z.object({ n: z.number() }), argumentAliases: {} }]);
const invoke = async () => ({ n: 1 });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { q: 'x' } } });
async function bench(label, fn, n = 10000) {
  for (let i = 0; i < 2000; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label.padEnd(40), ((performance.now() - t) / n * 1000).toFixed(1), 'us');
}
async function handle(close, parsed) {
  const s = createToolServer(toolset, invoke);
  const t = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await s.connect(t);
  const r = parsed ? await t.handleRequest(new Request('http://x/mcp', { method: 'POST', headers }), { parsedBody: JSON.parse(text) }) : await t.handleRequest(new Request('http://x/mcp', { method: 'POST', headers, body: text }));
  if (close) await s.close();
  return r.text();
}
for (let k = 0; k < 2; k++) {
  await bench('close, body', () => handle(true, false));
  await bench('no close, body', () => handle(false, false));
  await bench('no close, parsedBody', () => handle(false, true));
  await bench('new AbortController', async () => new AbortController());
}
