import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { configureConnection } from './connection-settings.js';
import { migrate } from './migrations.js';

export const ACCOUNTS_DATABASE_FILE = 'accounts.sqlite';

export function accountsDatabasePath(dataDir: string): string {
  return join(dataDir, ACCOUNTS_DATABASE_FILE);
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
