import './supported-node.js';
export { openStores, type EmbeddedStores, type OpenStoresOptions, type Stores } from './open-stores.js';
export type { Awaitable, RegistryAdmin } from './registry-admin.js';
export { runConsole } from './console-commands.js';
export type { Meter, Reservation, ReserveRequest } from './meter.js';
export type { LedgerCommit } from './ledger-writer.js';
export type { AccountStatus } from './account-status.js';
export type { AuthenticatedCaller, CredentialHeaders } from './authenticator.js';
export { presentedApiKey } from './authenticator.js';
export { AccountsAdmin, AccountsAdminError, type KeySelector, type PlanChange } from './accounts-admin.js';
export { openAccountsDatabase, accountsDatabasePath, ACCOUNTS_DATABASE_FILE } from './accounts-database.js';
export { API_KEY_PREFIX, isWellFormedApiKey } from './api-key-format.js';
export {
  BUILT_IN_PLANS,
  DEFAULT_PLAN_NAME,
  DEVELOPMENT_KEY_LABEL,
  DEVELOPMENT_PLAN_NAME,
  DEVELOPMENT_TENANT_NAME,
  type IssuedKey,
  type KeyListing,
  type LedgerRow,
  type Plan,
  type Tenant,
} from './records.js';
export { openPostgresAdmin, PostgresAccountsAdmin } from './fleet/postgres-admin.js';
