import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ShardWriter, readManifest, shardDirectory } from '@evidence/native';
import { ingestFiles } from '../src/ingest.js';
import type { IngestOptions } from '../src/ingest.js';
import { pageIdFor } from '../src/page-id.js';
import {
  assertBuilt,
  findDocument,
  readLedger,
  removeDirectory,
  searchAll,
  temporaryDirectory,
  withReaders,
  totalDocuments,
  writeJsonl,
} from './helpers.js';

const FETCHED = 1_700_000_000;
const ENGLISH_TEXT = [
  'Glaciers in the northern valley retreated faster than any survey had predicted this decade.',
  'Researchers measured the ice with drones and compared the results with older aerial photographs.',
].join('\n\n');
const GERMAN_TEXT =
  'Die Stadtverwaltung hat am Montag angekündigt, dass die neue Straßenbahnlinie im Herbst eröffnet wird und den Bahnhof mit dem Flughafen verbindet.';

function page(url: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { url, title: `Title of ${url}`, text, fetched_at: FETCHED, ...extra };
}

let directory: string;
let dataDir: string;
let logged: string[];
let options: IngestOptions;

beforeAll(() => assertBuilt());

beforeEach(() => {
  directory = temporaryDirectory();
  dataDir = `${directory}/data`;
  logged = [];
  options = { dataDir, log: (line) => logged.push(line) };
});

afterEach(() => removeDirectory(directory));

describe('ingestFiles', () => {
  it('indexes pages with derived fields and admits them in the ledger', async () => {
    const file = writeJsonl(directory, 'pages.jsonl', [
      page('https://News.Example.co.uk/glaciers', ENGLISH_TEXT, { topics: ['climate'], links: ['https://example.org/x'] }),
      page('https://www.stadt.de/bahn', GERMAN_TEXT),
    ]);
    const summary = await ingestFiles([file], options);
    expect(summary).toMatchObject({ files: 1, lines: 2, pages: 2, passagesAdded: 3, passagesSkipped: 0, malformed: 0, shards: 2 });
    expect(readManifest(dataDir)?.shards).toBe(2);

    const englishPage = pageIdFor('https://News.Example.co.uk/glaciers', ENGLISH_TEXT);
    const english = findDocument(dataDir, `${englishPage}:1`);
    expect(english).toMatchObject({
      host: 'news.example.co.uk',
      registrable_domain: 'example.co.uk',
      owner: 'example.co.uk',
      lang: 'en',
      page_id: englishPage,
      passage_no: 1,
      source: 'cc',
      links: ['https://example.org/x'],
    });
    // Signals the record did not give are derived from the page (page-signals.test.ts and published-at-content-type.test.ts test them).
    expect(english?.vertical).not.toBe('general');
    expect(english?.host_rank).not.toBe(0.5);
    expect(english?.quality).not.toBe(50);
    expect(english?.text).toBe('Researchers measured the ice with drones and compared the results with older aerial photographs.');

    const hits = searchAll(dataDir, 'Straßenbahnlinie').hits;
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ host: 'www.stadt.de', tld: 'de', word_count: 21 });
    expect(findDocument(dataDir, hits[0].id)?.lang).toBe('de');
    expect(hits[0].story_id).toMatch(/^s[0-9a-f]{16}$/);

    const ledger = readLedger(dataDir);
    expect(ledger).toEqual([
      { event: 'admitted', url: 'https://News.Example.co.uk/glaciers', page_id: englishPage, passages: 2, fetched_at: FETCHED, at: expect.any(Number) },
      { event: 'admitted', url: 'https://www.stadt.de/bahn', page_id: pageIdFor('https://www.stadt.de/bahn', GERMAN_TEXT), passages: 1, fetched_at: FETCHED, at: expect.any(Number) },
    ]);
  });

  it('puts every vector into the shards\' graphs by its end and says when it was fully indexed', async () => {
    const file = writeJsonl(directory, 'pages.jsonl', [
      page('https://example.org/a', ENGLISH_TEXT),
      page('https://example.org/b', GERMAN_TEXT),
      page('https://example.org/c', 'Sourdough starter needs flour and water every single day of the week.'),
    ]);
    const summary = await ingestFiles([file], options);
    expect(summary.passagesAdded).toBe(4);
    expect(summary.vectorsMergedAtEnd).toBe(4);
    expect(summary.fullyIndexedSeconds).toBeGreaterThanOrEqual(summary.elapsedSeconds);
    withReaders(dataDir, (readers) => {
      const reports = readers.map((reader) => reader.reload());
      expect(reports.reduce((sum, report) => sum + Number(report.vectorTail), 0)).toBe(0);
      expect(reports.reduce((sum, report) => sum + Number(report.embedded), 0)).toBe(4);
    });
    // Nothing new: the second run merges nothing.
    const again = await ingestFiles([file], options);
    expect(again.vectorsMergedAtEnd).toBe(0);
  });

  it('adds nothing when the same file is ingested twice', async () => {
    const file = writeJsonl(directory, 'pages.jsonl', [
      page('https://example.org/a', ENGLISH_TEXT),
      page('https://example.org/b', GERMAN_TEXT),
      { url: 'https://example.org/gone', title: 'Gone', text: GERMAN_TEXT, fetched_at: FETCHED },
      { url: 'https://example.org/gone', removed: 'stale', removed_at: FETCHED + 10 },
    ]);
    const first = await ingestFiles([file], options);
    expect(first.passagesAdded).toBe(4);
    const documentsAfterFirst = totalDocuments(dataDir);
    const ledgerAfterFirst = readLedger(dataDir).length;

    const second = await ingestFiles([file], options);
    expect(second.passagesAdded).toBe(0);
    expect(second.passagesSkipped).toBe(3);
    // The removed page and its removal are older than what the index holds now.
    expect(second.outdated).toBe(2);
    expect(totalDocuments(dataDir)).toBe(documentsAfterFirst);
    expect(readLedger(dataDir)).toHaveLength(ledgerAfterFirst);
  });

  it('reports a malformed line with its number and field and ingests the rest', async () => {
    const file = writeJsonl(directory, 'mixed.jsonl', [
      page('https://example.org/a', ENGLISH_TEXT),
      page('https://example.org/b', ENGLISH_TEXT, { host_rank: 7 }),
      '{"url": "https://example.org/c", ',
      '',
      page('https://example.org/d', GERMAN_TEXT, { content_type: 'blog' }),
      page('https://example.org/e', GERMAN_TEXT),
    ]);
    const summary = await ingestFiles([file], options);
    expect(summary.malformed).toBe(3);
    expect(summary.pages).toBe(2);
    expect(summary.passagesAdded).toBe(3);
    expect(logged).toEqual([
      `${file}:2: host_rank must be a number within 0..1, got 7`,
      `${file}:3: not valid json`,
      expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:5: content_type must be one of article, `)),
    ]);
  });

  it('supersedes the old page when a URL is re-crawled with new content', async () => {
    const url = 'https://example.org/report';
    const oldText = 'The committee published its first report on the aqueduct renovation budget yesterday.';
    const newText = 'The committee revised its report on the aqueduct renovation budget after new cost estimates.';
    const first = writeJsonl(directory, 'first.jsonl', [page(url, oldText)]);
    await ingestFiles([first], options);
    expect(searchAll(dataDir, 'yesterday').total).toBe(1);

    const second = writeJsonl(directory, 'second.jsonl', [page(url, newText, { fetched_at: FETCHED + 3600 })]);
    const summary = await ingestFiles([second], options);
    expect(summary).toMatchObject({ superseded: 1, passagesAdded: 1, passagesDeleted: 1 });
    expect(searchAll(dataDir, 'yesterday').total).toBe(0);
    expect(searchAll(dataDir, 'estimates').total).toBe(1);

    const oldPage = pageIdFor(url, oldText);
    const newPage = pageIdFor(url, newText);
    expect(findDocument(dataDir, `${oldPage}:0`)).toBeNull();
    expect(readLedger(dataDir).slice(1)).toEqual([
      { event: 'removed', url, page_id: oldPage, reason: 'superseded', superseded_by: `${newPage}:0`, removed_at: FETCHED + 3600, at: expect.any(Number) },
      { event: 'admitted', url, page_id: newPage, passages: 1, fetched_at: FETCHED + 3600, at: expect.any(Number) },
    ]);

    // Reading the older crawl again must not bring it back.
    const again = await ingestFiles([first], options);
    expect(again).toMatchObject({ outdated: 1, passagesAdded: 0 });
    expect(searchAll(dataDir, 'yesterday').total).toBe(0);
  });

  it('supersedes within one file too, even when the old page is still batched', async () => {
    const url = 'https://example.org/live';
    const file = writeJsonl(directory, 'both.jsonl', [
      page(url, 'Early version of the live blog about the harbour festival and its fireworks.'),
      page(url, 'Later version of the live blog about the harbour festival and its parade.', { fetched_at: FETCHED + 60 }),
    ]);
    const summary = await ingestFiles([file], options);
    expect(summary).toMatchObject({ superseded: 1, passagesAdded: 2, passagesDeleted: 1 });
    expect(searchAll(dataDir, 'fireworks').total).toBe(0);
    expect(searchAll(dataDir, 'parade').total).toBe(1);
  });

  it('applies a removal line: the passages go and the ledger says why', async () => {
    const url = 'https://example.org/old-news';
    await ingestFiles([writeJsonl(directory, 'page.jsonl', [page(url, ENGLISH_TEXT)])], options);
    expect(searchAll(dataDir, 'glaciers').total).toBe(1);

    const removal = writeJsonl(directory, 'removal.jsonl', [
      { url, removed: 'access-starved', removed_at: FETCHED + 86_400 },
      { url: 'https://example.org/never-seen', removed: 'redundant', removed_at: FETCHED },
    ]);
    const summary = await ingestFiles([removal], options);
    expect(summary).toMatchObject({ removals: 2, passagesDeleted: 2 });
    expect(searchAll(dataDir, 'glaciers').total).toBe(0);
    expect(readLedger(dataDir).slice(1)).toEqual([
      { event: 'removed', url, page_id: pageIdFor(url, ENGLISH_TEXT), reason: 'access-starved', removed_at: FETCHED + 86_400, at: expect.any(Number) },
      { event: 'removed', url: 'https://example.org/never-seen', page_id: null, reason: 'redundant', removed_at: FETCHED, at: expect.any(Number) },
    ]);
  });

  it('admits passage records under their own page id', async () => {
    const file = writeJsonl(directory, 'passages.jsonl', [
      page('https://example.org/p', 'First passage of a page delivered as passage records, about lighthouses.', { id: 'pgiven:0' }),
      page('https://example.org/p', 'Second passage of the same page, about lighthouse keepers.', { id: 'pgiven:1' }),
    ]);
    const summary = await ingestFiles([file], options);
    expect(summary).toMatchObject({ passageRecords: 2, passagesAdded: 2 });
    expect(findDocument(dataDir, 'pgiven:1')).toMatchObject({ page_id: 'pgiven', passage_no: 1 });
    expect(readLedger(dataDir).map((event) => event.event === 'admitted' && [event.page_id, event.passage_no])).toEqual([
      ['pgiven', 0],
      ['pgiven', 1],
    ]);
    const again = await ingestFiles([file], options);
    expect(again).toMatchObject({ passagesAdded: 0, passagesSkipped: 2 });
    expect(readLedger(dataDir)).toHaveLength(2);
  });

  it('keeps the shard count of an existing index and warns about a different one', async () => {
    const file = writeJsonl(directory, 'pages.jsonl', [page('https://example.org/a', ENGLISH_TEXT)]);
    await ingestFiles([file], { ...options, shards: 3 });
    const summary = await ingestFiles([file], { ...options, shards: 5 });
    expect(summary.shards).toBe(3);
    expect(logged).toEqual([expect.stringMatching(/SHARDS=5 .* has 3 shards; using 3/)]);
  });

  it('reports a file it cannot read and ingests the others', async () => {
    const file = writeJsonl(directory, 'pages.jsonl', [page('https://example.org/a', ENGLISH_TEXT)]);
    const summary = await ingestFiles([`${directory}/missing.jsonl`, file], options);
    expect(summary.unreadableFiles).toEqual([`${directory}/missing.jsonl`]);
    expect(summary).toMatchObject({ files: 1, passagesAdded: 2 });
    expect(logged[0]).toMatch(/missing\.jsonl: cannot read: .*ENOENT/);
  });

  it('refuses to run while another writer holds a shard past lockWaitMs, leaving the index untouched', async () => {
    const file = writeJsonl(directory, 'pages.jsonl', [page('https://example.org/a', ENGLISH_TEXT)]);
    await ingestFiles([file], options);
    const holder = ShardWriter.open(shardDirectory(dataDir, 1), { dimensions: 128 });
    try {
      const other = writeJsonl(directory, 'other.jsonl', [page('https://example.org/b', GERMAN_TEXT)]);
      await expect(ingestFiles([other], { ...options, lockWaitMs: 500 })).rejects.toThrow(/locked by another writer/);
    } finally {
      holder.close();
    }
    expect(totalDocuments(dataDir)).toBe(2);
    expect(readLedger(dataDir)).toHaveLength(1);
  });

  it('waits out a brief hold of a shard (the background embedder storing a batch of vectors)', async () => {
    await ingestFiles([writeJsonl(directory, 'first.jsonl', [page('https://example.org/b', GERMAN_TEXT)])], options);
    const before = totalDocuments(dataDir);
    const holder = ShardWriter.open(shardDirectory(dataDir, 1), { dimensions: 128 });
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        holder.close();
        resolve();
      }, 400),
    );
    const file = writeJsonl(directory, 'pages.jsonl', [page('https://example.org/a', ENGLISH_TEXT)]);
    const summary = await ingestFiles([file], { ...options, lockWaitMs: 20_000 });
    await released;
    expect(summary.passagesAdded).toBeGreaterThan(0);
    expect(totalDocuments(dataDir)).toBe(before + summary.passagesAdded);
  });
});
