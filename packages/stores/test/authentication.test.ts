import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { UNAUTHENTICATED_BODY } from '@evidence/schemas';
import { FLEET_AVAILABLE, FLEET_SKIPPED, manualClock, openBackendStores, openTestStores, serviceErrorOf, type Backend } from './helpers.js';

/** Authentication against the snapshot of either registry (SQLite, or PostgreSQL and Redis). */
function authenticationSuite(backend: Backend): void {
  describe(`authentication (${backend})`, () => {
    it('accepts x-api-key and Authorization: Bearer; x-api-key wins when both are sent', async () => {
      const stores = await openBackendStores(backend);
      const acme = await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      const globex = await stores.admin.createKey({ tenant: 'globex', label: 'ci' });
      await stores.refreshKeys();
      expect(await stores.authenticate({ xApiKey: acme.key }, '10.0.0.1')).toEqual({ tenant: 'acme', plan: 'free' });
      expect((await stores.authenticate({ authorization: `Bearer ${globex.key}` }, '10.0.0.1')).tenant).toBe('globex');
      const both = { xApiKey: acme.key, authorization: `Bearer ${globex.key}` };
      expect((await stores.authenticate(both, '10.0.0.1')).tenant).toBe('acme');
      // x-api-key wins even when it is the wrong one
      const wrongFirst = { xApiKey: `ess_${'0'.repeat(48)}`, authorization: `Bearer ${globex.key}` };
      expect((await serviceErrorOf(() => stores.authenticate(wrongFirst, '10.0.0.1'))).status).toBe(401);
    });

    it('refuses a lowercase bearer prefix and one without its space', async () => {
      const stores = await openBackendStores(backend);
      const acme = await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      await stores.refreshKeys();
      for (const authorization of [`bearer ${acme.key}`, `BEARER ${acme.key}`, `Bearer${acme.key}`, acme.key]) {
        expect((await serviceErrorOf(() => stores.authenticate({ authorization }, '10.0.0.1'))).status).toBe(401);
      }
    });

    it('answers missing, unknown and revoked keys with the identical 401', async () => {
      const stores = await openBackendStores(backend);
      const live = await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      const revoked = await stores.admin.createKey({ tenant: 'acme', label: 'old' });
      await stores.admin.revokeKey({ tenant: 'acme', label: 'old' });
      await stores.refreshKeys();
      const failures = await Promise.all([
        {},
        { xApiKey: '' },
        { xApiKey: 'not-a-key' },
        { xApiKey: `ess_${'a'.repeat(48)}` },
        // right lookup id, wrong secret: reaches the hash comparison
        { xApiKey: live.key.slice(0, 12) + 'f'.repeat(40) },
        { xApiKey: revoked.key },
      ].map((headers) => serviceErrorOf(() => stores.authenticate(headers, '10.0.0.1'))));
      for (const failure of failures) {
        expect({ status: failure.status, kind: failure.kind, body: failure.message }).toEqual({
          status: 401,
          kind: 'unauthenticated',
          body: UNAUTHENTICATED_BODY,
        });
      }
    });

    it('answers 402 for a suspended tenant and authenticates again once unsuspended', async () => {
      const stores = await openBackendStores(backend);
      const issued = await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      await stores.admin.suspendTenant('acme');
      await stores.refreshKeys();
      const refusal = await serviceErrorOf(() => stores.authenticate({ xApiKey: issued.key }, '10.0.0.1'));
      expect([refusal.status, refusal.kind]).toEqual([402, 'suspended']);
      await stores.admin.unsuspendTenant('acme');
      await stores.refreshKeys();
      expect((await stores.authenticate({ xApiKey: issued.key }, '10.0.0.1')).tenant).toBe('acme');
    });

    it('does not count successful authentications against the address', async () => {
      const stores = await openBackendStores(backend, { authFailLimit: 2 });
      const issued = await stores.admin.createKey({ tenant: 'acme', label: 'ci' });
      await stores.refreshKeys();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect((await stores.authenticate({ xApiKey: issued.key }, '10.0.0.1')).tenant).toBe('acme');
      }
    });
  });
}

authenticationSuite('embedded');
describe.skipIf(!FLEET_AVAILABLE)(`fleet authentication on PostgreSQL and Redis${FLEET_SKIPPED}`, () => authenticationSuite('fleet'));

describe('authentication (embedded: refresh timer, address window on its clock)', () => {
  it('authenticates a new key only after the snapshot refresh', async () => {
    const stores = await openTestStores({ keyRefreshMs: 100 });
    const issued = stores.admin.createKey({ tenant: 'acme', label: 'ci' });
    expect((await serviceErrorOf(() => stores.authenticate({ xApiKey: issued.key }, '10.0.0.1'))).status).toBe(401);
    await sleep(250);
    expect((await stores.authenticate({ xApiKey: issued.key }, '10.0.0.1')).tenant).toBe('acme');
  });

  it('refuses an address with 429 and retry-after past the failure threshold, for every call that does not authenticate', async () => {
    const clock = manualClock();
    const stores = await openTestStores({ authFailLimit: 3, authFailWindowMs: 60_000, now: clock.now });
    const issued = stores.admin.createKey({ tenant: 'acme', label: 'ci' });
    const revoked = stores.admin.createKey({ tenant: 'acme', label: 'old' });
    stores.admin.revokeKey({ tenant: 'acme', label: 'old' });
    stores.refreshKeys();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await serviceErrorOf(() => stores.authenticate({}, '10.0.0.9'))).status).toBe(401);
      clock.nowMs += 1_000;
    }
    for (const headers of [{}, { xApiKey: 'ess_' + '0'.repeat(48) }, { xApiKey: revoked.key }, { authorization: 'Basic x' }]) {
      const flood = await serviceErrorOf(() => stores.authenticate(headers, '10.0.0.9'));
      expect([flood.status, flood.kind, flood.retryAfter]).toEqual([429, 'auth_flood', 57]);
    }
    // a live key from the same address (another tenant behind the same NAT) is still served
    expect((await stores.authenticate({ xApiKey: issued.key }, '10.0.0.9')).tenant).toBe('acme');
    // another address is not affected
    expect((await serviceErrorOf(() => stores.authenticate({}, '10.0.0.10'))).status).toBe(401);
    // the window closes and the address may fail again
    clock.nowMs += 57_000;
    expect((await serviceErrorOf(() => stores.authenticate({}, '10.0.0.9'))).status).toBe(401);
  });

});
