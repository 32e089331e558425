import type { Database } from 'better-sqlite3';
import { AccountsAdmin } from './accounts-admin.js';
import { accountsDatabasePath, openAccountsDatabase } from './accounts-database.js';
import { AddressFailureLimiter } from './address-failure-limiter.js';
import { Authenticator, type AuthenticatedCaller, type CredentialHeaders } from './authenticator.js';
import { EmbeddedMeter } from './embedded-meter.js';
import { KeyRegistrySnapshot } from './key-registry-snapshot.js';
import { LedgerWriter, type LedgerCommit } from './ledger-writer.js';
import type { Meter } from './meter.js';
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
  /** the ledger worker gathers rows this long before one commit; default 1 */
  groupCommitDelayMs?: number;
  /** the clock of windows, periods and ledger rows; tests pin it */
  now?: () => number;
  /** a background snapshot refresh failed (the previous snapshot stays in use); default stderr */
  onRefreshError?: (error: Error) => void;
}

export interface Stores {
  /** Throws `errors.authFlood`, `errors.unauthenticated` or `errors.suspended` (ServiceError). */
  authenticate(headers: CredentialHeaders, address: string): AuthenticatedCaller;
  meter: Meter;
  /** the console's operations, in-process; the running snapshot sees them at its next refresh */
  admin: AccountsAdmin;
  /** Reloads the key snapshot now if the registry changed. */
  refreshKeys(): void;
  /** Creates tenant `dev`'s `development` key if missing and returns it (once), else null. */
  ensureDevelopmentKey(): string | null;
  /** Called after every durable group commit of the usage ledger: rows and commit time (fsync included). */
  onLedgerCommit(listener: (commit: LedgerCommit) => void): void;
  /** Commits the ledger, stops the refresh timer, the worker and the connection. */
  close(): Promise<void>;
}

function loadUsageSince(database: Database, periodStartMs: number): Map<string, number> {
  const rows = database
    .prepare<[number], { tenant: string; used: number }>(
      'SELECT tenant, SUM(credits) AS used FROM usage_ledger WHERE at >= ? GROUP BY tenant',
    )
    .all(periodStartMs);
  return new Map(rows.map((row) => [row.tenant, row.used]));
}

export async function openStores(options: OpenStoresOptions): Promise<Stores> {
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
    authenticate: (headers, address) => authenticator.authenticate(headers, address),
    meter,
    admin,
    refreshKeys: () => {
      snapshot.refresh();
    },
    ensureDevelopmentKey: () => {
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
