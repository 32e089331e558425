import type { Database } from 'better-sqlite3';

/** Settings every connection needs, the ledger worker's included. */
export function configureConnection(database: Database): void {
  // WAL lets the server read keys while the console or the ledger worker commits
  database.pragma('journal_mode = WAL');
  // a billed call is acknowledged only once its ledger row survives a power cut
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // the console, the server and the ledger worker share the file: wait for a writer, do not fail
  database.pragma('busy_timeout = 5000');
}
