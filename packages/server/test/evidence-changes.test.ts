/**
 * GET /changes, /why_not and /assemble_context over real HTTP on the hand-built corpus, with an
 * admission ledger written into the fixture's DATA_DIR; and the charges of all four evidence
 * capabilities (5/10/3/1, 1 for a call that ran and failed, nothing for a 400).
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangesResponseSchema, ContextPackSchema, REMOVAL_REASONS, ServiceError, WhyNotResponseSchema, type ChangesResponse, type ContextPack } from '@evidence/schemas';
import { createLiveKey, creditsUsed } from './accounts-helpers.js';
import { startTestServer, type TestServer } from './fixture.js';
import { DAY, evidenceShards, HOUR, LUNAR_CLAIM, LUNAR_OBJECTIVE, NOW, QUANTUM_OBJECTIVE } from './evidence-corpus.js';

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer(evidenceShards());
});
afterAll(() => service.close());

async function json<T>(path: string, key = service.key): Promise<T> {
  const response = await service.get(path, { 'x-api-key': key });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
}

async function changes(query: Record<string, string | number>): Promise<ChangesResponse> {
  const body = await json<ChangesResponse>(`/changes?${new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]))}`);
  expect(ChangesResponseSchema.safeParse(body).error).toBeUndefined();
  return body;
}

describe('GET /changes', () => {
  it('since before a new passage was crawled: lists it as new evidence and its origin as gained', async () => {
    const body = await changes({ objective: LUNAR_OBJECTIVE, since: '1d' });
    expect(body.status).toBe('changed');
    expect(body.since).toBeGreaterThanOrEqual(NOW - DAY);
    expect(body.since).toBeLessThan(NOW - DAY + 60);
    expect(body.new_evidence.map((item) => item.hit.id)).toEqual(['fresh:0']);
    expect(body.new_evidence[0]).toMatchObject({ owner: 'Pinecrest Publishing', source_role: 'secondary', origin_type: 'original' });
    expect(body.origins_gained.map((origin) => origin.members)).toEqual([['fresh:0']]);
    expect(body.roles_gained).toEqual([]);
    expect(body.independent_origins).toEqual({ before: 4, after: 5 });
    expect(body.coverage.origins).toBe(6);
    expect(body.coverage_before.origins).toBe(5);
    expect(body.coverage_before.copies).toBe(11);
    expect(body.budget).toMatchObject({ token_budget: 3000, credits_billed: 10 });
    expect(body.budget.story_lookups).toBe(2);
    expect(body.next_actions).toContainEqual(expect.objectContaining({ action: 'get_document', target: 'fresh:0' }));
    const limitations = body.provenance.limitations.join(' ');
    expect(limitations).toMatch(/removed after since are not reconstructable/);
    expect(limitations).toMatch(/lower bounds/);
    expect(limitations).toMatch(/crawled by then.*not published by then/);
    expect(body.contradictions_gained).toBeUndefined();
    expect(body.known_urls).toBeUndefined();
  });

  it('since after it was crawled: lists nothing', async () => {
    const body = await changes({ objective: LUNAR_OBJECTIVE, since: '1h' });
    expect(body.status).toBe('unchanged');
    expect(body.new_evidence).toEqual([]);
    expect(body.origins_gained).toEqual([]);
    expect(body.roles_gained).toEqual([]);
    expect(body.independent_origins).toEqual({ before: 5, after: 5 });
  });

  it('accepts since as absolute unix seconds, seconds ago, or a duration ago, and q for objective', async () => {
    const absolute = await changes({ q: LUNAR_OBJECTIVE, since: NOW - 3 * HOUR });
    expect(absolute.since).toBe(NOW - 3 * HOUR);
    expect(absolute.objective).toBe(LUNAR_OBJECTIVE);
    expect(absolute.new_evidence.map((item) => item.hit.id)).toEqual(['fresh:0']);
    const secondsAgo = await changes({ objective: LUNAR_OBJECTIVE, since: 3 * HOUR });
    expect(Math.abs(secondsAgo.since - (NOW - 3 * HOUR))).toBeLessThan(60);
    const roles = await changes({ objective: LUNAR_OBJECTIVE, since: '2w' });
    // Two weeks ago nothing of the story had been crawled: every role is gained.
    expect(roles.roles_gained).toEqual(['official', 'secondary', 'ugc']);
    expect(roles.independent_origins.before).toBe(0);
  });

  it('reports evidence that newly contradicts a claim', async () => {
    const body = await changes({ objective: LUNAR_OBJECTIVE, since: '2w', claim: LUNAR_CLAIM });
    expect(body.contradictions_gained).toEqual(['forum:0']);
    expect(body.provenance.experimental.join(' ')).toMatch(/claim_relation/);
  });

  it('answers 400 naming since when it does not parse or is not in the past, and charges nothing', async () => {
    const { key } = createLiveKey(service);
    const before = await creditsUsed(service, key);
    for (const since of ['tomorrow', String(NOW + DAY), '0', '-5', '3x', '']) {
      const response = await service.get(`/changes?objective=lunar&since=${encodeURIComponent(since)}`, { 'x-api-key': key });
      expect(response.status, since).toBe(400);
      expect(await response.text(), since).toContain('parameter since');
    }
    const missingObjective = await service.get('/changes?since=1d', { 'x-api-key': key });
    expect(missingObjective.status).toBe(400);
    expect(await missingObjective.text()).toContain('parameter objective');
    expect(await creditsUsed(service, key)).toBe(before);
  });
});

describe('ledger-backed URL presence', () => {
  const url = (path: string) => `https://www.oldnews.example/${path}`;
  const removalAt = NOW - 2 * HOUR;

  beforeAll(() => {
    const events: object[] = [];
    for (const reason of REMOVAL_REASONS) {
      events.push({ event: 'admitted', url: url(reason), page_id: `p-${reason}`, passages: 2, fetched_at: NOW - 30 * DAY, at: NOW - 30 * DAY });
      const removal: Record<string, unknown> = { event: 'removed', url: url(reason), page_id: `p-${reason}`, reason, removed_at: removalAt, at: removalAt };
      if (reason === 'superseded') removal.superseded_by = 'p-successor:0';
      events.push(removal);
    }
    // A re-crawl of a URL the index holds: superseded, then the new page admitted.
    const lunarUrl = 'https://www.nasa.gov/articles/nasa';
    events.push({ event: 'admitted', url: lunarUrl, page_id: 'p-old-nasa', passages: 1, fetched_at: NOW - 40 * DAY, at: NOW - 40 * DAY });
    events.push({ event: 'removed', url: lunarUrl, page_id: 'p-old-nasa', reason: 'superseded', superseded_by: 'nasa:0', removed_at: NOW - 12 * DAY, at: NOW - 12 * DAY });
    events.push({ event: 'admitted', url: lunarUrl, page_id: 'nasa', passages: 1, fetched_at: NOW - 12 * DAY, at: NOW - 12 * DAY });
    // Written after the server started: the ledger is followed as it grows. A torn last line is ignored.
    writeFileSync(join(service.dataDir, 'ledger.jsonl'), `${events.map((event) => JSON.stringify(event)).join('\n')}\n{"event":"remo`);
  });

  it('why_not reports every removal reason with when and the replacing passage', async () => {
    for (const reason of REMOVAL_REASONS) {
      const body = await json<Record<string, unknown>>(`/why_not?url=${encodeURIComponent(url(reason))}`);
      expect(WhyNotResponseSchema.safeParse(body).error).toBeUndefined();
      expect(body, reason).toEqual({
        status: 'removed',
        reason,
        removed_at: removalAt,
        superseded_by: reason === 'superseded' ? 'p-successor:0' : null,
      });
    }
  });

  it('why_not: present with the first passage, unknown when never seen, after normalising the URL', async () => {
    const present = await json<{ status: string; hit: { id: string; url: string } }>(`/why_not?url=${encodeURIComponent('https://www.nasa.gov/articles/nasa')}`);
    expect(present.status).toBe('present');
    expect(present.hit).toMatchObject({ id: 'nasa:0', url: 'https://www.nasa.gov/articles/nasa' });
    // Scheme and host case, the default port and the fragment do not matter; the path does.
    const normalised = await json<{ status: string; hit?: { id: string } }>(`/why_not?url=${encodeURIComponent('HTTPS://WWW.NASA.GOV:443/articles/nasa#top')}`);
    expect(normalised).toEqual(present);
    const removed = await json<{ status: string }>(`/why_not?url=${encodeURIComponent('HTTPS://www.OldNews.example:443/stale#x')}`);
    expect(removed).toMatchObject({ status: 'removed', reason: 'stale' });
    expect(await json(`/why_not?url=${encodeURIComponent('https://www.nasa.gov/articles/NASA')}`)).toEqual({ status: 'unknown' });
    expect(await json(`/why_not?url=${encodeURIComponent('https://never.example/page')}`)).toEqual({ status: 'unknown' });
  });

  it('why_not sees events appended after the first read', async () => {
    const added = url('late');
    expect(await json(`/why_not?url=${encodeURIComponent(added)}`)).toEqual({ status: 'unknown' });
    appendFileSync(
      join(service.dataDir, 'ledger.jsonl'),
      `ved"}\n${JSON.stringify({ event: 'removed', url: added, page_id: null, reason: 'access-starved', removed_at: NOW - HOUR, at: NOW - HOUR })}\n`,
    );
    expect(await json(`/why_not?url=${encodeURIComponent(added)}`)).toEqual({ status: 'removed', reason: 'access-starved', removed_at: NOW - HOUR, superseded_by: null });
  });

  it('why_not refuses what is not an http(s) URL with a 400 naming url', async () => {
    for (const bad of ['not a url', 'ftp://files.example/x', '']) {
      const response = await service.get(`/why_not?url=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(400);
      expect(await response.text()).toContain('parameter url');
    }
  });

  it('changes reports known_urls from the ledger and the index; a removal after since is a change', async () => {
    const known = [url('redundant'), url('superseded'), 'https://www.nasa.gov/articles/nasa', 'https://never.example/page'];
    const body = await changes({ objective: QUANTUM_OBJECTIVE, since: '1h', known_urls: known.join(',') });
    expect(body.known_urls).toEqual([
      { url: url('redundant'), status: 'removed', reason: 'redundant', removed_at: removalAt },
      { url: url('superseded'), status: 'removed', reason: 'superseded', removed_at: removalAt, superseded_by: 'p-successor:0' },
      { url: 'https://www.nasa.gov/articles/nasa', status: 'present' },
      { url: 'https://never.example/page', status: 'unknown' },
    ]);
    expect(body.new_evidence).toEqual([]);
    expect(body.status).toBe('unchanged');
    const earlier = await changes({ objective: QUANTUM_OBJECTIVE, since: '3h', known_urls: url('redundant') });
    expect(earlier.status).toBe('changed');
    expect(earlier.next_actions).toContainEqual(expect.objectContaining({ action: 'search' }));
    const superseded = await changes({ objective: QUANTUM_OBJECTIVE, since: '3h', known_urls: url('superseded') });
    expect(superseded.next_actions).toContainEqual(expect.objectContaining({ action: 'get_document', target: 'p-successor:0' }));
  });
});

describe('GET /assemble_context', () => {
  it('packs one passage per story, trust-ranked, under the budget, each with its reason', async () => {
    const body = await json<ContextPack>(`/assemble_context?q=${encodeURIComponent(LUNAR_OBJECTIVE)}`);
    expect(ContextPackSchema.safeParse(body).error).toBeUndefined();
    expect(body.query).toBe(LUNAR_OBJECTIVE);
    expect(body.token_budget).toBe(4000);
    const stories = body.items.map((item) => item.hit.story_id);
    expect(new Set(stories).size).toBe(stories.length);
    expect(stories.sort()).toEqual(['lunar-coastal', 'lunar-forum', 'lunar-fresh', 'lunar-metro', 'lunar-nasa', 'lunar-wire']);
    expect(body.estimated_tokens).toBeLessThanOrEqual(4000);
    for (const item of body.items) expect(item.reason).toMatch(/^rank \d+ by trust-weighted relevance/);
    expect(body.items.find((item) => item.hit.story_id === 'lunar-wire')!.reason).toMatch(/corroborated: its story is carried by 7 independent hosts/);
    expect(body.partial).toBeUndefined();
  });

  it('honours budget as a ceiling', async () => {
    const body = await json<ContextPack>(`/assemble_context?q=${encodeURIComponent(LUNAR_OBJECTIVE)}&budget=100`);
    expect(body.token_budget).toBe(100);
    expect(body.estimated_tokens).toBeLessThanOrEqual(100);
    expect(body.items.length).toBeGreaterThan(0);
    expect(body.items.length).toBeLessThan(6);
  });

  it('packs nothing for a query nothing matches', async () => {
    const body = await json<ContextPack>('/assemble_context?q=xylophone+zeppelin');
    expect(body.items).toEqual([]);
    expect(body.estimated_tokens).toBe(0);
  });
});

describe('charges', () => {
  it('ground 5, changes 10, assemble_context 3, why_not 1', async () => {
    const { key } = createLiveKey(service);
    const cases: Array<[string, number]> = [
      [`/ground?objective=${encodeURIComponent(LUNAR_OBJECTIVE)}`, 5],
      [`/changes?objective=${encodeURIComponent(LUNAR_OBJECTIVE)}&since=1d`, 10],
      [`/assemble_context?q=${encodeURIComponent(LUNAR_OBJECTIVE)}`, 3],
      [`/why_not?url=${encodeURIComponent('https://www.nasa.gov/articles/nasa')}`, 1],
    ];
    for (const [path, cost] of cases) {
      const before = await creditsUsed(service, key);
      await json(path, key);
      expect(await creditsUsed(service, key), path).toBe(before + cost);
    }
  });

  it('a call that ran and failed costs 1 (a call that could not run: evidence-partial.test.ts)', async () => {
    const { key } = createLiveKey(service);
    const evidence = service.server.services.evidence;
    const original = { ground: evidence.ground, changes: evidence.changes, context: evidence.context };
    evidence.ground = async () => {
      throw new Error('worker crashed');
    };
    evidence.changes = async () => {
      throw new ServiceError('at_capacity', 'at capacity, retry after 1s', { retryAfter: 1 });
    };
    evidence.context = async () => {
      throw new Error('worker crashed');
    };
    try {
      const failures: Array<[string, number]> = [
        [`/ground?objective=${encodeURIComponent(LUNAR_OBJECTIVE)}`, 500],
        [`/changes?objective=${encodeURIComponent(LUNAR_OBJECTIVE)}&since=1d`, 503],
        [`/assemble_context?q=${encodeURIComponent(LUNAR_OBJECTIVE)}`, 500],
      ];
      for (const [path, status] of failures) {
        const before = await creditsUsed(service, key);
        const response = await service.get(path, { 'x-api-key': key });
        expect(response.status, path).toBe(status);
        expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
        await response.arrayBuffer();
        expect(await creditsUsed(service, key), path).toBe(before + 1);
      }
    } finally {
      Object.assign(evidence, original);
    }
    // Restored: the same call succeeds at full price again.
    const before = await creditsUsed(service, key);
    await json(`/ground?objective=${encodeURIComponent(LUNAR_OBJECTIVE)}`, key);
    expect(await creditsUsed(service, key)).toBe(before + 5);
  });

  it('a 400 costs nothing', async () => {
    const { key } = createLiveKey(service);
    const before = await creditsUsed(service, key);
    for (const path of ['/ground', '/changes?objective=x', '/assemble_context', '/why_not', '/assemble_context?q=x&budget=0', '/ground?objective=x&token_budget=abc']) {
      const response = await service.get(path, { 'x-api-key': key });
      expect(response.status, path).toBe(400);
      await response.arrayBuffer();
    }
    expect(await creditsUsed(service, key)).toBe(before);
  });
});
