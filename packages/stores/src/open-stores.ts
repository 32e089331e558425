import type { Database } from 'better-sqlite3';
import { AccountsAdmin } from './accounts-admin.js';
import { accountsDatabasePath, openAccountsDatabase } from './accounts-database.js';
import { AddressFailureLimiter } from './address-failure-limiter.js';
import { Authenticator, type AuthenticatedCaller, type CredentialHeaders } from './authenticator.js';
import { EmbeddedMeter } from './embedded-meter.js';
import { KeyRegistrySnapshot } from './key-registry-snapshot.js';
import { LedgerWriter, type LedgerCommit } from './ledger-writer.js';
import type { Meter } from './meter.js';
import type { RegistryAdmin } from './registry-admin.js';
import { MonthlyUsage } from './monthly-usage.js';
import { PerMinuteWindows } from './per-minute-windows.js';

export interface OpenStoresOptions {
  /** holds accounts.sqlite; created if missing */
  dataDir: string;
  /** how often the key snapshot is reloaded from SQLite; default 5,000 */
  keyRefreshMs?: number;
  /** keyless or failed authentications one address may make per window; default 30 */
  authFailLimit?: number;
  /** default 60,000 */
  authFailWindowMs?: number;
  /**
   * How long a ledger row may wait for others to share its commit; default 1. Embedded: while
   * other billed calls are running (a lone call's row goes at once). Fleet: while a commit is in
   * flight (a row that finds none goes at once).
   */
  groupCommitDelayMs?: number;
  /** the clock of windows, periods and ledger rows; tests pin it */
  now?: () => number;
  /** a background snapshot refresh failed (the previous snapshot stays in use); default stderr */
  onRefreshError?: (error: Error) => void;
  /**
   * Fleet mode (both or neither): the registry and usage ledger in PostgreSQL, the per-minute
   * windows, month totals and address failure counts in Redis (fleet/open-fleet-stores.ts).
   */
  databaseUrl?: string;
  redisUrl?: string;
  /** fleet: prefixed to every Redis key, so several fleets can share one Redis */
  redisKeyPrefix?: string;
  /** fleet: how long a month total re-read waits after a Redis (re)start (tests set 0) */
  seedGraceMs?: number;
}

export interface Stores {
  /** `embedded`: SQLite under DATA_DIR; `fleet`: PostgreSQL and Redis shared by every node. */
  readonly mode: 'embedded' | 'fleet';
  /**
   * Rejects with `errors.authFlood`, `errors.unauthenticated`, `errors.suspended`, or (fleet, a
   * store unreachable) `errors.storeUnavailable` (ServiceError).
   */
  authenticate(headers: CredentialHeaders, address: string): Promise<AuthenticatedCaller>;
  meter: Meter;
  /** the console's operations, in-process; the running snapshot sees them at its next refresh */
  admin: RegistryAdmin;
  /** Reloads the key snapshot now if the registry changed (embedded: done before it returns). */
  refreshKeys(): Promise<void>;
  /** Creates tenant `dev`'s `development` key if missing and returns it (once), else null. */
  ensureDevelopmentKey(): Promise<string | null>;
  /** Called after every durable group commit of the usage ledger: rows and commit time (fsync included). */
  onLedgerCommit(listener: (commit: LedgerCommit) => void): void;
  /** Commits the ledger, stops the refresh timer, the worker and the connection. */
  close(): Promise<void>;
}

/** The embedded stores: the SQLite console operations answer at once. */
export interface EmbeddedStores extends Stores {
  readonly mode: 'embedded';
  admin: AccountsAdmin;
}

function loadUsageSince(database: Database, periodStartMs: number): Map<string, number> {
  const rows = database
    .prepare<[number], { tenant: string; used: number }>(
      'SELECT tenant, SUM(credits) AS used FROM usage_ledger WHERE at >= ? GROUP BY tenant',
    )
    .all(periodStartMs);
  return new Map(rows.map((row) => [row.tenant, row.used]));
}

/**
 * Fleet mode when DATABASE_URL and REDIS_URL are given (both: one without the other would
 * leave either the windows or the ledger per node), else the embedded SQLite stores.
 */
export async function openStores(options: OpenStoresOptions & { databaseUrl: string; redisUrl: string }): Promise<Stores>;
export async function openStores(options: OpenStoresOptions & { databaseUrl?: undefined; redisUrl?: undefined }): Promise<EmbeddedStores>;
export async function openStores(options: OpenStoresOptions): Promise<Stores>;
export async function openStores(options: OpenStoresOptions): Promise<Stores> {
  if (options.databaseUrl || options.redisUrl) {
    if (!options.databaseUrl || !options.redisUrl) {
      throw new Error('fleet mode needs both DATABASE_URL and REDIS_URL (set neither for the embedded SQLite stores)');
    }
    const { openFleetStores } = await import('./fleet/open-fleet-stores.js');
    return openFleetStores({ ...options, databaseUrl: options.databaseUrl, redisUrl: options.redisUrl });
  }
  return openEmbeddedStores(options);
}

async function openEmbeddedStores(options: OpenStoresOptions): Promise<EmbeddedStores> {
  const now = options.now ?? Date.now;
  const keyRefreshMs = options.keyRefreshMs ?? 5_000;
  const onRefreshError =
    options.onRefreshError ??
    ((error: Error) => process.stderr.write(`key snapshot refresh failed, keeping the previous one: ${error.message}\n`));

  const database = openAccountsDatabase(options.dataDir);
  let ledger: LedgerWriter;
  try {
    ledger = await LedgerWriter.start({
      databasePath: accountsDatabasePath(options.dataDir),
      groupCommitDelayMs: options.groupCommitDelayMs,
    });
  } catch (error) {
    database.close();
    throw error;
  }

  const admin = new AccountsAdmin(database);
  const snapshot = new KeyRegistrySnapshot(database);
  snapshot.refresh();
  const authenticator = new Authenticator(
    snapshot,
    new AddressFailureLimiter(options.authFailLimit ?? 30, options.authFailWindowMs ?? 60_000, now),
  );
  const meter = new EmbeddedMeter(
    snapshot,
    new PerMinuteWindows(now),
    new MonthlyUsage(now, (periodStartMs) => loadUsageSince(database, periodStartMs)),
    ledger,
    now,
  );

  const refreshTimer = setInterval(() => {
    try {
      snapshot.refresh();
    } catch (error) {
      onRefreshError(error instanceof Error ? error : new Error(String(error)));
    }
  }, keyRefreshMs);
  // serving keeps the process alive, not this timer
  refreshTimer.unref();

  let closing: Promise<void> | null = null;
  return {
    mode: 'embedded',
    authenticate: (headers, address) => authenticator.authenticate(headers, address),
    meter,
    admin,
    refreshKeys: async () => {
      snapshot.refresh();
    },
    ensureDevelopmentKey: async () => {
      const key = admin.ensureDevelopmentKey();
      // `npm start` prints this key for immediate use: do not make it wait for the timer
      if (key !== null) snapshot.refresh();
      return key;
    },
    onLedgerCommit: (listener) => ledger.onCommit(listener),
    close: () => {
      if (closing !== null) return closing;
      closing = (async () => {
        clearInterval(refreshTimer);
        await meter.close();
        database.close();
      })();
      return closing;
    },
  };
}
