import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ShardWriter, ensureManifest, shardDirectory, type Passage } from '@evidence/native';
import { ShardPool, settleWithin } from '@evidence/pool';

function passage(id: string, text: string): Passage {
  const [pageId, passageNo] = id.split(':');
  return {
    id, pageId, passageNo: Number(passageNo), url: `https://example.org/${pageId}`, host: 'example.org',
    registrableDomain: 'example.org', owner: 'example.org', title: `Page ${pageId}`, text, vertical: 'cooking',
    lang: 'en', hostRank: 0.5, quality: 50, fetchedAt: 1_700_000_000, source: 'cc', storyId: `s-${id}`, tld: 'org',
    wordCount: text.split(/\s+/).length,
  };
}

function writeShard(dataDir: string, shard: number, passages: Passage[]) {
  const writer = ShardWriter.open(shardDirectory(dataDir, shard));
  writer.add(passages);
  writer.commit();
  writer.close();
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function twoShardIndex() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pool-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  ensureManifest(dataDir, 2);
  writeShard(dataDir, 0, [
    passage('a:0', 'sourdough starter needs flour and water'),
    passage('a:1', 'sourdough sourdough sourdough bread'),
  ]);
  writeShard(dataDir, 1, [passage('b:0', 'a rye sourdough loaf'), passage('b:1', 'fresh pasta with eggs')]);
  return dataDir;
}

function openPool(dataDir: string, shards = 2, maxQueue = 64) {
  const pool = new ShardPool({ dataDir, shards, replicas: 1, shardOptions: { dimensions: 128 }, maxQueue, reloadPollMs: 50 });
  cleanups.push(() => pool.close());
  return pool;
}

describe('shard pool', () => {
  it('loads the addon inside a worker thread', async () => {
    const worker = new Worker(
      `import('@evidence/native').then((native) => {
         const { parentPort } = require('node:worker_threads');
         parentPort.postMessage({ version: native.engineVersion(), dims: native.embed('hello').length });
       });`,
      { eval: true },
    );
    const message = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(message).toEqual({ version: '0.1.0', dims: 128 });
  });

  it('scatters to every shard and merges top-k with the summed total', async () => {
    const pool = openPool(twoShardIndex());
    const result = await pool.search({ query: 'sourdough', limit: 2, timeoutMs: 2000 });
    expect(result.total).toBe(3);
    expect(result.partial).toBe(false);
    expect(result.hits).toHaveLength(2);
    const everything = await pool.search({ query: 'sourdough', limit: 10, timeoutMs: 2000 });
    expect(everything.hits.map((hit) => hit.id).sort()).toEqual(['a:0', 'a:1', 'b:0']);
    expect(result.hits).toEqual(everything.hits.slice(0, 2));
    expect(result.hits[0].score).toBeGreaterThanOrEqual(result.hits[1].score);
    const counted = await pool.search({ query: 'sourdough OR pasta', limit: 0, timeoutMs: 2000 });
    expect(counted).toMatchObject({ total: 4, hits: [] });
  });

  it('answers partial, not an error, when one shard is taken away', async () => {
    const dataDir = twoShardIndex();
    writeFileSync(join(shardDirectory(dataDir, 1), 'meta.json'), 'this is not an index');
    const pool = openPool(dataDir);
    const result = await pool.search({ query: 'sourdough', limit: 10, timeoutMs: 2000 });
    expect(result.partial).toBe(true);
    expect(result.shardsDown).toBe(1);
    expect(result.hits.map((hit) => hit.id).sort()).toEqual(['a:0', 'a:1']);
    expect(result.total).toBe(2);
  });

  it('keeps answering fast and partial while a shard cannot be opened, without an unhandled error', async () => {
    const dataDir = twoShardIndex();
    writeFileSync(join(shardDirectory(dataDir, 1), 'meta.json'), 'this is not an index');
    const unhandled: unknown[] = [];
    const onUnhandled = (error: unknown) => unhandled.push(error);
    process.on('uncaughtException', onUnhandled);
    try {
      const pool = openPool(dataDir);
      for (let attempt = 0; attempt < 5; attempt++) {
        const startedAt = Date.now();
        const result = await pool.search({ query: 'sourdough', limit: 10, timeoutMs: 30_000 });
        expect(result).toMatchObject({ partial: true, shardsDown: 1, total: 2 });
        // Never the whole deadline: a task for a shard that cannot open fails at once (the
        // bound is far from both, so a loaded machine cannot make it fail).
        expect(Date.now() - startedAt).toBeLessThan(15_000);
      }
      expect((await pool.document('a:0', 2000)).document?.id).toBe('a:0');
    } finally {
      process.off('uncaughtException', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('answers 408 when every shard ran out of time, 503 when every shard is down', async () => {
    const pool = openPool(twoShardIndex());
    // A deadline already spent: each worker skips its task, and nothing is wrong with a shard.
    const late = { status: 408, kind: 'timeout', retryAfter: undefined };
    await expect(pool.search({ query: 'sourdough', limit: 10, timeoutMs: 0 })).rejects.toMatchObject(late);
    await expect(pool.document('a:0', 0)).rejects.toMatchObject(late);
    await expect(pool.passageVector('a:0', 0)).rejects.toMatchObject(late);
    // The same pool answers again once there is time.
    expect((await pool.search({ query: 'sourdough', limit: 10, timeoutMs: 2000 })).total).toBe(3);

    const broken = twoShardIndex();
    for (const shard of [0, 1]) writeFileSync(join(shardDirectory(broken, shard), 'meta.json'), 'this is not an index');
    const down = openPool(broken);
    await expect(down.search({ query: 'sourdough', limit: 10, timeoutMs: 2000 })).rejects.toMatchObject({ status: 503, kind: 'no_shard' });
    await expect(down.document('a:0', 2000)).rejects.toMatchObject({ status: 503, kind: 'no_shard' });
  });

  it('answers 503 at_capacity with retry-after 1 when every shard queue is at MAX_QUEUE', async () => {
    // One thread and room for one waiting task per shard. Searches handed to the pool in one
    // synchronous run reach piscina before any worker can answer: the first runs, the second
    // waits, the third finds every queue at its limit. No timing is involved.
    const pool = openPool(twoShardIndex(), 2, 1);
    const request = { query: 'sourdough', mode: 'keyword' as const, limit: 10, timeoutMs: 5000 };
    expect((await pool.search(request)).total).toBe(3); // the workers are up and idle
    const burst = [pool.search(request), pool.search(request), pool.search(request)];
    const [running, waiting, refused] = await Promise.allSettled(burst);
    expect(running).toMatchObject({ status: 'fulfilled', value: { total: 3, partial: false } });
    expect(waiting).toMatchObject({ status: 'fulfilled', value: { total: 3, partial: false } });
    expect(refused).toMatchObject({
      status: 'rejected',
      reason: { status: 503, kind: 'at_capacity', retryAfter: 1, message: 'at capacity, retry after 1s' },
    });
    // Counted as a failure of each shard (GET /metrics), and the pool answers again once drained.
    expect(pool.stats().map((shard) => shard.failures)).toEqual([1, 1]);
    expect((await pool.search(request)).total).toBe(3);
  });

  it('fetches a document from whichever shard holds it', async () => {
    const pool = openPool(twoShardIndex());
    const found = await pool.document('b:1', 2000);
    expect(found.document?.text).toBe('fresh pasta with eggs');
    expect((await pool.document('zz:0', 2000)).document).toBeNull();
  });

  it('sees a new commit without a restart', async () => {
    const dataDir = twoShardIndex();
    const pool = openPool(dataDir);
    expect((await pool.search({ query: 'lasagne', limit: 10, timeoutMs: 2000 })).total).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeShard(dataDir, 1, [passage('c:0', 'baked lasagne with layers')]);
    let total = 0;
    for (let attempt = 0; attempt < 50 && total === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      total = (await pool.search({ query: 'lasagne', limit: 10, timeoutMs: 2000 })).total;
    }
    expect(total).toBe(1);
  });
});

describe('settleWithin', () => {
  it('gives up on a promise that never settles at the deadline', async () => {
    const never = new Promise<number>(() => {});
    const outcomes = await settleWithin([Promise.resolve(1), never, Promise.reject(new Error('down'))], 30);
    expect(outcomes[0]).toEqual({ ok: true, value: 1 });
    expect(outcomes[1]).toEqual({ ok: false, reason: 'timeout' });
    expect(outcomes[2]).toMatchObject({ ok: false, reason: 'failed' });
  });
});
