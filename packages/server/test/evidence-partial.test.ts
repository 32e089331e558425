/**
 * A shard that is down turns every evidence answer partial: status partial, complete false,
 * shards_down counted, next_actions retry. The shard is taken away by corrupting its
 * meta.json before the server opens it (as packages/pool/test/shard-pool.test.ts does). With
 * every shard down the calls cannot run: 503, nothing charged.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardDirectory } from '@evidence/native';
import type { ChangesResponse, ContextPack, GroundResponse } from '@evidence/schemas';
import { creditsUsed } from './accounts-helpers.js';
import { startTestServer, type TestServer } from './fixture.js';
import { evidenceShards, LUNAR_OBJECTIVE } from './evidence-corpus.js';

function breakShard(dataDir: string, shard: number): void {
  writeFileSync(join(shardDirectory(dataDir, shard), 'meta.json'), 'this is not an index');
}

describe('one shard down', () => {
  let service: TestServer;
  beforeAll(async () => {
    service = await startTestServer(evidenceShards(), {}, { beforeStart: (dataDir) => breakShard(dataDir, 1) });
  });
  afterAll(() => service.close());

  async function json<T>(path: string): Promise<T> {
    const response = await service.get(path);
    expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
    return (await response.json()) as T;
  }

  it('ground answers partial, never complete, whatever the live shard holds', async () => {
    const body = await json<GroundResponse>(`/ground?objective=${encodeURIComponent(LUNAR_OBJECTIVE)}`);
    expect(body.status).toBe('partial');
    expect(body.evidence.length).toBeGreaterThan(0);
    expect(body.coverage).toMatchObject({ complete: false, partial: true });
    expect(body.coverage.not_searched).toMatchObject({ shards_configured: 2, shards_down: 1 });
    expect(body.coverage.known_gaps[0]).toBe('1 of 2 shards did not answer: passages held there were not seen');
    expect(body.next_actions[0].action).toBe('retry');
    expect(body.budget.credits_billed).toBe(5);
  });

  it('ground is partial even where it would otherwise be empty', async () => {
    const body = await json<GroundResponse>('/ground?objective=xylophone+zeppelin');
    expect(body.status).toBe('partial');
  });

  it('changes answers partial on both sides', async () => {
    const body = await json<ChangesResponse>(`/changes?objective=${encodeURIComponent(LUNAR_OBJECTIVE)}&since=1d`);
    expect(body.status).toBe('partial');
    expect(body.coverage).toMatchObject({ complete: false, partial: true });
    expect(body.coverage_before).toMatchObject({ complete: false, partial: true });
    expect(body.coverage.not_searched.shards_down).toBe(1);
    expect(body.next_actions[0].action).toBe('retry');
  });

  it('assemble_context marks its pack partial', async () => {
    const body = await json<ContextPack>(`/assemble_context?q=${encodeURIComponent(LUNAR_OBJECTIVE)}`);
    expect(body.partial).toBe(true);
  });

  it('why_not cannot prove absence on a partial index: present where found, 503 otherwise', async () => {
    const found = await service.get(`/why_not?url=${encodeURIComponent('https://www.associatedwire.com/articles/wire')}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ status: 'present', hit: { id: 'wire:0' } });
    const unknown = await service.get(`/why_not?url=${encodeURIComponent('https://never.example/page')}`);
    expect(unknown.status).toBe(503);
    expect(await unknown.text()).toMatch(/presence cannot be told/);
  });
});

describe('every shard down', () => {
  let service: TestServer;
  beforeAll(async () => {
    service = await startTestServer(evidenceShards(), {}, {
      beforeStart: (dataDir) => {
        breakShard(dataDir, 0);
        breakShard(dataDir, 1);
      },
    });
  });
  afterAll(() => service.close());

  it('answers 503 without retry-after and charges nothing: the calls could not run', async () => {
    const before = await creditsUsed(service, service.key);
    for (const path of [
      `/ground?objective=${encodeURIComponent(LUNAR_OBJECTIVE)}`,
      `/changes?objective=${encodeURIComponent(LUNAR_OBJECTIVE)}&since=1d`,
      `/assemble_context?q=${encodeURIComponent(LUNAR_OBJECTIVE)}`,
      `/why_not?url=${encodeURIComponent('https://www.nasa.gov/articles/nasa')}`,
    ]) {
      const response = await service.get(path);
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after'), path).toBeNull();
      await response.arrayBuffer();
    }
    expect(await creditsUsed(service, service.key)).toBe(before);
  });
});
