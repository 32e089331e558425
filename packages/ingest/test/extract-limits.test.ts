/**
 * Hostile page shapes must not hold ingest: past Readability's limits (extract/settings.ts
 * MAX_READABILITY_DEPTH, MAX_READABILITY_NESTING, MAX_READABILITY_ELEMENTS) the main text is the
 * body without its chrome, and ingest says so with the record's offset; past the page limits
 * (MAX_PAGE_CHARS, MAX_PAGE_ELEMENTS) the page is cut before parsing and the same is done; past
 * MAX_PAGE_DEPTH the record is reported as damaged, with that reason. The build before the page
 * limits spent 5-25 s on a page of 100,000 elements, seconds on a 10 MB text node, 17 s on 300
 * nested <time>s around a megabyte of text, and overflowed the stack on deeper pages. The build before these limits spent minutes on
 * the first page here (Readability alone: 6.7 s at 400 levels, about 100 s at 1,500 on this
 * machine, growing with the cube of the depth; this test file: 161 s on that page, 184 s to ingest it, against about 1 s for all four tests now).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractHtmlPage, pageLinks } from '../src/html-page.js';
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

/** A story, then `count` empty elements (past MAX_PAGE_ELEMENTS start tags), then a last paragraph the cut leaves out. */
function widePage(count: number): string {
  return `<!DOCTYPE html><html><head><title>Wide</title></head><body><p>${STORY}</p><p><a href="/before">Before</a></p><div>${'<b></b>'.repeat(count)}</div><p>${LAST} <a href="/after">After</a></p></body></html>`;
}

/** A story, `chars` characters of filler text (past MAX_PAGE_CHARS), then a last paragraph the cut leaves out. */
function hugeTextPage(chars: number): string {
  const filler = 'filler words without end '.repeat(Math.ceil(chars / 25));
  return `<!DOCTYPE html><html><head><title>Huge</title></head><body><article><p>${STORY}</p><p>${filler}</p><p>${LAST}</p></article></body></html>`;
}

const LAST = 'Orchard owners reported that the late blossom escaped the frost entirely this spring.';
const CUT_NOTE = 'Readability skipped, the body without chrome is the text';

beforeAll(() => assertBuilt());

describe('extraction limits', () => {
  it('extracts a page nested 1,500 levels deep from the body, without Readability, and says why', () => {
    const page = extractHtmlPage(deepPage(1500), 'https://deep.example.org/story', WARC_SECONDS);
    expect(page.text).toBe(STORY);
    expect(page.title).toBe('Nested');
    expect(page.limitNote).toMatch(/nested deeper than 100 elements; Readability skipped/);
  }, 30_000);

  it('bounds many nests each under the depth limit by their total nesting', () => {
    const page = extractHtmlPage(chainedPage(150, 90), 'https://chains.example.org/', WARC_SECONDS);
    expect(page.limitNote).toMatch(/element depths add up to more than 300000; Readability skipped/);
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

describe('page limits', () => {
  it('cuts a page of 100,000 elements after its first 30,000 start tags, and takes the body', () => {
    const html = widePage(100_000);
    const page = extractHtmlPage(html, 'https://wide.example.org/', WARC_SECONDS);
    expect(page.limitNote).toBe(`page: more than 30000 start tags, cut after the first 30000; ${CUT_NOTE}`);
    expect(page.text).toBe(`${STORY}\n\nBefore`);
    expect(page.title).toBe('Wide');
    // Pass 1 reads the links of the same cut page.
    expect(page.links).toEqual(['https://wide.example.org/before']);
    expect(pageLinks(html, 'https://wide.example.org/')).toEqual(page.links);
  }, 30_000);

  it('cuts a 10 MB text to its first 2,000,000 characters, and its main text to 300,000 at a word', () => {
    const page = extractHtmlPage(hugeTextPage(10_000_000), 'https://huge.example.org/', WARC_SECONDS);
    expect(page.limitNote).toBe(`page: more than 2000000 characters, cut to the first 2000000; ${CUT_NOTE}; main text: more than 300000 characters, cut to the first 300000`);
    const blocks = page.text.split('\n\n');
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toBe(STORY);
    expect(blocks[1].startsWith('filler words without end filler')).toBe(true);
    expect(page.text.length).toBeLessThanOrEqual(300_000);
    expect(page.text.length).toBeGreaterThan(299_000);
    expect(page.text).toMatch(/ (?:filler|words|without|end)$/);
  }, 30_000);

  it('cuts a main text of 12,000 paragraphs to 300,000 characters at a paragraph end', () => {
    const html = `<!DOCTYPE html><html><head><title>Paragraphs</title></head><body><article>${`<p>${STORY}</p>`.repeat(12_000)}</article></body></html>`;
    const page = extractHtmlPage(html, 'https://paragraphs.example.org/', WARC_SECONDS);
    expect(page.limitNote).toBe(`main text: more than 300000 characters, cut to the first 300000`);
    const blocks = page.text.split('\n\n');
    expect(blocks.every((block) => block === STORY)).toBe(true);
    expect(blocks.length).toBe(Math.floor((300_000 + 2) / (STORY.length + 2)));
  }, 30_000);

  it('leaves a page just under both page limits whole', () => {
    const page = extractHtmlPage(widePage(29_000), 'https://wide.example.org/', WARC_SECONDS);
    expect(page.limitNote).toBe(`main text: page has more than 15000 elements; ${CUT_NOTE}`);
    expect(page.text).toBe(`${STORY}\n\nBefore\n\n${LAST} After`);
  }, 30_000);

  it('does not extract a page nested deeper than 2,000 elements, and says why', () => {
    expect(() => extractHtmlPage(deepPage(5000), 'https://deep.example.org/', WARC_SECONDS)).toThrow('page nested deeper than 2000 elements, not extracted');
  });

  it('reads a date from the first 1,000 characters of a <time>, and finds one in 300 nested <time>s around a megabyte', () => {
    const late = `<!DOCTYPE html><html lang="en"><head><title>Late</title></head><body><article><time>${'x '.repeat(600)}March 3, 2021</time><p>${STORY}</p></article></body></html>`;
    expect(extractHtmlPage(late, 'https://late.example.org/', WARC_SECONDS).publishedAtSignal).toMatchObject({ day: '2021-03-03', source: 'text' });
    const nested = `<!DOCTYPE html><html lang="en"><head><title>Times</title></head><body><article>${'<time>'.repeat(300)}Posted March 3, 2021. ${STORY.repeat(8000)}${'</time>'.repeat(300)}</article></body></html>`;
    expect(extractHtmlPage(nested, 'https://times.example.org/', WARC_SECONDS).publishedAtSignal).toMatchObject({ day: '2021-03-03', source: 'time_element' });
  }, 30_000);
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

  it('ingests a page past the page limits from its cut, reports a page too deep as damaged, and goes on', async () => {
    const file = join(directory, 'hostile.warc.gz');
    const records = [
      responseRecord('https://wide.example.org/', widePage(100_000)),
      responseRecord('https://deeper.example.org/', deepPage(5000)),
      responseRecord('https://plain.example.org/', articleHtml({ title: 'Plain', paragraphs: [LAST] })),
    ];
    writeFileSync(file, gzipMembers(records));
    const offsets: number[] = [];
    for await (const item of readWarcItems(file, 'gzip')) if (item.kind === 'record') offsets.push(item.offset);
    const logged: string[] = [];
    const dataDir = join(directory, 'data');
    const summary = await ingestFiles([file], { dataDir, shards: 1, log: (line) => logged.push(line) });
    expect(summary.crawl).toMatchObject({ pages: 2, pastLimits: 1, damaged: { extraction_failed: 1 } });
    expect(logged).toContain(`${file}@${offsets[0]}: page: more than 30000 start tags, cut after the first 30000; ${CUT_NOTE}`);
    expect(logged).toContain(`${file}@${offsets[1]}: page extraction failed: page nested deeper than 2000 elements, not extracted`);
    expect([...new Set(searchAll(dataDir, 'beekeepers').hits.map((hit) => hit.url))]).toEqual(['https://wide.example.org/']);
    expect([...new Set(searchAll(dataDir, 'orchard').hits.map((hit) => hit.url))]).toEqual(['https://plain.example.org/']);
  }, 30_000);
});
