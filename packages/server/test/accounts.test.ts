/**
 * Keys, plans and credits end to end (SPEC 2.8, 3.1, 4.6, 5, 7, 8): a real server over a real
 * index and a real SQLite store, driven with fetch; keys and plans made through the console's
 * admin API or the console CLI itself; charges read from /account and from the ledger file.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passage, startTestServer, type TestServer } from './fixture.js';
import {
  createLiveKey,
  creditsUsed,
  ledgerOf,
  minuteIndexNow,
  pollUntil,
  readAccount,
  statusOf,
  withKey,
} from './accounts-helpers.js';

const runFile = promisify(execFile);
const CONSOLE_CLI = fileURLToPath(new URL('../../stores/dist/cli.js', import.meta.url));

/** Well formed (prefix, underscore, 48 hex) but never issued. */
const UNKNOWN_KEY = `ess_${'0'.repeat(48)}`;
const INDEX = [
  [passage('a:0', 'feed the sourdough starter daily'), passage('a:1', 'sourdough bread with a dark crust')],
  [passage('b:0', 'fresh pasta needs eggs')],
];

let service: TestServer;

beforeAll(async () => {
  // this file makes many deliberate 401s from 127.0.0.1: keep them clear of the address limiter,
  // which has its own server below
  service = await startTestServer(INDEX, { AUTH_FAIL_LIMIT: '100000' });
});
afterAll(() => service?.close());

async function unauthenticatedBody(): Promise<string> {
  const response = await service.get('/search?q=bread', {});
  expect(response.status).toBe(401);
  return response.text();
}

describe('presenting a key (SPEC 5)', () => {
  it('accepts x-api-key and Authorization: Bearer on every priced route and on /account', async () => {
    const { key } = createLiveKey(service);
    for (const path of ['/search?q=sourdough', '/doc/a:0', '/account']) {
      expect(await statusOf(service, path, { 'x-api-key': key }), `x-api-key ${path}`).toBe(200);
      expect(await statusOf(service, path, { authorization: `Bearer ${key}` }), `Bearer ${path}`).toBe(200);
    }
  });

  it('lets x-api-key win when both headers are sent', async () => {
    const { key } = createLiveKey(service);
    // a valid x-api-key with a bogus bearer works
    expect(await statusOf(service, '/search?q=sourdough', { 'x-api-key': key, authorization: `Bearer ${UNKNOWN_KEY}` })).toBe(200);
    expect(await statusOf(service, '/search?q=sourdough', { 'x-api-key': key, authorization: 'Bearer garbage' })).toBe(200);
    // a bogus x-api-key with a valid bearer is refused: the bearer is never consulted
    const bogusWins = await service.get('/search?q=sourdough', { 'x-api-key': UNKNOWN_KEY, authorization: `Bearer ${key}` });
    expect(bogusWins.status).toBe(401);
    expect(await bogusWins.text()).toBe(await unauthenticatedBody());
  });

  it('refuses a lowercase or space-less Bearer prefix', async () => {
    const { key } = createLiveKey(service);
    const expected = await unauthenticatedBody();
    for (const authorization of [`bearer ${key}`, `BEARER ${key}`, `Bearer${key}`, key]) {
      const response = await service.get('/search?q=sourdough', { authorization });
      expect(response.status, authorization.slice(0, 8)).toBe(401);
      expect(await response.text()).toBe(expected);
    }
  });

  it('answers missing, malformed, unknown and revoked keys with one identical plain-text 401', async () => {
    const { tenant, label, key } = createLiveKey(service);
    expect(await statusOf(service, '/search?q=sourdough', withKey(key))).toBe(200);
    service.server.services.stores.admin.revokeKey({ tenant, label });
    service.server.services.stores.refreshKeys();

    const cases: Array<[string, Record<string, string>]> = [
      ['missing', {}],
      ['malformed', { 'x-api-key': 'not-a-key' }],
      ['unknown', { 'x-api-key': UNKNOWN_KEY }],
      ['unknown bearer', { authorization: `Bearer ${UNKNOWN_KEY}` }],
      ['revoked', { 'x-api-key': key }],
      ['revoked bearer', { authorization: `Bearer ${key}` }],
    ];
    const bodies = new Set<string>();
    for (const path of ['/search?q=sourdough', '/doc/a:0', '/account']) {
      for (const [name, headers] of cases) {
        const response = await service.get(path, headers);
        expect(response.status, `${name} on ${path}`).toBe(401);
        expect(response.headers.get('content-type'), `${name} on ${path}`).toMatch(/^text\/plain/);
        expect(response.headers.get('retry-after'), `${name} on ${path}`).toBeNull();
        bodies.add(await response.text());
      }
    }
    expect(bodies.size).toBe(1);
    expect([...bodies][0].length).toBeGreaterThan(0);
  });
});

describe('key lifecycle (SPEC 3.1)', () => {
  it('a key created with the console CLI authenticates once the snapshot refreshes', async () => {
    const tenant = `cli-${process.pid}`;
    const { stdout } = await runFile(
      process.execPath,
      [CONSOLE_CLI, 'create', '--tenant', tenant, '--label', 'ci', '--plan', 'development', '--json'],
      { env: { ...process.env, DATA_DIR: service.dataDir }, timeout: 20_000 },
    );
    const issued = JSON.parse(stdout.trim()) as { tenant: string; label: string; key: string; last4: string };
    expect(issued).toMatchObject({ tenant, label: 'ci' });
    expect(issued.key).toMatch(/^ess_[0-9a-f]{48}$/);

    // right away: either not yet propagated (401) or already live (200), nothing else
    const first = await statusOf(service, '/search?q=sourdough', withKey(issued.key));
    expect([200, 401]).toContain(first);

    // KEY_REFRESH_MS is 50 in the fixture; the timer alone must bring it live (no refreshKeys here)
    const live = await pollUntil(() => statusOf(service, '/search?q=sourdough', withKey(issued.key)), (status) => status === 200, {
      timeoutMs: 2_000,
    });
    expect(live.value).toBe(200);
    const { body } = await readAccount(service, issued.key);
    expect(body).toMatchObject({ tenant, plan: 'development' });
  });

  it('rotate: the new key works after the refresh and from then on the old one is 401', async () => {
    const { tenant, label, key: oldKey } = createLiveKey(service);
    expect(await statusOf(service, '/search?q=sourdough', withKey(oldKey))).toBe(200);
    const rotated = service.server.services.stores.admin.rotateKey({ tenant, label });
    expect(rotated.key).not.toBe(oldKey);

    // wait for the timer-driven refresh (no refreshKeys here). Each probe asks the new key first,
    // then the old one: once the new key has answered, the old one must already be refused
    const seen: Array<{ fresh: number; old: number }> = [];
    const live = await pollUntil(
      async () => {
        const fresh = await statusOf(service, '/search?q=sourdough', withKey(rotated.key));
        const old = await statusOf(service, '/account', withKey(oldKey));
        seen.push({ fresh, old });
        return { fresh, old };
      },
      ({ fresh }) => fresh === 200,
      { timeoutMs: 2_000 },
    );
    for (const probe of seen) {
      expect([200, 401]).toContain(probe.fresh);
      if (probe.fresh === 200) expect(probe.old).toBe(401);
    }
    expect(live.value.fresh).toBe(200);
    // once the new key answered, the old one is refused, on every route
    for (const path of ['/search?q=sourdough', '/doc/a:0', '/account']) {
      expect(await statusOf(service, path, withKey(oldKey)), path).toBe(401);
    }
    expect(await statusOf(service, '/account', withKey(rotated.key))).toBe(200);
    // the usage belongs to the tenant, not the key: the new key sees what the old key spent
    expect(await creditsUsed(service, rotated.key)).toBe(2);
  });

  it('revoke: the key answers 401 after the refresh', async () => {
    const { tenant, label, key } = createLiveKey(service);
    expect(await statusOf(service, '/search?q=sourdough', withKey(key))).toBe(200);
    service.server.services.stores.admin.revokeKey({ tenant, label });
    // poll with /account (no credits) so the wait itself bills nothing
    const refused = await pollUntil(() => statusOf(service, '/account', withKey(key)), (status) => status === 401, {
      timeoutMs: 2_000,
    });
    expect(refused.value).toBe(401);
    expect(await statusOf(service, '/search?q=sourdough', withKey(key))).toBe(401);
    expect(await statusOf(service, '/doc/a:0', withKey(key))).toBe(401);
    expect(ledgerOf(service.dataDir, tenant).credits).toBe(1);
  });

  it('suspend answers 402 as plain text on every route and bills nothing; unsuspend restores 200', async () => {
    const { tenant, key } = createLiveKey(service);
    expect(await statusOf(service, '/search?q=sourdough', withKey(key))).toBe(200);
    const admin = service.server.services.stores.admin;
    admin.suspendTenant(tenant);
    const suspended = await pollUntil(() => statusOf(service, '/account', withKey(key)), (status) => status === 402, {
      timeoutMs: 2_000,
    });
    expect(suspended.value).toBe(402);
    for (const path of ['/search?q=sourdough', '/doc/a:0', '/doc/nope:1', '/account']) {
      const response = await service.get(path, withKey(key));
      expect(response.status, path).toBe(402);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/plain/);
      expect(response.headers.get('retry-after'), path).toBeNull();
      expect((await response.text()).length, path).toBeGreaterThan(0);
    }
    // Bearer is refused the same way
    expect(await statusOf(service, '/search?q=sourdough', { authorization: `Bearer ${key}` })).toBe(402);

    admin.unsuspendTenant(tenant);
    const back = await pollUntil(() => statusOf(service, '/account', withKey(key)), (status) => status === 200, {
      timeoutMs: 2_000,
    });
    expect(back.value).toBe(200);
    expect(await statusOf(service, '/search?q=sourdough', withKey(key))).toBe(200);
    // two searches billed (before and after); nothing while suspended
    expect(await creditsUsed(service, key)).toBe(2);
    expect(ledgerOf(service.dataDir, tenant)).toMatchObject({ rows: 2, credits: 2 });
  });
});

describe('charges per route (SPEC 8)', () => {
  it('search 1, doc 1, unknown doc 1, malformed 0, /account 0', async () => {
    const { tenant, key } = createLiveKey(service);
    const steps: Array<{ path: string; status: number; cost: number }> = [
      { path: '/account', status: 200, cost: 0 },
      { path: '/search?q=sourdough', status: 200, cost: 1 },
      { path: '/doc/b:0', status: 200, cost: 1 },
      { path: '/doc/nope:7', status: 404, cost: 1 },
      { path: '/search?q=bread&limit=ten', status: 400, cost: 0 },
      { path: '/search?limit=5', status: 400, cost: 0 },
      { path: '/search?q=bread&mode=fuzzy', status: 400, cost: 0 },
      { path: '/account', status: 200, cost: 0 },
      { path: '/search?q=zzzznothing', status: 200, cost: 1 },
    ];
    let expectedTotal = 0;
    for (const step of steps) {
      const before = await creditsUsed(service, key);
      expect(before, `before ${step.path}`).toBe(expectedTotal);
      expect(await statusOf(service, step.path, withKey(key)), step.path).toBe(step.status);
      const after = await creditsUsed(service, key);
      expect(after - before, `cost of ${step.path} (${step.status})`).toBe(step.cost);
      expectedTotal += step.cost;
    }
    expect(expectedTotal).toBe(4);
    // the ledger row of a billed call is durable before its answer: no waiting needed
    const ledger = ledgerOf(service.dataDir, tenant);
    expect(ledger).toEqual({
      rows: 4,
      credits: 4,
      byRoute: { search: { rows: 2, credits: 2 }, doc: { rows: 2, credits: 2 } },
    });
  });

  it('a doc id that is not valid percent-encoding is a free 400, and the server keeps serving', async () => {
    const { tenant, key } = createLiveKey(service);
    // keyless first: refused as 401 like any other keyless call
    expect(await statusOf(service, '/doc/%', {})).toBe(401);
    for (const path of ['/doc/%', '/doc/%E0%A4%A', '/doc/a%3']) {
      const response = await service.get(path, withKey(key));
      expect(response.status, path).toBe(400);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/plain/);
      expect(await response.text(), path).toContain('parameter id');
    }
    // a well-formed encoding of a real id still decodes
    expect(await statusOf(service, '/doc/a%3A0', withKey(key))).toBe(200);
    expect(await statusOf(service, '/healthz', {})).toBe(200);
    expect(await creditsUsed(service, key)).toBe(1);
    expect(ledgerOf(service.dataDir, tenant)).toMatchObject({ rows: 1, credits: 1 });
  });

  it('every billed answer and every /account answer carry x-ratelimit-remaining', async () => {
    const { key } = createLiveKey(service, {
      settings: { ratePerMin: 1_000, monthlyCredits: 0, hardCap: false, meteredBilling: false },
    });
    for (const [path, status] of [['/search?q=sourdough', 200], ['/doc/nope:1', 404], ['/search?q=x&limit=ten', 400], ['/account', 200]] as const) {
      const response = await service.get(path, withKey(key));
      await response.arrayBuffer();
      expect(response.status, path).toBe(status);
      const remaining = response.headers.get('x-ratelimit-remaining');
      expect(remaining, path).toMatch(/^\d+$/);
      expect(Number(remaining), path).toBeLessThanOrEqual(1_000);
    }
  });
});

describe('per-minute window (SPEC 7 429a, 8)', () => {
  it('three calls on rate_per_min 3, then 429 with retry-after in seconds; remaining counts 2, 1, 0', async () => {
    // the window is the fixed UTC minute: if a minute boundary falls inside the attempt, the
    // counts legitimately reset, so that attempt is retried with a fresh tenant
    for (let attempt = 1; ; attempt++) {
      const { tenant, key } = createLiveKey(service, {
        settings: { ratePerMin: 3, monthlyCredits: 0, hardCap: false, meteredBilling: false },
      });
      const minuteAtStart = minuteIndexNow();
      const remaining: Array<string | null> = [];
      const statuses: number[] = [];
      for (let call = 0; call < 3; call++) {
        const response = await service.get('/search?q=sourdough', withKey(key));
        await response.arrayBuffer();
        statuses.push(response.status);
        remaining.push(response.headers.get('x-ratelimit-remaining'));
      }
      const refused = await service.get('/search?q=sourdough', withKey(key));
      const refusedBody = await refused.text();
      const account = await service.get('/account', withKey(key));
      await account.arrayBuffer();
      if (minuteIndexNow() !== minuteAtStart && attempt < 3) continue;

      expect(statuses).toEqual([200, 200, 200]);
      expect(remaining).toEqual(['2', '1', '0']);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(refusedBody.length).toBeGreaterThan(0);
      const retryAfter = refused.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      // /account also needs a per-minute token (SPEC 4.6), so it is refused the same way
      expect(account.status).toBe(429);
      expect(Number(account.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // the refused calls were not billed
      expect(ledgerOf(service.dataDir, tenant)).toMatchObject({ rows: 3, credits: 3 });
      break;
    }
  });

  it('/account takes one token from the minute but no credits', async () => {
    for (let attempt = 1; ; attempt++) {
      const { key } = createLiveKey(service, {
        settings: { ratePerMin: 5, monthlyCredits: 0, hardCap: false, meteredBilling: false },
      });
      const minuteAtStart = minuteIndexNow();
      const answers: Array<{ status: number; remaining: string | null; used: number | null }> = [];
      for (let call = 0; call < 6; call++) {
        const response = await service.get('/account', withKey(key));
        const body = response.status === 200 ? await response.json() : (await response.text(), null);
        answers.push({ status: response.status, remaining: response.headers.get('x-ratelimit-remaining'), used: body?.credits_used_this_period ?? null });
      }
      if (minuteIndexNow() !== minuteAtStart && attempt < 3) continue;
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(answers.map((answer) => answer.remaining)).toEqual(['4', '3', '2', '1', '0', '0']);
      expect(answers.slice(0, 5).map((answer) => answer.used)).toEqual([0, 0, 0, 0, 0]);
      break;
    }
  });
});

describe('monthly allowance (SPEC 2.8, 7 429b, 8)', () => {
  it('hard cap: two calls on monthly_credits 2, then 429 without retry-after; /account still answers', async () => {
    const { tenant, key } = createLiveKey(service, {
      settings: { ratePerMin: 1_000, monthlyCredits: 2, hardCap: true, meteredBilling: false },
    });
    expect(await statusOf(service, '/search?q=sourdough', withKey(key))).toBe(200);
    expect(await statusOf(service, '/doc/a:0', withKey(key))).toBe(200);
    for (const path of ['/search?q=sourdough', '/doc/a:0', '/doc/nope:2', '/search?q=sourdough']) {
      const refused = await service.get(path, withKey(key));
      expect(refused.status, path).toBe(429);
      expect(refused.headers.get('retry-after'), path).toBeNull();
      expect(refused.headers.get('content-type'), path).toMatch(/^text\/plain/);
      expect((await refused.text()).length).toBeGreaterThan(0);
    }
    // a malformed call is still a 400: validation comes before the allowance and costs nothing
    expect(await statusOf(service, '/search?q=x&limit=ten', withKey(key))).toBe(400);

    const { response, body } = await readAccount(service, key);
    expect(response.status).toBe(200);
    expect(body).toMatchObject({
      monthly_credits: 2,
      credits_used_this_period: 2,
      credits_remaining: 0,
      hard_cap: true,
      metered_billing: false,
      monthly_quota: 2,
      usage_this_period: 2,
      quota_remaining: 0,
    });
    expect(ledgerOf(service.dataDir, tenant)).toMatchObject({ rows: 2, credits: 2 });
  });

  it('hard cap under concurrency: of 12 simultaneous calls on monthly_credits 3, exactly 3 answer and are billed', async () => {
    const { tenant, key } = createLiveKey(service, {
      settings: { ratePerMin: 1_000, monthlyCredits: 3, hardCap: true, meteredBilling: false },
    });
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, call) => {
        const response = await service.get(call % 2 ? '/doc/a:0' : '/search?q=sourdough', withKey(key));
        await response.arrayBuffer();
        return { status: response.status, retryAfter: response.headers.get('retry-after') };
      }),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(9);
    for (const answer of refused) expect(answer).toEqual({ status: 429, retryAfter: null });
    expect((await readAccount(service, key)).body).toMatchObject({ credits_used_this_period: 3, credits_remaining: 0 });
    expect(ledgerOf(service.dataDir, tenant)).toMatchObject({ rows: 3, credits: 3 });
  });

  it('metered overage: without a cap and with metered billing, calls past the allowance still answer and are billed', async () => {
    const { tenant, key } = createLiveKey(service, {
      settings: { ratePerMin: 1_000, monthlyCredits: 2, hardCap: false, meteredBilling: true },
    });
    const statuses: number[] = [];
    for (let call = 0; call < 4; call++) statuses.push(await statusOf(service, '/search?q=sourdough', withKey(key)));
    expect(statuses).toEqual([200, 200, 200, 200]);
    const { body } = await readAccount(service, key);
    expect(body).toMatchObject({
      monthly_credits: 2,
      credits_used_this_period: 4,
      usage_this_period: 4,
      hard_cap: false,
      metered_billing: true,
    });
    // remaining never goes negative (SPEC 2.8 gives no negative meaning)
    expect(body.credits_remaining).toBe(0);
    expect(body.quota_remaining).toBe(0);
    expect(ledgerOf(service.dataDir, tenant)).toMatchObject({ rows: 4, credits: 4 });
  });
});

describe('GET /account fields (SPEC 2.8)', () => {
  const FIELDS = [
    'tenant', 'plan', 'rate_per_min', 'monthly_credits', 'credits_used_this_period', 'credits_remaining',
    'period_start_unix', 'hard_cap', 'metered_billing', 'monthly_quota', 'usage_this_period', 'quota_remaining',
  ];

  function currentPeriodStartsUnix(): number[] {
    const now = new Date();
    return [Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000];
  }

  it('a limited plan: every field, aliases equal to their replacements, period start in UTC', async () => {
    const { tenant, key } = createLiveKey(service, {
      plan: `limited-${process.pid}`,
      settings: { ratePerMin: 77, monthlyCredits: 50, hardCap: true, meteredBilling: false },
    });
    expect(await statusOf(service, '/search?q=sourdough', withKey(key))).toBe(200);
    expect(await statusOf(service, '/doc/nope:3', withKey(key))).toBe(404);

    const periodsBefore = currentPeriodStartsUnix();
    const { response, body } = await readAccount(service, key);
    const periods = [...periodsBefore, ...currentPeriodStartsUnix()];
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    for (const field of FIELDS) expect(body, field).toHaveProperty(field);
    expect(body).toEqual({
      tenant,
      plan: `limited-${process.pid}`,
      rate_per_min: 77,
      monthly_credits: 50,
      credits_used_this_period: 2,
      credits_remaining: 48,
      period_start_unix: body.period_start_unix,
      hard_cap: true,
      metered_billing: false,
      monthly_quota: 50,
      usage_this_period: 2,
      quota_remaining: 48,
    });
    expect(body.monthly_quota).toBe(body.monthly_credits);
    expect(body.usage_this_period).toBe(body.credits_used_this_period);
    expect(body.quota_remaining).toBe(body.credits_remaining);
    expect(Number.isInteger(body.period_start_unix)).toBe(true);
    expect(periods).toContain(body.period_start_unix);
    // the first second of a month, 00:00:00 UTC on day 1
    const start = new Date(body.period_start_unix * 1000);
    expect([start.getUTCDate(), start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()]).toEqual([1, 0, 0, 0]);
    expect(body.period_start_unix).toBeLessThanOrEqual(Date.now() / 1000);
  });

  it('an unlimited plan: credits_remaining and quota_remaining are null, monthly_credits 0', async () => {
    const { tenant, key } = createLiveKey(service, {
      settings: { ratePerMin: 500, monthlyCredits: 0, hardCap: true, meteredBilling: false },
    });
    expect(await statusOf(service, '/search?q=sourdough', withKey(key))).toBe(200);
    const { body } = await readAccount(service, key);
    for (const field of FIELDS) expect(body, field).toHaveProperty(field);
    expect(body).toMatchObject({
      tenant,
      rate_per_min: 500,
      monthly_credits: 0,
      monthly_quota: 0,
      credits_used_this_period: 1,
      usage_this_period: 1,
      credits_remaining: null,
      quota_remaining: null,
    });
    expect(periodsContain(body.period_start_unix)).toBe(true);
  });

  it('the built-in free plan is what a new tenant gets without --plan', async () => {
    const tenant = `free-${process.pid}`;
    const issued = service.server.services.stores.admin.createKey({ tenant, label: 'main' });
    service.server.services.stores.refreshKeys();
    const { body } = await readAccount(service, issued.key);
    expect(body).toMatchObject({
      tenant,
      plan: 'free',
      monthly_credits: 10_000,
      credits_remaining: 10_000,
      hard_cap: true,
      metered_billing: false,
      credits_used_this_period: 0,
    });
  });

  function periodsContain(value: number): boolean {
    return currentPeriodStartsUnix().includes(value);
  }
});

describe('plan changes reach a running server', () => {
  it('a plan edited with the console applies at the next refresh', async () => {
    const { key } = createLiveKey(service, {
      settings: { ratePerMin: 100, monthlyCredits: 10, hardCap: true, meteredBilling: false },
    });
    expect((await readAccount(service, key)).body).toMatchObject({ monthly_credits: 10, credits_remaining: 10 });
    const plan = (await readAccount(service, key)).body.plan;
    await runFile(process.execPath, [CONSOLE_CLI, 'plan', 'set', '--name', plan, '--monthly-credits', '20'], {
      env: { ...process.env, DATA_DIR: service.dataDir },
      timeout: 20_000,
    });
    const changed = await pollUntil(() => readAccount(service, key).then(({ body }) => body.monthly_credits), (credits) => credits === 20, {
      timeoutMs: 2_000,
    });
    expect(changed.value).toBe(20);
  });
});

describe('failed authentications per address (SPEC 5.7, 7 429c)', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer(INDEX, { AUTH_FAIL_LIMIT: '5', AUTH_FAIL_WINDOW_MS: '60000' });
  });
  afterAll(() => limited?.close());

  it('keyless calls from one address turn into 429 with retry-after; probes still answer', async () => {
    const statuses: number[] = [];
    let refused: Response | null = null;
    for (let call = 0; call < 20 && refused === null; call++) {
      const path = call % 2 === 0 ? '/search?q=sourdough' : '/account';
      const headers: Record<string, string> = call % 3 === 0 ? { 'x-api-key': UNKNOWN_KEY } : {};
      const response = await limited.get(path, headers);
      statuses.push(response.status);
      if (response.status === 429) refused = response;
      else await response.arrayBuffer();
    }
    expect(refused).not.toBeNull();
    // the limit is 5 failures, so the sixth call is the first refused one
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const retryAfter = refused!.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(refused!.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await refused!.text()).length).toBeGreaterThan(0);

    // still refused on the next calls, whatever the route
    for (const path of ['/search?q=sourdough', '/doc/a:0', '/account']) {
      const again = await limited.get(path, {});
      expect(again.status, path).toBe(429);
      expect(Number(again.headers.get('retry-after')), path).toBeGreaterThanOrEqual(1);
      await again.arrayBuffer();
    }

    // a live key from the same address (another tenant behind the same NAT or proxy) is served,
    // over REST and MCP alike, while keyless and unknown-key calls stay refused
    const { key } = createLiveKey(limited);
    const served = await limited.get('/search?q=sourdough', { 'x-api-key': key });
    expect(served.status).toBe(200);
    await served.arrayBuffer();
    const mcp = await fetch(`${limited.base}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    await mcp.arrayBuffer();
    const unknown = await limited.get('/search?q=sourdough', { 'x-api-key': UNKNOWN_KEY });
    expect(unknown.status).toBe(429);
    await unknown.arrayBuffer();

    // probes need no key and are never refused
    const health = await limited.get('/healthz', {});
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok');
    const ready = await limited.get('/readyz', {});
    expect(ready.status).toBe(200);
    await ready.arrayBuffer();
  });
});
