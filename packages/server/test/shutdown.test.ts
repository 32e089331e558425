/**
 * Shutdown lets calls under way finish: close() stops accepting, waits for the running calls,
 * and only then closes the pools and the ledger, so a call that was already running is answered
 * and charged, and a call after close() is refused at the socket.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HTTP_LAYER, passage, startTestServer } from './fixture.js';

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

  it('stops intake first: the answer under way closes its connection, and a request behind it on that connection is never run or charged', async () => {
    const shard = Array.from({ length: 200 }, (_, n) => passage(`p${n}:0`, `sourdough starter note ${n} on hydration and rye flour`));
    const service = await startTestServer([shard, shard.map((p) => ({ ...p, id: `q${p.id}`, pageId: `q${p.pageId}` }))]);
    const opened = () => {
      const socket = connect(service.server.port, '127.0.0.1');
      const state = { received: '' };
      socket.on('data', (chunk) => (state.received += chunk.toString('latin1')));
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      return { socket, state, ended };
    };
    const first = opened();
    // uWS closes a connection on a request pipelined behind one under way (README, "HTTP
    // layers"): there the request behind comes on a second kept-alive connection, opened before.
    const behind = HTTP_LAYER === 'uws' ? opened() : first;
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${service.key}\r\n\r\n`;
    if (behind !== first) {
      behind.socket.write(request('/healthz'));
      while (!behind.state.received.includes('\r\n\r\nok')) await new Promise((resolve) => setTimeout(resolve, 2));
      behind.state.received = '';
    }
    first.socket.write(request('/ground?objective=sourdough+hydration'));
    while (service.server.services.inFlight.count < 1) await new Promise((resolve) => setTimeout(resolve, 2));
    const closed = service.server.close();
    // The same connection (or the other kept-alive one), after close() began: intake has stopped.
    behind.socket.write(request('/search?q=sourdough'));
    await closed;
    await Promise.all([first.ended, behind.ended]);
    const received = first === behind ? first.state.received : first.state.received + behind.state.received;
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    // The ground call under way is answered with `connection: close`; the search sent behind it
    // is refused (503, or dropped with the connection the client was told to close).
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(1).every((status) => status === 503)).toBe(true);
    expect(received).toMatch(/connection: close/i);
    const database = new BetterSqlite3(join(service.dataDir, 'accounts.sqlite'), { readonly: true });
    const charged = database.prepare('SELECT route, COUNT(*) AS calls FROM usage_ledger GROUP BY route').all() as { route: string; calls: number }[];
    database.close();
    expect(charged).toEqual([{ route: 'ground', calls: 1 }]);
    rmSync(service.dataDir, { recursive: true, force: true });
  });
});
