/**
 * The console's rules, whichever registry it writes (SQLite or the fleet's PostgreSQL): what a
 * name and a count may be, how a plan change combines with the plan it changes, which live key a
 * selector names, and the messages an operator sees when a rule refuses.
 */
import type { Plan } from './records.js';

/** An operator mistake (unknown tenant, duplicate label...): the console prints it and exits 1. */
export class AccountsAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountsAdminError';
  }
}

export interface PlanChange {
  name: string;
  ratePerMin?: number;
  monthlyCredits?: number;
  hardCap?: boolean;
  meteredBilling?: boolean;
}

export type KeySelector = { tenant: string; label: string } | { tenant: string; last4: string };

export function requireName(what: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 200 || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new AccountsAdminError(`invalid ${what}: expected 1 to 200 printable characters`);
  }
  return trimmed;
}

export function requireCount(what: string, value: number, minimum: number): number {
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new AccountsAdminError(`invalid ${what}: expected an integer of at least ${minimum}`);
  }
  return value;
}

/** The plan `change` makes of `existing` (null: a new plan, which needs every field). */
export function planFromChange(name: string, change: PlanChange, existing: Plan | null): Plan {
  if (existing === null) {
    const missing = (['ratePerMin', 'monthlyCredits', 'hardCap', 'meteredBilling'] as const).filter((field) => change[field] === undefined);
    if (missing.length > 0) throw new AccountsAdminError(`new plan ${name} needs every field; missing: ${missing.join(', ')}`);
  }
  return {
    name,
    ratePerMin: requireCount('rate per minute', change.ratePerMin ?? existing!.ratePerMin, 1),
    monthlyCredits: requireCount('monthly credits', change.monthlyCredits ?? existing!.monthlyCredits, 0),
    hardCap: change.hardCap ?? existing!.hardCap,
    meteredBilling: change.meteredBilling ?? existing!.meteredBilling,
  };
}

/** The one live key `selector` names among the live keys it matched (by label: at most one). */
export function chooseLiveKey<Row>(selector: KeySelector, rows: Row[]): Row {
  if ('label' in selector) {
    if (rows.length === 0) throw new AccountsAdminError(`tenant ${selector.tenant} has no live key labelled ${selector.label}`);
    return rows[0];
  }
  if (rows.length === 0) throw new AccountsAdminError(`tenant ${selector.tenant} has no live key ending in ${selector.last4}`);
  if (rows.length > 1) {
    throw new AccountsAdminError(`tenant ${selector.tenant} has ${rows.length} live keys ending in ${selector.last4}: revoke by label`);
  }
  return rows[0];
}
