/**
 * Every setting of the server, read from the environment once at start. The README's operator
 * table lists the same names and defaults.
 */
import { embedderSetting } from '@evidence/embedders';
import { LOG_LEVELS, type LogLevel } from './observability/logging.js';
import { MetricsAccess } from './observability/metrics-access.js';
import { parseAllowedOrigins } from './http/origin.js';
import { HTTP_LAYERS, type HttpLayer } from './http/transport.js';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** Used only when DATA_DIR has no index yet; an existing index keeps its own shard count. */
  shards: number;
  replicas: number;
  keyRefreshMs: number;
  searchTimeoutMs: number;
  maxQueue: number;
  authFailLimit: number;
  authFailWindowMs: number;
  /**
   * EMBEDDER: an embedder's name (a new index gets it; an existing index must have been built
   * with it), `none` (no vectors: similar answers 400, searches run keyword), or undefined when
   * unset (the index's own embedder; bge-small-en-v1.5-q for a new index).
   */
  embedder: string | undefined;
  /** ONNX Runtime threads of the background embedder (0: this node makes no vectors). */
  embedThreads: number;
  /** Worker threads of the evidence computations (ground, changes, assemble_context). */
  evidenceThreads: number;
  /**
   * Fleet mode (set both, or neither for the embedded SQLite stores): the key registry and
   * usage ledger in PostgreSQL, the shared per-minute windows and month totals in Redis.
   */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefixed to every Redis key, so several fleets can share one Redis. */
  redisKeyPrefix: string;
  /** Least level of the JSON log lines on stdout (`silent` for none). */
  logLevel: LogLevel;
  /** Who may read GET /metrics besides loopback: addresses, CIDR blocks, or `any`. */
  metricsAllow: string[];
  /** Tenant names as a metric label (off: they stay out of /metrics). */
  metricsTenantLabels: boolean;
  /** Origins (and hosts) besides the server's own whose browser pages may call /mcp (ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  /** HTTP_LAYER: uws or node forces that layer; unset, uws where it loads, else node. */
  httpLayer: HttpLayer | undefined;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) {
    throw new Error(`invalid ${name}: expected an integer >= ${minimum}, got "${raw}"`);
  }
  return value;
}

function fleetStores(env: NodeJS.ProcessEnv): { databaseUrl: string | undefined; redisUrl: string | undefined; redisKeyPrefix: string } {
  const databaseUrl = env.DATABASE_URL || undefined;
  const redisUrl = env.REDIS_URL || undefined;
  // one without the other would keep either the windows or the ledger per process
  if ((databaseUrl === undefined) !== (redisUrl === undefined)) {
    throw new Error('fleet mode needs both DATABASE_URL and REDIS_URL; set neither for the embedded SQLite stores');
  }
  return { databaseUrl, redisUrl, redisKeyPrefix: env.REDIS_KEY_PREFIX || '' };
}

function logLevelOf(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new Error(`invalid LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
}

function booleanOf(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new Error(`invalid ${name}: expected true or false, got "${raw}"`);
}

function httpLayerOf(raw: string | undefined): HttpLayer | undefined {
  if (raw === undefined || raw === '') return undefined;
  if ((HTTP_LAYERS as readonly string[]).includes(raw)) return raw as HttpLayer;
  throw new Error(`invalid HTTP_LAYER: expected ${HTTP_LAYERS.join(' or ')} (or unset: uws where it loads), got "${raw}"`);
}

function metricsAllowOf(raw: string | undefined): string[] {
  const entries = MetricsAccess.parse(raw);
  new MetricsAccess(entries); // throws on an entry it cannot read
  return entries;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080),
    dataDir: env.DATA_DIR || './data',
    shards: integer(env, 'SHARDS', 2, 0),
    replicas: integer(env, 'REPLICAS', 1, 1),
    keyRefreshMs: integer(env, 'KEY_REFRESH_MS', 2000, 10),
    searchTimeoutMs: integer(env, 'SEARCH_TIMEOUT_MS', 2000, 1),
    maxQueue: integer(env, 'MAX_QUEUE', 512, 1),
    authFailLimit: integer(env, 'AUTH_FAIL_LIMIT', 30, 1),
    authFailWindowMs: integer(env, 'AUTH_FAIL_WINDOW_MS', 60_000, 1),
    embedder: embedderSetting(env.EMBEDDER),
    embedThreads: integer(env, 'EMBED_THREADS', 1, 0),
    evidenceThreads: integer(env, 'EVIDENCE_THREADS', 1, 1),
    ...fleetStores(env),
    logLevel: logLevelOf(env.LOG_LEVEL),
    metricsAllow: metricsAllowOf(env.METRICS_ALLOW),
    metricsTenantLabels: booleanOf(env, 'METRICS_TENANT_LABELS'),
    allowedOrigins: parseAllowedOrigins(env.ALLOWED_ORIGINS),
    httpLayer: httpLayerOf(env.HTTP_LAYER),
  };
}
