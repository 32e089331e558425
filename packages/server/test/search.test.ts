import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;

beforeAll(async () => {
  const bread = Array.from({ length: 130 }, (_, index) =>
    passage(`bread${index}:0`, `bread number ${index} with a crust${index % 2 ? ' and seeds' : ''}`),
  );
  // The millet passages score apart by term frequency and length and alternate between the
  // shards (m1, m3 on shard 0; m2, m4 on shard 1), so a merge in score order interleaves them.
  service = await startTestServer([
    [
      passage('a:0', 'feed the sourdough starter daily'),
      passage('m1:0', 'millet millet millet'),
      passage('m3:0', 'millet with water and a pinch of salt'),
      ...bread.slice(0, 65),
    ],
    [
      passage('b:0', 'fresh pasta needs eggs'),
      passage('m2:0', 'millet millet porridge'),
      passage('m4:0', 'a long note on grain that names millet once among many other words'),
      ...bread.slice(65),
    ],
  ]);
});
afterAll(() => service.close());

describe('GET /search', () => {
  it('returns a SPEC-shaped response with real hits', async () => {
    const response = await service.get('/search?q=sourdough&mode=keyword');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await response.json();
    expect(body).toMatchObject({ total: 1, mode: 'keyword', routed: true, vertical: null, partial: false });
    expect(body.results).toHaveLength(1);
    const hit = body.results[0];
    for (const field of ['id', 'url', 'host', 'title', 'vertical', 'host_rank', 'quality', 'fetched_at', 'source', 'story_id', 'score', 'snippet']) {
      expect(hit).toHaveProperty(field);
    }
    expect(hit).toMatchObject({ id: 'a:0', host: 'example.org', source: 'cc', snippet: 'feed the sourdough starter daily' });
  });

  it('defaults limit to 10, clamps it to 100, and counts with 0', async () => {
    const defaulted = await (await service.get('/search?q=bread&mode=keyword')).json();
    expect(defaulted.results).toHaveLength(10);
    expect(defaulted.total).toBe(130);
    const clamped = await (await service.get('/search?q=bread&limit=1000&mode=keyword')).json();
    expect(clamped.results).toHaveLength(100);
    expect(clamped.total).toBe(130);
    const counted = await (await service.get('/search?q=bread&limit=0&mode=keyword')).json();
    expect(counted.results).toEqual([]);
    expect(counted.total).toBe(130);
  });

  it('merges shards in score order', async () => {
    const body = await (await service.get('/search?q=millet&mode=keyword&limit=10')).json();
    expect(body.total).toBe(4);
    // Both shards contributed (m1, m3 live on shard 0; m2, m4 on shard 1), interleaved by score.
    expect(body.results.map((hit: { id: string }) => hit.id)).toEqual(['m1:0', 'm2:0', 'm3:0', 'm4:0']);
    const scores: number[] = body.results.map((hit: { score: number }) => hit.score);
    for (let index = 1; index < scores.length; index++) expect(scores[index]).toBeLessThan(scores[index - 1]);
  });

  it('honours the boolean syntax', async () => {
    const excluded = await (await service.get('/search?q=bread%20-seeds&limit=0&mode=keyword')).json();
    expect(excluded.total).toBe(65);
    const phrase = await (await service.get(`/search?mode=keyword&q=${encodeURIComponent('"pasta needs"')}`)).json();
    expect(phrase.results.map((hit: { id: string }) => hit.id)).toEqual(['b:0']);
  });

  it('answers 400 naming the parameter for malformed input', async () => {
    for (const [query, name] of [['q=bread&limit=ten', 'limit'], ['q=bread&limit=-1', 'limit'], ['limit=5', 'q'], ['q=bread&mode=fuzzy', 'mode']]) {
      const response = await service.get(`/search?${query}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toContain(`parameter ${name}`);
    }
  });

  it('says what a flag or an optional parameter accepts, and reads a blank flag as left out', async () => {
    for (const [query, says] of [
      ['q=bread&safe=maybe', 'invalid parameter safe: true drops explicit content; false allows everything (true or false)'],
      ['q=bread&facets=yes', 'invalid parameter facets: '],
      ['q=bread&mode=fuzzy', 'invalid parameter mode: '],
    ]) {
      const response = await service.get(`/search?${query}`);
      expect(response.status, query).toBe(400);
      const text = await response.text();
      expect(text, query).toContain(says);
      expect(text, query).not.toMatch(/Invalid input|Invalid option/);
    }
    for (const query of ['q=bread&safe=', 'q=bread&safe=%20', 'q=bread&facets=']) {
      const response = await service.get(`/search?${query}`);
      expect(response.status, query).toBe(200);
      await response.arrayBuffer();
    }
  });

  it('refuses a parameter given twice unless it is a list, whose values it joins', async () => {
    for (const [query, name] of [
      ['q=bread&limit=3&limit=abc', 'limit'],
      ['q=bread&limit=3&limit=4', 'limit'],
      ['q=bread&q=pasta', 'q'],
      ['q=bread&safe=true&safe=false', 'safe'],
    ]) {
      const response = await service.get(`/search?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.text(), query).toMatch(new RegExp(`^invalid parameter ${name}: one value, given 2: `));
    }
    const joined = await service.get('/search?q=bread&fields=id&fields=url,score&limit=3');
    expect(joined.status).toBe(200);
    const body = (await joined.json()) as { results: Record<string, unknown>[] };
    expect(body.results.length).toBeGreaterThan(0);
    for (const hit of body.results) expect(Object.keys(hit).sort()).toEqual(['id', 'score', 'url']);
  });

  it("takes parameter names that are Object.prototype's own (toString, __proto__) as unknown parameters", async () => {
    for (const query of ['q=bread&toString=1', 'q=bread&constructor=1&constructor=2', 'q=bread&__proto__=x&__proto__=y', 'q=bread&hasOwnProperty=1']) {
      const response = await service.get(`/search?${query}`);
      expect(response.status, query).toBe(200);
      await response.arrayBuffer();
    }
    const limited = await service.get('/search?q=bread&limit=1&__proto__=x');
    expect(((await limited.json()) as { results: unknown[] }).results).toHaveLength(1);
  });

  it('carries x-ratelimit-remaining on authenticated answers', async () => {
    const response = await service.get('/search?q=bread');
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
  });
});

describe('GET /doc/{id}', () => {
  it('returns the full document', async () => {
    const response = await service.get('/doc/b:0');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: 'b:0', url: 'https://example.org/b/0', host: 'example.org', title: 'Page b', vertical: 'cooking',
      lang: 'en', host_rank: 0.5, quality: 50, text: 'fresh pasta needs eggs',
    });
  });

  it('answers 404 as plain text for an unknown id', async () => {
    const response = await service.get('/doc/nope:7');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toContain('nope:7');
  });

  it('echoes at most a bounded, escaped part of an unknown id', async () => {
    const long = await service.get(`/doc/${'x'.repeat(5000)}`);
    expect(long.status).toBe(404);
    const text = await long.text();
    expect(text.length).toBeLessThan(300);
    expect(text).toMatch(/\.\.\. \(\d+ characters\)$/);
    const control = await service.get('/doc/a%00b%1Fc');
    expect(control.status).toBe(404);
    expect(await control.text()).toBe('not found: no passage with id a\\u0000b\\u001fc');
  });
});

describe('keys on the search routes', () => {
  it('accepts Bearer, prefers x-api-key, refuses lowercase bearer and no key alike', async () => {
    expect((await service.get('/search?q=bread', { authorization: `Bearer ${service.key}` })).status).toBe(200);
    expect(
      (await service.get('/search?q=bread', { 'x-api-key': service.key, authorization: 'Bearer ess_' + '0'.repeat(48) })).status,
    ).toBe(200);
    const lower = await service.get('/search?q=bread', { authorization: `bearer ${service.key}` });
    const none = await service.get('/search?q=bread', {});
    expect(lower.status).toBe(401);
    expect(none.status).toBe(401);
    expect(await lower.text()).toBe(await none.text());
  });
});

describe('probes and unknown routes', () => {
  it('answers /healthz and /readyz without a key', async () => {
    const health = await service.get('/healthz', {});
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok');
    const ready = await service.get('/readyz', {});
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, shards: 2 });
  });

  it('answers 404 for an unknown route', async () => {
    const response = await service.get('/nowhere', {});
    expect(response.status).toBe(404);
  });
});
