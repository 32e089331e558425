import type { Plan } from './records.js';

/** The /account body (SPEC 2.8), deprecated aliases included. */
export interface AccountStatus {
  tenant: string;
  plan: string;
  rate_per_min: number;
  monthly_credits: number;
  credits_used_this_period: number;
  /** null when monthly_credits is 0 (unlimited) */
  credits_remaining: number | null;
  period_start_unix: number;
  hard_cap: boolean;
  metered_billing: boolean;
  /** deprecated alias of monthly_credits */
  monthly_quota: number;
  /** deprecated alias of credits_used_this_period */
  usage_this_period: number;
  /** deprecated alias of credits_remaining */
  quota_remaining: number | null;
}

/** The /account body of a tenant on `plan` that has used `used` credits in the period from `periodStartMs`. */
export function accountStatusOf(tenant: string, plan: Plan, used: number, periodStartMs: number): AccountStatus {
  const remaining = plan.monthlyCredits === 0 ? null : Math.max(0, plan.monthlyCredits - used);
  return {
    tenant,
    plan: plan.name,
    rate_per_min: plan.ratePerMin,
    monthly_credits: plan.monthlyCredits,
    credits_used_this_period: used,
    credits_remaining: remaining,
    period_start_unix: Math.floor(periodStartMs / 1000),
    hard_cap: plan.hardCap,
    metered_billing: plan.meteredBilling,
    monthly_quota: plan.monthlyCredits,
    usage_this_period: used,
    quota_remaining: remaining,
  };
}
