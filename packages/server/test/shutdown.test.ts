/**
 * Shutdown lets calls under way finish: close() stops accepting, waits for the running calls,
 * and only then closes the pools and the ledger, so a call that was already running is answered
 * and charged, and a call after close() is refused at the socket.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { passage, startTestServer } from './fixture.js';

describe('server shutdown', () => {
  it('answers and charges the calls under way, then stops listening', async () => {
    const shard = Array.from({ length: 200 }, (_, n) => passage(`p${n}:0`, `sourdough starter note ${n} on hydration and rye flour`));
    const service = await startTestServer([shard, shard.map((p) => ({ ...p, id: `q${p.id}`, pageId: `q${p.pageId}` }))]);
    const calls = Array.from({ length: 8 }, (_, n) => service.get(`/ground?objective=${encodeURIComponent(`sourdough hydration ${n}`)}`));
    // Let the requests reach the server before it starts closing.
    while (service.server.services.inFlight.count < 8) await new Promise((resolve) => setTimeout(resolve, 2));
    const closed = service.server.close();
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    await closed;
    await expect(fetch(`${service.base}/healthz`)).rejects.toThrow();
    const database = new BetterSqlite3(join(service.dataDir, 'accounts.sqlite'), { readonly: true });
    const charged = database.prepare("SELECT COUNT(*) AS calls FROM usage_ledger WHERE route = 'ground'").get() as { calls: number };
    database.close();
    expect(charged.calls).toBe(8);
    rmSync(service.dataDir, { recursive: true, force: true });
  });
});
