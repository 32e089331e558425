import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
function bench(label, fn, n = 5000) {
  for (let i = 0; i < 500; i++) fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) fn();
  console.log(label.padEnd(40), ((performance.now() - t) / n * 1000).toFixed(1), 'us');
}
bench('new Server', () => new Server({ name: 'a', version: '1' }, { capabilities: { tools: {} } }));
const s = new Server({ name: 'a', version: '1' }, { capabilities: { tools: {} } });
bench('setRequestHandler list', () => s.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] })));
bench('setRequestHandler call', () => s.setRequestHandler(CallToolRequestSchema, () => ({ content: [] })));
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
const shared = new AjvJsonSchemaValidator();
bench('new Server, shared validator', () => new Server({ name: 'a', version: '1' }, { capabilities: { tools: {} }, jsonSchemaValidator: shared }));
