import type { Database, Statement } from 'better-sqlite3';
import { planFromRow, type PlanRow } from './account-rows.js';
import type { Plan } from './records.js';

export interface SnapshotKey {
  tenant: string;
  keySha256: Buffer;
}

export interface SnapshotTenant {
  plan: Plan;
  suspended: boolean;
}

/** What authentication and metering read of the registry: the same for SQLite and PostgreSQL. */
export interface RegistrySnapshot {
  candidatesFor(lookupId: string): readonly SnapshotKey[];
  tenant(name: string): SnapshotTenant | undefined;
}

/**
 * The in-memory copy of live keys, tenants and plans that authentication and metering read
 * (SPEC 5.4): no SQLite read on the request path. `refresh` costs one tiny read when nothing
 * changed, because every registry write bumps `registry_version`.
 */
export class KeyRegistrySnapshot implements RegistrySnapshot {
  private keysByLookupId = new Map<string, SnapshotKey[]>();
  private tenantsByName = new Map<string, SnapshotTenant>();
  private loadedVersion = -1;
  private readonly selectVersion: Statement<[], { version: number }>;
  private readonly selectLiveKeys: Statement<[], { tenant: string; lookup_id: string; key_sha256: Buffer }>;
  private readonly selectTenants: Statement<[], { name: string; plan: string; suspended: number }>;
  private readonly selectPlans: Statement<[], PlanRow>;
  private readonly readConsistently: () => void;

  constructor(database: Database) {
    this.selectVersion = database.prepare('SELECT version FROM registry_version WHERE id = 1');
    this.selectLiveKeys = database.prepare(
      'SELECT tenant, lookup_id, key_sha256 FROM keys WHERE revoked_at IS NULL',
    );
    this.selectTenants = database.prepare('SELECT name, plan, suspended FROM tenants');
    this.selectPlans = database.prepare('SELECT * FROM plans');
    // one read transaction: the version and the rows it describes come from the same commit
    this.readConsistently = database.transaction(() => this.load());
  }

  /** Reloads if the registry changed since the last load; returns whether it did. */
  refresh(): boolean {
    const current = this.selectVersion.get()?.version ?? 0;
    if (current === this.loadedVersion) return false;
    this.readConsistently();
    return true;
  }

  candidatesFor(lookupId: string): readonly SnapshotKey[] {
    return this.keysByLookupId.get(lookupId) ?? [];
  }

  tenant(name: string): SnapshotTenant | undefined {
    return this.tenantsByName.get(name);
  }

  private load(): void {
    const version = this.selectVersion.get()?.version ?? 0;
    const plansByName = new Map<string, Plan>();
    for (const row of this.selectPlans.all()) plansByName.set(row.name, planFromRow(row));

    const tenantsByName = new Map<string, SnapshotTenant>();
    for (const row of this.selectTenants.all()) {
      const plan = plansByName.get(row.plan);
      // foreign keys make this unreachable; a tenant without a plan could not be metered
      if (plan === undefined) continue;
      tenantsByName.set(row.name, { plan, suspended: row.suspended === 1 });
    }

    const keysByLookupId = new Map<string, SnapshotKey[]>();
    for (const row of this.selectLiveKeys.all()) {
      const candidates = keysByLookupId.get(row.lookup_id);
      const key = { tenant: row.tenant, keySha256: row.key_sha256 };
      if (candidates === undefined) keysByLookupId.set(row.lookup_id, [key]);
      else candidates.push(key);
    }

    // swap whole maps so a reader never sees half a reload
    this.keysByLookupId = keysByLookupId;
    this.tenantsByName = tenantsByName;
    this.loadedVersion = version;
  }
}
