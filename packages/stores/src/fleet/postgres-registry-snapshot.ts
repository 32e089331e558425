import pg from 'pg';
import type { RegistrySnapshot, SnapshotKey, SnapshotTenant } from '../key-registry-snapshot.js';
import type { Plan } from '../records.js';
import { planFromPostgres } from './postgres-admin.js';
import { postgresClientConfig } from './postgres-connection.js';
import { REGISTRY_CHANNEL } from './postgres-migrations.js';

/**
 * The fleet's key snapshot: the same in-memory maps as the embedded one, loaded from
 * PostgreSQL. Refreshed on the timer (one tiny version read when nothing changed) and at once
 * when the registry notifies a change (LISTEN), so a revoke or a suspension reaches every node
 * in milliseconds, and within the refresh interval if notifications are lost. When PostgreSQL
 * is unreachable, the previous snapshot stays in use.
 */
export class PostgresRegistrySnapshot implements RegistrySnapshot {
  private keysByLookupId = new Map<string, SnapshotKey[]>();
  private tenantsByName = new Map<string, SnapshotTenant>();
  private loadedVersion = -1;
  private refreshing: Promise<boolean> | null = null;
  private queued: Promise<boolean> | null = null;
  private listener: pg.Client | null = null;
  private listenerRetry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly databaseUrl: string,
    private readonly onError: (error: Error) => void,
  ) {}

  candidatesFor(lookupId: string): readonly SnapshotKey[] {
    return this.keysByLookupId.get(lookupId) ?? [];
  }

  tenant(name: string): SnapshotTenant | undefined {
    return this.tenantsByName.get(name);
  }

  /**
   * Reloads if the registry changed. A call made while a reload is under way waits for one more
   * after it (that reload may have read the version before the change the caller waits for);
   * every call made meanwhile shares that one.
   */
  refresh(): Promise<boolean> {
    if (this.refreshing !== null) {
      this.queued ??= this.refreshing
        .catch(() => false)
        .then(() => {
          this.queued = null;
          return this.refresh();
        });
      return this.queued;
    }
    this.refreshing = this.reloadIfChanged().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Subscribes to registry notifications; reconnects on its own while the node runs. */
  async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(postgresClientConfig(this.databaseUrl));
    const reconnect = (error: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.end().catch(() => {});
      if (this.closed) return;
      this.onError(new Error(`registry notifications lost, retrying: ${error.message}`));
      this.listenerRetry = setTimeout(() => {
        this.listenerRetry = null;
        // a change may have happened while deaf: refresh once the channel is back
        this.listen().then(
          () => this.refresh().catch((refreshError: Error) => this.onError(refreshError)),
          (listenError: Error) => reconnect(listenError),
        );
      }, 1_000);
      this.listenerRetry.unref();
    };
    this.listener = client;
    client.on('error', reconnect);
    client.on('end', () => reconnect(new Error('connection ended')));
    client.on('notification', () => {
      this.refresh().catch((error: Error) => this.onError(error));
    });
    await client.connect();
    await client.query(`LISTEN ${REGISTRY_CHANNEL}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.listenerRetry !== null) clearTimeout(this.listenerRetry);
    const listener = this.listener;
    this.listener = null;
    if (listener !== null) await listener.end().catch(() => {});
    await this.refreshing?.catch(() => {});
  }

  private async reloadIfChanged(): Promise<boolean> {
    const current = (await this.pool.query<{ version: number }>('SELECT version FROM registry_version WHERE id = 1')).rows[0]
      ?.version;
    if (current === this.loadedVersion) return false;
    const client = await this.pool.connect();
    let broken = false;
    try {
      // one snapshot: the version and the rows it describes come from the same commit
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const version = (await client.query<{ version: number }>('SELECT version FROM registry_version WHERE id = 1')).rows[0]
        .version;
      const plans = await client.query('SELECT * FROM plans');
      const tenants = await client.query<{ name: string; plan: string; suspended: boolean }>(
        'SELECT name, plan, suspended FROM tenants',
      );
      const keys = await client.query<{ tenant: string; lookup_id: string; key_sha256: Buffer }>(
        'SELECT tenant, lookup_id, key_sha256 FROM keys WHERE revoked_at IS NULL',
      );
      await client.query('COMMIT');

      const plansByName = new Map<string, Plan>();
      for (const row of plans.rows) plansByName.set(row.name, planFromPostgres(row));
      const tenantsByName = new Map<string, SnapshotTenant>();
      for (const row of tenants.rows) {
        const plan = plansByName.get(row.plan);
        if (plan === undefined) continue;
        tenantsByName.set(row.name, { plan, suspended: row.suspended });
      }
      const keysByLookupId = new Map<string, SnapshotKey[]>();
      for (const row of keys.rows) {
        const key = { tenant: row.tenant, keySha256: row.key_sha256 };
        const candidates = keysByLookupId.get(row.lookup_id);
        if (candidates === undefined) keysByLookupId.set(row.lookup_id, [key]);
        else candidates.push(key);
      }
      // swap whole maps so a reader never sees half a reload
      this.keysByLookupId = keysByLookupId;
      this.tenantsByName = tenantsByName;
      this.loadedVersion = version;
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
