/**
 * `npm run bench:extract-limits`: what hostile page shapes cost extraction (`extractHtmlPage`,
 * everything ingest does to an HTML page before passages), beside Readability.js alone on the same
 * pages, and how far the real pages sit from the limits (extract/settings.ts: MAX_PAGE_CHARS,
 * MAX_PAGE_ELEMENTS, MAX_PAGE_DEPTH before and right after parsing, MAX_READABILITY_DEPTH,
 * MAX_READABILITY_NESTING, MAX_READABILITY_ELEMENTS for the main text, DATE_TEXT_CHARS and
 * TEXT_SCAN_CHARS for the date scan; README "Limits").
 *
 * Shapes, generated here: deep nesting (100-5,000 levels of <div>), many nests each under the
 * depth limit (past the nesting limit, and just under it), wide pages (14,000 to 300,000 sibling elements), huge text nodes (1.9, 10 and 60 MB,
 * one with 1,000 hidden pieces before it), many tables, and the date scan's worst cases (300
 * nested elements named for a date, or 300 nested <time>s, around a megabyte of text).
 * Each is timed in CPU seconds of this process (user + system: what the page costs whatever the
 * shared machine's load) and wall seconds, with where its main text came from; then the whole of
 * ingest on it (`ingestFiles` on a one-record WARC of the page, one shard, the default hashing vectors: extraction,
 * passages, signals, the index), CPU seconds less those of ingesting a small plain page the same
 * way. Readability.js alone runs on the shapes where it takes seconds, not minutes.
 *
 * EXTRACT_LIMITS_BEFORE=path/to/index.js: also run every shape through an earlier build of
 * packages/ingest (its dist/index.js; e.g. check out the commit before, `npx tsc -b`, copy
 * packages/ingest/dist and package.json to bench/out/ingest-before/), for a before/after column.
 *
 * Real pages: the parsed pages of the extraction and htmldate sets and the HTML responses of the
 * crawl and hidden-text WARCs (SHARED_DATA, default ../shared/data): their deepest nesting, largest
 * sum of depths, most elements, most characters and start tags, beside the limits.
 * Output: stdout and bench/out/extract-limits.md.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gunzipSync, gzipSync } from 'node:zlib';
import { decodeHtml, extractHtmlPage, ingestFiles, readWarcItems } from '@evidence/ingest';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED = resolve(process.env.SHARED_DATA ?? join(ROOT, '..', 'shared', 'data'));
const OUT = join(ROOT, 'bench', 'out');
const BEFORE = process.env.EXTRACT_LIMITS_BEFORE;

const lines: string[] = [];
const say = (line = ''): void => {
  console.log(line);
  lines.push(line);
};

const STORY = 'Some words of text that make up a paragraph of the story, long enough to be read as one. ';
const page = (title: string, body: string): string => `<!DOCTYPE html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const nest = (levels: number, inner: string): string => `${'<div class="wrap">'.repeat(levels)}${inner}${'</div>'.repeat(levels)}`;
const wide = (count: number): string => page('Wide', `<div>${Array.from({ length: count }, (_, index) => `<span>w${index}</span>`).join('')}</div>`);
const story = (chars: number): string => STORY.repeat(Math.ceil(chars / STORY.length));
const hiddenPieces = (count: number): string => Array.from({ length: count }, (_, index) => `<div style="display:none">hidden note number ${index} for crawlers</div>`).join('');

interface Shape {
  name: string;
  html: () => string;
  /** Run Readability.js alone on it (seconds, not minutes). */
  readabilityAlone: boolean;
}

const SHAPES: Shape[] = [
  { name: 'deep nesting, 100 levels', html: () => page('Deep', nest(100, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: true },
  { name: 'deep nesting, 400 levels', html: () => page('Deep', nest(400, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: true },
  { name: 'deep nesting, 1,500 levels', html: () => page('Deep', nest(1500, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: false },
  { name: 'deep nesting, 3,000 levels', html: () => page('Deep', nest(3000, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: false },
  { name: 'deep nesting, 5,000 levels', html: () => page('Deep', nest(5000, `<p>${STORY.repeat(8)}</p>`)), readabilityAlone: false },
  { name: '150 nests of 90 levels', html: () => page('Chains', nest(90, `<p>${STORY}</p>`).repeat(150)), readabilityAlone: true },
  { name: '315 nests of 40 levels (just under every limit)', html: () => page('Chains', nest(40, `<p>${STORY}</p>`).repeat(315)), readabilityAlone: true },
  { name: 'wide: 14,000 sibling elements', html: () => wide(14_000), readabilityAlone: true },
  { name: 'wide: 29,000 sibling elements', html: () => wide(29_000), readabilityAlone: true },
  { name: 'wide: 100,000 sibling elements', html: () => wide(100_000), readabilityAlone: true },
  { name: 'wide: 300,000 sibling elements', html: () => wide(300_000), readabilityAlone: false },
  { name: 'one text node of 1.9 MB', html: () => page('Huge', `<article><p>${story(1_900_000)}</p></article>`), readabilityAlone: true },
  { name: 'one text node of 10 MB', html: () => page('Huge', `<article><p>${story(10_000_000)}</p></article>`), readabilityAlone: true },
  { name: 'one text node of 60 MB (records up to 64 MiB are read)', html: () => page('Huge', `<article><p>${story(60_000_000)}</p></article>`), readabilityAlone: false },
  { name: '1,000 hidden pieces, then 10 MB of text', html: () => page('Hidden', `<article>${hiddenPieces(1000)}<p>${story(10_000_000)}</p></article>`), readabilityAlone: false },
  { name: '19,000 short paragraphs', html: () => page('Paragraphs', `<article>${`<p>${STORY}</p>`.repeat(19_000)}</article>`), readabilityAlone: true },
  { name: '5,000 tables', html: () => page('Tables', '<table><tr><td>cell a</td><td>cell b with words, more words.</td></tr><tr><td>x</td><td>y</td></tr></table>'.repeat(5000)), readabilityAlone: true },
  { name: '300 nested date elements around 1 MB', html: () => page('Dates', `${'<div class="date-meta">'.repeat(300)}<p>${story(1_000_000)}</p>${'</div>'.repeat(300)}`), readabilityAlone: false },
  { name: '300 nested <time>s around 1 MB', html: () => page('Times', `<article>${'<time>'.repeat(300)}<p>${story(1_000_000)}</p>${'</time>'.repeat(300)}</article>`), readabilityAlone: false },
];

// A full collection before each measurement, so that no shape pays for the garbage of the one before.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

type Extract = (html: string, url: string, fetchedAt: number) => { text: string; limitNote?: string };
type Ingest = typeof ingestFiles;

/** A one-record gzipped WARC holding `html` as an HTTP response. */
function warcOf(url: string, html: string): Buffer {
  const payload = Buffer.from(html, 'utf8');
  const block = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${payload.length}\r\n\r\n`, 'latin1'), payload]);
  const head = `WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: ${url}\r\nWARC-Date: 2023-11-14T22:13:20Z\r\nWARC-Record-ID: <urn:uuid:${randomUUID()}>\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: ${block.length}\r\n\r\n`;
  return gzipSync(Buffer.concat([Buffer.from(head, 'latin1'), block, Buffer.from('\r\n\r\n', 'latin1')]));
}

/** CPU seconds of ingesting `html` alone (a fresh index, one shard), and what the run counted. */
async function ingestCpu(ingest: Ingest, html: string): Promise<{ cpu: number; counts: string }> {
  const directory = mkdtempSync(join(tmpdir(), 'extract-limits-'));
  try {
    const file = join(directory, 'page.warc.gz');
    writeFileSync(file, warcOf('https://hostile.example.org/', html));
    collectGarbage();
    const cpuStart = process.cpuUsage();
    const summary = await ingest([file], { dataDir: join(directory, 'data'), shards: 1, log: () => {} });
    const cpu = process.cpuUsage(cpuStart);
    const crawl = summary.crawl;
    const damaged = Object.keys(crawl?.damaged ?? {}).join(',');
    return { cpu: (cpu.user + cpu.system) / 1e6, counts: damaged !== '' ? `damaged ${damaged}` : `${crawl?.pages ?? 0} page${crawl?.pastLimits ? ', past limits' : ''}` };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

interface Timed {
  cpu: number;
  wall: number;
  outcome: string;
}

/** One extraction, timed in CPU seconds of this process and wall seconds, and what it gave. */
function timed(extract: Extract, html: string): Timed {
  collectGarbage();
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  let outcome: string;
  try {
    const note = extract(html, 'https://hostile.example.org/', 1_700_000_000).limitNote ?? '';
    outcome = note.startsWith('page:') ? 'cut, body' : note.includes('Readability skipped') ? 'body (past a limit)' : 'Readability';
    if (note.includes('main text: more than')) outcome += ', text cut';
  } catch (error) {
    outcome = `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  const wall = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return { cpu: (cpu.user + cpu.system) / 1e6, wall, outcome };
}

function secondsOf(run: () => unknown): number {
  const started = performance.now();
  run();
  return (performance.now() - started) / 1000;
}

/** Deepest nesting, the sum of every element's depth (as `readabilityLimit` counts them) and the element count. */
function nestingOf(html: string): { depth: number; nesting: number; elements: number } {
  const { document } = parseHTML(html) as unknown as { document: { documentElement: Element } };
  let depth = 0;
  let nesting = 0;
  let elements = 0;
  const stack: Array<[Element, number]> = [[document.documentElement, 1]];
  while (stack.length > 0) {
    const [element, level] = stack.pop()!;
    elements++;
    nesting += level;
    depth = Math.max(depth, level);
    for (let child = element.firstElementChild; child !== null; child = child.nextElementSibling) stack.push([child, level + 1]);
  }
  return { depth, nesting, elements };
}

/** Start tags as the page limit counts them (`<` and a letter, in the source). */
function startTags(html: string): number {
  return html.match(/<[a-zA-Z]/g)?.length ?? 0;
}

/** The real pages' decoded HTML, by set. */
async function realPages(): Promise<Map<string, string[]>> {
  const sets = new Map<string, string[]>();
  const add = (set: string, html: string): void => {
    if (!sets.has(set)) sets.set(set, []);
    sets.get(set)!.push(html);
  };
  const extraction = join(SHARED, 'extraction', 'pages');
  if (existsSync(extraction)) for (const name of readdirSync(extraction)) add('extraction', decodeHtml(gunzipSync(readFileSync(join(extraction, name))), undefined).html);
  const htmldate = join(SHARED, 'signals', 'published_at', 'html');
  if (existsSync(htmldate)) for (const name of readdirSync(htmldate)) add('htmldate', decodeHtml(gunzipSync(readFileSync(join(htmldate, name))), undefined).html);
  for (const warc of ['crawl/sample-0000.warc.gz', 'hidden-text/pages.warc.gz']) {
    const path = join(SHARED, warc);
    if (!existsSync(path)) continue;
    for await (const item of readWarcItems(path, 'gzip')) {
      if (item.kind !== 'record' || item.headers.get('warc-type') !== 'response') continue;
      const headerEnd = item.block.indexOf('\r\n\r\n');
      if (headerEnd < 0 || !/content-type:\s*text\/html/i.test(item.block.subarray(0, headerEnd).toString('latin1'))) continue;
      add(warc, decodeHtml(item.block.subarray(headerEnd + 4), undefined).html);
    }
  }
  return sets;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const beforeBuild = BEFORE === undefined ? undefined : ((await import(pathToFileURL(resolve(BEFORE)).href)) as { extractHtmlPage: Extract; ingestFiles: Ingest });
  const before = beforeBuild?.extractHtmlPage;
  // A small plain page through each build's ingest: its cost (startup of a run) is taken off each shape's.
  const plain = page('Plain', `<article><p>${STORY.repeat(40)}</p></article>`);
  await ingestCpu(ingestFiles, plain);
  const base = (await ingestCpu(ingestFiles, plain)).cpu;
  let beforeBase = 0;
  if (beforeBuild !== undefined) {
    await ingestCpu(beforeBuild.ingestFiles, plain);
    beforeBase = (await ingestCpu(beforeBuild.ingestFiles, plain)).cpu;
  }
  say('## Extraction on hostile page shapes');
  say();
  say(`CPU seconds of this process (user + system) and wall seconds, on this shared 2-core machine. Extract: \`extractHtmlPage\`; ingest: the whole ingest of the page alone, CPU seconds less a small plain page's (${base.toFixed(2)} s${before === undefined ? '' : `, before ${beforeBase.toFixed(2)} s`}).${before === undefined ? '' : ` "Before": the build at EXTRACT_LIMITS_BEFORE (${BEFORE}).`}`);
  say();
  const beforeColumns = before === undefined ? '' : ' before: extract CPU s | before: wall s | before: main text | before: ingest CPU s |';
  say(`| page | HTML MB | elements | deepest | extract CPU s | wall s | main text from | ingest CPU s | ingest |${beforeColumns} Readability.js alone, wall s |`);
  say(`|---|---:|---:|---:|---:|---:|---|---:|---|${before === undefined ? '' : '---:|---:|---|---:|'}---:|`);
  for (const shape of SHAPES) {
    const html = shape.html();
    const shapeNesting = nestingOf(html);
    const now = timed(extractHtmlPage, html);
    const ingested = await ingestCpu(ingestFiles, html);
    let beforeCells = '';
    if (before !== undefined && beforeBuild !== undefined) {
      const then = timed(before, html);
      const thenIngested = await ingestCpu(beforeBuild.ingestFiles, html);
      beforeCells = ` ${then.cpu.toFixed(2)} | ${then.wall.toFixed(2)} | ${then.outcome} | ${(thenIngested.cpu - beforeBase).toFixed(2)} |`;
    }
    const alone = shape.readabilityAlone ? secondsOf(() => new Readability(parseHTML(html).document as never).parse()).toFixed(2) : 'not run';
    say(`| ${shape.name} | ${(html.length / 1e6).toFixed(2)} | ${shapeNesting.elements} | ${shapeNesting.depth} | ${now.cpu.toFixed(2)} | ${now.wall.toFixed(2)} | ${now.outcome} | ${(ingested.cpu - base).toFixed(2)} | ${ingested.counts} |${beforeCells} ${alone} |`);
  }
  const sets = await realPages();
  if (sets.size > 0) {
    say();
    say('Real pages beside the limits (page: 2,000,000 characters, 30,000 start tags, depth 2,000; Readability: depth 100, nesting 300,000, 15,000 elements; main text 300,000 characters):');
    say();
    say('| set | pages | most characters | most start tags | deepest | largest nesting | most elements |');
    say('|---|---:|---:|---:|---:|---:|---:|');
    for (const [set, pages] of sets) {
      const stats = pages.map((html) => ({ chars: html.length, tags: startTags(html), ...nestingOf(html) }));
      const max = (key: keyof (typeof stats)[number]): number => Math.max(...stats.map((entry) => entry[key]));
      say(`| ${set} | ${pages.length} | ${max('chars')} | ${max('tags')} | ${max('depth')} | ${max('nesting')} | ${max('elements')} |`);
    }
  }
  writeFileSync(join(OUT, 'extract-limits.md'), lines.join('\n') + '\n');
}

await main();
