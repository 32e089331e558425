import { Authenticator } from '../authenticator.js';
import type { OpenStoresOptions, Stores } from '../open-stores.js';
import { PostgresAccountsAdmin } from './postgres-admin.js';
import { openPostgresPool } from './postgres-connection.js';
import { PostgresLedger } from './postgres-ledger.js';
import { migratePostgres } from './postgres-migrations.js';
import { PostgresRegistrySnapshot } from './postgres-registry-snapshot.js';
import { RedisAddressFailures } from './redis-address-failures.js';
import { openMeterRedis, redactUrl } from './redis-connection.js';
import { RedisMeter } from './redis-meter.js';

export interface FleetStoresOptions extends OpenStoresOptions {
  databaseUrl: string;
  redisUrl: string;
  /** every PostgreSQL wait (connect, statement, ledger commit) is bounded by this; default 2,000 */
  postgresTimeoutMs?: number;
  /** every Redis command is bounded by this; default 1,000 */
  redisTimeoutMs?: number;
  /** prefixed to every Redis key, so several fleets (or tests) can share one Redis; default none */
  redisKeyPrefix?: string;
  /** see RedisMeterOptions.seedGraceMs; default the PostgreSQL timeout plus 1.5 s */
  seedGraceMs?: number;
}

/**
 * Fleet mode: keys, tenants, plans and the usage ledger in PostgreSQL; per-minute windows,
 * month totals, holds and per-address failure counts in Redis. Every serving process (on any
 * machine) opens the same two, so the fleet shares one window per tenant and one view of its
 * month. Starting fails when either cannot be reached; afterwards an unreachable store answers
 * 503 with retry-after.
 */
export async function openFleetStores(options: FleetStoresOptions): Promise<Stores> {
  const now = options.now ?? Date.now;
  const keyRefreshMs = options.keyRefreshMs ?? 5_000;
  const postgresTimeoutMs = options.postgresTimeoutMs ?? 2_000;
  const onRefreshError =
    options.onRefreshError ??
    ((error: Error) => process.stderr.write(`key snapshot refresh failed, keeping the previous one: ${error.message}\n`));

  const pool = openPostgresPool(options.databaseUrl, { queryTimeoutMs: postgresTimeoutMs });
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`cannot open the PostgreSQL registry at ${redactUrl(options.databaseUrl)}: ${(error as Error).message}`);
  }
  let redis;
  try {
    redis = await openMeterRedis(options.redisUrl, options.redisTimeoutMs ?? 1_000, options.redisKeyPrefix);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }

  const admin = new PostgresAccountsAdmin(pool);
  const snapshot = new PostgresRegistrySnapshot(pool, options.databaseUrl, onRefreshError);
  try {
    await snapshot.refresh();
    await snapshot.listen();
  } catch (error) {
    await snapshot.close();
    redis.redis.disconnect();
    await pool.end().catch(() => {});
    throw new Error(`cannot load the key registry from PostgreSQL: ${(error as Error).message}`);
  }
  const ledger = new PostgresLedger(pool, { groupCommitDelayMs: options.groupCommitDelayMs });
  const authenticator = new Authenticator(
    snapshot,
    new RedisAddressFailures(redis, options.authFailLimit ?? 30, options.authFailWindowMs ?? 60_000),
  );
  const meter = new RedisMeter(snapshot, redis, ledger, { now, seedGraceMs: options.seedGraceMs ?? postgresTimeoutMs + 1_500 });

  const refreshTimer = setInterval(() => {
    snapshot.refresh().catch((error: Error) => onRefreshError(error));
  }, keyRefreshMs);
  refreshTimer.unref();

  let closing: Promise<void> | null = null;
  return {
    mode: 'fleet',
    authenticate: (headers, address) => authenticator.authenticate(headers, address),
    meter,
    admin,
    refreshKeys: async () => {
      await snapshot.refresh();
    },
    ensureDevelopmentKey: async () => {
      const key = await admin.ensureDevelopmentKey();
      if (key !== null) await snapshot.refresh();
      return key;
    },
    onLedgerCommit: (listener) => ledger.onCommit(listener),
    close: () => {
      if (closing !== null) return closing;
      closing = (async () => {
        clearInterval(refreshTimer);
        await meter.close();
        await snapshot.close();
        redis.redis.disconnect();
        await pool.end().catch(() => {});
      })();
      return closing;
    },
  };
}
