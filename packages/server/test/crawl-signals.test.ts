/**
 * The page signals ingest derives (vertical, safety, host_rank, quality, authority, topics), on
 * real pages: the shared real WARC files (22 research-site pages captured with wget, 91 news and
 * blog articles) through `npm run ingest`'s command and a real server, read back over REST. A
 * crawl file carries none of these signals; before they were derived every passage was
 * `general`, 0.5, 50 and `safe`, and /describe listed one vertical and nothing else.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngestedServer, type IngestedServer } from './fixture.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const CRAWL = join(repository, '..', 'shared', 'data', 'crawl');
const WARCS = [join(CRAWL, 'sample-0000.warc.gz'), join(CRAWL, 'articles-dev.warc.gz')];

interface Hit {
  id: string;
  url: string;
  host: string;
  vertical: string;
  host_rank: number;
  quality: number;
  safety?: string;
  authority?: string;
  topics?: string[];
}

let dataDir: string;
let server: IngestedServer;
const get = <T>(path: string): Promise<T> => server.get<T>(path);

describe.skipIf(!WARCS.every((file) => existsSync(file)))('signals derived from real crawled pages (needs ../shared/data/crawl)', () => {
  let hits: Hit[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'crawl-signals-'));
    // Beside the crawl, a JSONL page without a safety field at an explicit page URL listed by UT1's adult list.
    const explicitPage = join(dataDir, 'explicit.jsonl');
    writeFileSync(explicitPage, `${JSON.stringify({ url: 'http://anybunny.casa/fr/mov/cock-licking-compilation/145354', title: 'Compilation', text: 'A long compilation of clips from the archive, sorted by date and length.', fetched_at: 1_700_000_000 })}\n`);
    server = await startIngestedServer([...WARCS, explicitPage], dataDir);
    // One hit per page: the English pages (most of both files) by a word they all use.
    hits = (await get<{ results: Hit[] }>('/search?q=the&mode=keyword&collapse=page&limit=100&safe=false')).results;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives pages verticals from their content, not all general', async () => {
    const verticals = new Set(hits.map((hit) => hit.vertical));
    expect(verticals.size).toBeGreaterThanOrEqual(4);
    const general = hits.filter((hit) => hit.vertical === 'general').length;
    expect(general / hits.length).toBeLessThan(0.2);
  });

  it('routes a real query to the vertical its pages share', async () => {
    // The plague and feather-duvet articles (livescience, smithsonianmag, express, msn, forbes) are health pages.
    const routed = await get<{ routed: boolean; vertical: string | null; results: Hit[] }>('/search?q=plague&mode=keyword&limit=10');
    expect(routed).toMatchObject({ routed: true, vertical: 'health' });
    expect(routed.results.every((hit) => hit.vertical === 'health')).toBe(true);
  });

  it('ranks hosts and scores quality per page, so those sorts order rather than tie', async () => {
    const ranks = new Set(hits.map((hit) => hit.host_rank));
    const qualities = new Set(hits.map((hit) => hit.quality));
    expect(ranks.size).toBeGreaterThan(1);
    expect(qualities.size).toBeGreaterThan(5);
    const byQuality = (await get<{ results: Hit[] }>('/search?q=the&mode=keyword&sort=quality&limit=100')).results.map((hit) => hit.quality);
    expect(byQuality).toEqual([...byQuality].sort((left, right) => right - left));
    expect(byQuality[0]).toBeGreaterThan(byQuality[byQuality.length - 1]);
    // An academic host (the research sites' .edu pages) carries the academic prior and authority.
    const academic = hits.find((hit) => hit.host.endsWith('.edu'));
    expect(academic?.host_rank).toBeGreaterThanOrEqual(0.7);
    expect(academic?.authority).toBe('high');
  });

  it('lists what the index holds in /describe: verticals, authorities, topics, and the taxonomy', async () => {
    type Described = { verticals: string[]; authorities: string[]; topics: string[]; vertical_taxonomy: { default: string; verticals: { name: string; curlie: string }[] } };
    // The live lists come from a background refresh that starts with the server.
    let describe = await get<Described>('/describe');
    for (let attempt = 0; attempt < 50 && describe.verticals.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      describe = await get<Described>('/describe');
    }
    expect(describe.verticals.length).toBeGreaterThanOrEqual(4);
    expect(describe.authorities).toContain('high');
    expect(describe.topics.length).toBeGreaterThan(0);
    expect(describe.vertical_taxonomy.default).toBe('general');
    expect(describe.vertical_taxonomy.verticals.map((vertical) => vertical.name)).toContain('sports');
  });

  it('marks an explicit page explicit, so the default safe search drops it', async () => {
    expect((await get<{ total: number }>('/search?q=%22compilation+of+clips%22&mode=keyword&limit=0')).total).toBe(0);
    const unsafe = await get<{ results: Hit[] }>('/search?q=%22compilation+of+clips%22&mode=keyword&safe=false');
    expect(unsafe.results.map((hit) => [hit.host, hit.safety])).toEqual([['anybunny.casa', 'explicit']]);
  });

  it('keeps ordinary articles safe and reads the signals back through why_not', async () => {
    expect(hits.filter((hit) => hit.host !== 'anybunny.casa').every((hit) => (hit.safety ?? 'safe') === 'safe')).toBe(true);
    const one = hits.find((hit) => hit.vertical !== 'general')!;
    const why = await get<{ status: string; hit: Hit }>(`/why_not?url=${encodeURIComponent(one.url)}`);
    expect(why.status).toBe('present');
    expect(why.hit.vertical).toBe(one.vertical);
  });
});
