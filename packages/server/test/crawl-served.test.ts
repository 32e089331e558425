/**
 * The shared real WARC (22 HTML responses) through `npm run ingest`'s command and a real server:
 * its pages answer /search, /doc and /ground with their main text and real titles, and not by
 * words that appear only in their navigation or footers.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngestedServer, type IngestedServer } from './fixture.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const SAMPLE_WARC = join(repository, '..', 'shared', 'data', 'crawl', 'sample-0000.warc.gz');

let dataDir: string;
let server: IngestedServer;
const get = <T>(path: string): Promise<T> => server.get<T>(path);

describe.skipIf(!existsSync(SAMPLE_WARC))('the shared crawl sample, served (needs ../shared/data/crawl)', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'crawl-served-'));
    server = await startIngestedServer([SAMPLE_WARC], dataDir);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('search finds a post by its main text under its real title; chrome words find nothing', async () => {
    const found = await get<{ results: { id: string; url: string; title: string }[] }>('/search?q=mastodon+servers&mode=keyword');
    const post = found.results.find((hit) => hit.url.endsWith('notes-on-mastodon.html'));
    expect(post?.title).toBe('Some things to know about Mastodon');
    for (const chrome of ['unsplash', 'subscribe']) {
      const none = await get<{ total: number }>(`/search?q=${chrome}&mode=keyword&limit=0`);
      expect(none.total, chrome).toBe(0);
    }
  });

  it('doc returns the clean passage text, and ground finds the page as evidence', async () => {
    const found = await get<{ results: { id: string; url: string }[] }>('/search?q=mastodon+servers&mode=keyword');
    const id = found.results.find((hit) => hit.url.endsWith('notes-on-mastodon.html'))!.id;
    const document = await get<{ text: string; title: string; lang: string }>(`/doc/${id}`);
    expect(document.title).toBe('Some things to know about Mastodon');
    expect(document.lang).toBe('en');
    expect(document.text).not.toMatch(/Toggle navigation|Skip to content/i);
    const ground = await get<{ status: string; evidence: { hit: { url: string } }[] }>('/ground?objective=mastodon+servers&require_role=');
    expect(ground.evidence.map((item) => item.hit.url)).toContain('https://maria-antoniak.github.io/2023/07/04/notes-on-mastodon.html');
  });
});
