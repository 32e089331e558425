/** A plan as the console defines it and the meter enforces it. */
export interface Plan {
  name: string;
  /** credits per UTC minute */
  ratePerMin: number;
  /** included credits per calendar month; 0 means unlimited */
  monthlyCredits: number;
  /** refuse (429) a call the remaining monthly credits cannot cover in full */
  hardCap: boolean;
  /** a payment method is attached: usage past the allowance is billed as overage */
  meteredBilling: boolean;
}

export interface Tenant {
  name: string;
  plan: string;
  suspended: boolean;
  createdAt: number;
}

/** What a listing shows of a key: never a usable credential. */
export interface KeyListing {
  tenant: string;
  label: string;
  last4: string;
  /** unix milliseconds */
  createdAt: number;
  /** unix milliseconds; null while the key is live */
  revokedAt: number | null;
}

/** The one time a plaintext key exists outside the caller's hands: right after create or rotate. */
export interface IssuedKey {
  tenant: string;
  label: string;
  key: string;
  last4: string;
}

/** One billed call in the usage ledger. */
export interface LedgerRow {
  tenant: string;
  route: string;
  credits: number;
  /** unix milliseconds */
  at: number;
  requestId: string;
}

/** Plans every data directory has from its first open. */
export const BUILT_IN_PLANS: readonly Plan[] = [
  { name: 'free', ratePerMin: 600, monthlyCredits: 10_000, hardCap: true, meteredBilling: false },
  // `npm start` and the benchmarks use this one; the rate is high enough never to be the bottleneck
  { name: 'development', ratePerMin: 100_000_000, monthlyCredits: 0, hardCap: false, meteredBilling: false },
];

export const DEFAULT_PLAN_NAME = 'free';
export const DEVELOPMENT_PLAN_NAME = 'development';
export const DEVELOPMENT_TENANT_NAME = 'dev';
export const DEVELOPMENT_KEY_LABEL = 'development';
