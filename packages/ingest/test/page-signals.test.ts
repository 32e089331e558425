/**
 * The page signals of `src/signals/` on real pages: the committed real crawl
 * (`test/data/sample-0000.warc.gz`, 22 research-site pages captured with wget; see its README)
 * read as crawl ingest reads it, and real host names from the labelled safety set
 * (`shared/data/signals/safety`, UT1 lists, CC BY-SA 4.0). Before these signals every page was
 * `general`, `safe`, host_rank 0.5 and quality 50, with no authority and no topics.
 */
import { join } from 'node:path';
import { beforeAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crawlItemOf } from '../src/crawl-page.js';
import { extractHtmlPage } from '../src/html-page.js';
import { detectInputFormat } from '../src/input-format.js';
import { ingestFiles } from '../src/ingest.js';
import { deriveHostFields } from '../src/derive.js';
import { DERIVED_VERTICALS, publicSuffixOf } from '@evidence/schemas';
import { deriveHostRank, rankPercentiles } from '../src/signals/host-rank.js';
import { qualityScore } from '../src/signals/quality.js';
import { deriveSafety } from '../src/signals/safety.js';
import { deriveVertical } from '../src/signals/vertical.js';
import { readWarcItems } from '../src/warc-reader.js';
import { pageIdFor } from '../src/page-id.js';
import { assertBuilt, PACKAGE_DIRECTORY, searchAll, removeDirectory, temporaryDirectory, writeJsonl } from './helpers.js';

const SAMPLE = join(PACKAGE_DIRECTORY, 'test', 'data', 'sample-0000.warc.gz');

interface Page {
  url: string;
  host: string;
  title: string;
  text: string;
  topics?: string[];
}

async function samplePages(): Promise<Page[]> {
  const format = await detectInputFormat(SAMPLE);
  const pages: Page[] = [];
  for await (const item of readWarcItems(SAMPLE, format.compression)) {
    if (item.kind !== 'record') continue;
    const crawled = crawlItemOf(item);
    if (crawled.kind !== 'page') continue;
    const record = crawled.record as { url: string; title: string; text: string; topics?: string[] };
    pages.push({ url: record.url, host: new URL(record.url).hostname, title: record.title, text: record.text, topics: record.topics });
  }
  return pages;
}

function rankOf(host: string, standing?: { inDegree: number; percentile: number }): number {
  const fields = deriveHostFields(host);
  return deriveHostRank({ host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix: publicSuffixOf(fields), tld: fields.tld }, standing).value;
}

describe('page signals on real crawled pages', () => {
  let pages: Page[];
  beforeAll(async () => {
    pages = await samplePages();
  });

  it('gives research pages a vertical from their content (science, code, education), not general', () => {
    const verticals = pages.map((page) => deriveVertical(page).value);
    expect(verticals.filter((vertical) => vertical === 'general')).toHaveLength(0);
    expect(verticals.filter((vertical) => ['science', 'code', 'education'].includes(vertical)).length / pages.length).toBeGreaterThanOrEqual(0.8);
    const pip = pages.find((page) => page.url.endsWith('/pip.html'))!;
    expect(deriveVertical(pip).value).toBe('code');
    // A record's own vertical wins, whatever the page says.
    expect(deriveVertical(pip, 'cooking')).toMatchObject({ value: 'cooking', source: 'record' });
  });

  it('reads the topic tags a page declares and none where it declares none', () => {
    const tagged = pages.find((page) => page.host === 'talaugust.github.io')!;
    expect(tagged.topics).toEqual(['hci', 'nlp', 'language', 'design']);
    expect(pages.find((page) => page.host === 'kyleclo.com')!.topics).toBeUndefined();
    const topicsOf = (head: string) => extractHtmlPage(`<html><head>${head}</head><body><article><p>The harbour reopened on Monday after the dredging works.</p></article></body></html>`, 'https://port.example.com/a', 1_700_000_000).topics;
    expect(topicsOf('<meta property="article:tag" content="Space &amp; Astronomy"><meta name="keywords" content="a, moon landing, 1969">')).toEqual(['space & astronomy', 'moon landing']);
    // JSON-LD's keywords and sections, in the page's order, after the meta tags; repaired blocks too.
    expect(topicsOf('<meta name="news_keywords" content="Ports"><script type="application/ld+json">{"@graph":[{"@type":"NewsArticle","articleSection":"Local","keywords":["Dredging","Tom &amp; Jerry"],}]}</script>')).toEqual(['ports', 'local', 'dredging', 'tom & jerry']);
    expect(topicsOf('<meta name="description" content="no tags">')).toBeUndefined();
  });

  it('scores main text above the same page\'s link lists and menus', () => {
    const post = pages.find((page) => page.url.endsWith('notes-on-mastodon.html'))!;
    const menu = ['Home', 'About', 'Blog', 'Publications', 'Contact', 'Home', 'About', 'Blog', 'Twitter', 'GitHub'].join('\n');
    expect(qualityScore(post.text)).toBeGreaterThanOrEqual(90);
    expect(qualityScore(menu)).toBeLessThan(60);
    expect(new Set(pages.map((page) => qualityScore(page.text))).size).toBeGreaterThan(3);
  });

  it('keeps research pages safe', () => {
    for (const page of pages) expect(deriveSafety({ host: page.host, path: new URL(page.url).pathname, title: page.title, text: page.text }).value, page.url).toBe('safe');
  });
});

describe('safety from host, URL and text', () => {
  const explicit = (host: string, path = '/', text = ''): string => deriveSafety({ host, path, title: '', text }).value;

  it('finds explicit hosts by the words run together in their names', () => {
    for (const host of ['grannypornpics.com', 'xxxdesifuck.com', 'hqlesbiansextube.com', 'sexwithmature.net', 'example.xxx']) expect(explicit(host), host).toBe('explicit');
  });

  it('leaves lingerie shops and sexual-health education alone (the hard negatives), and the keyword rule would not', () => {
    for (const host of ['sexinfoonline.com', 'masexualite.ca', 'victoriassecret.com', 'womenssexylingerie.myricostore.com', 'cheap-lingerie.net']) expect(explicit(host), host).toBe('safe');
    expect(/porn|xxx|sex|adult|nude|fuck|escort|cam|tube|milf/.test('sexinfoonline.com')).toBe(true);
  });

  it('reads explicit page URLs on general hosts, and explicit text', () => {
    expect(explicit('archive.transformativeworks.org', '/collections/Smuttomasturbateto')).toBe('explicit');
    expect(explicit('itch.io', '/games')).toBe('safe');
    const vulgar = 'Watch free porn videos: hardcore anal and blowjob clips, new porn every day, the best xxx tube.';
    expect(explicit('example.com', '/', vulgar)).toBe('explicit');
    const clinical = 'Sexual health: how to talk about sex, the penis and the vagina, contraception and consent.';
    expect(explicit('example.com', '/', clinical)).toBe('safe');
  });
});

describe('host_rank', () => {
  it('gives official and academic hosts their priors and moves other hosts with the link graph', () => {
    expect(rankOf('www.nasa.gov')).toBe(0.9);
    expect(rankOf('www.ons.gov.uk')).toBe(0.9);
    expect(rankOf('homes.cs.washington.edu')).toBe(0.85);
    expect(rankOf('someone.blogspot.com')).toBeLessThan(rankOf('example.com'));
    // One open-platform table with owner counting and source_role: wiki and artist pages are users' sites too.
    expect(rankOf('scp-wiki.wikidot.com')).toBeLessThan(rankOf('example.com'));
    expect(rankOf('someone.bandcamp.com')).toBeLessThan(rankOf('example.com'));
    const standings = rankPercentiles(
      new Map([
        ['hub.example', { centrality: 1, inDegree: 12 }],
        ['leaf.example', { centrality: 0.01, inDegree: 1 }],
        ['quiet.example', { centrality: 0.001, inDegree: 0 }],
      ]),
    );
    expect(rankOf('hub.example', standings.get('hub.example'))).toBeGreaterThan(rankOf('hub.example'));
    expect(rankOf('leaf.example', standings.get('leaf.example'))).toBeLessThan(rankOf('hub.example', standings.get('hub.example')));
  });
});

describe('ingest derives what a record does not give, and a record\'s own values win', () => {
  let directory: string;
  beforeAll(() => assertBuilt());
  beforeEach(() => {
    directory = temporaryDirectory();
  });
  afterEach(() => removeDirectory(directory));

  it('stores the record\'s vertical, safety, host_rank, quality, authority and topics, and derives them on the same page without', async () => {
    const pages = await samplePages();
    const post = pages.find((page) => page.url.endsWith('notes-on-mastodon.html'))!;
    const base = { title: post.title, text: post.text, fetched_at: 1_700_000_000 };
    const declared = { vertical: 'cooking', safety: 'explicit', host_rank: 0.2, quality: 7, authority: 'low', topics: ['fediverse'] };
    const givenUrl = 'https://maria-antoniak.github.io/2023/07/04/notes-on-mastodon.html';
    const derivedUrl = 'https://www.cs.washington.edu/notes-on-mastodon.html';
    const derivedText = `${post.text}\n\nCopied here for a course reading list.`;
    const file = writeJsonl(directory, 'pages.jsonl', [
      { ...base, url: givenUrl, ...declared },
      { ...base, url: derivedUrl, text: derivedText },
    ]);
    const dataDir = join(directory, 'data');
    await ingestFiles([file], { dataDir, log: () => {} });
    // Hits carry every signal (a document leaves safety, authority and topics out).
    const hits = searchAll(dataDir, 'mastodon').hits;
    const given = hits.find((hit) => hit.id === `${pageIdFor(givenUrl, post.text)}:0`);
    const derived = hits.find((hit) => hit.id === `${pageIdFor(derivedUrl, derivedText)}:0`);
    expect(given).toMatchObject({ vertical: 'cooking', safety: 'explicit', host_rank: 0.2, quality: 7, authority: 'low', topics: ['fediverse'] });
    expect(derived).toMatchObject({ safety: 'safe', host_rank: 0.85, authority: 'high' });
    expect(DERIVED_VERTICALS.map((vertical) => vertical.name)).toContain(derived?.vertical);
    expect(derived?.quality).toBeGreaterThanOrEqual(90);
    expect(derived?.topics).toBeUndefined();
  });
});
