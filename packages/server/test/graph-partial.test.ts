/**
 * A shard that is down makes every graph answer partial (never complete); with the seed on the
 * live shard the calls still answer 200 and are charged.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shardDirectory } from '@evidence/native';
import type { CorroborateResponse, PathResponse, RelatedResponse } from '@evidence/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './fixture.js';
import { graphShards, writeLinkLog } from './graph-corpus.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer(graphShards(), {}, {
    beforeStart: (dataDir) => {
      writeLinkLog(dataDir);
      // wire:0 and repost:0 live on shard 0; shard 1 is taken away.
      writeFileSync(join(shardDirectory(dataDir, 1), 'meta.json'), 'this is not an index');
    },
  });
});
afterAll(() => service.close());

async function json<T>(path: string): Promise<T> {
  const response = await service.get(path);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

describe('graph routes with one shard down', () => {
  it('related is partial', async () => {
    const body = await json<RelatedResponse>('/related?id=wire:0');
    expect(body.partial).toBe(true);
  });

  it('corroborate says partial, never complete, and retry first', async () => {
    const body = await json<CorroborateResponse>('/corroborate?id=wire:0');
    expect(body.verdict).toBe('partial');
    expect(body.coverage).toMatchObject({ complete: false, partial: true, not_searched: { shards_down: 1 } });
    expect(body.coverage.known_gaps[0]).toBe('1 of 2 shards did not answer: origins held there were not seen');
    expect(body.next_actions[0].action).toBe('retry');
  });

  it('path marks its chain incomplete', async () => {
    const body = await json<PathResponse>('/path?id=repost:0');
    expect(body.partial).toBe(true);
    expect(body.provenance?.complete).toBe(false);
  });

  it('a passage held by the missing shard is a 503, not a 404', async () => {
    const response = await service.get('/corroborate?id=carrier1:0');
    expect(response.status).toBe(503);
  });
});
