/** Assemble the server: stores, shard pool, routes, listening socket; and take it down again. */
import { join } from 'node:path';
import { EvidencePool, HiddenTextIndex, LedgerIndex, PageGraph } from '@evidence/evidence';
import { ensureManifest, HIDDEN_TEXT_FILE, LEDGER_FILE, LINKS_FILE } from '@evidence/native';
import { ShardPool } from '@evidence/pool';
import { openStores } from '@evidence/stores';
import type { ServerConfig } from './config.js';
import { HttpTransport } from './http/transport.js';
import { buildRouter } from './routes/index.js';
import type { Services } from './services.js';
import { EvidenceGate } from './evidence-gate.js';
import { InFlight } from './in-flight.js';

/** How long a shutdown waits for calls under way before closing the pools anyway. */
export const SHUTDOWN_DRAIN_MS = 10_000;


export interface RunningServer {
  port: number;
  services: Services;
  close(): Promise<void>;
}

/**
 * Open what capabilities run against (stores and shard pool over DATA_DIR) without any
 * transport: the HTTP server and the MCP stdio server both start from here.
 */
export async function openServices(config: ServerConfig): Promise<Services> {
  const manifest = ensureManifest(config.dataDir, config.shards);
  const stores = await openStores({
    dataDir: config.dataDir,
    keyRefreshMs: config.keyRefreshMs,
    authFailLimit: config.authFailLimit,
    authFailWindowMs: config.authFailWindowMs,
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    redisKeyPrefix: config.redisKeyPrefix,
  });
  const pool = new ShardPool({
    dataDir: config.dataDir,
    shards: manifest.shards,
    replicas: config.replicas,
    dimensions: manifest.dimensions,
    maxQueue: config.maxQueue,
  });
  const evidence = new EvidencePool({ threads: config.evidenceThreads, maxQueue: config.maxQueue });
  const ledger = new LedgerIndex(join(config.dataDir, LEDGER_FILE));
  const hiddenText = new HiddenTextIndex(join(config.dataDir, HIDDEN_TEXT_FILE));
  const graph = new PageGraph(join(config.dataDir, LINKS_FILE));
  // Read the link log in the background now, so the first graph call need not wait for all of it.
  graph.refresh().catch((error: unknown) => console.error('link graph: cannot read the link log:', error instanceof Error ? error.message : error));
  return { pool, evidence, ledger, hiddenText, graph, stores, config, inFlight: new InFlight(), evidenceGate: EvidenceGate.forQueue(config.maxQueue) };
}

/** Close what `openServices` opened: the pools first (no more work), then the stores. */
export async function closeServices(services: Services): Promise<void> {
  await services.pool.close();
  await services.evidence.close();
  await services.stores.close();
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const services = await openServices(config);
  const transport = new HttpTransport(buildRouter(services));
  let port: number;
  try {
    port = await transport.listen(config.host, config.port);
  } catch (error) {
    await closeServices(services);
    throw new Error(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  return {
    port,
    services,
    async close() {
      // Intake stops first: no new connections, and a request that still arrives on a kept-alive
      // one is answered 503 without running or being charged.
      transport.stopIntake();
      services.inFlight.stopIntake();
      await services.inFlight.drained(SHUTDOWN_DRAIN_MS);
      // The last answers are written in the turn their calls finish: after it, drop the
      // remaining connections too.
      await new Promise((resolve) => setImmediate(resolve));
      transport.closeConnections();
      await closeServices(services);
    },
  };
}
