/**
 * `npm run bench:stories`: what near-duplicate stories are made of on real pages, and whether
 * `independent_sources` counts hosts that carry the same text as content rather than furniture
 * many hosts share. Every figure comes from a real ingest (`ingestFiles`, one shard, a fresh
 * index each) read back from the index, as a user would see it. Data (STORIES_DATA, default
 * ../shared/data from the repository root):
 *
 * 1. Real pages: crawl/sample-0000.warc.gz (22 research-site pages), crawl/articles-dev.warc.gz
 *    (91 news and blog articles) and hidden-text/pages.warc.gz (90 article pages, attacked,
 *    untouched and furniture-hiding) in one index. A passage of a page with a hand-marked article
 *    body (extraction/ground-truth.json; hidden-text pages through their carrier) is `content`
 *    when at least half of its 4-word shingles are in that body, else `furniture`; a story is
 *    furniture when most of its labelled passages are. Counted: stories, stories with 2 and 4 or
 *    more independent sources, and how many of those are furniture; each story of 4 or more is
 *    listed.
 * 2. Shared furniture, hosts varied: N hosts (N = 2, 4, 8, 16, 32) each carry a different real
 *    article body followed by the same three real furniture passages (passages of part 1
 *    labelled furniture, one page's footer). The furniture should count 1 source, the articles 1.
 *    Again with every fourth page cut to the first 10 words of its article, where the furniture
 *    is most of the page.
 *    Articles and furniture of even-indexed ground-truth items form the development split,
 *    odd-indexed ones the held-out split (no threshold was tuned on either: see the README).
 * 3. Syndication, hosts varied (the control): one real article body carried by N hosts, each
 *    followed by furniture of its own. The article's passages should count N sources.
 * 4. One-line pages: "Home page of HOST." on each host of signals/source_role (3,697 real
 *    host names; the shape of the one-line pages an audit found): stories, the largest story's
 *    hosts, stories of 2 and 4 or more sources.
 *
 * Part 1 is also reported without the hidden-text pages, whose attacked and untouched twins are
 * the same article at two hosts (so their furniture is shared along with it, as in a mirror).
 *
 * Cost: ingest seconds per page and per passage of part 1 (extraction included), and the
 * clustering alone (fingerprints and StoryClusters.assignPage over part 1's passages, page by
 * page, in memory) against fingerprinting alone. Table to stdout and bench/out/stories.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoryClusters, fingerprintTexts, ingestFiles } from '@evidence/ingest';
import { ShardReader, decodeSearchResult, readManifest, shardDirectory, type NativeHit } from '@evidence/native';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = resolve(ROOT, process.env.STORIES_DATA ?? join('..', 'shared', 'data'));
const HOST_COUNTS = [2, 4, 8, 16, 32];
const FETCHED = 1_700_000_000;

interface GroundTruth {
  articleBody: string;
  url: string;
}

function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

function shingles(text: string): string[] {
  const words = tokens(text);
  if (words.length < 4) return words.length === 0 ? [] : [words.join(' ')];
  const out: string[] = [];
  for (let index = 0; index + 4 <= words.length; index++) out.push(words.slice(index, index + 4).join(' '));
  return out;
}

/** Every hit of the index in `dataDir`. */
function allHits(dataDir: string): NativeHit[] {
  const manifest = readManifest(dataDir);
  if (manifest === null) return [];
  const hits: NativeHit[] = [];
  for (let shard = 0; shard < manifest.shards; shard++) {
    const reader = ShardReader.open(shardDirectory(dataDir, shard), { dimensions: manifest.dimensions });
    try {
      hits.push(...(decodeSearchResult(reader.search({ query: '', limit: 1_000_000 })).hits as NativeHit[]));
    } finally {
      reader.close();
    }
  }
  return hits;
}

interface Story {
  id: string;
  hosts: Set<string>;
  sources: number;
  passages: NativeHit[];
}

function storiesOf(hits: NativeHit[]): Story[] {
  const stories = new Map<string, Story>();
  for (const hit of hits) {
    let story = stories.get(hit.story_id);
    if (story === undefined) {
      story = { id: hit.story_id, hosts: new Set(), sources: 0, passages: [] };
      stories.set(hit.story_id, story);
    }
    story.hosts.add(hit.host);
    story.sources = Math.max(story.sources, hit.independent_sources ?? 1);
    story.passages.push(hit);
  }
  return [...stories.values()];
}

function snippet(text: string, length = 90): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

async function ingestRecords(work: string, name: string, records: object[]): Promise<NativeHit[]> {
  const file = join(work, `${name}.jsonl`);
  writeFileSync(file, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  const dataDir = join(work, `${name}-index`);
  await ingestFiles([file], { dataDir, shards: 1, log: () => {} });
  return allHits(dataDir);
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

async function main(): Promise<void> {
  const files = ['crawl/sample-0000.warc.gz', 'crawl/articles-dev.warc.gz', 'hidden-text/pages.warc.gz'].map((file) => join(DATA, file));
  const needed = [...files, join(DATA, 'extraction/ground-truth.json'), join(DATA, 'hidden-text/labels.jsonl'), join(DATA, 'signals/source_role/hosts.jsonl'), join(DATA, 'signals/vertical/records.jsonl')];
  const missing = needed.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    console.error(`bench:stories needs the shared data (STORIES_DATA, default ../shared/data): ${missing.join(', ')} not found. Nothing was measured.`);
    process.exit(2);
  }
  const truth = JSON.parse(readFileSync(join(DATA, 'extraction/ground-truth.json'), 'utf8')) as Record<string, GroundTruth>;
  const truthIds = Object.keys(truth).sort();
  const bodyByUrl = new Map<string, Set<string>>();
  for (const id of truthIds) bodyByUrl.set(truth[id].url, new Set(shingles(truth[id].articleBody)));
  for (const label of readJsonl<{ url: string; carrier_id: string }>(join(DATA, 'hidden-text/labels.jsonl'))) {
    const carrier = truth[label.carrier_id];
    if (carrier !== undefined) bodyByUrl.set(label.url, new Set(shingles(carrier.articleBody)));
  }
  const work = mkdtempSync(join(tmpdir(), 'bench-stories-'));
  const lines: string[] = [`# Stories on real pages (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`, ''];
  try {
    // 1. Real pages.
    const realDir = join(work, 'real-index');
    const started = performance.now();
    const summary = await ingestFiles(files, { dataDir: realDir, shards: 1, log: () => {} });
    const seconds = (performance.now() - started) / 1000;
    const hits = allHits(realDir);
    const labelOf = (hit: NativeHit): 'content' | 'furniture' | undefined => {
      const body = bodyByUrl.get(hit.url);
      if (body === undefined) return undefined;
      const own = shingles(hit.snippet);
      if (own.length === 0) return 'furniture';
      return own.filter((shingle) => body.has(shingle)).length / own.length >= 0.5 ? 'content' : 'furniture';
    };
    const stories = storiesOf(hits);
    const storyLabel = (story: Story): 'content' | 'furniture' | 'unlabelled' => {
      let content = 0;
      let furniture = 0;
      for (const passage of story.passages) {
        const label = labelOf(passage);
        if (label === 'content') content++;
        else if (label === 'furniture') furniture++;
      }
      if (content + furniture === 0) return 'unlabelled';
      return furniture > content ? 'furniture' : 'content';
    };
    const count = (set: Story[], predicate: (story: Story) => boolean): number => set.filter(predicate).length;
    lines.push(
      '## 1. Real pages',
      '',
      `${summary.crawl.pages} pages read from ${files.length} WARC files, ${summary.pages} admitted, ${hits.length} passages, ${stories.length} stories; ingest ${seconds.toFixed(1)} s (${((1000 * seconds) / Math.max(1, summary.crawl.pages)).toFixed(1)} ms a page, ${((1000 * seconds) / Math.max(1, hits.length)).toFixed(2)} ms a passage, extraction included).`,
      '',
      'Baseline in the same run: the stories whose members span that many hosts (every member counting its host, the rule before).',
      '',
      '| pages | stories | all | content | furniture | unlabelled | baseline: member hosts, all / furniture |',
      '|---|---|---:|---:|---:|---:|---:|',
    );
    const crawlOnlyDir = join(work, 'crawl-only-index');
    await ingestFiles(files.slice(0, 2), { dataDir: crawlOnlyDir, shards: 1, log: () => {} });
    const crawlOnlyStories = storiesOf(allHits(crawlOnlyDir));
    for (const [name, set] of [
      ['all three files', stories],
      ['without the hidden-text twins', crawlOnlyStories],
    ] as const) {
      for (const floor of [2, 4]) {
        const at = (label: string) => count(set, (story) => story.sources >= floor && (label === 'all' || storyLabel(story) === label));
        const baseline = (label: string) => count(set, (story) => story.hosts.size >= floor && (label === 'all' || storyLabel(story) === label));
        lines.push(`| ${name} | independent_sources >= ${floor} | ${at('all')} | ${at('content')} | ${at('furniture')} | ${at('unlabelled')} | ${baseline('all')} / ${baseline('furniture')} |`);
      }
    }
    // The clustering alone, in memory, page by page.
    const pages = new Map<string, NativeHit[]>();
    for (const hit of hits) {
      const pageId = hit.id.slice(0, hit.id.lastIndexOf(':'));
      pages.set(pageId, [...(pages.get(pageId) ?? []), hit]);
    }
    const pageTexts = [...pages.values()].map((passages) => ({
      host: passages[0].host,
      texts: passages.sort((left, right) => Number(left.id.split(':')[1]) - Number(right.id.split(':')[1])).map((passage) => passage.snippet),
    }));
    const rounds = 20;
    let fingerprintOnly = Infinity;
    let clustering = Infinity;
    for (let round = 0; round < rounds; round++) {
      let started = performance.now();
      for (const page of pageTexts) fingerprintTexts(page.texts);
      fingerprintOnly = Math.min(fingerprintOnly, performance.now() - started);
      const clusters = StoryClusters.inMemory();
      started = performance.now();
      pageTexts.forEach((page, index) => clusters.assignPage(fingerprintTexts(page.texts), { host: page.host, owner: page.host, time: FETCHED, pageKey: index + 1, pageOrigin: 'none' }));
      clustering = Math.min(clustering, performance.now() - started);
    }
    lines.push(
      '',
      `Clustering cost (best of ${rounds}, in memory, ${pageTexts.length} pages, ${hits.length} passages): fingerprints and stories ${((1000 * clustering) / hits.length).toFixed(1)} µs a passage (${((1000 * clustering) / pageTexts.length).toFixed(1)} µs a page), of which fingerprints alone ${((1000 * fingerprintOnly) / hits.length).toFixed(1)} µs a passage.`,
    );
    // Listed: every story of 4 or more sources, and the furniture and unlabelled ones of 2 or more.
    const listed = [...stories, ...crawlOnlyStories]
      .filter((story) => story.sources >= 4 || (story.sources >= 2 && storyLabel(story) !== 'content'))
      .sort((left, right) => right.sources - left.sources || left.id.localeCompare(right.id));
    const furnitureHosts = new Map<number, number>();
    for (const story of stories) if (story.sources >= 2 && storyLabel(story) === 'furniture') furnitureHosts.set(story.sources, (furnitureHosts.get(story.sources) ?? 0) + 1);
    lines.push('', `Stories of 4+ sources, and furniture or unlabelled stories of 2+ (both indexes; furniture stories by sources: ${JSON.stringify(Object.fromEntries(furnitureHosts))}):`, '');
    for (const story of listed) lines.push(`- ${story.sources} sources, ${story.hosts.size} hosts (${[...story.hosts].slice(0, 4).join(', ')}), ${story.passages.length} passages, ${storyLabel(story)}: "${snippet(story.passages[0].snippet)}"`);

    // Furniture strings seen in the crawl: furniture passages of the article pages, by page.
    const furnitureByPage = new Map<string, string[]>();
    for (const hit of hits) {
      if (!truthIds.some((id) => truth[id].url === hit.url) || labelOf(hit) !== 'furniture') continue;
      if (tokens(hit.snippet).length < 8) continue;
      const list = furnitureByPage.get(hit.url) ?? [];
      list.push(hit.snippet);
      furnitureByPage.set(hit.url, list);
    }
    const vertical = readJsonl<{ host: string }>(join(DATA, 'signals/vertical/records.jsonl'));
    const hostNames = [...new Set(vertical.map((record) => record.host.toLowerCase()))].filter((host) => host.includes('.'));

    // 2 and 3, per split.
    lines.push('', '## 2. Shared furniture and 3. syndication, hosts varied', '');
    lines.push('| split | hosts | furniture story: max independent_sources (ideal 1) | baseline: its member hosts | same, a quarter of the pages short (first 10 words of the article) | articles: max (ideal 1) | syndicated article: min / max independent_sources (ideal = hosts) |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|');
    for (const split of ['development (even items)', 'held-out (odd items)'] as const) {
      const parity = split.startsWith('development') ? 0 : 1;
      const items = truthIds.filter((_, index) => index % 2 === parity);
      const footers = items.map((id) => furnitureByPage.get(truth[id].url) ?? []).filter((list) => list.length >= 3);
      const footerSets = items.map((id) => furnitureByPage.get(truth[id].url) ?? []).filter((list) => list.length >= 1);
      if (footers.length === 0) {
        lines.push(`| ${split} | - | no page with three furniture passages | | | | |`);
        continue;
      }
      const shared = footers[0].slice(0, 3);
      for (const hosts of HOST_COUNTS) {
        const pages = [];
        for (let index = 0; index < hosts; index++) {
          const article = truth[items[index % items.length]].articleBody;
          pages.push({ url: `https://${hostNames[index]}/page-${index}`, title: `Page ${index}`, text: `${article}\n\n${shared.join('\n\n')}`, fetched_at: FETCHED });
        }
        const furnitureHits = await ingestRecords(work, `furniture-${parity}-${hosts}`, pages);
        const sharedKeys = new Set(shared.flatMap((text) => shingles(text)));
        const isShared = (hit: NativeHit) => {
          const own = shingles(hit.snippet);
          return own.length > 0 && own.filter((shingle) => sharedKeys.has(shingle)).length / own.length >= 0.5;
        };
        const furnitureMax = Math.max(0, ...furnitureHits.filter(isShared).map((hit) => hit.independent_sources ?? 1));
        const furnitureHosts = Math.max(0, ...storiesOf(furnitureHits.filter(isShared)).map((story) => story.hosts.size));
        // Furniture is most of a short page: there the page alone cannot tell.
        const shortPages = pages.map((record, index) =>
          index % 4 === 1 ? { ...record, text: `${truth[items[index % items.length]].articleBody.split(/\s+/).slice(0, 10).join(' ')}\n\n${shared.join('\n\n')}` } : record,
        );
        const shortHits = await ingestRecords(work, `furniture-short-${parity}-${hosts}`, shortPages);
        const shortMax = Math.max(0, ...shortHits.filter(isShared).map((hit) => hit.independent_sources ?? 1));
        const articleMax = Math.max(0, ...furnitureHits.filter((hit) => !isShared(hit)).map((hit) => hit.independent_sources ?? 1));

        const article = truth[items[0]].articleBody;
        const carried = [];
        for (let index = 0; index < hosts; index++) {
          const own = footerSets[(index + 1) % footerSets.length];
          carried.push({ url: `https://${hostNames[index + 100]}/story`, title: 'Story', text: `${article}\n\n${own.join('\n\n')}\n\nCopy ${index} on ${hostNames[index + 100]}.`, fetched_at: FETCHED });
        }
        const articleKeys = new Set(shingles(article));
        const syndicated = (await ingestRecords(work, `syndicated-${parity}-${hosts}`, carried)).filter((hit) => {
          const own = shingles(hit.snippet);
          return own.length > 0 && own.filter((shingle) => articleKeys.has(shingle)).length / own.length >= 0.5;
        });
        const sources = syndicated.map((hit) => hit.independent_sources ?? 1);
        lines.push(`| ${split} | ${hosts} | ${furnitureMax} | ${furnitureHosts} | ${shortMax} | ${articleMax} | ${Math.min(...sources)} / ${Math.max(...sources)} |`);
      }
      lines.push(`| ${split} | shared furniture | "${shared.map((text) => snippet(text, 50)).join('" / "')}" | | | | |`);
    }

    // 4. One-line pages.
    const roleHosts = readJsonl<{ host: string }>(join(DATA, 'signals/source_role/hosts.jsonl')).map((record) => record.host.toLowerCase());
    const oneLine = roleHosts.map((host) => ({ url: `https://${host}/`, title: host, text: `Home page of ${host}.`, fetched_at: FETCHED }));
    const oneLineStories = storiesOf(await ingestRecords(work, 'one-line', oneLine));
    const largest = oneLineStories.reduce((max, story) => Math.max(max, story.hosts.size), 0);
    lines.push(
      '',
      '## 4. One-line pages',
      '',
      `${oneLine.length} pages "Home page of HOST." on as many hosts: ${oneLineStories.length} stories; the largest holds ${largest} hosts; ${oneLineStories.filter((story) => story.sources >= 2).length} stories count 2 or more independent sources, ${oneLineStories.filter((story) => story.sources >= 4).length} count 4 or more.`,
    );

    const report = lines.join('\n');
    process.stdout.write(`${report}\n`);
    mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'out', 'stories.md'), `${report}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
