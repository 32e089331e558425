/**
 * GET /corroborate and tool corroborate over the hand-built graph corpus: the verdicts
 * (corroborated, contested, single_origin) with their items, owners, roles and independence as
 * ground computes them, the receipt, a claim, ground's corroborate next action followed as
 * written, 404/400 and their charges, and the MCP twin.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CORROBORATION_RULE, type CorroborateResponse, type GroundResponse } from '@evidence/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveKey, creditsUsed } from './accounts-helpers.js';
import { startTestServer, type TestServer } from './fixture.js';
import { graphShards, writeLinkLog } from './graph-corpus.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer(graphShards(), {}, { beforeStart: (dataDir) => writeLinkLog(dataDir) });
});
afterAll(() => service.close());

async function json<T>(path: string): Promise<T> {
  const response = await service.get(path);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

const items = (body: CorroborateResponse) =>
  body.evidence.map((item) => [item.hit.id, item.owner, item.origin_type, item.source_role, item.independence_score, item.claim_relation]);

describe('GET /corroborate', () => {
  it('corroborates a wire story by another origin of its story and an official near-paraphrase', async () => {
    const body = await json<CorroborateResponse>('/corroborate?id=wire:0');
    expect(body.verdict).toBe('corroborated');
    expect(body.rule).toBe(CORROBORATION_RULE);
    expect(body.seed).toMatchObject({ owner: 'Associated Wire', origin_type: 'wire', story_id: 'harbor-wire' });
    expect(items(body)).toEqual([
      ['wire:0', 'Associated Wire', 'wire', 'secondary', 1, 'supports'],
      ['indie:0', 'harborpost.org', 'original', 'secondary', 1, 'supports'],
      ['cityhall:0', 'harborcity.gov', 'original', 'official', 1, 'supports'],
    ]);
    expect(body.evidence[0].origin).toBe(body.seed.origin);
    expect(body.evidence[0].reason).toBe("the passage's own origin: wire owned by Associated Wire, 5 passages carry it");
    expect(body.evidence[1].reason).toMatch(/^another origin of the passage's story/);
    expect(body.evidence[2].reason).toMatch(/^near-paraphrase in story harbor-city: shares 10 of the passage's 14 content words \(71%\)/);
    expect(body.origins.map((origin) => origin.members)).toEqual([['wire:0', 'carrier1:0', 'carrier2:0', 'repost:0', 'late:0'], ['indie:0'], ['cityhall:0']]);
    expect(body.coverage).toMatchObject({
      complete: true,
      partial: false,
      independent_origins: 3,
      origins: 3,
      known_gaps: [],
      searched: { story_id: 'harbor-wire', story_passages: 6, min_overlap: 0.5, paraphrase_stories: 1 },
      not_searched: { shards_configured: 2, shards_down: 0, paraphrase_stories_cut: 0, passages_not_fetched: 0 },
    });
    expect(body.coverage.searched.paraphrase_query).toBe('harbor city bridge close six week cable repair start june transport official said tuesday');
    expect(body.next_actions).toEqual([{ action: 'get_document', why: 'read the independent confirmation in full before relying on it', target: 'indie:0' }]);
    expect(body.credits_billed).toBe(3);
    expect(body.provenance.method).toBe('deterministic');
  });

  it('computes owner, origin type, source role and origin as ground does', async () => {
    const corroboration = await json<CorroborateResponse>('/corroborate?id=wire:0');
    const ground = await json<GroundResponse>('/ground?objective=harbor+bridge+cable+repairs&require_role=&min_independent_origins=1');
    const fields = (item: { origin: string; owner: string; origin_type: string; source_role: string; role_confidence: number; hit: { id: string } }) => ({
      id: item.hit.id, origin: item.origin, owner: item.owner, origin_type: item.origin_type, source_role: item.source_role, role_confidence: item.role_confidence,
    });
    const grounded = new Map(ground.evidence.map((item) => [item.origin, fields(item)]));
    expect(grounded.size).toBeGreaterThanOrEqual(3);
    for (const item of corroboration.evidence) expect(grounded.get(item.origin)).toEqual(fields(item));
  });

  it('finds a near-paraphrase that contradicts the passage: contested', async () => {
    const body = await json<CorroborateResponse>('/corroborate?id=claim1:0');
    expect(body.verdict).toBe('contested');
    expect(items(body)).toEqual([
      ['claim1:0', 'artsdaily.com', 'original', 'secondary', 1, 'supports'],
      ['deny:0', 'culturewatch.net', 'original', 'secondary', 1, 'contradicts'],
    ]);
    expect(body.next_actions[0]).toEqual({ action: 'get_document', why: 'an independent origin contradicts the claim: read it in full', target: 'deny:0' });
  });

  it('checks a given claim instead of the passage text', async () => {
    const claim = 'the city museum will not reopen the east gallery in March';
    const body = await json<CorroborateResponse>(`/corroborate?id=claim1:0&claim=${encodeURIComponent(claim)}`);
    expect(body.claim).toBe(claim);
    expect(body.verdict).toBe('corroborated');
    expect(items(body).map((item) => item[5])).toEqual(['contradicts', 'supports']);
  });

  it('answers single_origin when only the same owner repeats it, with independence 0.5', async () => {
    const body = await json<CorroborateResponse>('/corroborate?id=herons1:0');
    expect(body.verdict).toBe('single_origin');
    expect(items(body)).toEqual([
      ['herons1:0', 'birdnotes.org', 'original', 'ugc', 0.5, 'supports'],
      ['herons2:0', 'birdnotes.org', 'original', 'ugc', 0.5, 'supports'],
    ]);
    expect(body.coverage.independent_origins).toBe(1);
    expect(body.coverage.known_gaps).toEqual(['no origin of another owner than birdnotes.org was found']);
    expect(body.next_actions.map((action) => action.action)).toEqual(['search', 'why_not']);
  });

  it("follows ground's corroborate next action as written", async () => {
    const ground = await json<GroundResponse>('/ground?objective=nesting+herons+quarry+pond&require_role=');
    expect(ground.status).toBe('insufficient');
    const action = ground.next_actions.find((next) => next.action === 'corroborate')!;
    expect(action.target).toBe('herons1:0');
    const body = await json<CorroborateResponse>(`/corroborate?id=${encodeURIComponent(action.target!)}`);
    expect(body.verdict).toBe('single_origin');
  });

  it('answers 404 for an unknown id (1 credit) and a free 400 for a bad claim', async () => {
    const { key } = createLiveKey(service);
    const before = await creditsUsed(service, key);
    const missing = await service.get('/corroborate?id=nope:1', { 'x-api-key': key });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('not found: no passage with id nope:1');
    expect(await creditsUsed(service, key)).toBe(before + 1);
    const bad = await service.get('/corroborate?id=wire:0&claim=%20', { 'x-api-key': key });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^invalid parameter claim/);
    expect(await creditsUsed(service, key)).toBe(before + 1);
    await service.get('/corroborate?id=wire:0', { 'x-api-key': key });
    expect(await creditsUsed(service, key)).toBe(before + 4);
  });

  it('answers the same body at the same charge through MCP', async () => {
    const { key } = createLiveKey(service);
    const client = new Client({ name: 'corroborate-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    const withoutClock = (body: unknown) => JSON.parse(JSON.stringify(body), (name, value) => (name === 'generated_at' || name === 'age_secs' ? undefined : value));
    try {
      const before = await creditsUsed(service, key);
      const tool = (await client.callTool({ name: 'corroborate', arguments: { id: 'claim1:0' } })) as CallToolResult;
      const afterTool = await creditsUsed(service, key);
      const rest = await (await service.get('/corroborate?id=claim1:0', { 'x-api-key': key })).json();
      expect(tool.isError).toBeFalsy();
      expect(withoutClock(tool.structuredContent)).toEqual(withoutClock(rest));
      expect(afterTool - before).toBe(3);
      expect((await creditsUsed(service, key)) - afterTool).toBe(3);
    } finally {
      await client.close();
    }
  });
});
