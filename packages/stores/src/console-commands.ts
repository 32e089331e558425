import { resolve } from 'node:path';
import { AccountsAdmin, AccountsAdminError } from './accounts-admin.js';
import type { RegistryAdmin } from './registry-admin.js';
import { openAccountsDatabase } from './accounts-database.js';
import { API_KEY_PREFIX } from './api-key-format.js';
import {
  booleanFlag,
  integerFlag,
  parseFlags,
  requiredFlag,
  UsageError,
  type ParsedFlags,
} from './cli-arguments.js';
import type { IssuedKey, KeyListing, Plan, Tenant } from './records.js';

export const CONSOLE_USAGE = `usage: npm run keys -- SUBCOMMAND [FLAGS]
  create --tenant T --label L [--plan P] [--json]    issue a key (new tenants start on plan free)
  list [--tenant T] [--json]                         labels and last four characters only
  rotate --tenant T --label L [--json]               issue a new key, revoke the old one at once
  revoke --tenant T (--label L | --last4 XXXX) [--json]
  plan set --name P --rate-per-min N --monthly-credits N --hard-cap true|false --metered-billing true|false
                                                     create a plan, or change the flags given
  plan list [--json]
  tenant set-plan --tenant T --plan P
  tenant suspend --tenant T                          its keys answer 402 until unsuspended
  tenant unsuspend --tenant T
  tenant list [--json]
  backup --to FILE                                   copy the accounts database (plans, tenants, key
                                                     hashes, usage ledger) to a new FILE, while serving
environment: DATA_DIR (default ./data), or DATABASE_URL for a fleet's PostgreSQL registry.
A running server sees changes at its next key refresh (a fleet at once, through LISTEN/NOTIFY).`;

export interface ConsoleIo {
  dataDir: string;
  /** the fleet's PostgreSQL registry; when set, DATA_DIR is not used */
  databaseUrl?: string;
  writeOut: (line: string) => void;
  writeError: (line: string) => void;
}

interface Subcommand {
  values: readonly string[];
  switches: readonly string[];
  run: (admin: RegistryAdmin, flags: ParsedFlags, io: ConsoleIo) => Promise<void>;
}

function isoTime(unixMs: number | null): string | null {
  return unixMs === null ? null : new Date(unixMs).toISOString();
}

function printIssuedKey(issued: IssuedKey, verb: string, flags: ParsedFlags, io: ConsoleIo): void {
  if (flags.switches.has('json')) {
    io.writeOut(JSON.stringify({ tenant: issued.tenant, label: issued.label, key: issued.key, last4: issued.last4 }));
    return;
  }
  io.writeOut(`${verb} key ${issued.label} for tenant ${issued.tenant}, ending in ${issued.last4}`);
  io.writeOut('store it now: it is shown only this once');
  // the key alone on the last line, so scripts can take it with `tail -n 1`
  io.writeOut(issued.key);
}

function keyListingJson(listing: KeyListing) {
  return {
    tenant: listing.tenant,
    label: listing.label,
    last4: listing.last4,
    created_at: isoTime(listing.createdAt),
    revoked_at: isoTime(listing.revokedAt),
  };
}

function planJson(plan: Plan) {
  return {
    name: plan.name,
    rate_per_min: plan.ratePerMin,
    monthly_credits: plan.monthlyCredits,
    hard_cap: plan.hardCap,
    metered_billing: plan.meteredBilling,
  };
}

function tenantJson(tenant: Tenant) {
  return { name: tenant.name, plan: tenant.plan, suspended: tenant.suspended, created_at: isoTime(tenant.createdAt) };
}

function printTable(rows: string[][], io: ConsoleIo): void {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) io.writeOut(row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd());
}

function describePlan(plan: Plan): string {
  const monthly = plan.monthlyCredits === 0 ? 'unlimited' : String(plan.monthlyCredits);
  return `plan ${plan.name}: rate_per_min ${plan.ratePerMin}, monthly_credits ${monthly}, hard_cap ${plan.hardCap}, metered_billing ${plan.meteredBilling}`;
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  create: {
    values: ['tenant', 'label', 'plan'],
    switches: ['json'],
    run: async (admin, flags, io) => {
      const issued = await admin.createKey({
        tenant: requiredFlag(flags, 'tenant'),
        label: requiredFlag(flags, 'label'),
        plan: flags.values.get('plan'),
      });
      printIssuedKey(issued, 'created', flags, io);
    },
  },
  list: {
    values: ['tenant'],
    switches: ['json'],
    run: async (admin, flags, io) => {
      const listings = await admin.listKeys({ tenant: flags.values.get('tenant') });
      if (flags.switches.has('json')) {
        io.writeOut(JSON.stringify(listings.map(keyListingJson)));
        return;
      }
      if (listings.length === 0) {
        io.writeOut('no keys');
        return;
      }
      const header = ['TENANT', 'LABEL', 'KEY', 'CREATED', 'REVOKED'];
      const rows = listings.map((listing) => [
        listing.tenant,
        listing.label,
        `${API_KEY_PREFIX}...${listing.last4}`,
        isoTime(listing.createdAt) ?? '',
        isoTime(listing.revokedAt) ?? '-',
      ]);
      printTable([header, ...rows], io);
    },
  },
  rotate: {
    values: ['tenant', 'label'],
    switches: ['json'],
    run: async (admin, flags, io) => {
      const issued = await admin.rotateKey({ tenant: requiredFlag(flags, 'tenant'), label: requiredFlag(flags, 'label') });
      printIssuedKey(issued, 'rotated (the old key is revoked)', flags, io);
    },
  },
  revoke: {
    values: ['tenant', 'label', 'last4'],
    switches: ['json'],
    run: async (admin, flags, io) => {
      const tenant = requiredFlag(flags, 'tenant');
      const label = flags.values.get('label');
      const last4 = flags.values.get('last4');
      if ((label === undefined) === (last4 === undefined)) throw new UsageError('give exactly one of --label or --last4');
      const revoked = label !== undefined ? await admin.revokeKey({ tenant, label }) : await admin.revokeKey({ tenant, last4: last4! });
      if (flags.switches.has('json')) io.writeOut(JSON.stringify(keyListingJson(revoked)));
      else io.writeOut(`revoked key ${revoked.label} of tenant ${revoked.tenant}, ending in ${revoked.last4}`);
    },
  },
  'plan set': {
    values: ['name', 'rate-per-min', 'monthly-credits', 'hard-cap', 'metered-billing'],
    switches: [],
    run: async (admin, flags, io) => {
      const name = requiredFlag(flags, 'name');
      const change = {
        name,
        ratePerMin: integerFlag(flags, 'rate-per-min', 1),
        monthlyCredits: integerFlag(flags, 'monthly-credits', 0),
        hardCap: booleanFlag(flags, 'hard-cap'),
        meteredBilling: booleanFlag(flags, 'metered-billing'),
      };
      if (await admin.getPlan(name) === null) {
        for (const flag of ['rate-per-min', 'monthly-credits', 'hard-cap', 'metered-billing']) {
          if (!flags.values.has(flag)) throw new UsageError(`missing --${flag} (plan ${name} is new)`);
        }
      } else if (flags.values.size === 1) {
        throw new UsageError('plan set needs at least one of --rate-per-min, --monthly-credits, --hard-cap, --metered-billing');
      }
      io.writeOut(describePlan(await admin.setPlan(change)));
    },
  },
  'plan list': {
    values: [],
    switches: ['json'],
    run: async (admin, flags, io) => {
      const plans = await admin.listPlans();
      if (flags.switches.has('json')) {
        io.writeOut(JSON.stringify(plans.map(planJson)));
        return;
      }
      for (const plan of plans) io.writeOut(describePlan(plan));
    },
  },
  'tenant set-plan': {
    values: ['tenant', 'plan'],
    switches: [],
    run: async (admin, flags, io) => {
      const tenant = await admin.setTenantPlan(requiredFlag(flags, 'tenant'), requiredFlag(flags, 'plan'));
      io.writeOut(`tenant ${tenant.name} is on plan ${tenant.plan}`);
    },
  },
  'tenant suspend': {
    values: ['tenant'],
    switches: [],
    run: async (admin, flags, io) => {
      const tenant = await admin.suspendTenant(requiredFlag(flags, 'tenant'));
      io.writeOut(`tenant ${tenant.name} is suspended: its keys answer 402`);
    },
  },
  'tenant unsuspend': {
    values: ['tenant'],
    switches: [],
    run: async (admin, flags, io) => {
      const tenant = await admin.unsuspendTenant(requiredFlag(flags, 'tenant'));
      io.writeOut(`tenant ${tenant.name} is no longer suspended`);
    },
  },
  backup: {
    values: ['to'],
    switches: [],
    run: async (admin, flags, io) => {
      const destination = resolve(requiredFlag(flags, 'to'));
      const at = new Date().toISOString();
      await admin.backup(destination);
      io.writeOut(`accounts backed up to ${destination} as of ${at}`);
    },
  },
  'tenant list': {
    values: [],
    switches: ['json'],
    run: async (admin, flags, io) => {
      const tenants = await admin.listTenants();
      if (flags.switches.has('json')) {
        io.writeOut(JSON.stringify(tenants.map(tenantJson)));
        return;
      }
      if (tenants.length === 0) {
        io.writeOut('no tenants');
        return;
      }
      const header = ['TENANT', 'PLAN', 'SUSPENDED', 'CREATED'];
      const rows = tenants.map((tenant) => [
        tenant.name,
        tenant.plan,
        String(tenant.suspended),
        isoTime(tenant.createdAt) ?? '',
      ]);
      printTable([header, ...rows], io);
    },
  },
};

/** Subcommands are one word, or two for the `plan` and `tenant` groups. */
function splitSubcommand(argv: readonly string[]): { name: string; rest: readonly string[] } {
  const first = argv[0];
  if (first === undefined || first.startsWith('--')) throw new UsageError('missing subcommand');
  if (first === 'plan' || first === 'tenant') {
    const second = argv[1];
    if (second === undefined || second.startsWith('--')) throw new UsageError(`missing ${first} subcommand`);
    return { name: `${first} ${second}`, rest: argv.slice(2) };
  }
  return { name: first, rest: argv.slice(1) };
}

/** Runs one console invocation; returns the exit code (0 ok, 1 refused, 2 bad usage). */
export async function runConsole(argv: readonly string[], io: ConsoleIo): Promise<number> {
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    io.writeOut(CONSOLE_USAGE);
    return 0;
  }
  let closeDatabase: () => unknown = () => {};
  try {
    const { name, rest } = splitSubcommand(argv);
    const subcommand = SUBCOMMANDS[name];
    if (subcommand === undefined) throw new UsageError(`unknown subcommand ${name}`);
    const flags = parseFlags(name, rest, subcommand);
    if (io.databaseUrl) {
      const { openPostgresAdmin } = await import('./fleet/postgres-admin.js');
      const opened = await openPostgresAdmin(io.databaseUrl);
      closeDatabase = () => opened.close();
      await subcommand.run(opened.admin, flags, io);
      return 0;
    }
    const database = openAccountsDatabase(io.dataDir);
    closeDatabase = () => database.close();
    await subcommand.run(new AccountsAdmin(database), flags, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.writeError(`error: ${error.message}`);
      io.writeError(CONSOLE_USAGE);
      return 2;
    }
    if (error instanceof AccountsAdminError) {
      io.writeError(`error: ${error.message}`);
      return 1;
    }
    io.writeError(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await closeDatabase();
  }
}
