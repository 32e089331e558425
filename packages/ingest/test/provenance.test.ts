/**
 * Provenance at ingest, end to end on real shards: stories across shards and runs, owners from
 * owners.json, origin types, source roles, graph signals and redundant copies in the ledger.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeSearchResult, type NativeHit, type SearchFilters } from '@evidence/native';
import { ingestFiles, type IngestOptions } from '../src/ingest.js';
import { pageIdFor } from '../src/page-id.js';
import { assertBuilt, findDocument, readLedger, removeDirectory, temporaryDirectory, withReaders, writeJsonl } from './helpers.js';

const FETCHED = 1_700_000_000;
const HOUR = 3600;

const OWNERS = {
  domains: {
    'associatedwire.example': 'Associated Wire',
    'metrotribune.example': 'Harbor Media Group',
    'coastalpost.example': 'Harbor Media Group',
    'newsreleasewire.example': 'NewsRelease Wire',
  },
  wire_services: ['Associated Wire'],
  release_wires: ['NewsRelease Wire'],
};

const WIRE_TEXT =
  'BERLIN (AW) — The city council approved a plan on Tuesday to rebuild the old harbour bridge, ending a decade of disputes over cost and design. ' +
  'Engineers said construction would begin in spring and take about three years, while residents near the river asked for quieter night work. ' +
  'The mayor called the vote a turning point for the waterfront district and promised regular updates on the budget.';
const WIRE_EDITS = [
  '',
  ' This story has been updated with additional details.',
  '',
  ' Coastal Post staff contributed to this report.',
  ' Officials did not say how the work would be financed.',
];
const OUTLETS = ['www.metrotribune.example', 'www.coastalpost.example', 'www.valleyledger.example', 'www.northstarherald.example', 'www.riverbendtimes.example'];

const REPORT = [
  'The regional transit authority will extend night bus service to the eastern suburbs from next month, officials said on Wednesday after a long review of ridership figures.',
  'Commuters who work late shifts at the hospital and the logistics park had asked for the change for years, and the authority said it would review the routes again in autumn.',
].join('\n\n');

function page(url: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { url, title: `Title of ${url}`, text, fetched_at: FETCHED, ...extra };
}

let directory: string;
let dataDir: string;
let options: IngestOptions;

beforeAll(() => assertBuilt());

beforeEach(() => {
  directory = temporaryDirectory();
  dataDir = join(directory, 'data');
  options = { dataDir, log: () => {} };
});

afterEach(() => removeDirectory(directory));

async function withOwners(): Promise<void> {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'owners.json'), JSON.stringify(OWNERS));
}

/** Every hit matching `filters` on every shard. */
function hitsWhere(filters: SearchFilters = {}): NativeHit[] {
  return withReaders(dataDir, (readers) => {
    const hits: NativeHit[] = [];
    for (const reader of readers) hits.push(...decodeSearchResult(reader.search({ query: '', limit: 1000, filters })).hits);
    return hits;
  });
}

function hitAt(url: string): NativeHit {
  const hits = hitsWhere({ urls: [url] });
  expect(hits, url).toHaveLength(1);
  return hits[0];
}

function wirePages(outlets: number[]): Array<Record<string, unknown>> {
  return outlets.map((index) =>
    page(`https://${OUTLETS[index]}/news/harbour-bridge`, `${WIRE_TEXT}${WIRE_EDITS[index]}`, { published_at: FETCHED - 20 * HOUR + index * HOUR, content_type: 'news' }),
  );
}

describe('stories', () => {
  it('clusters a wire story carried by five outlets into one story, across shards, runs and commits', async () => {
    await withOwners();
    const wire = page('https://www.associatedwire.example/news/harbour-bridge', WIRE_TEXT, { published_at: FETCHED - 24 * HOUR, content_type: 'news' });
    // The first run commits after every page, so members arrive after earlier ones are indexed.
    const first = writeJsonl(directory, 'first.jsonl', [wire, ...wirePages([0, 1])]);
    await ingestFiles([first], { ...options, commitEvery: 1 });
    expect(hitAt(wire.url as string).independent_sources).toBe(3);

    const second = writeJsonl(directory, 'second.jsonl', wirePages([2, 3, 4]));
    const summary = await ingestFiles([second], options);
    expect(summary.passagesRewritten).toBe(3);

    const hits = hitsWhere({ minIndependentSources: 6 });
    expect(hits).toHaveLength(6);
    expect(new Set(hits.map((hit) => hit.story_id)).size).toBe(1);
    expect(new Set(hits.map((hit) => hit.host)).size).toBe(6);
    expect(hits.every((hit) => hit.independent_sources === 6)).toBe(true);
    expect(hits.every((hit) => hit.origin_type === 'wire')).toBe(true);
    expect(hitsWhere({ minIndependentSources: 7 })).toHaveLength(0);

    const wireCopy = hitAt(wire.url as string);
    expect(wireCopy).toMatchObject({ owner: 'Associated Wire', origin_type: 'wire', source_role: 'secondary' });
    // The rewrite kept everything else the passage was written with.
    expect(findDocument(dataDir, wireCopy.id)).toMatchObject({ text: WIRE_TEXT, published_at: FETCHED - 24 * HOUR, content_type: 'news' });
  });

  it('keeps story ids when the same file is ingested again, and gives a new index the same ids', async () => {
    const records = [
      page('https://www.metrotribune.example/news/night-buses', REPORT, { published_at: FETCHED - HOUR }),
      page('https://www.coastalpost.example/news/night-buses', REPORT.replace('officials said', 'transit officials said'), { published_at: FETCHED }),
      page('https://www.valleyledger.example/news/harbour-bridge', WIRE_TEXT),
    ];
    const file = writeJsonl(directory, 'stories.jsonl', records);
    await ingestFiles([file], options);
    const storiesOf = () => Object.fromEntries(hitsWhere().map((hit) => [hit.id, hit.story_id]));
    const before = storiesOf();
    expect(Object.keys(before)).toHaveLength(5);
    expect(new Set(Object.values(before)).size).toBe(3);
    const storyLog = readFileSync(join(dataDir, 'stories.tsv'), 'utf8');

    const again = await ingestFiles([file], options);
    expect(again).toMatchObject({ passagesAdded: 0, passagesSkipped: 5, passagesRewritten: 0 });
    expect(storiesOf()).toEqual(before);
    expect(readFileSync(join(dataDir, 'stories.tsv'), 'utf8')).toBe(storyLog);

    const otherDataDir = join(directory, 'other');
    await ingestFiles([file], { ...options, dataDir: otherDataDir });
    dataDir = otherDataDir;
    expect(storiesOf()).toEqual(before);
  });
});

describe('owners', () => {
  it('gives two domains of one media group the owner from owners.json, else the registrable domain', async () => {
    await withOwners();
    const file = writeJsonl(directory, 'owners.jsonl', [
      page('https://www.metrotribune.example/news/night-buses', REPORT),
      page('https://news.coastalpost.example/local/ferries', WIRE_TEXT.replace('BERLIN (AW) — ', '')),
      page('https://www.independent-daily.example/news/harbour', 'A page with its own words about the harbour, the ferries and the weather this week.'),
      page('https://www.coastalpost.example/news/own', 'A page that declares its owner itself, whatever the table says about its domain.', { owner: 'Coastal Trust' }),
    ]);
    await ingestFiles([file], options);
    expect(hitsWhere({ site: 'www.metrotribune.example' }).map((hit) => hit.owner)).toEqual(['Harbor Media Group', 'Harbor Media Group']);
    expect(hitAt('https://news.coastalpost.example/local/ferries').owner).toBe('Harbor Media Group');
    expect(hitAt('https://www.independent-daily.example/news/harbour').owner).toBe('independent-daily.example');
    expect(hitAt('https://www.coastalpost.example/news/own').owner).toBe('Coastal Trust');
  });

  it('counts blogs on one platform as separate owners and sites, and one publisher\'s hosts as one (real hosts)', async () => {
    const blogs = ['https://2gewinnt.wordpress.com/2023/05/harbour', 'https://andreabottlinger.wordpress.com/2023/05/harbour', 'https://caolan.github.io/harbour', 'https://cbonte.github.io/harbour'];
    // The same text on four blogs with no date: each is a publication of its own, not a mirror.
    const file = writeJsonl(directory, 'blogs.jsonl', [
      ...blogs.map((url) => page(url, REPORT)),
      page('https://news.bbc.co.uk/local/buses', WIRE_TEXT),
      page('https://www.bbc.co.uk/news/buses', REPORT.replace('night bus', 'late bus')),
    ]);
    await ingestFiles([file], options);
    expect(blogs.map((url) => hitsWhere({ urls: [url] })[0])).toMatchObject([
      { owner: '2gewinnt.wordpress.com', registrable_domain: 'wordpress.com', tld: 'com' },
      { owner: 'andreabottlinger.wordpress.com', registrable_domain: 'wordpress.com', tld: 'com' },
      { owner: 'caolan.github.io', registrable_domain: 'github.io', tld: 'io' },
      { owner: 'cbonte.github.io', registrable_domain: 'github.io', tld: 'io' },
    ]);
    expect(readLedger(dataDir).filter((event) => event.event === 'removed')).toEqual([]);
    expect(hitAt('https://news.bbc.co.uk/local/buses').owner).toBe('bbc.co.uk');
    expect(hitsWhere({ urls: ['https://www.bbc.co.uk/news/buses'] }).map((hit) => hit.owner)).toEqual(['bbc.co.uk', 'bbc.co.uk']);
  });
});

describe('origin types and source roles', () => {
  it('marks a press release and its newsroom copy press_release, and the reporting about it original', async () => {
    await withOwners();
    const release = [
      'FOR IMMEDIATE RELEASE. HOUSTON, March 4, 2025 /NewsRelease Wire/ -- Orbital Dynamics, a space technology company, today announced that it has completed the first test flight of its reusable cargo capsule.',
      '“This flight shows that the capsule can return safely and fly again within weeks,” said Maria Lopez, chief executive officer of Orbital Dynamics, in a statement to customers.',
      'About Orbital Dynamics: Orbital Dynamics is a space technology company headquartered in Houston, Texas. Media contact: Jane Doe, press@orbitaldynamics.example.',
    ].join('\n\n');
    const report = [
      'Orbital Dynamics said on Monday that it had completed a first test flight of its cargo capsule, according to a press release distributed by NewsRelease Wire.',
      'Analysts said the flight could help the company win launch contracts, although the capsule still needs several more tests before it can carry paying cargo.',
    ].join('\n\n');
    const file = writeJsonl(directory, 'press.jsonl', [
      page('https://www.newsreleasewire.example/news-releases/orbital-capsule.html', release, { published_at: FETCHED - 5 * HOUR, content_type: 'news' }),
      page('https://news.orbitaldynamics.example/press/2025/orbital-capsule', release, { published_at: FETCHED - 4 * HOUR, content_type: 'document' }),
      page('https://www.metrotribune.example/business/orbital-capsule', report, { published_at: FETCHED - 2 * HOUR, content_type: 'news' }),
    ]);
    await ingestFiles([file], options);

    const releaseHits = hitsWhere({ site: 'www.newsreleasewire.example' });
    expect(releaseHits).toHaveLength(3);
    expect(releaseHits.every((hit) => hit.origin_type === 'press_release' && hit.source_role === 'primary')).toBe(true);
    const newsroomHits = hitsWhere({ site: 'news.orbitaldynamics.example' });
    expect(newsroomHits.every((hit) => hit.origin_type === 'press_release' && hit.source_role === 'primary')).toBe(true);
    // The release and its newsroom copy are one story per paragraph, two hosts each.
    expect(newsroomHits.every((hit) => hit.independent_sources === 2)).toBe(true);

    const reportHits = hitsWhere({ site: 'www.metrotribune.example' });
    expect(reportHits).toHaveLength(2);
    for (const hit of reportHits) expect(hit).toMatchObject({ origin_type: 'original', source_role: 'secondary', independent_sources: 1 });
  });

  it('marks a later verbatim copy at another outlet, and a near-copy by the same owner, republish', async () => {
    await withOwners();
    const file = writeJsonl(directory, 'republish.jsonl', [
      page('https://www.valleyledger.example/news/night-buses', REPORT, { published_at: FETCHED - 48 * HOUR, content_type: 'news' }),
      page('https://www.riverbendtimes.example/news/night-buses', REPORT, { published_at: FETCHED - 24 * HOUR, content_type: 'news' }),
      page('https://www.metrotribune.example/news/ferries', WIRE_TEXT.replace('BERLIN (AW) — ', ''), { published_at: FETCHED - 10 * HOUR }),
      page('https://www.coastalpost.example/news/ferries', `${WIRE_TEXT.replace('BERLIN (AW) — ', '')} Ferry fares were not discussed.`, { published_at: FETCHED - 5 * HOUR }),
    ]);
    await ingestFiles([file], options);
    expect(hitsWhere({ site: 'www.valleyledger.example' }).map((hit) => hit.origin_type)).toEqual(['original', 'original']);
    const copies = hitsWhere({ site: 'www.riverbendtimes.example' });
    expect(copies.map((hit) => hit.origin_type)).toEqual(['republish', 'republish']);
    expect(copies.every((hit) => hit.independent_sources === 2)).toBe(true);
    expect(hitAt('https://www.metrotribune.example/news/ferries').origin_type).toBe('original');
    const sister = hitAt('https://www.coastalpost.example/news/ferries');
    expect(sister.origin_type).toBe('republish');
    expect(sister.story_id).toBe(hitAt('https://www.metrotribune.example/news/ferries').story_id);
    // Both copies are admitted: each is a publication of its own (another site, its own date).
    expect(readLedger(dataDir).filter((event) => event.event === 'admitted')).toHaveLength(4);
  });

  it('derives roles for a government host, a docs host, a news outlet and a forum', async () => {
    await withOwners();
    const text = 'A paragraph long enough to be a passage of its own, about food safety rules and how inspections work.';
    const file = writeJsonl(directory, 'roles.jsonl', [
      page('https://www.fda.gov/publications/food-safety-rules', text, { content_type: 'document' }),
      page('https://docs.python.org/3/library/json.html', text.replace('food safety', 'json parsing'), { content_type: 'docs' }),
      page('https://www.metrotribune.example/news/2025/food-safety', text.replace('food safety', 'restaurant'), { content_type: 'news' }),
      page('https://forum.breadbakers.example/t/sourdough-starter/42', text.replace('food safety', 'sourdough'), { content_type: 'forum' }),
    ]);
    await ingestFiles([file], options);
    const official = hitAt('https://www.fda.gov/publications/food-safety-rules');
    const docs = hitAt('https://docs.python.org/3/library/json.html');
    const news = hitAt('https://www.metrotribune.example/news/2025/food-safety');
    const forum = hitAt('https://forum.breadbakers.example/t/sourdough-starter/42');
    expect([official.source_role, docs.source_role, news.source_role, forum.source_role]).toEqual(['official', 'primary', 'secondary', 'ugc']);
    for (const hit of [official, docs, news, forum]) {
      expect(hit.role_confidence).toBeGreaterThanOrEqual(0.75);
      expect(hit.role_confidence).toBeLessThanOrEqual(1);
    }
  });
});

describe('graph signals', () => {
  it('counts distinct linking hosts, ranks the most linked host highest and splits disconnected clusters', async () => {
    const text = (topic: string) => `A page about ${topic} with enough words to make one passage of the index.`;
    const file = writeJsonl(directory, 'graph.jsonl', [
      page('https://a.example/1', text('apples'), { links: ['https://hub.example/x', 'https://hub.example/y'] }),
      page('https://a.example/2', text('apricots'), { links: ['https://hub.example/z', '/relative/link'] }),
      page('https://b.example/1', text('bananas'), { links: ['https://hub.example/x'] }),
      page('https://c.example/1', text('cherries'), { links: ['https://HUB.example:443/x#top', 'https://c.example/self'] }),
      page('https://hub.example/1', text('fruit in general')),
      page('https://x.example/1', text('xylophones'), { links: ['https://y.example/'] }),
      page('https://y.example/1', text('yodelling')),
    ]);
    await ingestFiles([file], options);
    const hub = hitAt('https://hub.example/1');
    expect(hub.in_degree).toBe(3);
    expect(hub.centrality).toBe(1);
    for (const url of ['https://a.example/1', 'https://b.example/1', 'https://c.example/1', 'https://x.example/1', 'https://y.example/1']) {
      const other = hitAt(url);
      expect(other.centrality).toBeLessThan(1);
      expect(other.in_degree).toBeLessThanOrEqual(1);
    }
    expect(hitAt('https://a.example/1').in_degree).toBe(0);
    const fruit = new Set(['https://a.example/1', 'https://b.example/1', 'https://c.example/1', 'https://hub.example/1'].map((url) => hitAt(url).community_id));
    const music = new Set(['https://x.example/1', 'https://y.example/1'].map((url) => hitAt(url).community_id));
    expect(fruit.size).toBe(1);
    expect(music.size).toBe(1);
    expect([...fruit][0]).not.toBe([...music][0]);
    expect([...fruit][0]).toMatch(/^c[0-9a-f]{12}$/);
    expect(readFileSync(join(dataDir, 'graph.tsv'), 'utf8').trim().split('\n')).toHaveLength(4);
    // Page-level links for the served graph: one line per admitted page with absolute links.
    expect(readFileSync(join(dataDir, 'links.tsv'), 'utf8').trim().split('\n')).toEqual([
      'https://a.example/1\thttps://hub.example/x\thttps://hub.example/y',
      'https://a.example/2\thttps://hub.example/z',
      'https://b.example/1\thttps://hub.example/x',
      'https://c.example/1\thttps://HUB.example:443/x#top\thttps://c.example/self',
      'https://x.example/1\thttps://y.example/',
    ]);
  });
});

describe('redundant copies', () => {
  it('records a mirror copy as redundant in the ledger and does not index it', async () => {
    const url = 'https://www.metrotribune.example/news/night-buses';
    const mirror = 'https://mirror.example/www.metrotribune.example/news/night-buses';
    const original = page(url, REPORT, { published_at: FETCHED - HOUR });
    const copy = { ...original, url: mirror, fetched_at: FETCHED + 7 * 24 * HOUR };
    const file = writeJsonl(directory, 'mirror.jsonl', [original, copy]);
    const summary = await ingestFiles([file], options);
    expect(summary).toMatchObject({ redundant: 1, pages: 1, passagesAdded: 2 });
    expect(hitsWhere({ urls: [mirror] })).toHaveLength(0);
    expect(hitsWhere({ urls: [url] })).toHaveLength(2);
    const keptPage = pageIdFor(url, REPORT);
    expect(readLedger(dataDir).at(-1)).toEqual({
      event: 'removed',
      url: mirror,
      page_id: pageIdFor(mirror, REPORT),
      reason: 'redundant',
      superseded_by: `${keptPage}:0`,
      removed_at: FETCHED + 7 * 24 * HOUR,
      at: expect.any(Number),
    });

    // Read again, the copy is already accounted for; a copy of a removed page is admitted.
    const again = await ingestFiles([file], options);
    expect(again).toMatchObject({ redundant: 0, outdated: 1, passagesAdded: 0 });
    const removal = writeJsonl(directory, 'removal.jsonl', [{ url, removed: 'stale', removed_at: FETCHED + 8 * 24 * HOUR }]);
    await ingestFiles([removal], options);
    const later = writeJsonl(directory, 'later.jsonl', [{ ...copy, fetched_at: FETCHED + 9 * 24 * HOUR }]);
    expect(await ingestFiles([later], options)).toMatchObject({ redundant: 0, passagesAdded: 2 });
  });
});
