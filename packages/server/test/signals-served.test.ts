/**
 * Real news pages through `npm run ingest`'s command and a real server, with no signal fields
 * given: the first twelve article pages of the shared crawl (../shared/data/crawl/
 * articles-dev.warc.gz, scrapinghub's article-extraction-benchmark, MIT packaging; the pages'
 * text belongs to their publishers) come back with the publish date, content type and source
 * role ingest derived, and a news question over them can be `sufficient` in ground.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readWarcItems } from '@evidence/ingest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngestedServer, type IngestedServer } from './fixture.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const ARTICLES_WARC = join(repository, '..', 'shared', 'data', 'crawl', 'articles-dev.warc.gz');
const PAGES = 12;

let directory: string;
let server: IngestedServer;
const get = <T>(path: string): Promise<T> => server.get<T>(path);

/** The first `count` response records of a WARC, written again as a WARC of their own. */
async function firstResponses(source: string, count: number): Promise<Buffer> {
  const members: Buffer[] = [];
  for await (const item of readWarcItems(source, 'gzip')) {
    if (item.kind !== 'record' || item.headers.get('warc-type') !== 'response') continue;
    const headers = [...item.headers].filter(([name]) => name !== 'content-length').map(([name, value]) => `${name}: ${value}`);
    const head = `WARC/1.0\r\n${headers.join('\r\n')}\r\ncontent-length: ${item.block.length}\r\n\r\n`;
    members.push(gzipSync(Buffer.concat([Buffer.from(head, 'latin1'), item.block, Buffer.from('\r\n\r\n')])));
    if (members.length === count) break;
  }
  return Buffer.concat(members);
}

interface Hit {
  id: string;
  url: string;
  published_at?: number;
  content_type?: string;
}

describe.skipIf(!existsSync(ARTICLES_WARC))('real news pages, signals derived at ingest and served (needs ../shared/data/crawl)', () => {
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'signals-served-'));
    const warc = join(directory, 'articles.warc.gz');
    writeFileSync(warc, await firstResponses(ARTICLES_WARC, PAGES));
    const dataDir = join(directory, 'data');
    server = await startIngestedServer([warc], dataDir);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('every page has a publish date before the crawl and a content type; the news pages say news', async () => {
    const found = await get<{ results: Hit[] }>('/search?q=the&mode=keyword&limit=100&collapse=page');
    const pages = new Map(found.results.map((hit) => [hit.url, hit]));
    // Every page that has the word: all but the Korean and Indonesian ones.
    expect(pages.size).toBeGreaterThanOrEqual(PAGES - 2);
    const crawled = Date.parse('2020-01-14T00:00:00Z') / 1000;
    for (const hit of pages.values()) {
      expect(hit.published_at, hit.url).toBeDefined();
      expect(hit.published_at!, hit.url).toBeLessThanOrEqual(crawled + 86_400);
      expect(hit.content_type, hit.url).toBeDefined();
    }
    // Dates these pages declare (JSON-LD, meta) or show in their URL.
    expect(new Date(pages.get('https://venturebeat.com/2019/11/18/new-york-state-attorney-general-investigating-wework-and-former-ceo/')!.published_at! * 1000).toISOString().slice(0, 10)).toMatch(/^2019-11-1[89]$/);
    const news = [...pages.values()].filter((hit) => hit.content_type === 'news').length;
    expect(news).toBeGreaterThanOrEqual(PAGES / 2);
    const described = await get<{ content_types: string[] }>('/describe');
    expect(described.content_types).toContain('news');
  });

  it('a news question is answered by news reporting: secondary sources, sufficient when secondary is what is asked for', async () => {
    const ground = await get<{ status: string; evidence: Array<{ hit: Hit; source_role: string; role_confidence: number }> }>(
      '/ground?objective=WeWork+attorney+general+investigation&require_role=secondary&min_independent_origins=1',
    );
    expect(ground.status).toBe('sufficient');
    const item = ground.evidence.find((evidence) => evidence.hit.url.includes('venturebeat.com'));
    expect(item?.source_role).toBe('secondary');
    expect(item?.role_confidence).toBeGreaterThan(0);
    // No page of the set is left without a role.
    for (const evidence of ground.evidence) expect(evidence.source_role).not.toBe('unknown');
  });
});
