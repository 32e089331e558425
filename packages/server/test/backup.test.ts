/**
 * Backing up DATA_DIR as the README's "Backing up DATA_DIR" says: the accounts database copied
 * by `npm run keys -- backup` while a real server serves and charges, restored by the steps
 * given there; and a stopped DATA_DIR copied whole to another path serving as the original did.
 * The console runs as a child process, as an operator runs it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig, startServer, type RunningServer } from '@evidence/server';
import { afterAll, describe, expect, it } from 'vitest';
import { createLiveKey } from './accounts-helpers.js';
import { passage, startTestServer } from './fixture.js';

const KEYS_CLI = fileURLToPath(new URL('../../stores/dist/cli.js', import.meta.url));

function keys(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [KEYS_CLI, ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const shards = () => [
  Array.from({ length: 20 }, (_, n) => passage(`a${n}:0`, `sourdough starter number ${n} needs flour and water`)),
  Array.from({ length: 20 }, (_, n) => passage(`b${n}:0`, `rye bread number ${n} with a sourdough crust`)),
];

const cleanup: string[] = [];
const running: RunningServer[] = [];
afterAll(async () => {
  for (const server of running) await server.close();
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

async function serve(dataDir: string): Promise<{ get: (path: string, key: string) => Promise<Response>; server: RunningServer }> {
  const server = await startServer(readConfig({ DATA_DIR: dataDir, PORT: '0', KEY_REFRESH_MS: '50', LOG_LEVEL: 'silent' }));
  running.push(server);
  return { server, get: (path, key) => fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { 'x-api-key': key } }) };
}

async function used(get: (path: string, key: string) => Promise<Response>, key: string): Promise<number> {
  const account = await get('/account', key);
  expect(account.status).toBe(200);
  return ((await account.json()) as { credits_used_this_period: number }).credits_used_this_period;
}

describe('backing up DATA_DIR', () => {
  it('copies the accounts while serving; the restore brings back the keys and charges of that instant', async () => {
    const service = await startTestServer(shards());
    cleanup.push(service.dataDir);
    const backupDir = mkdtempSync(join(tmpdir(), 'accounts-backup-'));
    cleanup.push(backupDir);
    const backup = join(backupDir, 'accounts.sqlite');

    const before = createLiveKey(service);
    for (let call = 0; call < 3; call++) expect((await service.get('/search?q=sourdough', { 'x-api-key': before.key })).status).toBe(200);
    const copied = keys(service.dataDir, 'backup', '--to', backup);
    expect(copied.stderr).toBe('');
    expect(copied.status).toBe(0);
    expect(copied.stdout).toMatch(/^accounts backed up to .*accounts\.sqlite as of \d{4}-\d\d-\d\dT/);
    // a second backup to the same file is refused, the first left as it was
    const again = keys(service.dataDir, 'backup', '--to', backup);
    expect([again.status, again.stderr]).toEqual([1, `error: ${backup} exists: a backup goes to a new file\n`]);

    // after the backup: more charges, a new key, the old key revoked
    for (let call = 0; call < 2; call++) expect((await service.get('/search?q=sourdough', { 'x-api-key': before.key })).status).toBe(200);
    const after = createLiveKey(service);
    expect((await service.get('/search?q=rye', { 'x-api-key': after.key })).status).toBe(200);
    expect(keys(service.dataDir, 'revoke', '--tenant', before.tenant, '--label', before.label).status).toBe(0);
    await service.server.close();

    // the README's restore: servers stopped, the file put back, its WAL files removed
    copyFileSync(backup, join(service.dataDir, 'accounts.sqlite'));
    for (const suffix of ['-wal', '-shm']) rmSync(join(service.dataDir, `accounts.sqlite${suffix}`), { force: true });
    const restored = await serve(service.dataDir);
    expect(await used(restored.get, before.key)).toBe(3);
    expect((await restored.get('/search?q=sourdough', before.key)).status).toBe(200);
    expect((await restored.get('/search?q=sourdough', after.key)).status).toBe(401);
  });

  it('a stopped DATA_DIR copied whole to another path serves the same answers, keys and charges', async () => {
    const service = await startTestServer(shards());
    cleanup.push(service.dataDir);
    const tenant = createLiveKey(service);
    const answer = async (get: (path: string) => Promise<Response>) => {
      const response = await get('/search?q=sourdough+bread&limit=20');
      expect(response.status).toBe(200);
      const body = (await response.json()) as { total: number; results: { id: string; score: number }[] };
      return { total: body.total, hits: body.results.map((hit) => [hit.id, hit.score]) };
    };
    const original = await answer((path) => service.get(path, { 'x-api-key': tenant.key }));
    expect(original.total).toBe(40);
    await service.server.close();

    const copy = join(mkdtempSync(join(tmpdir(), 'data-copy-')), 'data');
    cleanup.push(copy);
    cpSync(service.dataDir, copy, { recursive: true });
    rmSync(service.dataDir, { recursive: true, force: true });
    expect(existsSync(join(copy, 'accounts.sqlite'))).toBe(true);
    const moved = await serve(copy);
    expect(await answer((path) => moved.get(path, tenant.key))).toEqual(original);
    expect(await used(moved.get, tenant.key)).toBe(2);
  });
});
