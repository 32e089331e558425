/**
 * GET /path and tool path over the hand-built graph corpus: the provenance chain in order (origin,
 * carriers, republish, this copy), a link path with its hops and linking pages, a path through a
 * page the index does not hold, a path max_depth cuts short (truncated), 404s and the MCP twin.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveKey, creditsUsed } from './accounts-helpers.js';
import { HOUR } from './evidence-corpus.js';
import { startTestServer, type TestServer } from './fixture.js';
import { graphShards, T0, URLS, writeLinkLog } from './graph-corpus.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer(graphShards(), {}, { beforeStart: (dataDir) => writeLinkLog(dataDir) });
});
afterAll(() => service.close());

async function path(query: string) {
  const response = await service.get(`/path?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

describe('GET /path (provenance chain)', () => {
  it('walks from the wire origin through its carriers and the republish to this copy, earliest first', async () => {
    const body = await path('id=repost:0');
    expect(body).toMatchObject({ id: 'repost:0', to: null, kind: 'provenance', partial: false });
    expect(body.link).toBeUndefined();
    const chain = body.provenance.chain.map((step: Record<string, unknown>) => [step.id, step.host, step.owner, step.origin_type, step.step, step.at]);
    expect(chain).toEqual([
      ['wire:0', 'www.associatedwire.com', 'Associated Wire', 'wire', 'origin', T0],
      ['carrier1:0', 'www.riverbendtimes.com', 'riverbendtimes.com', 'wire', 'carrier', T0 + HOUR],
      ['carrier2:0', 'www.thebaypioneer.com', 'thebaypioneer.com', 'wire', 'carrier', T0 + 2 * HOUR],
      ['repost:0', 'www.newsroundup.io', 'newsroundup.io', 'republish', 'republish', T0 + 5 * HOUR],
    ]);
    expect(body.provenance.chain[0]).toMatchObject({ url: URLS.wire, at_basis: 'published', fetched_at: T0 + 600 });
    expect(body.provenance).toMatchObject({ story_id: 'harbor-wire', later_copies: 1, other_origins: 1, story_passages: 6, complete: true });
    expect(body.provenance.origin).toMatchObject({
      story_id: 'harbor-wire',
      kind: 'wire',
      owner: 'Associated Wire',
      representative: 'wire:0',
      members: ['wire:0', 'carrier1:0', 'carrier2:0', 'repost:0', 'late:0'],
    });
  });

  it('gives an origin of its own a one-step chain, and the wire origin itself one step', async () => {
    const indie = await path('id=indie:0');
    expect(indie.provenance.chain.map((step: { id: string; step: string }) => [step.id, step.step])).toEqual([['indie:0', 'origin']]);
    expect(indie.provenance).toMatchObject({ later_copies: 0, other_origins: 1 });
    expect(indie.provenance.origin).toMatchObject({ owner: 'harborpost.org', kind: 'original' });
    const wire = await path('id=wire:0');
    expect(wire.provenance.chain.map((step: { id: string }) => step.id)).toEqual(['wire:0']);
    expect(wire.provenance.later_copies).toBe(4);
  });
});

describe('GET /path?to= (link path)', () => {
  it('finds the shortest link path, each hop naming the linking page', async () => {
    const body = await path('id=claim1:0&to=cityhall:0');
    expect(body).toMatchObject({ id: 'claim1:0', to: 'cityhall:0', kind: 'link', partial: false });
    expect(body.provenance).toBeUndefined();
    expect(body.link).toMatchObject({ found: true, depth: 2, max_depth: 4, truncated: false });
    expect(body.link.hops).toEqual([
      { from: { url: URLS.claim1, id: 'claim1:0' }, to: { url: URLS.guide, id: 'guide:0' }, linking_page: URLS.guide, direction: 'backward' },
      { from: { url: URLS.guide, id: 'guide:0' }, to: { url: URLS.cityhall, id: 'cityhall:0' }, linking_page: URLS.guide, direction: 'forward' },
    ]);
  });

  it('goes through a page the index does not hold (id null)', async () => {
    const body = await path('id=herons2:0&to=wire:0');
    expect(body.link).toMatchObject({ found: true, depth: 2, truncated: false });
    expect(body.link.hops).toEqual([
      { from: { url: URLS.herons2, id: 'herons2:0' }, to: { url: URLS.notindexed, id: null }, linking_page: URLS.herons2, direction: 'forward' },
      { from: { url: URLS.notindexed, id: null }, to: { url: URLS.wire, id: 'wire:0' }, linking_page: URLS.wire, direction: 'backward' },
    ]);
  });

  it('says truncated when max_depth cut the search short, and not found when no link leads there', async () => {
    const cut = await path('id=claim1:0&to=cityhall:0&max_depth=1');
    expect(cut.link).toEqual({ found: false, depth: 0, max_depth: 1, visited: 1, truncated: true, hops: [] });
    const none = await path('id=deny:0&to=wire:0');
    expect(none.link).toEqual({ found: false, depth: 0, max_depth: 4, visited: 0, truncated: false, hops: [] });
  });

  it('answers 404 naming the unknown id and a free 400 for a bad max_depth', async () => {
    const { key } = createLiveKey(service);
    const before = await creditsUsed(service, key);
    const missing = await service.get('/path?id=wire:0&to=nope:3', { 'x-api-key': key });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('not found: no passage with id nope:3');
    expect(await creditsUsed(service, key)).toBe(before + 1);
    const bad = await service.get('/path?id=wire:0&to=cityhall:0&max_depth=9', { 'x-api-key': key });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^invalid parameter max_depth/);
    expect(await creditsUsed(service, key)).toBe(before + 1);
  });

  it('answers the same bodies at the same charge through MCP', async () => {
    const { key } = createLiveKey(service);
    const client = new Client({ name: 'path-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    try {
      for (const [args, rest] of [
        [{ id: 'repost:0' }, '/path?id=repost:0'],
        [{ id: 'claim1:0', to: 'cityhall:0', max_depth: 3 }, '/path?id=claim1:0&to=cityhall:0&max_depth=3'],
      ] as const) {
        const before = await creditsUsed(service, key);
        const tool = (await client.callTool({ name: 'path', arguments: args })) as CallToolResult;
        const afterTool = await creditsUsed(service, key);
        const body = await (await service.get(rest, { 'x-api-key': key })).json();
        expect(tool.isError).toBeFalsy();
        expect(tool.structuredContent).toEqual(body);
        expect(afterTool - before).toBe(1);
        expect((await creditsUsed(service, key)) - afterTool).toBe(1);
      }
    } finally {
      await client.close();
    }
  });
});
