/**
 * Hostile page shapes must not hold ingest: past Readability's limits (extract/settings.ts
 * MAX_READABILITY_DEPTH, MAX_READABILITY_NESTING) the main text is the body without its chrome,
 * and ingest says so with the record's offset. The build before these limits spent minutes on
 * the first page here (Readability alone: 6.7 s at 400 levels, about 100 s at 1,500 on this
 * machine, growing with the cube of the depth; this test file: 161 s on that page, 184 s to ingest it, against about 1 s for all four tests now).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractHtmlPage } from '../src/html-page.js';
import { ingestFiles } from '../src/ingest.js';
import { readWarcItems } from '../src/warc-reader.js';
import { assertBuilt, removeDirectory, searchAll, temporaryDirectory } from './helpers.js';
import { WARC_SECONDS, articleHtml, gzipMembers, responseRecord } from './warc-builder.js';

const STORY = 'Beekeepers in the valley counted their hives after the frost and found that most colonies had survived the winter intact.';

/** `levels` nested `<div>`s (the shape a broken template or a hostile page gives) around one story. */
function deepPage(levels: number): string {
  return `<!DOCTYPE html><html><head><title>Nested</title></head><body><nav><a href="/">Home</a></nav>${'<div class="wrap">'.repeat(levels)}<p>${STORY}</p>${'</div>'.repeat(levels)}</body></html>`;
}

/** `chains` separate nests of `levels` elements each: every one under the depth limit, together past the nesting limit. */
function chainedPage(chains: number, levels: number): string {
  const chain = `${'<div><span>'.repeat(levels / 2)}${STORY}${'</span></div>'.repeat(levels / 2)}`;
  return `<!DOCTYPE html><html><head><title>Chains</title></head><body>${chain.repeat(chains)}</body></html>`;
}

beforeAll(() => assertBuilt());

describe('extraction limits', () => {
  it('extracts a page nested 1,500 levels deep in seconds, from the body, and says why', () => {
    const started = performance.now();
    const page = extractHtmlPage(deepPage(1500), 'https://deep.example.org/story', WARC_SECONDS);
    expect((performance.now() - started) / 1000).toBeLessThan(5);
    expect(page.text).toBe(STORY);
    expect(page.title).toBe('Nested');
    expect(page.limitNote).toMatch(/nested deeper than 100 elements; Readability skipped/);
  }, 30_000);

  it('bounds many nests each under the depth limit by their total nesting', () => {
    const started = performance.now();
    const page = extractHtmlPage(chainedPage(150, 90), 'https://chains.example.org/', WARC_SECONDS);
    expect((performance.now() - started) / 1000).toBeLessThan(10);
    expect(page.limitNote).toMatch(/element depths add up to more than 500000; Readability skipped/);
    expect(page.text.split('\n\n')).toHaveLength(150);
    expect(page.text.split('\n\n')[0]).toBe(STORY);
  }, 30_000);

  it('leaves an ordinary article to Readability, with no note', () => {
    const page = extractHtmlPage(articleHtml({ title: 'Frost and bees', paragraphs: [STORY, STORY.replace('valley', 'hills')] }), 'https://bees.example.org/', WARC_SECONDS);
    expect(page.limitNote).toBeUndefined();
    expect(page.text).toContain(STORY);
    expect(page.text).not.toContain('Home');
  });
});

describe('extraction limits in ingest', () => {
  let directory: string;
  beforeEach(() => (directory = temporaryDirectory()));
  afterEach(() => removeDirectory(directory));

  it('ingests the deep page, counts it and reports it with its offset', async () => {
    const file = join(directory, 'deep.warc.gz');
    writeFileSync(file, gzipMembers([responseRecord('https://plain.example.org/', articleHtml({ title: 'Plain', paragraphs: [STORY.replace('Beekeepers', 'Farmers')] })), responseRecord('https://deep.example.org/story', deepPage(1500))]));
    const offsets: number[] = [];
    for await (const item of readWarcItems(file, 'gzip')) if (item.kind === 'record') offsets.push(item.offset);
    const logged: string[] = [];
    const dataDir = join(directory, 'data');
    const summary = await ingestFiles([file], { dataDir, shards: 1, log: (line) => logged.push(line) });
    expect(summary.crawl).toMatchObject({ pages: 2, pastLimits: 1, damaged: {} });
    expect(logged).toContain(`${file}@${offsets[1]}: main text: page nested deeper than 100 elements; Readability skipped, the body without chrome is the text`);
    expect(logged.filter((line) => line.includes('Readability skipped'))).toHaveLength(1);
    expect([...new Set(searchAll(dataDir, 'beekeepers').hits.map((hit) => hit.url))]).toEqual(['https://deep.example.org/story']);
  }, 30_000);
});
