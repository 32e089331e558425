import type pg from 'pg';
import { AccountsAdminError, chooseLiveKey, planFromChange, requireName, type KeySelector, type PlanChange } from '../console-rules.js';
import { listingFromRow, type KeyRow } from '../account-rows.js';
import { generateApiKey, hashApiKey, last4Of, lookupIdOf } from '../api-key-format.js';
import {
  DEFAULT_PLAN_NAME,
  DEVELOPMENT_KEY_LABEL,
  DEVELOPMENT_PLAN_NAME,
  DEVELOPMENT_TENANT_NAME,
  type IssuedKey,
  type KeyListing,
  type Plan,
  type Tenant,
} from '../records.js';
import type { RegistryAdmin } from '../registry-admin.js';
import { inTransaction, openPostgresPool } from './postgres-connection.js';
import { migratePostgres } from './postgres-migrations.js';

type Queryable = pg.Pool | pg.PoolClient;

interface PlanRow {
  name: string;
  rate_per_min: number;
  monthly_credits: number;
  hard_cap: boolean;
  metered_billing: boolean;
}

export function planFromPostgres(row: PlanRow): Plan {
  return {
    name: row.name,
    ratePerMin: row.rate_per_min,
    monthlyCredits: row.monthly_credits,
    hardCap: row.hard_cap,
    meteredBilling: row.metered_billing,
  };
}

function tenantFromPostgres(row: { name: string; plan: string; suspended: boolean; created_at: number }): Tenant {
  return { name: row.name, plan: row.plan, suspended: row.suspended, createdAt: row.created_at };
}

const KEY_COLUMNS = 'id, tenant, label, last4, created_at, revoked_at';
const UNIQUE_VIOLATION = '23505';

/**
 * The console's operations against the fleet's PostgreSQL registry: the same rules and messages
 * as the SQLite `AccountsAdmin`. Every change notifies the fleet (a trigger), so each node
 * reloads its key snapshot at once.
 */
export class PostgresAccountsAdmin implements RegistryAdmin {
  constructor(private readonly pool: pg.Pool) {}

  // ---- plans ----

  async getPlan(name: string, on: Queryable = this.pool): Promise<Plan | null> {
    const result = await on.query<PlanRow>('SELECT * FROM plans WHERE name = $1', [name]);
    return result.rows.length === 0 ? null : planFromPostgres(result.rows[0]);
  }

  async listPlans(): Promise<Plan[]> {
    return (await this.pool.query<PlanRow>('SELECT * FROM plans ORDER BY name')).rows.map(planFromPostgres);
  }

  setPlan(change: PlanChange): Promise<Plan> {
    const name = requireName('plan name', change.name);
    return inTransaction(this.pool, async (client) => {
      const locked = await client.query<PlanRow>('SELECT * FROM plans WHERE name = $1 FOR UPDATE', [name]);
      const existing = locked.rows.length === 0 ? null : planFromPostgres(locked.rows[0]);
      const plan = planFromChange(name, change, existing);
      await client.query(
        `INSERT INTO plans (name, rate_per_min, monthly_credits, hard_cap, metered_billing, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (name) DO UPDATE SET rate_per_min = EXCLUDED.rate_per_min, monthly_credits = EXCLUDED.monthly_credits,
           hard_cap = EXCLUDED.hard_cap, metered_billing = EXCLUDED.metered_billing, updated_at = EXCLUDED.updated_at`,
        [plan.name, plan.ratePerMin, plan.monthlyCredits, plan.hardCap, plan.meteredBilling, Date.now()],
      );
      return plan;
    });
  }

  // ---- tenants ----

  async getTenant(name: string, on: Queryable = this.pool): Promise<Tenant | null> {
    const result = await on.query('SELECT * FROM tenants WHERE name = $1', [name]);
    return result.rows.length === 0 ? null : tenantFromPostgres(result.rows[0]);
  }

  async listTenants(): Promise<Tenant[]> {
    return (await this.pool.query('SELECT * FROM tenants ORDER BY name')).rows.map(tenantFromPostgres);
  }

  private async requireTenant(name: string, on: Queryable): Promise<Tenant> {
    const tenant = await this.getTenant(name, on);
    if (tenant === null) throw new AccountsAdminError(`unknown tenant ${name}`);
    return tenant;
  }

  private async requirePlan(name: string, on: Queryable): Promise<Plan> {
    const plan = await this.getPlan(name, on);
    if (plan === null) throw new AccountsAdminError(`unknown plan ${name}`);
    return plan;
  }

  setTenantPlan(tenantName: string, planName: string): Promise<Tenant> {
    return inTransaction(this.pool, async (client) => {
      const tenant = await this.requireTenant(tenantName, client);
      await this.requirePlan(planName, client);
      await client.query('UPDATE tenants SET plan = $2, updated_at = $3 WHERE name = $1', [tenant.name, planName, Date.now()]);
      return { ...tenant, plan: planName };
    });
  }

  suspendTenant(tenantName: string): Promise<Tenant> {
    return this.setSuspended(tenantName, true);
  }

  unsuspendTenant(tenantName: string): Promise<Tenant> {
    return this.setSuspended(tenantName, false);
  }

  private setSuspended(tenantName: string, suspended: boolean): Promise<Tenant> {
    return inTransaction(this.pool, async (client) => {
      const tenant = await this.requireTenant(tenantName, client);
      await client.query('UPDATE tenants SET suspended = $2, updated_at = $3 WHERE name = $1', [tenant.name, suspended, Date.now()]);
      return { ...tenant, suspended };
    });
  }

  // ---- keys ----

  createKey(options: { tenant: string; label: string; plan?: string }): Promise<IssuedKey> {
    const tenantName = requireName('tenant', options.tenant);
    const label = requireName('label', options.label);
    return this.withDuplicateLabelMessage(tenantName, label, () =>
      inTransaction(this.pool, async (client) => {
        if (options.plan !== undefined) await this.requirePlan(options.plan, client);
        const now = Date.now();
        await client.query(
          `INSERT INTO tenants (name, plan, suspended, created_at, updated_at) VALUES ($1, $2, false, $3, $3)
           ON CONFLICT (name) DO NOTHING`,
          [tenantName, options.plan ?? DEFAULT_PLAN_NAME, now],
        );
        if (options.plan !== undefined) {
          await client.query('UPDATE tenants SET plan = $2, updated_at = $3 WHERE name = $1 AND plan <> $2', [tenantName, options.plan, now]);
        }
        if (await this.hasLiveKey(tenantName, label, client)) {
          throw new AccountsAdminError(
            `tenant ${tenantName} already has a live key labelled ${label}: rotate or revoke it, or choose another label`,
          );
        }
        return this.insertKey(client, tenantName, label, now);
      }),
    );
  }

  rotateKey(options: { tenant: string; label: string }): Promise<IssuedKey> {
    return inTransaction(this.pool, async (client) => {
      const current = await this.requireLiveKey(options, client);
      const now = Date.now();
      await client.query('UPDATE keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, current.id]);
      return this.insertKey(client, current.tenant, current.label, now);
    });
  }

  revokeKey(selector: KeySelector): Promise<KeyListing> {
    return inTransaction(this.pool, async (client) => {
      const current = await this.requireLiveKey(selector, client);
      const now = Date.now();
      await client.query('UPDATE keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, current.id]);
      return { ...listingFromRow(current), revokedAt: now };
    });
  }

  async listKeys(options: { tenant?: string } = {}): Promise<KeyListing[]> {
    const result =
      options.tenant === undefined
        ? await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM keys ORDER BY tenant, label, created_at, id`)
        : await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM keys WHERE tenant = $1 ORDER BY label, created_at, id`, [
            options.tenant,
          ]);
    return result.rows.map(listingFromRow);
  }

  async hasLiveKey(tenant: string, label: string, on: Queryable = this.pool): Promise<boolean> {
    const result = await on.query('SELECT 1 FROM keys WHERE tenant = $1 AND label = $2 AND revoked_at IS NULL', [tenant, label]);
    return result.rows.length > 0;
  }

  backup(): never {
    throw new AccountsAdminError('the fleet keeps its accounts in PostgreSQL (DATABASE_URL): back them up with pg_dump');
  }

  async ensureDevelopmentKey(): Promise<string | null> {
    if (await this.hasLiveKey(DEVELOPMENT_TENANT_NAME, DEVELOPMENT_KEY_LABEL)) return null;
    try {
      return await inTransaction(this.pool, async (client) => {
        const now = Date.now();
        await client.query(
          `INSERT INTO tenants (name, plan, suspended, created_at, updated_at) VALUES ($1, $2, false, $3, $3)
           ON CONFLICT (name) DO NOTHING`,
          [DEVELOPMENT_TENANT_NAME, DEVELOPMENT_PLAN_NAME, now],
        );
        return (await this.insertKey(client, DEVELOPMENT_TENANT_NAME, DEVELOPMENT_KEY_LABEL, now)).key;
      });
    } catch (error) {
      // another node created it at the same moment
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return null;
      throw error;
    }
  }

  private async withDuplicateLabelMessage<T>(tenant: string, label: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new AccountsAdminError(
          `tenant ${tenant} already has a live key labelled ${label}: rotate or revoke it, or choose another label`,
        );
      }
      throw error;
    }
  }

  private async requireLiveKey(selector: KeySelector, client: pg.PoolClient): Promise<KeyRow> {
    await this.requireTenant(selector.tenant, client);
    const [column, value] = 'label' in selector ? ['label', selector.label] : ['last4', selector.last4.toLowerCase()];
    const result = await client.query<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM keys WHERE tenant = $1 AND ${column} = $2 AND revoked_at IS NULL FOR UPDATE`,
      [selector.tenant, value],
    );
    return chooseLiveKey(selector, result.rows);
  }

  private async insertKey(client: pg.PoolClient, tenant: string, label: string, now: number): Promise<IssuedKey> {
    const key = generateApiKey();
    await client.query(
      `INSERT INTO keys (tenant, label, lookup_id, last4, key_sha256, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [tenant, label, lookupIdOf(key), last4Of(key), hashApiKey(key), now],
    );
    return { tenant, label, key, last4: last4Of(key) };
  }
}

/** The console's connection: migrate (a fresh database works at once), then the admin. */
export async function openPostgresAdmin(databaseUrl: string): Promise<{ admin: PostgresAccountsAdmin; close: () => Promise<void> }> {
  const pool = openPostgresPool(databaseUrl, { maxConnections: 2 });
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw new Error(`cannot open the PostgreSQL registry: ${(error as Error).message}`);
  }
  return { admin: new PostgresAccountsAdmin(pool), close: () => pool.end() };
}
