import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openTestStores, temporaryDataDir } from './helpers.js';

const CLI_PATH = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

function keys(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('keys console (child process)', () => {
  it('is built', () => {
    expect(existsSync(CLI_PATH), `${CLI_PATH} is missing: run npm run build:ts`).toBe(true);
  });

  it('prints a new key once, alone on its last line, and the key works', async () => {
    const dataDir = temporaryDataDir();
    const created = keys(dataDir, 'create', '--tenant', 'acme', '--label', 'ci');
    expect(created.status).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    const key = lines[lines.length - 1];
    expect(key).toMatch(/^ess_[0-9a-f]{48}$/);
    expect(created.stdout.split(key).length - 1).toBe(1);

    const stores = await openTestStores({ dataDir });
    expect((await stores.authenticate({ authorization: `Bearer ${key}` }, '10.0.0.1')).tenant).toBe('acme');
  });

  it('prints one JSON object with --json', () => {
    const dataDir = temporaryDataDir();
    const created = keys(dataDir, 'create', '--tenant', 'acme', '--label', 'ci', '--plan', 'development', '--json');
    expect(created.status).toBe(0);
    const issued = JSON.parse(created.stdout);
    expect(Object.keys(issued).sort()).toEqual(['key', 'label', 'last4', 'tenant']);
    expect(issued).toMatchObject({ tenant: 'acme', label: 'ci', last4: issued.key.slice(-4) });
  });

  it('lists labels and last four characters without a usable key, then rotates and revokes', () => {
    const dataDir = temporaryDataDir();
    const issued = JSON.parse(keys(dataDir, 'create', '--tenant', 'acme', '--label', 'ci', '--json').stdout);
    const listed = keys(dataDir, 'list');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain(issued.last4);
    expect(listed.stdout).not.toMatch(/[0-9a-f]{12}/);

    const rotated = keys(dataDir, 'rotate', '--tenant', 'acme', '--label', 'ci', '--json');
    expect(rotated.status).toBe(0);
    const replacement = JSON.parse(rotated.stdout);
    const afterRotate = JSON.parse(keys(dataDir, 'list', '--json').stdout);
    expect(afterRotate.map((row: { last4: string; revoked_at: string | null }) => [row.last4, row.revoked_at === null]))
      .toEqual([
        [issued.last4, false],
        [replacement.last4, true],
      ]);

    expect(keys(dataDir, 'revoke', '--tenant', 'acme', '--last4', replacement.last4).status).toBe(0);
    const afterRevoke = JSON.parse(keys(dataDir, 'list', '--tenant', 'acme', '--json').stdout);
    expect(afterRevoke.every((row: { revoked_at: string | null }) => row.revoked_at !== null)).toBe(true);
  });

  it('defines plans and moves, suspends and unsuspends tenants', () => {
    const dataDir = temporaryDataDir();
    keys(dataDir, 'create', '--tenant', 'acme', '--label', 'ci');
    const defined = keys(dataDir, 'plan', 'set', '--name', 'pro', '--rate-per-min', '3000', '--monthly-credits', '0',
      '--hard-cap', 'false', '--metered-billing', 'true');
    expect(defined.status).toBe(0);
    const plans = JSON.parse(keys(dataDir, 'plan', 'list', '--json').stdout);
    expect(plans.find((plan: { name: string }) => plan.name === 'pro')).toEqual({
      name: 'pro', rate_per_min: 3000, monthly_credits: 0, hard_cap: false, metered_billing: true,
    });
    expect(keys(dataDir, 'tenant', 'set-plan', '--tenant', 'acme', '--plan', 'pro').status).toBe(0);
    expect(keys(dataDir, 'tenant', 'suspend', '--tenant', 'acme').status).toBe(0);
    expect(JSON.parse(keys(dataDir, 'tenant', 'list', '--json').stdout)).toMatchObject([
      { name: 'acme', plan: 'pro', suspended: true },
    ]);
    expect(keys(dataDir, 'tenant', 'unsuspend', '--tenant', 'acme').status).toBe(0);
    expect(keys(dataDir, 'tenant', 'suspend', '--tenant', 'nobody')).toMatchObject({ status: 1 });
  });

  it('exits 2 naming the flag on bad usage', () => {
    const dataDir = temporaryDataDir();
    const misspelt = keys(dataDir, 'create', '--tenant', 'acme', '--lable', 'ci');
    expect(misspelt.status).toBe(2);
    expect(misspelt.stderr).toContain('--lable');
    const missing = keys(dataDir, 'create', '--tenant', 'acme');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('missing --label');
    const badBoolean = keys(dataDir, 'plan', 'set', '--name', 'free', '--hard-cap', 'yes');
    expect(badBoolean.status).toBe(2);
    expect(badBoolean.stderr).toContain('--hard-cap must be true or false');
    expect(keys(dataDir, 'frobnicate').status).toBe(2);
  });
});
