import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AccountsAdminError, openAccountsDatabase, AccountsAdmin } from '../src/index.js';
import { FLEET_AVAILABLE, FLEET_SKIPPED, openBackendStores, openTestStores, temporaryDataDir, type Backend } from './helpers.js';

const KEY_PATTERN = /^ess_[0-9a-f]{48}$/;

function databaseFileBytes(dataDir: string): Buffer {
  const files = ['accounts.sqlite', 'accounts.sqlite-wal'].map((name) => join(dataDir, name)).filter(existsSync);
  return Buffer.concat(files.map((file) => readFileSync(file)));
}

/** The registry (the console's operations, the snapshot authentication reads), SQLite or PostgreSQL. */
function registrySuite(backend: Backend): void {
  describe(`key registry (${backend})`, () => {
    it('issues keys of the documented format, each different', async () => {
      const stores = await openBackendStores(backend);
      const first = await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      const second = await stores.admin.createKey({ tenant: 'acme', label: 'laptop' });
      expect(first.key).toMatch(KEY_PATTERN);
      expect(second.key).toMatch(KEY_PATTERN);
      expect(first.key).not.toBe(second.key);
      expect(first.last4).toBe(first.key.slice(-4));
    });

    it('creates a new tenant on the free plan, or on the plan given', async () => {
      const stores = await openBackendStores(backend);
      await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      await stores.admin.createKey({ tenant: 'globex', label: 'ci', plan: 'development' });
      expect((await stores.admin.getTenant('acme'))?.plan).toBe('free');
      expect((await stores.admin.getTenant('globex'))?.plan).toBe('development');
      await expect(Promise.resolve().then(() => stores.admin.createKey({ tenant: 'initech', label: 'ci', plan: 'platinum' }))).rejects.toThrow(
        'unknown plan platinum',
      );
    });

    it('has the built-in plans from the first open', async () => {
      const stores = await openBackendStores(backend);
      expect(await stores.admin.getPlan('free')).toEqual({
        name: 'free',
        ratePerMin: 600,
        monthlyCredits: 10_000,
        hardCap: true,
        meteredBilling: false,
      });
      expect(await stores.admin.getPlan('development')).toMatchObject({ monthlyCredits: 0, ratePerMin: 100_000_000 });
    });

    it('lists labels and last four characters, never a usable key', async () => {
      const stores = await openBackendStores(backend);
      const issued = await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      const listings = await stores.admin.listKeys();
      expect(listings).toEqual([
        { tenant: 'acme', label: 'ci', last4: issued.last4, createdAt: expect.any(Number), revokedAt: null },
      ]);
      expect(JSON.stringify(listings)).not.toContain(issued.key.slice(4, 12));
    });

    it('refuses a second live key with the same label', async () => {
      const stores = await openBackendStores(backend);
      await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      await expect(Promise.resolve().then(() => stores.admin.createKey({ tenant: 'acme', label: 'ci' }))).rejects.toThrow(AccountsAdminError);
    });

    it('rotates: the old key is revoked and a new one carries the label', async () => {
      const stores = await openBackendStores(backend, { keyRefreshMs: 60_000 });
      const original = await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      await stores.refreshKeys();
      const rotated = await stores.admin.rotateKey({ tenant: 'acme', label: 'ci' });
      await stores.refreshKeys();
      expect(rotated.key).not.toBe(original.key);
      await expect(Promise.resolve().then(() => stores.authenticate({ xApiKey: original.key }, '10.0.0.1'))).rejects.toThrow(/unauthenticated/);
      expect((await stores.authenticate({ xApiKey: rotated.key }, '10.0.0.1')).tenant).toBe('acme');
      const listings = await stores.admin.listKeys({ tenant: 'acme' });
      expect(listings.map((listing) => [listing.last4, listing.revokedAt === null])).toEqual([
        [original.last4, false],
        [rotated.last4, true],
      ]);
    });

    it('revokes by label or by last four characters', async () => {
      const stores = await openBackendStores(backend);
      const first = await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      const second = await stores.admin.createKey({ tenant: 'acme', label: 'laptop' });
      await stores.refreshKeys();
      await stores.admin.revokeKey({ tenant: 'acme', label: 'ci' });
      await stores.admin.revokeKey({ tenant: 'acme', last4: second.last4 });
      await stores.refreshKeys();
      for (const issued of [first, second]) {
        await expect(Promise.resolve().then(() => stores.authenticate({ xApiKey: issued.key }, '10.0.0.1'))).rejects.toThrow(/unauthenticated/);
      }
      await expect(Promise.resolve().then(() => stores.admin.revokeKey({ tenant: 'acme', label: 'ci' }))).rejects.toThrow('has no live key labelled ci');
    });
  });
}

registrySuite('embedded');
describe.skipIf(!FLEET_AVAILABLE)(`fleet registry on PostgreSQL${FLEET_SKIPPED}`, () => registrySuite('fleet'));

describe('keys (embedded SQLite)', () => {
  it('stores only the hash: the plaintext is nowhere in the database files', async () => {
    const dataDir = temporaryDataDir();
    const stores = await openTestStores({ dataDir });
    const issued = stores.admin.createKey({ tenant: 'acme', label: 'ci' });
    const bytes = databaseFileBytes(dataDir);
    // the hash being found proves the search reads the bytes the key went into
    expect(bytes.indexOf(createHash('sha256').update(issued.key).digest())).toBeGreaterThanOrEqual(0);
    expect(bytes.indexOf(Buffer.from(issued.key))).toBe(-1);
    expect(bytes.indexOf(Buffer.from(issued.key.slice(4)))).toBe(-1);
  });

  it('creates the development key once', async () => {
    const dataDir = temporaryDataDir();
    const stores = await openTestStores({ dataDir });
    const key = await stores.ensureDevelopmentKey();
    expect(key).toMatch(KEY_PATTERN);
    // printed by npm start for immediate use: it works before any timed refresh
    expect(await stores.authenticate({ xApiKey: key }, '127.0.0.1')).toEqual({ tenant: 'dev', plan: 'development' });
    expect(await stores.ensureDevelopmentKey()).toBeNull();
    await stores.close();
    const reopened = await openTestStores({ dataDir });
    expect(await reopened.ensureDevelopmentKey()).toBeNull();
  });

  it('migrates idempotently and keeps an operator change to a built-in plan', () => {
    const dataDir = temporaryDataDir();
    const first = openAccountsDatabase(dataDir);
    new AccountsAdmin(first).setPlan({ name: 'free', ratePerMin: 60 });
    first.close();
    const second = openAccountsDatabase(dataDir);
    expect(new AccountsAdmin(second).getPlan('free')?.ratePerMin).toBe(60);
    expect(second.pragma('user_version', { simple: true })).toBe(1);
    second.close();
    const raw = new BetterSqlite3(join(dataDir, 'accounts.sqlite'), { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });
});
