import { existsSync } from 'node:fs';
import type { Database, Statement } from 'better-sqlite3';
import {
  listingFromRow,
  planFromRow,
  tenantFromRow,
  type KeyRow,
  type PlanRow,
  type TenantRow,
} from './account-rows.js';
import { AccountsAdminError, chooseLiveKey, planFromChange, requireName, type KeySelector, type PlanChange } from './console-rules.js';
import type { RegistryAdmin } from './registry-admin.js';
import { generateApiKey, hashApiKey, last4Of, lookupIdOf } from './api-key-format.js';
import {
  DEFAULT_PLAN_NAME,
  DEVELOPMENT_KEY_LABEL,
  DEVELOPMENT_PLAN_NAME,
  DEVELOPMENT_TENANT_NAME,
  type IssuedKey,
  type KeyListing,
  type Plan,
  type Tenant,
} from './records.js';

export { AccountsAdminError, type KeySelector, type PlanChange };

/**
 * The console's operations on keys, tenants and plans. The CLI drives it, and so can tests and
 * `npm start` in-process. A running server sees a change at its next key snapshot refresh.
 */
export class AccountsAdmin implements RegistryAdmin {
  private readonly database: Database;
  private readonly statements: {
    selectPlan: Statement<[string], PlanRow>;
    selectPlans: Statement<[], PlanRow>;
    insertPlan: Statement<[Record<string, unknown>]>;
    updatePlan: Statement<[Record<string, unknown>]>;
    selectTenant: Statement<[string], TenantRow>;
    selectTenants: Statement<[], TenantRow>;
    insertTenant: Statement<[Record<string, unknown>]>;
    updateTenantPlan: Statement<[Record<string, unknown>]>;
    updateTenantSuspended: Statement<[Record<string, unknown>]>;
    insertKey: Statement<[Record<string, unknown>]>;
    selectLiveKeyByLabel: Statement<[string, string], KeyRow>;
    selectLiveKeysByLast4: Statement<[string, string], KeyRow>;
    revokeKey: Statement<[number, number]>;
    selectAllKeys: Statement<[], KeyRow>;
    selectTenantKeys: Statement<[string], KeyRow>;
  };

  constructor(database: Database) {
    this.database = database;
    const keyColumns = 'id, tenant, label, last4, created_at, revoked_at';
    this.statements = {
      selectPlan: database.prepare('SELECT * FROM plans WHERE name = ?'),
      selectPlans: database.prepare('SELECT * FROM plans ORDER BY name'),
      insertPlan: database.prepare(
        `INSERT INTO plans (name, rate_per_min, monthly_credits, hard_cap, metered_billing, updated_at)
         VALUES (@name, @ratePerMin, @monthlyCredits, @hardCap, @meteredBilling, @now)`,
      ),
      updatePlan: database.prepare(
        `UPDATE plans SET rate_per_min = @ratePerMin, monthly_credits = @monthlyCredits, hard_cap = @hardCap,
         metered_billing = @meteredBilling, updated_at = @now WHERE name = @name`,
      ),
      selectTenant: database.prepare('SELECT * FROM tenants WHERE name = ?'),
      selectTenants: database.prepare('SELECT * FROM tenants ORDER BY name'),
      insertTenant: database.prepare(
        'INSERT INTO tenants (name, plan, suspended, created_at, updated_at) VALUES (@name, @plan, 0, @now, @now)',
      ),
      updateTenantPlan: database.prepare('UPDATE tenants SET plan = @plan, updated_at = @now WHERE name = @name'),
      updateTenantSuspended: database.prepare(
        'UPDATE tenants SET suspended = @suspended, updated_at = @now WHERE name = @name',
      ),
      insertKey: database.prepare(
        `INSERT INTO keys (tenant, label, lookup_id, last4, key_sha256, created_at)
         VALUES (@tenant, @label, @lookupId, @last4, @keySha256, @now)`,
      ),
      selectLiveKeyByLabel: database.prepare(
        `SELECT ${keyColumns} FROM keys WHERE tenant = ? AND label = ? AND revoked_at IS NULL`,
      ),
      selectLiveKeysByLast4: database.prepare(
        `SELECT ${keyColumns} FROM keys WHERE tenant = ? AND last4 = ? AND revoked_at IS NULL`,
      ),
      revokeKey: database.prepare('UPDATE keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      selectAllKeys: database.prepare(`SELECT ${keyColumns} FROM keys ORDER BY tenant, label, created_at, id`),
      selectTenantKeys: database.prepare(
        `SELECT ${keyColumns} FROM keys WHERE tenant = ? ORDER BY label, created_at, id`,
      ),
    };
  }

  // ---- plans ----

  getPlan(name: string): Plan | null {
    const row = this.statements.selectPlan.get(name);
    return row === undefined ? null : planFromRow(row);
  }

  listPlans(): Plan[] {
    return this.statements.selectPlans.all().map(planFromRow);
  }

  /** Creates the plan (every field required) or changes the fields given. */
  setPlan(change: PlanChange): Plan {
    const name = requireName('plan name', change.name);
    return this.database
      .transaction(() => {
        const existing = this.getPlan(name);
        const plan = planFromChange(name, change, existing);
        const parameters = {
          ...plan,
          hardCap: plan.hardCap ? 1 : 0,
          meteredBilling: plan.meteredBilling ? 1 : 0,
          now: Date.now(),
        };
        if (existing === null) this.statements.insertPlan.run(parameters);
        else this.statements.updatePlan.run(parameters);
        return plan;
      })
      .immediate();
  }

  private requirePlan(name: string): Plan {
    const plan = this.getPlan(name);
    if (plan === null) throw new AccountsAdminError(`unknown plan ${name}`);
    return plan;
  }

  // ---- tenants ----

  getTenant(name: string): Tenant | null {
    const row = this.statements.selectTenant.get(name);
    return row === undefined ? null : tenantFromRow(row);
  }

  listTenants(): Tenant[] {
    return this.statements.selectTenants.all().map(tenantFromRow);
  }

  private requireTenant(name: string): Tenant {
    const tenant = this.getTenant(name);
    if (tenant === null) throw new AccountsAdminError(`unknown tenant ${name}`);
    return tenant;
  }

  setTenantPlan(tenantName: string, planName: string): Tenant {
    return this.database
      .transaction(() => {
        const tenant = this.requireTenant(tenantName);
        this.requirePlan(planName);
        this.statements.updateTenantPlan.run({ name: tenant.name, plan: planName, now: Date.now() });
        return { ...tenant, plan: planName };
      })
      .immediate();
  }

  suspendTenant(tenantName: string): Tenant {
    return this.setSuspended(tenantName, true);
  }

  unsuspendTenant(tenantName: string): Tenant {
    return this.setSuspended(tenantName, false);
  }

  private setSuspended(tenantName: string, suspended: boolean): Tenant {
    return this.database
      .transaction(() => {
        const tenant = this.requireTenant(tenantName);
        this.statements.updateTenantSuspended.run({ name: tenant.name, suspended: suspended ? 1 : 0, now: Date.now() });
        return { ...tenant, suspended };
      })
      .immediate();
  }

  // ---- keys ----

  /**
   * Issues a key, creating the tenant (on `plan`, else the free plan) if it is new; an existing
   * tenant moves to `plan` when one is given. The plaintext is returned here and never again.
   */
  createKey(options: { tenant: string; label: string; plan?: string }): IssuedKey {
    const tenantName = requireName('tenant', options.tenant);
    const label = requireName('label', options.label);
    return this.database
      .transaction(() => {
        const tenant = this.getTenant(tenantName);
        if (options.plan !== undefined) this.requirePlan(options.plan);
        const now = Date.now();
        if (tenant === null) {
          this.statements.insertTenant.run({ name: tenantName, plan: options.plan ?? DEFAULT_PLAN_NAME, now });
        } else if (options.plan !== undefined && options.plan !== tenant.plan) {
          this.statements.updateTenantPlan.run({ name: tenantName, plan: options.plan, now });
        }
        if (this.statements.selectLiveKeyByLabel.get(tenantName, label) !== undefined) {
          throw new AccountsAdminError(
            `tenant ${tenantName} already has a live key labelled ${label}: rotate or revoke it, or choose another label`,
          );
        }
        return this.insertKey(tenantName, label, now);
      })
      .immediate();
  }

  /** Revokes the live key with this label and issues its replacement in one transaction. */
  rotateKey(options: { tenant: string; label: string }): IssuedKey {
    return this.database
      .transaction(() => {
        const current = this.requireLiveKey(options);
        const now = Date.now();
        this.statements.revokeKey.run(now, current.id);
        return this.insertKey(current.tenant, current.label, now);
      })
      .immediate();
  }

  revokeKey(selector: KeySelector): KeyListing {
    return this.database
      .transaction(() => {
        const current = this.requireLiveKey(selector);
        const now = Date.now();
        this.statements.revokeKey.run(now, current.id);
        return { ...listingFromRow(current), revokedAt: now };
      })
      .immediate();
  }

  /** Every key, live and revoked, as label and last four characters only. */
  listKeys(options: { tenant?: string } = {}): KeyListing[] {
    const rows =
      options.tenant === undefined
        ? this.statements.selectAllKeys.all()
        : this.statements.selectTenantKeys.all(options.tenant);
    return rows.map(listingFromRow);
  }

  hasLiveKey(tenant: string, label: string): boolean {
    return this.statements.selectLiveKeyByLabel.get(tenant, label) !== undefined;
  }

  /**
   * The key `npm start` prints: created once for tenant `dev` on the development plan. Returns
   * the plaintext when it was created now, null when it already exists.
   */
  ensureDevelopmentKey(): string | null {
    return this.database
      .transaction(() => {
        if (this.hasLiveKey(DEVELOPMENT_TENANT_NAME, DEVELOPMENT_KEY_LABEL)) return null;
        const now = Date.now();
        if (this.getTenant(DEVELOPMENT_TENANT_NAME) === null) {
          this.statements.insertTenant.run({ name: DEVELOPMENT_TENANT_NAME, plan: DEVELOPMENT_PLAN_NAME, now });
        }
        return this.insertKey(DEVELOPMENT_TENANT_NAME, DEVELOPMENT_KEY_LABEL, now).key;
      })
      .immediate();
  }

  /**
   * `VACUUM INTO`: one read transaction, so the copy is the database as of its start, whatever
   * the server's ledger commits meanwhile (WAL mode lets both run). An existing file is refused.
   */
  backup(destination: string): void {
    if (existsSync(destination)) throw new AccountsAdminError(`${destination} exists: a backup goes to a new file`);
    this.database.prepare('VACUUM INTO ?').run(destination);
  }

  private requireLiveKey(selector: KeySelector): KeyRow {
    this.requireTenant(selector.tenant);
    if ('label' in selector) {
      const row = this.statements.selectLiveKeyByLabel.get(selector.tenant, selector.label);
      return chooseLiveKey(selector, row === undefined ? [] : [row]);
    }
    return chooseLiveKey(selector, this.statements.selectLiveKeysByLast4.all(selector.tenant, selector.last4.toLowerCase()));
  }

  private insertKey(tenant: string, label: string, now: number): IssuedKey {
    const key = generateApiKey();
    this.statements.insertKey.run({
      tenant,
      label,
      lookupId: lookupIdOf(key),
      last4: last4Of(key),
      keySha256: hashApiKey(key),
      now,
    });
    return { tenant, label, key, last4: last4Of(key) };
  }
}
