/**
 * Stories and `independent_sources` on real page text, end to end through ingest: furniture many
 * hosts share counts one source, an article many hosts carry counts them all, and one-line pages
 * that share a template are not copies of each other. The page texts are the main text of the
 * real crawl in test/data (allenai/dolma's test WARC, ODC-By); the furniture lines are the two
 * every Stack Exchange question page carries (quoted as served on stackexchange.com).
 */
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeSearchResult, type NativeHit } from '@evidence/native';
import { crawlItemOf } from '../src/crawl-page.js';
import { ingestFiles, type IngestOptions } from '../src/ingest.js';
import { readWarcItems } from '../src/warc-reader.js';
import { countWords } from '../src/words.js';
import { PACKAGE_DIRECTORY, assertBuilt, removeDirectory, temporaryDirectory, withReaders, writeJsonl } from './helpers.js';

const SAMPLE_WARC = join(PACKAGE_DIRECTORY, 'test', 'data', 'sample-0000.warc.gz');
const FETCHED = 1_714_000_000;
const NOT_THE_ANSWER = (tags: string) => `Not the answer you're looking for? Browse other questions tagged ${tags} or ask your own question.`;
const POST_YOUR_ANSWER = 'By clicking “Post Your Answer”, you agree to our terms of service and acknowledge you have read our privacy policy.';
const NETWORK_HOSTS = ['math.stackexchange.com', 'superuser.com', 'serverfault.com', 'askubuntu.com', 'tex.stackexchange.com', 'unix.stackexchange.com'];
const TAGS = ['linear-algebra matrices', 'windows-10 networking', 'nginx reverse-proxy', 'apt dpkg', 'tikz-pgf beamer', 'bash sed'];

let directory: string;
let dataDir: string;
let options: IngestOptions;
let pageTexts: string[];

beforeAll(async () => {
  assertBuilt();
  // The main text of the real pages of some length, in the file's order.
  pageTexts = [];
  for await (const item of readWarcItems(SAMPLE_WARC, 'gzip')) {
    if (item.kind !== 'record') continue;
    const crawled = crawlItemOf(item);
    if (crawled.kind === 'page' && countWords(String(crawled.record.text)) >= 150) pageTexts.push(String(crawled.record.text));
  }
});

beforeEach(() => {
  directory = temporaryDirectory();
  dataDir = join(directory, 'data');
  options = { dataDir, shards: 2, log: () => {} };
});

afterEach(() => removeDirectory(directory));

function page(url: string, text: string): Record<string, unknown> {
  return { url, title: `Title of ${url}`, text, fetched_at: FETCHED };
}

function allHits(): NativeHit[] {
  return withReaders(dataDir, (readers) => readers.flatMap((reader) => decodeSearchResult(reader.search({ query: '', limit: 10_000 })).hits));
}

describe('stories from content, not furniture', () => {
  it('counts furniture that six hosts share as one source each, while it stays one story', async () => {
    expect(pageTexts.length).toBeGreaterThanOrEqual(NETWORK_HOSTS.length);
    // The last question is short: there the furniture is most of the page.
    const question = (index: number) => (index === NETWORK_HOSTS.length - 1 ? pageTexts[index].split(/\s+/).slice(0, 10).join(' ') : pageTexts[index]);
    const records = NETWORK_HOSTS.map((host, index) => page(`https://${host}/questions/${index}`, `${question(index)}\n\n${NOT_THE_ANSWER(TAGS[index])}\n\n${POST_YOUR_ANSWER}`));
    await ingestFiles([writeJsonl(directory, 'network.jsonl', records)], options);
    const hits = allHits();
    const footers = hits.filter((hit) => hit.snippet.includes('Post Your Answer'));
    expect(footers).toHaveLength(NETWORK_HOSTS.length);
    expect(new Set(footers.map((hit) => hit.story_id)).size).toBe(1);
    expect(footers.map((hit) => hit.independent_sources)).toEqual(NETWORK_HOSTS.map(() => 1));
    expect(hits.filter((hit) => hit.snippet.includes('Not the answer')).map((hit) => hit.independent_sources)).toEqual(NETWORK_HOSTS.map(() => 1));
    // Nothing on these pages is corroborated by another host.
    expect(hits.filter((hit) => (hit.independent_sources ?? 1) > 1)).toEqual([]);
  });

  it('lowers a count already indexed when later hosts show the text to be furniture', async () => {
    const footer = (index: number) => `${NOT_THE_ANSWER(TAGS[index])}\n\n${POST_YOUR_ANSWER}`;
    const short = pageTexts[1].split(/\s+/).slice(0, 10).join(' ');
    // A long question and a short one, where the furniture is most of the page: two sources.
    const first = [page(`https://${NETWORK_HOSTS[0]}/questions/0`, `${pageTexts[0]}\n\n${footer(0)}`), page(`https://${NETWORK_HOSTS[1]}/questions/1`, `${short}\n\n${footer(1)}`)];
    await ingestFiles([writeJsonl(directory, 'first.jsonl', first)], options);
    const sourcesOfFooters = () => allHits().filter((hit) => hit.snippet.includes('Post Your Answer')).map((hit) => hit.independent_sources);
    expect(sourcesOfFooters()).toEqual([2, 2]);
    // Four more hosts carry it under long questions: furniture, one source, rewritten in place.
    const second = [2, 3, 4, 5].map((index) => page(`https://${NETWORK_HOSTS[index]}/questions/${index}`, `${pageTexts[index]}\n\n${footer(index)}`));
    const summary = await ingestFiles([writeJsonl(directory, 'second.jsonl', second)], options);
    expect(summary.passagesRewritten).toBe(2);
    expect(sourcesOfFooters()).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('counts every host that carries the same article, with furniture of its own', async () => {
    const outlets = ['www.metrotribune.example', 'www.coastalpost.example', 'www.valleyledger.example', 'www.riverbendtimes.example'];
    const article = pageTexts[0];
    // Each outlet adds a different real page's text below the article (its own sidebar).
    const records = outlets.map((host, index) => page(`https://${host}/story`, `${article}\n\n${pageTexts[index + 1].split('\n\n').slice(0, 2).join('\n\n')}`));
    await ingestFiles([writeJsonl(directory, 'syndicated.jsonl', records)], options);
    const articleParagraphs = new Set(article.split('\n\n').map((text) => text.slice(0, 40)));
    const carried = allHits().filter((hit) => [...articleParagraphs].some((start) => hit.snippet.startsWith(start)));
    expect(carried.length).toBeGreaterThanOrEqual(outlets.length);
    expect(new Set(carried.map((hit) => hit.independent_sources))).toEqual(new Set([outlets.length]));
  });

  it('keeps one-line pages that share a template apart, and exact short copies uncorroborated', async () => {
    const hosts = Array.from({ length: 60 }, (_, index) => `www.site${index}-${(index * 7919) % 1000}.example.org`);
    const records = [
      ...hosts.map((host) => page(`https://${host}/`, `Home page of ${host}.`)),
      ...hosts.slice(0, 5).map((host) => page(`https://${host}/welcome`, 'Welcome to our website.')),
    ];
    await ingestFiles([writeJsonl(directory, 'one-line.jsonl', records)], options);
    const hits = allHits();
    const homePages = hits.filter((hit) => hit.snippet.startsWith('Home page of'));
    expect(homePages).toHaveLength(hosts.length);
    expect(new Set(homePages.map((hit) => hit.story_id)).size).toBe(hosts.length);
    const welcome = hits.filter((hit) => hit.snippet.startsWith('Welcome'));
    expect(new Set(welcome.map((hit) => hit.story_id)).size).toBe(1);
    expect(hits.every((hit) => hit.independent_sources === 1)).toBe(true);
  });
});
