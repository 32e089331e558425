/**
 * Every parameter of GET /search shown on indexed data: a filter excludes what it must and keeps
 * what it must, a sort orders, a collapse leaves one row per group and counts the rest. Plus
 * the router, /similar and /browse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '@evidence/native';
import { HIT_FIELDS } from '@evidence/schemas';
import { passage, startTestServer, type TestServer } from './fixture.js';

let service: TestServer;

function page(id: string, host: string, text: string, extra: Partial<Passage> = {}): Passage {
  return passage(id, text, {
    url: `https://${host}/${id.replace(':', '/')}`,
    host,
    registrableDomain: host,
    owner: host,
    tld: host.split('.').pop()!,
    ...extra,
  });
}

const corpus: Passage[] = [
  page('k1:0', 'bakery.org', 'sourdough loaf with a crisp crust', { vertical: 'cooking', fetchedAt: 1_700_000_100, publishedAt: 1_600_000_000, hostRank: 0.9, quality: 80, storyId: 'st-1', contentType: 'how-to', topics: ['bread'] }),
  page('k1:1', 'bakery.org', 'sourdough starter feeding schedule', { vertical: 'cooking', fetchedAt: 1_700_000_200, hostRank: 0.9, quality: 70, storyId: 'st-2', contentType: 'how-to', topics: ['bread'] }),
  page('k2:0', 'recipes.net', 'sourdough pancakes for a lazy sunday', { vertical: 'cooking', fetchedAt: 1_700_000_300, publishedAt: 1_690_000_000, hostRank: 0.6, quality: 60, storyId: 'st-1', contentType: 'article', lang: 'de', source: 'delta' }),
  page('k3:0', 'news.com', 'city bakery wins sourdough contest', { vertical: 'news', fetchedAt: 1_700_000_400, publishedAt: 1_699_000_000, hostRank: 0.5, quality: 50, storyId: 'st-3', contentType: 'news', authority: 'high' }),
  page('k4:0', 'forum.io', 'why does my sourdough smell like acetone', { vertical: 'cooking', fetchedAt: 1_700_000_500, hostRank: 0.1, quality: 20, storyId: 'st-4', contentType: 'forum', safety: 'explicit' }),
  page('k5:0', 'bakery.org', 'sourdough sourdough sourdough discard crackers recipe with many many words in it for length', { vertical: 'cooking', fetchedAt: 1_700_000_050, hostRank: 0.9, quality: 90, storyId: 'st-5', contentType: 'how-to', independentSources: 3, centrality: 0.8, communityId: 'c-7' }),
  page('k6:0', 'science.edu', 'yeast genetics in wild fermentation cultures', { vertical: 'science', fetchedAt: 1_700_000_600, hostRank: 0.95, quality: 85, storyId: 'st-6' }),
];

beforeAll(async () => {
  service = await startTestServer([corpus.filter((_, index) => index % 2 === 0), corpus.filter((_, index) => index % 2 === 1)]);
});
afterAll(() => service.close());

async function search(query: string): Promise<{ results: Record<string, any>[]; total: number; [key: string]: any }> {
  const response = await service.get(`/search?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

async function ids(query: string): Promise<string[]> {
  return (await search(`q=sourdough&mode=keyword&vertical=cooking&safe=false&limit=100&${query}`)).results.map((hit) => hit.id).sort();
}

describe('filters on /search', () => {
  it('each filter keeps exactly what it should', async () => {
    expect(await ids('')).toEqual(['k1:0', 'k1:1', 'k2:0', 'k4:0', 'k5:0']);
    expect(await ids('site=bakery.org')).toEqual(['k1:0', 'k1:1', 'k5:0']);
    expect(await ids('exclude_site=bakery.org,forum.io')).toEqual(['k2:0']);
    expect(await ids('tld=net,io')).toEqual(['k2:0', 'k4:0']);
    expect(await ids('lang=de')).toEqual(['k2:0']);
    expect(await ids('langs=de,fr')).toEqual(['k2:0']);
    expect(await ids('content_type=forum,article')).toEqual(['k2:0', 'k4:0']);
    expect(await ids('topic=bread')).toEqual(['k1:0', 'k1:1']);
    expect(await ids('community=c-7')).toEqual(['k5:0']);
    expect(await ids('source=delta')).toEqual(['k2:0']);
    expect(await ids('from=1700000200&to=1700000300')).toEqual(['k1:1', 'k2:0']);
    expect(await ids('published_from=1650000000')).toEqual(['k2:0']);
    expect(await ids('published_to=1650000000')).toEqual(['k1:0']);
    expect(await ids('min_host_rank=0.8')).toEqual(['k1:0', 'k1:1', 'k5:0']);
    expect(await ids('min_quality=65')).toEqual(['k1:0', 'k1:1', 'k5:0']);
    expect(await ids('min_words=10')).toEqual(['k5:0']);
    expect(await ids('max_words=6')).toEqual(['k1:0', 'k1:1', 'k2:0']);
    expect(await ids('min_centrality=0.5')).toEqual(['k5:0']);
    expect(await ids('min_independent_sources=2')).toEqual(['k5:0']);
    expect(await ids('term=crackers')).toEqual(['k5:0']);
  });

  it('authority filters across verticals', async () => {
    const body = await search('q=sourdough&mode=keyword&authority=high');
    expect(body.results.map((hit) => hit.id)).toEqual(['k3:0']);
  });

  it('safe defaults to true and drops explicit content', async () => {
    const safe = await search('q=acetone&mode=keyword');
    expect(safe.total).toBe(0);
    const unsafe = await search('q=acetone&mode=keyword&safe=false');
    expect(unsafe.results.map((hit) => hit.id)).toEqual(['k4:0']);
  });
});

describe('sorts, collapse, projection, facets on /search', () => {
  it('every sort orders by its field, largest first', async () => {
    const order = async (sort: string) =>
      (await search(`q=sourdough&mode=keyword&vertical=cooking&safe=false&sort=${sort}`)).results.map((hit) => hit.id);
    expect(await order('recency')).toEqual(['k4:0', 'k2:0', 'k1:1', 'k1:0', 'k5:0']);
    expect((await order('host_rank')).slice(-1)).toEqual(['k4:0']);
    expect(await order('quality')).toEqual(['k5:0', 'k1:0', 'k1:1', 'k2:0', 'k4:0']);
    expect((await order('published')).slice(0, 2)).toEqual(['k2:0', 'k1:0']);
    expect((await order('words'))[0]).toBe('k5:0');
    expect((await order('centrality'))[0]).toBe('k5:0');
    const relevance = (await search('q=sourdough&mode=keyword&vertical=cooking&safe=false')).results.map((hit) => hit.score);
    expect(relevance).toEqual([...relevance].sort((left, right) => right - left));
  });

  it('collapse leaves one row per group and counts the rest', async () => {
    const byHost = await search('q=sourdough&mode=keyword&vertical=cooking&safe=false&collapse=host');
    expect(byHost.total).toBe(5);
    expect(byHost.results.map((hit) => hit.host).sort()).toEqual(['bakery.org', 'forum.io', 'recipes.net']);
    expect(byHost.results.find((hit) => hit.host === 'bakery.org')!.group_size).toBe(3);
    const byStory = await search('q=sourdough&mode=keyword&vertical=cooking&safe=false&collapse=story');
    expect(byStory.results.find((hit) => hit.story_id === 'st-1')!.group_size).toBe(2);
    expect(byStory.results).toHaveLength(4);
    const byPage = await search('q=sourdough&mode=keyword&vertical=cooking&safe=false&collapse=page');
    expect(byPage.results.find((hit) => hit.id.startsWith('k1:'))!.group_size).toBe(2);
    const none = await search('q=sourdough&mode=keyword&vertical=cooking&safe=false');
    expect(none.results.every((hit) => hit.group_size === undefined)).toBe(true);
  });

  it('without fields, a hit holds every SPEC field it has, in the schema\'s order, as when fields names them all', async () => {
    const all = await search(`q=sourdough&mode=keyword&fields=${HIT_FIELDS.join(',')}`);
    const plain = await search('q=sourdough&mode=keyword');
    expect(plain.results.length).toBeGreaterThan(1);
    expect(plain.results.map((hit: Record<string, unknown>) => Object.keys(hit))).toEqual(all.results.map((hit: Record<string, unknown>) => Object.keys(hit)));
    expect(plain.results).toEqual(all.results);
    for (const hit of plain.results as Record<string, unknown>[]) {
      const keys = Object.keys(hit);
      expect(keys).toEqual(HIT_FIELDS.filter((field) => field in hit));
      expect(keys).not.toContain('page_id'); // internal provenance stays out
    }
  });

  it('fields projects hits', async () => {
    const body = await search('q=sourdough&mode=keyword&fields=id,host');
    expect(body.results.length).toBeGreaterThan(0);
    for (const hit of body.results) expect(Object.keys(hit).sort()).toEqual(['host', 'id']);
  });

  it('facets count the whole match set exactly across shards', async () => {
    const body = await search('q=sourdough&mode=keyword&safe=false&facets=true&limit=1&vertical=cooking');
    expect(body.facets.host).toEqual([
      { value: 'bakery.org', count: 3 },
      { value: 'forum.io', count: 1 },
      { value: 'recipes.net', count: 1 },
    ]);
    expect(body.facets.vertical).toEqual([{ value: 'cooking', count: 5 }]);
    expect(body.facets.source).toEqual([{ value: 'cc', count: 4 }, { value: 'delta', count: 1 }]);
    expect(body.facets.content_type[0]).toEqual({ value: 'how-to', count: 3 });
    expect(body.facets.published_year).toEqual([{ year: 2020, count: 1 }, { year: 2023, count: 1 }]);
    expect((await search('q=sourdough&mode=keyword')).facets).toBeUndefined();
  });

  it('prefer_authority lifts trusted hosts without filtering', async () => {
    const plain = await search('q=sourdough%20contest%20acetone&mode=keyword&safe=false');
    const lifted = await search('q=sourdough%20contest%20acetone&mode=keyword&safe=false&prefer_authority=true');
    expect(lifted.total).toBe(plain.total);
    const rank = (body: typeof plain, id: string) => body.results.findIndex((hit) => hit.id === id);
    expect(rank(lifted, 'k4:0')).toBeGreaterThanOrEqual(rank(plain, 'k4:0'));
    const recent = await search('q=sourdough&mode=keyword&safe=false&prefer_recent=true');
    expect(recent.total).toBe(plain.total === 0 ? 0 : recent.total);
  });
});

describe('modes and the router', () => {
  it('hybrid is the default and reports itself; semantic finds related text', async () => {
    const hybrid = await search('q=sourdough%20acetone&safe=false');
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.results[0].id).toBe('k4:0');
    const semantic = await search('q=sourdough%20smells%20of%20acetone&mode=semantic&safe=false');
    expect(semantic.mode).toBe('semantic');
    expect(semantic.results[0].id).toBe('k4:0');
  });

  it('routes a query that clearly belongs to one vertical, and says so', async () => {
    const routed = await search('q=sourdough&mode=keyword&safe=false');
    expect(routed).toMatchObject({ routed: true, vertical: 'cooking', total: 5 });
    expect(routed.results.every((hit) => hit.vertical === 'cooking')).toBe(true);
    const named = await search('q=sourdough&mode=keyword&vertical=news');
    expect(named).toMatchObject({ routed: false, vertical: 'news', total: 1 });
  });

  it('searches all verticals when no vertical dominates', async () => {
    const mixed = await search('q=yeast%20OR%20contest&mode=keyword');
    expect(mixed).toMatchObject({ routed: true, vertical: null, total: 2 });
  });
});

describe('malformed search parameters', () => {
  it('answers 400 naming the parameter, and charges nothing', async () => {
    const before = (await (await service.get('/account')).json()).credits_used_this_period;
    const cases: [string, string][] = [
      ['sort=newest', 'sort'],
      ['collapse=site', 'collapse'],
      ['content_type=poem', 'content_type'],
      ['source=web', 'source'],
      ['min_host_rank=2', 'min_host_rank'],
      ['min_words=10&max_words=5', 'min_words'],
      ['from=20&to=10', 'from'],
      ['published_from=abc', 'published_from'],
      ['safe=maybe', 'safe'],
      ['facets=yes', 'facets'],
      ['fields=id,body', 'fields'],
    ];
    for (const [query, name] of cases) {
      const response = await service.get(`/search?q=sourdough&${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.text()).toContain(`parameter ${name}`);
    }
    const after = (await (await service.get('/account')).json()).credits_used_this_period;
    expect(after).toBe(before);
  });
});

describe('GET /similar', () => {
  it('returns semantic neighbours, never the seed, with limit and total', async () => {
    const body = await (await service.get('/similar?id=k1:1&limit=2')).json();
    expect(body.mode).toBe('semantic');
    expect(body.results.length).toBeLessThanOrEqual(2);
    expect(body.results.map((hit: { id: string }) => hit.id)).not.toContain('k1:1');
    expect(body.total).toBeGreaterThanOrEqual(body.results.length);
    expect(body.results[0].snippet).toMatch(/sourdough/);
  });

  it('answers 404 for an unknown id and 400 without an id', async () => {
    expect((await service.get('/similar?id=nope:0')).status).toBe(404);
    const missing = await service.get('/similar');
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('parameter id');
  });
});

describe('GET /browse', () => {
  it('lists recent passages without a query, in the WebSearchResponse shape', async () => {
    const body = await (await service.get('/browse?limit=3')).json();
    expect(body).toMatchObject({ mode: 'keyword', routed: false, vertical: null, total: 6 });
    expect(body.results.map((hit: { id: string }) => hit.id)).toEqual(['k6:0', 'k3:0', 'k2:0']);
  });

  it('honours sort and vertical', async () => {
    const body = await (await service.get('/browse?sort=quality&vertical=cooking&limit=2')).json();
    expect(body.results.map((hit: { id: string }) => hit.id)).toEqual(['k5:0', 'k1:0']);
    expect(body.vertical).toBe('cooking');
    expect((await service.get('/browse?sort=relevance')).status).toBe(400);
  });
});
