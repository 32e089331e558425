/**
 * `npm run mcp:stdio`: the MCP tools over stdin/stdout for a self-hosted deployment (the other
 * entry point of the server beside main.ts, the HTTP one). It opens
 * the DATA_DIR services in-process (stores and shard pool, as the HTTP server does) and runs
 * each tools/call through the same capability path, so bodies and charges are those of REST.
 *
 * The key comes from EVIDENCE_API_KEY; it is authenticated once at start (a bad key exits with
 * status 1 and a message on stderr) and again on every call, so a revocation or a suspension
 * takes effect within the key refresh interval. EVIDENCE_MCP_PROFILE (optional) serves only a
 * profile's tools. The other settings (DATA_DIR, REPLICAS, SEARCH_TIMEOUT_MS, ...) are the
 * server's.
 *
 * stdout carries protocol messages and nothing else: every log line goes to stderr. Protocol
 * revisions: 2026-07-28 and the 2025 ones, as the SDK's `serveStdio` negotiates them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { createToolServer, type ToolInvoker } from '@evidence/mcp';
import { readConfig } from './config.js';
import { catalogToolInvoker, toolsetFor } from './mcp-tools.js';
import { closeServices, openServices } from './server.js';
import type { Services } from './services.js';

// Whatever a library might print must not corrupt the protocol stream.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

/** The address the per-address failure limiter counts failed authentications under. */
const STDIO_ADDRESS = 'stdio';

function fail(message: string): never {
  process.stderr.write(`mcp stdio: ${message}\n`);
  process.exit(1);
}

const apiKey = process.env.EVIDENCE_API_KEY;
if (!apiKey) fail('EVIDENCE_API_KEY is not set: put the API key in the environment of this process');

const config = readConfig(process.env);
// Opening the services would create an empty index; a missing one is a setup mistake.
if (!existsSync(join(config.dataDir, 'index.json'))) {
  fail(`no index in DATA_DIR ${config.dataDir}: run npm start (demo index) or npm run ingest there first`);
}

let toolset;
try {
  toolset = toolsetFor(process.env.EVIDENCE_MCP_PROFILE || null);
} catch (error) {
  fail(`EVIDENCE_MCP_PROFILE: ${(error as Error).message}`);
}

const services: Services = await openServices(config);
const credentials = { xApiKey: apiKey, authorization: null };
const authenticate = () => services.stores.authenticate(credentials, STDIO_ADDRESS);
try {
  await authenticate();
} catch (error) {
  await closeServices(services);
  fail(`the key in EVIDENCE_API_KEY does not authenticate against ${config.dataDir}: ${(error as Error).message}`);
}

const inFlight = new Set<Promise<unknown>>();
const invoke: ToolInvoker = (tool, parameters) => {
  // A key that stopped authenticating makes the call a tool error with the 401/402/429 text.
  const call = Promise.resolve().then(async () => catalogToolInvoker(services, await authenticate())(tool, parameters));
  inFlight.add(call);
  call.then(
    () => inFlight.delete(call),
    () => inFlight.delete(call),
  );
  return call;
};

let served: StdioServerHandle | null = null;

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  // Answer what is running, then release the shard workers and commit the usage ledger.
  await Promise.allSettled([...inFlight]);
  await served?.close().catch(() => {});
  await closeServices(services);
  process.exit(0);
}

process.stdin.on('end', () => void shutdown());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown());

// The SDK serves 2026-07-28 (server/discover, then each request stating its revision) and the
// 2025 revisions (initialize) over the one connection, with servers from this factory.
served = serveStdio(() => createToolServer(toolset, invoke));
process.stderr.write(
  `evidence search MCP (stdio): ${toolset.tools.length} tools over ${config.dataDir} (${services.pool.shards} shards)\n`,
);
