/**
 * GET /related and tool related over the hand-built graph corpus: each kind of relation and its
 * count, ordering, limit and total, relation picking, 404/400 and their charges, the graph
 * following links.tsv as ingest appends to it, and the MCP twin.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveKey, creditsUsed } from './accounts-helpers.js';
import { startTestServer, type TestServer } from './fixture.js';
import { graphShards, URLS, writeLinkLog } from './graph-corpus.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer(graphShards(), {}, { beforeStart: (dataDir) => writeLinkLog(dataDir) });
});
afterAll(() => service.close());

async function related(query: string) {
  const response = await service.get(`/related?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

const summary = (body: { results: Array<{ id: string; relations: string[]; co_citations?: number }> }) =>
  body.results.map((hit) => [hit.id, hit.relations.join('+'), hit.co_citations ?? null]);

describe('GET /related', () => {
  it('lists pages linked to, linking, co-cited and other stories of the community, each saying how', async () => {
    const body = await related('id=wire:0');
    expect(body).toMatchObject({ id: 'wire:0', url: URLS.wire, relation: ['links_to', 'linked_from', 'co_cited', 'same_community'], partial: false, truncated: false });
    expect(summary(body)).toEqual([
      ['cityhall:0', 'links_to+co_cited+same_community', 1],
      ['carrier1:0', 'links_to', null],
      ['guide:0', 'linked_from+same_community', null],
      ['blog:0', 'linked_from', null],
      ['claim1:0', 'co_cited', 2],
      ['ferry:0', 'same_community', null],
    ]);
    expect(body.counts).toEqual({ links_to: 2, linked_from: 2, co_cited: 2, same_community: 3 });
    expect(body.total).toBe(6);
    const claim = body.results.find((hit: { id: string }) => hit.id === 'claim1:0');
    expect(claim.co_cited_by).toEqual([URLS.guide, URLS.blog]);
    // Hits are SPEC hits plus the relation fields.
    expect(claim).toMatchObject({ url: URLS.claim1, host: 'www.artsdaily.com', story_id: 'museum-a' });
    expect(claim).not.toHaveProperty('owner');
  });

  it('follows only the relations asked for; limit cuts the list, total stays real', async () => {
    const inbound = await related('id=claim1:0&relation=linked_from');
    expect(summary(inbound)).toEqual([
      ['guide:0', 'linked_from', null],
      ['blog:0', 'linked_from', null],
    ]);
    expect(inbound.counts).toEqual({ links_to: 0, linked_from: 2, co_cited: 0, same_community: 0 });
    const cut = await related('id=wire:0&limit=2');
    expect(cut.results.map((hit: { id: string }) => hit.id)).toEqual(['cityhall:0', 'carrier1:0']);
    expect(cut.total).toBe(6);
    const countOnly = await related('id=wire:0&limit=0&relation=co_cited,links_to');
    expect(countOnly.results).toEqual([]);
    expect(countOnly.relation).toEqual(['links_to', 'co_cited']);
    expect(countOnly.total).toBe(3);
  });

  it('answers a page without links or community with nothing related', async () => {
    const body = await related('id=deny:0');
    expect(body.results).toEqual([]);
    expect(body.total).toBe(0);
  });

  it('answers 404 for an unknown id (1 credit) and a free 400 naming a bad relation', async () => {
    const { key } = createLiveKey(service);
    const before = await creditsUsed(service, key);
    const missing = await service.get('/related?id=nope:0', { 'x-api-key': key });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('nope:0');
    expect(await creditsUsed(service, key)).toBe(before + 1);
    const bad = await service.get('/related?id=wire:0&relation=cousins', { 'x-api-key': key });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^invalid parameter relation/);
    const noId = await service.get('/related', { 'x-api-key': key });
    expect(noId.status).toBe(400);
    expect(await noId.text()).toMatch(/^invalid parameter id: required/);
    expect(await creditsUsed(service, key)).toBe(before + 1);
  });

  it('reads an empty relation= as absent (every relation), like every other empty list parameter', async () => {
    const empty = await related('id=wire:0&relation=');
    expect(empty.relation).toEqual(['links_to', 'linked_from', 'co_cited', 'same_community']);
    expect(summary(empty)).toEqual(summary(await related('id=wire:0')));
  });

  it('sees links a later commit appends to links.tsv', async () => {
    appendFileSync(join(service.dataDir, 'links.tsv'), `${URLS.ferry}\t${URLS.wire}\n`);
    const body = await related('id=wire:0&relation=linked_from,same_community');
    expect(summary(body)).toEqual([
      ['guide:0', 'linked_from+same_community', null],
      ['ferry:0', 'linked_from+same_community', null],
      ['blog:0', 'linked_from', null],
      ['cityhall:0', 'same_community', null],
    ]);
  });

  it('answers the same body at the same charge through MCP', async () => {
    const { key } = createLiveKey(service);
    const client = new Client({ name: 'related-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    try {
      const before = await creditsUsed(service, key);
      const tool = (await client.callTool({ name: 'related', arguments: { id: 'wire:0', relation: ['co_cited', 'links_to'], limit: 3 } })) as CallToolResult;
      const afterTool = await creditsUsed(service, key);
      const rest = await (await service.get('/related?id=wire:0&relation=co_cited,links_to&limit=3', { 'x-api-key': key })).json();
      const afterRest = await creditsUsed(service, key);
      expect(tool.isError).toBeFalsy();
      expect(tool.structuredContent).toEqual(rest);
      expect(afterTool - before).toBe(1);
      expect(afterRest - afterTool).toBe(1);
      const missing = (await client.callTool({ name: 'related', arguments: { id: 'nope:0' } })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(missing.content).toEqual([{ type: 'text', text: 'not found: no passage with id nope:0' }]);
    } finally {
      await client.close();
    }
  });
});
