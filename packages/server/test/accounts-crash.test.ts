/**
 * Slow end to end: the server as a child process, killed with SIGKILL in the middle of a burst
 * of billed calls. Every call that got a 200 must be in the ledger (SPEC 8: billing is settled
 * durably before the answer), read with a fresh SQLite connection and through a restarted server.
 * Each call is made with its own tenant's key, so its row is found by tenant: a count alone
 * would let the rows of calls settled but not yet answered stand in for lost ones. Before the
 * kill the test holds the accounts database for a moment, as the console can: rows then cannot
 * be written, so a server that answered before its row was written loses those calls for sure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountsAdmin, accountsDatabasePath, openAccountsDatabase } from '@evidence/stores';
import { readConfig, startServer, type RunningServer } from '@evidence/server';
import { passage } from './fixture.js';
import BetterSqlite3 from 'better-sqlite3';
import { writeIndex } from './accounts-helpers.js';

const SERVER_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const TOTAL_CALLS = 300;
const CONCURRENCY = 20;
const KILL_AFTER_ANSWERS = 150;

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Starts `node packages/server/dist/main.js` and resolves with its base URL once it listens. */
function startServerProcess(dataDir: string): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', KEY_REFRESH_MS: '50' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    // only this child, by its own handle; a no-op once it has exited
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  const output = () => `stdout:\n${stdout}\nstderr:\n${stderr}`;
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 20 s\n${output()}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/[^\s:]+:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1], output });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening (code ${code}, signal ${signal})\n${output()}`));
    });
  });
}

describe('slow end-to-end: SIGKILL during a burst of billed calls', () => {
  it('every call answered 200 before the kill is in the ledger', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'server-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    writeIndex(dataDir, [
      [passage('a:0', 'feed the sourdough starter daily'), passage('a:1', 'sourdough loaves need a hot oven')],
      [passage('b:0', 'fresh pasta needs eggs'), passage('b:1', 'sourdough pasta is a thing too')],
    ]);

    // the keys exist before the server starts, so its first snapshot already holds them
    const database = openAccountsDatabase(dataDir);
    const admin = new AccountsAdmin(database);
    const callers = Array.from({ length: TOTAL_CALLS }, (_, call) => {
      const tenant = `burst-${call}`;
      return { tenant, key: admin.createKey({ tenant, label: 'load', plan: 'development' }).key };
    });
    database.close();

    const { child, base, output } = await startServerProcess(dataDir);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

    let next = 0;
    let answered200 = 0;
    const answeredTenants: string[] = [];
    let otherStatuses = 0;
    let failed = 0;
    let killedAt: number | null = null;
    let killed: Promise<void> | null = null;
    const killOnce = () => {
      killed ??= (async () => {
        const otherWriter = new BetterSqlite3(accountsDatabasePath(dataDir), { fileMustExist: true });
        otherWriter.pragma('busy_timeout = 5000');
        otherWriter.exec('BEGIN IMMEDIATE');
        // calls go on arriving; none may be answered while its row cannot be written
        await new Promise((resolve) => setTimeout(resolve, 200));
        killedAt = answered200;
        child.kill('SIGKILL');
        await exited;
        otherWriter.exec('ROLLBACK');
        otherWriter.close();
      })();
      return killed;
    };
    const worker = async () => {
      while (next < TOTAL_CALLS) {
        const call = next++;
        try {
          const response = await fetch(`${base}/search?q=sourdough&limit=${call % 5}`, {
            headers: { 'x-api-key': callers[call].key },
            signal: AbortSignal.timeout(10_000),
          });
          // the status line arrives only after the ledger row was settled; the body may be cut
          // off by the kill, which does not undo a settled charge
          if (response.status === 200) {
            answered200 += 1;
            answeredTenants.push(callers[call].tenant);
          } else otherStatuses += 1;
          await response.arrayBuffer().catch(() => undefined);
        } catch {
          failed += 1;
        }
        if (answered200 >= KILL_AFTER_ANSWERS) void killOnce();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // in the unlikely case the whole burst finished first, the kill still happens (after it)
    await killOnce();
    expect(child.signalCode, output()).toBe('SIGKILL');

    expect(otherStatuses, output()).toBe(0);
    expect(killedAt).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERS);
    expect(answered200).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERS);
    expect(answered200 + failed).toBe(TOTAL_CALLS);

    // a fresh connection to the file the killed process left behind
    const ledgerFile = new BetterSqlite3(accountsDatabasePath(dataDir), { fileMustExist: true });
    const rows = ledgerFile.prepare('SELECT tenant, route, credits FROM usage_ledger').all() as { tenant: string; route: string; credits: number }[];
    ledgerFile.close();
    const creditsByTenant = new Map<string, number>();
    for (const row of rows) {
      expect(row.route).toBe('search');
      creditsByTenant.set(row.tenant, (creditsByTenant.get(row.tenant) ?? 0) + row.credits);
    }
    const unbilledAnswers = answeredTenants.filter((tenant) => creditsByTenant.get(tenant) !== 1);
    expect(unbilledAnswers, `answered ${answered200}, failed ${failed}, ${rows.length} rows`).toEqual([]);
    // and nothing billed that could not have run: at most the calls in flight at the kill extra
    expect(rows.length).toBeLessThanOrEqual(answered200 + CONCURRENCY);

    // a restarted server counts the same usage for the period (here the last answered call's)
    const lastAnswered = answeredTenants[answeredTenants.length - 1];
    const key = callers.find((caller) => caller.tenant === lastAnswered)!.key;
    let restarted: RunningServer | null = await startServer(readConfig({ DATA_DIR: dataDir, PORT: '0', KEY_REFRESH_MS: '50' }));
    cleanups.push(async () => {
      await restarted?.close();
      restarted = null;
    });
    const response = await fetch(`http://127.0.0.1:${restarted.port}/account`, { headers: { 'x-api-key': key } });
    expect(response.status).toBe(200);
    const account = (await response.json()) as { credits_used_this_period: number };
    expect(account.credits_used_this_period).toBe(1);
    await restarted.close();
    restarted = null;
  });
});
