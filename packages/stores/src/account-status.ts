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
