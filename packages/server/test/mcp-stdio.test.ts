/**
 * `npm run mcp:stdio` driven by the SDK's own client over a spawned process: the key from the
 * environment, the same DATA_DIR services in-process, protocol-only stdout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readConfig, startServer } from '@evidence/server';
import { openStores } from '@evidence/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerOf, writeIndex } from './accounts-helpers.js';
import { passage } from './fixture.js';

const repositoryRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const stdioEntry = join(repositoryRoot, 'packages/server/dist/mcp-stdio.js');

let dataDir: string;
let key: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mcp-stdio-'));
  writeIndex(dataDir, [[passage('a:0', 'feed the sourdough starter daily')], [passage('b:0', 'fresh pasta needs eggs')]]);
  const stores = await openStores({ dataDir });
  key = (await stores.ensureDevelopmentKey())!;
  await stores.close();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function stdioEnvironment(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...extra };
}

describe('MCP over stdio', () => {
  it('lists the tools and calls web_search and get_document, charging the ledger', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [stdioEntry],
      env: stdioEnvironment({ EVIDENCE_API_KEY: key }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    let search: CallToolResult | undefined;
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['web_search', 'get_document']));

      search = (await client.callTool({ name: 'web_search', arguments: { query: 'sourdough', limit: 5 } })) as CallToolResult;
      expect(search.isError).toBeFalsy();
      expect(search.structuredContent).toMatchObject({ partial: false });
      expect((search.structuredContent as { results: Array<{ id: string }> }).results[0].id).toBe('a:0');

      const missing = (await client.callTool({ name: 'get_document', arguments: { id: 'nope:1' } })) as CallToolResult;
      expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'not found: no passage with id nope:1' }] });
    } finally {
      await client.close();
    }
    expect(stderr).toContain('evidence search MCP (stdio)');
    // Both calls ran, so both were billed, durably, to the development tenant.
    expect(ledgerOf(dataDir, 'dev')).toMatchObject({ rows: 2, credits: 2 });

    // The REST twin over the same DATA_DIR answers the same body.
    const server = await startServer(readConfig({ DATA_DIR: dataDir, PORT: '0' }));
    try {
      const rest = await fetch(`http://127.0.0.1:${server.port}/search?q=sourdough&limit=5`, { headers: { 'x-api-key': key } });
      expect(search?.structuredContent).toEqual(await rest.json());
    } finally {
      await server.close();
    }
  });

  it('exits with a message on stderr, and nothing on stdout, when the key does not authenticate', () => {
    for (const env of [{}, { EVIDENCE_API_KEY: `ess_${'0'.repeat(48)}` }]) {
      const run = spawnSync(process.execPath, [stdioEntry], { env: stdioEnvironment(env), input: '', encoding: 'utf8', timeout: 20_000 });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/EVIDENCE_API_KEY/);
    }
  });

  it('refuses a DATA_DIR without an index instead of creating one', () => {
    const empty = mkdtempSync(join(tmpdir(), 'mcp-stdio-empty-'));
    try {
      const run = spawnSync(process.execPath, [stdioEntry], {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: empty, EVIDENCE_API_KEY: key },
        input: '',
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('no index');
      expect(run.stdout).toBe('');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
