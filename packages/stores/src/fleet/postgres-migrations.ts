import type pg from 'pg';
import { BUILT_IN_PLANS } from '../records.js';
import { inTransaction } from './postgres-connection.js';

/** The channel every registry change notifies, so every node reloads its snapshot at once. */
export const REGISTRY_CHANNEL = 'evidence_registry';

/**
 * The fleet's schema: the same tables as the embedded SQLite one (migrations.ts), recorded in
 * `evidence_schema_migrations`. Append new versions; never edit one that has shipped.
 */
const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE plans (
        name text PRIMARY KEY,
        rate_per_min bigint NOT NULL CHECK (rate_per_min > 0),
        monthly_credits bigint NOT NULL CHECK (monthly_credits >= 0),
        hard_cap boolean NOT NULL,
        metered_billing boolean NOT NULL,
        updated_at bigint NOT NULL
      );
      CREATE TABLE tenants (
        name text PRIMARY KEY,
        plan text NOT NULL REFERENCES plans (name),
        suspended boolean NOT NULL DEFAULT false,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL
      );
      CREATE TABLE keys (
        id bigserial PRIMARY KEY,
        tenant text NOT NULL REFERENCES tenants (name),
        label text NOT NULL,
        lookup_id text NOT NULL,
        last4 text NOT NULL,
        key_sha256 bytea NOT NULL,
        created_at bigint NOT NULL,
        revoked_at bigint
      );
      CREATE UNIQUE INDEX keys_live_label ON keys (tenant, label) WHERE revoked_at IS NULL;
      CREATE INDEX keys_lookup_id ON keys (lookup_id);
      CREATE TABLE usage_ledger (
        id bigserial PRIMARY KEY,
        tenant text NOT NULL,
        route text NOT NULL,
        credits integer NOT NULL CHECK (credits > 0),
        at bigint NOT NULL,
        request_id text NOT NULL
      );
      CREATE INDEX usage_ledger_tenant_at ON usage_ledger (tenant, at);
      -- bumped (and notified) by every change to keys, tenants or plans: a refresh is one tiny
      -- read when nothing changed, and LISTEN makes a revoke reach every node at once
      CREATE TABLE registry_version (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL);
      INSERT INTO registry_version (id, version) VALUES (1, 0);
      CREATE FUNCTION bump_registry_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE registry_version SET version = version + 1 WHERE id = 1;
        PERFORM pg_notify('${REGISTRY_CHANNEL}', '');
        RETURN NULL;
      END $$;
      ${['plans', 'tenants', 'keys']
        .map(
          (table) => `CREATE TRIGGER ${table}_bump_registry AFTER INSERT OR UPDATE OR DELETE ON ${table}
            FOR EACH STATEMENT EXECUTE FUNCTION bump_registry_version();`,
        )
        .join('\n')}
    `,
  },
];

/** Applies what is missing, under an advisory lock so nodes starting together migrate once. */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('evidence-search-migrations'))");
    await client.query(
      'CREATE TABLE IF NOT EXISTS evidence_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const applied = await client.query<{ version: number }>('SELECT version FROM evidence_schema_migrations');
    const appliedVersions = new Set(applied.rows.map((row) => row.version));
    for (const migration of MIGRATIONS) {
      if (appliedVersions.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO evidence_schema_migrations (version) VALUES ($1)', [migration.version]);
    }
    // operators may have changed a built-in plan: only create the missing ones
    const existing = await client.query<{ name: string }>('SELECT name FROM plans');
    const existingNames = new Set(existing.rows.map((row) => row.name));
    for (const plan of BUILT_IN_PLANS) {
      if (existingNames.has(plan.name)) continue;
      await client.query(
        `INSERT INTO plans (name, rate_per_min, monthly_credits, hard_cap, metered_billing, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING`,
        [plan.name, plan.ratePerMin, plan.monthlyCredits, plan.hardCap, plan.meteredBilling, Date.now()],
      );
    }
  });
}
