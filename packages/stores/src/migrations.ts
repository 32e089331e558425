import type { Database } from 'better-sqlite3';
import { BUILT_IN_PLANS } from './records.js';

/**
 * Schema migrations, applied in order and recorded in `PRAGMA user_version`, so opening an
 * existing data directory again (or from the console while the server runs) changes nothing.
 * Append new versions; never edit one that has shipped.
 */
const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE plans (
        name TEXT PRIMARY KEY,
        rate_per_min INTEGER NOT NULL CHECK (rate_per_min > 0),
        monthly_credits INTEGER NOT NULL CHECK (monthly_credits >= 0),
        hard_cap INTEGER NOT NULL CHECK (hard_cap IN (0, 1)),
        metered_billing INTEGER NOT NULL CHECK (metered_billing IN (0, 1)),
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE tenants (
        name TEXT PRIMARY KEY,
        plan TEXT NOT NULL REFERENCES plans (name),
        suspended INTEGER NOT NULL DEFAULT 0 CHECK (suspended IN (0, 1)),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      -- only the sha256 of a key is kept; lookup_id (8 hex after the prefix) and last4 are not secret
      CREATE TABLE keys (
        id INTEGER PRIMARY KEY,
        tenant TEXT NOT NULL REFERENCES tenants (name),
        label TEXT NOT NULL,
        lookup_id TEXT NOT NULL,
        last4 TEXT NOT NULL,
        key_sha256 BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE UNIQUE INDEX keys_live_label ON keys (tenant, label) WHERE revoked_at IS NULL;
      CREATE INDEX keys_lookup_id ON keys (lookup_id);
      CREATE TABLE usage_ledger (
        id INTEGER PRIMARY KEY,
        tenant TEXT NOT NULL,
        route TEXT NOT NULL,
        credits INTEGER NOT NULL CHECK (credits > 0),
        at INTEGER NOT NULL,
        request_id TEXT NOT NULL
      );
      CREATE INDEX usage_ledger_at ON usage_ledger (at);
      -- bumped by every change to keys, tenants or plans, so a snapshot refresh is one tiny read
      -- when nothing changed (the ledger writer commits constantly, so data_version cannot tell)
      CREATE TABLE registry_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
      INSERT INTO registry_version (id, version) VALUES (1, 0);
      ${['plans', 'tenants', 'keys']
        .flatMap((table) =>
          ['INSERT', 'UPDATE', 'DELETE'].map(
            (operation) => `
              CREATE TRIGGER ${table}_${operation.toLowerCase()}_bumps_registry AFTER ${operation} ON ${table}
              BEGIN UPDATE registry_version SET version = version + 1 WHERE id = 1; END;`,
          ),
        )
        .join('\n')}
    `,
  },
];

export function migrate(database: Database): void {
  // immediate: two processes opening a fresh data directory at once must not both migrate
  database
    .transaction(() => {
      const currentVersion = database.pragma('user_version', { simple: true }) as number;
      for (const migration of MIGRATIONS) {
        if (migration.version <= currentVersion) continue;
        database.exec(migration.sql);
        database.pragma(`user_version = ${migration.version}`);
      }
      // operators may have changed a built-in plan: only create the missing ones
      const insertBuiltInPlan = database.prepare(
        `INSERT OR IGNORE INTO plans (name, rate_per_min, monthly_credits, hard_cap, metered_billing, updated_at)
         VALUES (@name, @ratePerMin, @monthlyCredits, @hardCap, @meteredBilling, @updatedAt)`,
      );
      for (const plan of BUILT_IN_PLANS) {
        insertBuiltInPlan.run({
          name: plan.name,
          ratePerMin: plan.ratePerMin,
          monthlyCredits: plan.monthlyCredits,
          hardCap: plan.hardCap ? 1 : 0,
          meteredBilling: plan.meteredBilling ? 1 : 0,
          updatedAt: Date.now(),
        });
      }
    })
    .immediate();
}
