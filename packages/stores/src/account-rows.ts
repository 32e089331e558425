import type { KeyListing, Plan, Tenant } from './records.js';

/** Rows as SQLite returns them (snake_case, 0/1 booleans) and their conversion to records. */
export interface PlanRow {
  name: string;
  rate_per_min: number;
  monthly_credits: number;
  hard_cap: number;
  metered_billing: number;
}

export interface TenantRow {
  name: string;
  plan: string;
  suspended: number;
  created_at: number;
}

export interface KeyRow {
  id: number;
  tenant: string;
  label: string;
  last4: string;
  created_at: number;
  revoked_at: number | null;
}

export function planFromRow(row: PlanRow): Plan {
  return {
    name: row.name,
    ratePerMin: row.rate_per_min,
    monthlyCredits: row.monthly_credits,
    hardCap: row.hard_cap === 1,
    meteredBilling: row.metered_billing === 1,
  };
}

export function tenantFromRow(row: TenantRow): Tenant {
  return { name: row.name, plan: row.plan, suspended: row.suspended === 1, createdAt: row.created_at };
}

export function listingFromRow(row: KeyRow): KeyListing {
  return { tenant: row.tenant, label: row.label, last4: row.last4, createdAt: row.created_at, revokedAt: row.revoked_at };
}
