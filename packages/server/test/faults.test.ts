/**
 * Faults an operator meets: the accounts database locked by another process, a segment file
 * damaged while the service was down, a disk that fills during ingest, a damaged manifest. Each
 * gives its documented answer (503 with retry-after, partial, a clear error), never a hang, a
 * crash, or a complete answer over missing data. Real files, a real SQLite lock held by a second
 * connection, a real size-limited tmpfs, the real ingest command.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { shardDirectory } from '@evidence/native';
import { accountsDatabasePath } from '@evidence/stores';
import { readConfig, startServer } from '@evidence/server';
import { describe, expect, it } from 'vitest';
import { createLiveKey, ledgerOf, withKey } from './accounts-helpers.js';
import { passage, startTestServer } from './fixture.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));

const shards = () => [
  Array.from({ length: 20 }, (_, n) => passage(`a${n}:0`, `bread and water number ${n}`)),
  Array.from({ length: 20 }, (_, n) => passage(`b${n}:0`, `bread and water number ${n}`)),
];

describe('faults', () => {
  it('the ledger database locked by another process: 503 with retry-after, nothing charged, then service again', async () => {
    const service = await startTestServer(shards());
    try {
      const { key, tenant } = createLiveKey(service);
      const locker = new BetterSqlite3(accountsDatabasePath(service.dataDir));
      locker.exec('BEGIN EXCLUSIVE');
      const started = Date.now();
      const locked = await service.get('/search?q=bread', withKey(key));
      expect(locked.status).toBe(503);
      expect(locked.headers.get('retry-after')).toBe('1');
      expect(locked.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await locked.text()).toMatch(/accounts store is busy/);
      expect(Date.now() - started).toBeLessThan(15_000);
      locker.exec('COMMIT');
      locker.close();
      const again = await service.get('/search?q=bread', withKey(key));
      expect(again.status).toBe(200);
      const account = (await (await service.get('/account', withKey(key))).json()) as { credits_used_this_period: number };
      expect(account.credits_used_this_period).toBe(1);
      expect(ledgerOf(service.dataDir, tenant).rows).toBe(1);
    } finally {
      await service.close();
    }
  }, 30_000);

  it('a segment file damaged while the service was down: that shard is down, answers partial', async () => {
    const service = await startTestServer(shards(), {}, {
      beforeStart: (dataDir) => {
        const directory = shardDirectory(dataDir, 1);
        for (const file of readdirSync(directory).filter((name) => /\.(idx|term|store)$/.test(name))) truncateSync(join(directory, file), 7);
      },
    });
    try {
      const search = await service.get('/search?q=bread&mode=keyword');
      expect(search.status).toBe(200);
      expect(((await search.json()) as { partial?: boolean }).partial).toBe(true);
      expect((await fetch(`${service.base}/healthz`)).status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('a damaged manifest is a clear error at start, naming the file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'faults-'));
    try {
      writeFileSync(join(dataDir, 'index.json'), '{"shards": 2, "dimen');
      await expect(startServer(readConfig({ DATA_DIR: dataDir, PORT: '0' }))).rejects.toThrow(/index\.json is not a readable index manifest/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('a disk that fills during ingest (size-limited tmpfs; needs root to mount)', () => {
    const mountPoint = mkdtempSync(join(tmpdir(), 'full-disk-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint]).status === 0;
    it.skipIf(!mounted)('fails with a message naming the full disk; the index keeps its last commit and serves; a run with room completes', async () => {
      const corpus = join(mountPoint, '..', `${process.pid}-corpus.jsonl`);
      const dataDir = join(mountPoint, 'data');
      try {
        execFileSync('node', [join(repository, 'packages/demo-corpus/dist/demo-corpus.js'), '--passages', '4000', '--now', '1795000000', '--out', corpus]);
        const run = () => spawnSync('node', [join(repository, 'packages/ingest/dist/cli.js'), corpus], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
        const full = run();
        expect(full.status).toBe(1);
        expect(full.stderr).toMatch(/ingest failed: .*the disk holding .* is full/);
        // Room again: the index opens whole (nothing half written), and the same run completes.
        execFileSync('mount', ['-o', 'remount,size=256m', mountPoint]);
        const server = await startServer(readConfig({ DATA_DIR: dataDir, PORT: '0' }));
        try {
          const key = (await server.services.stores.ensureDevelopmentKey())!;
          const answer = (await (await fetch(`http://127.0.0.1:${server.port}/search?q=bread`, { headers: withKey(key) })).json()) as { partial?: boolean };
          expect(answer.partial ?? false).toBe(false);
        } finally {
          await server.close();
        }
        const again = run();
        expect(again.stderr).not.toMatch(/ingest failed/);
        expect(again.status).toBe(0);
      } finally {
        spawnSync('umount', [mountPoint]);
        rmSync(corpus, { force: true });
        rmSync(mountPoint, { recursive: true, force: true });
      }
    }, 120_000);
  });
});
