/**
 * Helpers for the accounts end-to-end tests: keys and plans through the real admin API, the
 * usage ledger read straight from `DATA_DIR/accounts.sqlite`, and polling for the key snapshot.
 */
import { accountsDatabasePath, type AccountStatus } from '@evidence/stores';
import BetterSqlite3 from 'better-sqlite3';
import type { TestServer } from './fixture.js';

/** The fixture's index writer, for servers the fixture does not start. */
export { writeIndex } from './fixture.js';

export function withKey(key: string): Record<string, string> {
  return { 'x-api-key': key };
}

let tenantCounter = 0;
/** A tenant name no other test of this run uses, so windows and counters never mix. */
export function uniqueTenant(prefix: string): string {
  tenantCounter += 1;
  return `${prefix}-${process.pid}-${tenantCounter}`;
}

export interface PlanSettings {
  ratePerMin: number;
  monthlyCredits: number;
  hardCap: boolean;
  meteredBilling: boolean;
}

/**
 * Creates a plan (when settings are given), a fresh tenant on it and a key, and makes the
 * running server see them now (no waiting for the refresh timer).
 */
export function createLiveKey(
  service: TestServer,
  options: { tenant?: string; label?: string; plan?: string; settings?: PlanSettings } = {},
): { tenant: string; label: string; key: string } {
  const admin = service.server.services.stores.admin;
  const tenant = options.tenant ?? uniqueTenant('t');
  const label = options.label ?? 'main';
  let plan = options.plan ?? 'development';
  if (options.settings) {
    plan = options.plan ?? `plan-${tenant}`;
    admin.setPlan({ name: plan, ...options.settings });
  }
  const issued = admin.createKey({ tenant, label, plan });
  service.server.services.stores.refreshKeys();
  return { tenant, label, key: issued.key };
}

/** The /account body: the stores' one definition of it. */
export type AccountBody = AccountStatus;

/** GET /account, asserting nothing but returning status, headers and the parsed body. */
export async function readAccount(service: TestServer, key: string): Promise<{ response: Response; body: AccountBody }> {
  const response = await service.get('/account', withKey(key));
  if (response.status !== 200) throw new Error(`/account answered ${response.status}: ${await response.text()}`);
  return { response, body: (await response.json()) as AccountBody };
}

export async function creditsUsed(service: TestServer, key: string): Promise<number> {
  return (await readAccount(service, key)).body.credits_used_this_period;
}

export interface LedgerTotals {
  rows: number;
  credits: number;
  byRoute: Record<string, { rows: number; credits: number }>;
}

/** Reads the usage ledger of one tenant with a fresh SQLite connection (the server's file). */
export function ledgerOf(dataDir: string, tenant: string): LedgerTotals {
  const database = new BetterSqlite3(accountsDatabasePath(dataDir), { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    const rows = database
      .prepare<[string], { route: string; rows: number; credits: number }>(
        'SELECT route, COUNT(*) AS rows, SUM(credits) AS credits FROM usage_ledger WHERE tenant = ? GROUP BY route',
      )
      .all(tenant);
    const totals: LedgerTotals = { rows: 0, credits: 0, byRoute: {} };
    for (const row of rows) {
      totals.rows += row.rows;
      totals.credits += row.credits;
      totals.byRoute[row.route] = { rows: row.rows, credits: row.credits };
    }
    return totals;
  } finally {
    database.close();
  }
}

/**
 * Calls `probe` until it returns a value `accept` likes, or gives up after `timeoutMs` (generous:
 * the machine is shared). Returns the last value either way, so the test asserts on it.
 */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  { timeoutMs = 3_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<{ value: T; attempts: number; elapsedMs: number }> {
  const startedAt = Date.now();
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const value = await probe();
    const elapsedMs = Date.now() - startedAt;
    if (accept(value) || elapsedMs >= timeoutMs) return { value, attempts, elapsedMs };
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The status of one call, with the body drained so the connection is reusable. */
export async function statusOf(service: TestServer, path: string, headers: Record<string, string>): Promise<number> {
  const response = await service.get(path, headers);
  await response.arrayBuffer();
  return response.status;
}

export function minuteIndexNow(): number {
  return Math.floor(Date.now() / 60_000);
}
