/** Assemble the server: stores, shard pool, routes, listening socket; and take it down again. */
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { EvidencePool, HiddenTextIndex, LedgerIndex, PageGraph } from '@evidence/evidence';
import { ensureManifest, HIDDEN_TEXT_FILE, LEDGER_FILE, LINKS_FILE, readManifest, shardOptionsOf, type IndexManifest } from '@evidence/native';
import { ShardPool } from '@evidence/pool';
import { openStores } from '@evidence/stores';
import type { ServerConfig } from './config.js';
import { embedderForIndex } from '@evidence/embedders';
import { openIndexVectors } from './embedding/index-vectors.js';
import { createTransport } from './http/layer.js';
import type { HttpLayer } from './http/transport.js';
import { buildRouter } from './routes/all-routes.js';
import type { Services } from './services.js';
import { EvidenceGate } from './evidence-gate.js';
import { InFlight } from './in-flight.js';
import { createLogger, logDestination, type Logger } from './observability/logging.js';
import { RequestLog } from './observability/request-log.js';
import { applyServingV8Flags } from './v8-serving.js';
import { ServiceMetrics } from './observability/metrics.js';

/** How long a shutdown waits for calls under way before closing the pools anyway. */
export const SHUTDOWN_DRAIN_MS = 10_000;


export interface RunningServer {
  port: number;
  /** The HTTP layer serving: uws (uWebSockets.js) or node (node:http). */
  httpLayer: HttpLayer;
  services: Services;
  /** The server's structured log (one JSON line per request, and its own notices). */
  logger: Logger;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Where log lines go instead of stdout (tests keep them). */
  logDestination?: DestinationStream;
}

/**
 * Open what capabilities run against (stores and shard pool over DATA_DIR) without any
 * transport: the HTTP server and the MCP stdio server both start from here.
 */
export async function openServices(config: ServerConfig, options: { log?: (message: string, fields?: Record<string, unknown>) => void } = {}): Promise<Services> {
  const existing = readManifest(config.dataDir);
  const embedder = embedderForIndex(config.embedder, existing);
  // SHARDS=0 on a DATA_DIR without an index configures no shards (readiness 503) and creates nothing.
  const manifest: IndexManifest =
    config.shards === 0
      ? (existing ?? { shards: 0, dimensions: embedder.dimensions, embedder: embedder.name, created_at: 0 })
      : ensureManifest(config.dataDir, config.shards, embedder);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const vectors = await openIndexVectors(config, manifest, embedder, log);
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
    shardOptions: shardOptionsOf(manifest),
    maxQueue: config.maxQueue,
    queryVector: vectors.queries ? (text) => vectors.queries!.vectorOf(text) : undefined,
    vectorScoring: embedder.scoring,
  });
  const evidenceGate = EvidenceGate.forQueue(config.maxQueue);
  const evidence = new EvidencePool({ threads: config.evidenceThreads, maxQueue: config.maxQueue, callsPerThread: evidenceGate.running, dataDir: config.dataDir });
  const ledger = new LedgerIndex(join(config.dataDir, LEDGER_FILE));
  const hiddenText = new HiddenTextIndex(join(config.dataDir, HIDDEN_TEXT_FILE));
  const graph = new PageGraph(join(config.dataDir, LINKS_FILE));
  // Read the link log in the background now, so the first graph call need not wait for all of it.
  graph.refresh().catch((error: unknown) => console.error('link graph: cannot read the link log:', error instanceof Error ? error.message : error));
  const metrics = new ServiceMetrics({ tenantLabels: config.metricsTenantLabels });
  metrics.watch(pool, evidenceGate, stores);
  metrics.watchVectors(vectors);
  return { pool, evidence, ledger, hiddenText, graph, stores, config, inFlight: new InFlight(), evidenceGate, metrics, vectors };
}

/** Close what `openServices` opened: the pools first (no more work), then the stores. */
export async function closeServices(services: Services): Promise<void> {
  await services.vectors.close();
  await services.pool.close();
  await services.evidence.close();
  await services.stores.close();
}

export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  applyServingV8Flags();
  const destination = logDestination(options.logDestination);
  const logger = createLogger({ level: config.logLevel, destination });
  const requestLog = new RequestLog(logger, destination);
  const services = await openServices(config, { log: (message, fields) => logger.info(fields ?? {}, message) });
  let transport;
  try {
    transport = createTransport(config.httpLayer, buildRouter(services), (answered) => {
      services.metrics.request(answered.route, answered.method, answered.status, answered.seconds);
      requestLog.record(answered);
    });
  } catch (error) {
    await closeServices(services);
    throw error;
  }
  services.metrics.httpLayer(transport.layer);
  let port: number;
  try {
    port = await transport.listen(config.host, config.port);
  } catch (error) {
    await closeServices(services);
    throw new Error(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  return {
    port,
    httpLayer: transport.layer,
    services,
    logger,
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
      requestLog.flush();
      logger.flush();
    },
  };
}

/** The line `npm start`, tests and benchmarks wait for (`listening on http://HOST:PORT`), as a log line. */
export function logListening(server: RunningServer, config: ServerConfig): void {
  const url = `http://${config.host}:${server.port}`;
  server.logger.info(
    { url, http_layer: server.httpLayer, data_dir: config.dataDir, shards: server.services.pool.shards, replicas: config.replicas },
    `evidence search listening on ${url} (${server.httpLayer === 'uws' ? 'uWebSockets.js' : 'node:http'}, data ${config.dataDir}, ${server.services.pool.shards} shards x ${config.replicas} replicas)`,
  );
}

/** Close `server` on the first SIGINT or SIGTERM, then exit (0 when it closed cleanly): a server process's end. */
export function closeOnSignals(server: RunningServer): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}
