import type { KeySelector, PlanChange } from './accounts-admin.js';
import type { IssuedKey, KeyListing, Plan, Tenant } from './records.js';

/** A value now (SQLite, synchronous) or later (PostgreSQL). */
export type Awaitable<T> = T | Promise<T>;

/**
 * The console's operations on keys, tenants and plans, whichever database holds them:
 * `AccountsAdmin` over SQLite answers at once, `PostgresAccountsAdmin` (fleet) answers with
 * promises. The console (`npm run keys`) awaits either, so it works unchanged against both.
 */
export interface RegistryAdmin {
  getPlan(name: string): Awaitable<Plan | null>;
  listPlans(): Awaitable<Plan[]>;
  setPlan(change: PlanChange): Awaitable<Plan>;
  getTenant(name: string): Awaitable<Tenant | null>;
  listTenants(): Awaitable<Tenant[]>;
  setTenantPlan(tenantName: string, planName: string): Awaitable<Tenant>;
  suspendTenant(tenantName: string): Awaitable<Tenant>;
  unsuspendTenant(tenantName: string): Awaitable<Tenant>;
  createKey(options: { tenant: string; label: string; plan?: string }): Awaitable<IssuedKey>;
  rotateKey(options: { tenant: string; label: string }): Awaitable<IssuedKey>;
  revokeKey(selector: KeySelector): Awaitable<KeyListing>;
  listKeys(options?: { tenant?: string }): Awaitable<KeyListing[]>;
  hasLiveKey(tenant: string, label: string): Awaitable<boolean>;
  ensureDevelopmentKey(): Awaitable<string | null>;
  /**
   * Copy the whole accounts database (plans, tenants, key hashes, the usage ledger) to a new
   * file `destination`, as of one instant, while servers keep serving and charging.
   */
  backup(destination: string): Awaitable<void>;
}
