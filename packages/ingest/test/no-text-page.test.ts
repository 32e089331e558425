/**
 * A crawled page with a title and no main text is a page known by its title, with what its HTML
 * declares: here a real South China Morning Post opinion page from htmldate's evaluation set
 * (../shared/data/signals/published_at/html/ea929a526ddcacb0.html.gz, development half; its article body is
 * rendered by script, so the HTML carries the headline, the declared date and no body text).
 * Before, it was skipped (`no_text`) and issue 31's check, reading the date back over why_not,
 * found no page where the date module alone gives the right day.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPassages, crawlItemOf, pageIdFor, readWarcItems } from '../src/index.js';
import { parseRecordObject } from '../src/record.js';
import { PACKAGE_DIRECTORY, removeDirectory, temporaryDirectory } from './helpers.js';
import { gzipMembers, responseRecord } from './warc-builder.js';

const PAGE = join(PACKAGE_DIRECTORY, '..', '..', '..', 'shared', 'data', 'signals', 'published_at', 'html', 'ea929a526ddcacb0.html.gz');
const PAGE_URL = 'https://www.scmp.com/comment/opinion/article/3046526/taiwanese-president-tsai-ing-wens-political-playbook-should-be';

let directory: string;
beforeEach(() => {
  directory = temporaryDirectory();
});
afterEach(() => removeDirectory(directory));

describe.skipIf(!existsSync(PAGE))('a crawled page with a title and no main text (needs ../shared/data/signals)', () => {
  it('is a page: its title is its one passage, and it keeps the publish date its HTML declares', async () => {
    const file = join(directory, 'page.warc.gz');
    writeFileSync(file, gzipMembers([responseRecord(PAGE_URL, gunzipSync(readFileSync(PAGE)), { contentType: 'text/html' })]));
    const items = [];
    for await (const item of readWarcItems(file, 'gzip')) if (item.kind === 'record' && item.headers.get('warc-type') === 'response') items.push(crawlItemOf(item));
    expect(items).toHaveLength(1);
    const [page] = items;
    expect(page.kind).toBe('page');
    if (page.kind !== 'page') return;
    const record = parseRecordObject(page.record);
    expect(record.kind).toBe('content');
    if (record.kind !== 'content') return;
    expect(record.text).toBe('');
    expect(record.title).toMatch(/^Taiwanese President Tsai Ing-wen/);
    expect(new Date(record.publishedAt! * 1000).toISOString().slice(0, 10)).toBe('2020-01-20');
    const passages = buildPassages(record, pageIdFor(record.url, record.text), 'en');
    expect(passages.map((passage) => passage.text)).toEqual([record.title]);
    expect(passages[0].publishedAt).toBe(record.publishedAt);
  });
});
