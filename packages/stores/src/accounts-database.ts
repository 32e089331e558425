import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { migrate } from './migrations.js';

export const ACCOUNTS_DATABASE_FILE = 'accounts.sqlite';

export function accountsDatabasePath(dataDir: string): string {
  return join(dataDir, ACCOUNTS_DATABASE_FILE);
}

/** Settings every connection needs; the ledger worker's connection uses them too. */
export function configureConnection(database: Database): void {
  // WAL lets the server read keys while the console or the ledger writer commits
  database.pragma('journal_mode = WAL');
  // a billed call is acknowledged only once its ledger row survives a power cut
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // the console, the server and the ledger worker share the file; wait for a writer, do not fail
  database.pragma('busy_timeout = 5000');
}

/** Opens (creating if needed) `DATA_DIR/accounts.sqlite` with the schema up to date. */
export function openAccountsDatabase(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true });
  const database = new BetterSqlite3(accountsDatabasePath(dataDir));
  try {
    configureConnection(database);
    migrate(database);
  } catch (error) {
    database.close();
    throw error;
  }
  return database;
}
