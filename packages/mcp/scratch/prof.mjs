import { z } from 'zod';
import { Toolset, handleStatelessRequest } from '@evidence/mcp';
const toolset = new Toolset([{ name: 't', description: 'd', params: z.object({ q: z.string() }), response: z.object({ n: z.number() }), argumentAliases: {} }]);
const invoke = async () => ({ n: 1 });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { q: 'x' } } });
for (let i = 0; i < 20000; i++) await (await handleStatelessRequest(new Request('http://x/mcp', { method: 'POST', headers, body: text }), toolset, invoke, { maxBodyBytes: 1 << 20 })).text();
