/**
 * `npm run bench:signals-rest [-- SET...]`: issue 31's check reproduced end to end on the
 * development halves of SIGNALS_DATA. Each labelled set is written as the input a user would
 * give, with no signal field (HTML pages as a WARC where the set has HTML, JSONL records with
 * url/title/text otherwise, in one or more forms where the form is a guess about the checker),
 * ingested with the real `npm run ingest` (packages/ingest/dist/cli.js, EMBEDDER=hashing, one
 * shard) into a fresh DATA_DIR under bench/out/signals-rest/, served by the real server
 * (packages/server/dist/start.js), and read back over REST: `why_not?url=` for the hit's
 * published_at, content_type, vertical, safety and host_rank, and `corroborate?id=` for the
 * evidence item's source_role. Scored with bench:signals' metrics on its halves (the same keys
 * and bytes), each REST figure beside the module-level figure of the same half, computed in the
 * same run by the same calls bench:signals makes. Items whose REST value differs from the
 * module's are counted, and the first few named, since each is a plumbing difference to explain.
 * Sets: published_at, source_role (host_rank's AUC on its MBFC news hosts too), content_type,
 * vertical, safety; picked as arguments or in SIGNALS (comma-separated). Report also in
 * bench/out/signals-rest.md.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { contentTypeFromText, decodeHtml, deriveHostFields, deriveHostRank, derivePublishedAt, deriveSafety, deriveVertical } from '@evidence/ingest';
import { deriveSourceRole, GENERAL_VERTICAL, publicSuffixOf } from '@evidence/schemas';
import { parseHTML } from 'linkedom';
import { createBenchKey, startServerProcess } from './load.js';
import { halfOf, macroF1, readJsonl, ROOT, SIGNALS_DATA, type Half } from './signals/halves.js';
import { onDay } from './signals/published-at.js';
import { isHardNegative, readSafetyRecords, safetyHalf, TUNE_HALF as SAFETY_TUNE_HALF, type SafetyRecord } from './signals/safety-data.js';
import { percent, precisionRecallF1, rocAuc, table } from './signals/section.js';
import { CURLIE_OF, hostHalf, TRAIN_HALF as VERTICAL_TRAIN_HALF } from './signals/vertical-data.js';

const OUT = join(ROOT, 'bench', 'out', 'signals-rest');
const FETCHED_AT = Math.floor(Date.now() / 1000);
const CONCURRENCY = 6;

/** One labelled item: the URL it was ingested under, its half, and what the module says of it. */
interface Item<M> {
  url: string;
  half: Half;
  module: M;
}

/** What REST gave for one URL: the why_not hit (absent when the URL is not present) and, when asked, the corroborate item's role. */
interface Read {
  status: string;
  hit?: Record<string, unknown>;
  role?: string;
  roleConfidence?: number;
  /** Whether corroborate's first evidence item is the passage's own (a checker may read the first). */
  firstIsOwn?: boolean;
}

/** One input form of a set: the file to ingest (JSONL lines or WARC bytes) and what it is. */
interface Form {
  name: string;
  file: string;
  bytes: Buffer;
}

// ------------------------------------------------------------------ the service

interface Served {
  reads: Map<string, Read>;
  ingestSummary: string;
  ingestSeconds: number;
  readSeconds: number;
}

/** Ingest `form` into a fresh DATA_DIR with `npm run ingest`, serve it, and read every URL back. */
async function serve(set: string, form: Form, urls: readonly string[], withRole: boolean): Promise<Served> {
  const dataDir = join(OUT, `${set}-${form.name.replace(/[^a-z0-9]+/gi, '-')}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const input = join(dataDir, form.file);
  writeFileSync(input, form.bytes);
  const env = { ...process.env, DATA_DIR: join(dataDir, 'index'), SHARDS: '1', EMBEDDER: 'hashing' };
  const started = performance.now();
  const ingest = spawnSync(process.execPath, [join(ROOT, 'packages', 'ingest', 'dist', 'cli.js'), input], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ingestSeconds = (performance.now() - started) / 1000;
  if (ingest.status !== 0) throw new Error(`npm run ingest failed on ${input}:\n${ingest.stderr}`);
  const key = createBenchKey(env.DATA_DIR);
  const server = await startServerProcess(join(ROOT, 'packages', 'server', 'dist', 'start.js'), { DATA_DIR: env.DATA_DIR, EMBEDDER: 'hashing', EMBED_THREADS: '0', LOG_LEVEL: 'info' }, `server for ${set}`);
  const reads = new Map<string, Read>();
  const readStarted = performance.now();
  try {
    const headers = { 'x-api-key': key };
    // A URL the server refuses (400: a labelled URL that is not http(s), such as `xhttps://...`) reads as status `refused`.
    const get = async (path: string): Promise<Record<string, unknown>> => {
      for (let attempt = 0; ; attempt++) {
        const response = await fetch(`${server.url}${path}`, { headers });
        if (response.ok) return (await response.json()) as Record<string, unknown>;
        if (response.status === 400) return { status: `refused (${(await response.text()).slice(0, 60)})` };
        if (attempt >= 3 || (response.status !== 503 && response.status !== 429 && response.status !== 408)) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
      }
    };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < urls.length) {
        const url = urls[next++];
        const answer = await get(`/why_not?url=${encodeURIComponent(url)}`);
        const read: Read = { status: String(answer.status) };
        if (answer.hit !== undefined) read.hit = answer.hit as Record<string, unknown>;
        if (withRole && read.hit !== undefined) {
          const id = String(read.hit.id);
          const corroborated = await get(`/corroborate?id=${encodeURIComponent(id)}`);
          const items = (corroborated.evidence ?? []) as Array<Record<string, unknown>>;
          const own = items.find((item) => (item.hit as Record<string, unknown>).id === id) ?? items.find((item) => (item.hit as Record<string, unknown>).url === read.hit!.url) ?? items[0];
          if (own !== undefined) {
            read.role = String(own.source_role);
            read.roleConfidence = Number(own.role_confidence);
            read.firstIsOwn = own === items[0];
          }
        }
        reads.set(url, read);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    await server.stop();
  }
  return { reads, ingestSummary: ingest.stdout, ingestSeconds, readSeconds: (performance.now() - readStarted) / 1000 };
}

function jsonl(records: ReadonlyArray<Record<string, unknown>>): Buffer {
  return Buffer.from(records.map((record) => JSON.stringify(record)).join('\n') + '\n');
}

/** A gzip WARC of HTML response records, one gzip member each, as a crawler writes them; no charset in the HTTP header, so the page's own declaration (or sniffing) decides, as bench:signals decodes it. */
function warc(pages: ReadonlyArray<{ url: string; body: Buffer }>): Buffer {
  const date = new Date(FETCHED_AT * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return Buffer.concat(
    pages.map((page, index) => {
      const http = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${page.body.length}\r\n\r\n`, 'latin1'), page.body]);
      const head = ['WARC/1.0', 'WARC-Type: response', `WARC-Date: ${date}`, `WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-${String(index).padStart(12, '0')}>`, `WARC-Target-URI: ${page.url}`, 'Content-Type: application/http;msgtype=response', `Content-Length: ${http.length}`];
      // The header in UTF-8: a URL with non-ASCII characters is written as the data gives it (raw UTF-8, as wget writes an IRI).
      return gzipSync(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'), http, Buffer.from('\r\n\r\n')]));
    }),
  );
}

// ------------------------------------------------------------------ report helpers

interface SetReport {
  name: string;
  lines: string[];
}

function differences<M>(items: ReadonlyArray<Item<M>>, reads: ReadonlyMap<string, Read>, restValue: (read: Read | undefined) => unknown, moduleValue: (module: M) => unknown, show = 6): { count: number; absent: number; examples: string[] } {
  let count = 0;
  let absent = 0;
  const examples: string[] = [];
  for (const item of items) {
    const read = reads.get(item.url);
    if (read?.hit === undefined) absent++;
    const rest = restValue(read);
    const module = moduleValue(item.module);
    if (JSON.stringify(rest) === JSON.stringify(module)) continue;
    count++;
    if (examples.length < show) examples.push(`${item.url}: module ${JSON.stringify(module)}, REST ${read?.hit === undefined ? `(${read?.status ?? 'not read'})` : JSON.stringify(rest)}`);
  }
  return { count, absent, examples };
}

/** The ingest summary's counts that say what became of the input: pages, malformed lines, redundant copies, crawl skips (non-zero only). */
function ingestCounts(summary: string): string {
  const wanted = /^(pages|crawl pages|malformed lines|redundant copies \(not admitted\)|skipped [\w-]+|damaged [\w-]+|outdated records.*):\s+(\d+)$/;
  const counts: string[] = [];
  for (const line of summary.split('\n')) {
    const match = wanted.exec(line.trim());
    if (match !== null && (match[1] === 'pages' || match[2] !== '0')) counts.push(`${match[1]} ${match[2]}`);
  }
  return counts.join(', ');
}

function formLines(form: Form, served: Served, items: number, diff: { count: number; absent: number; examples: string[] }): string[] {
  return [
    `- ${form.name}: ${items} items; ${diff.absent} not present over why_not; ${diff.count} differ from the module${diff.count > 0 ? ` (e.g. ${diff.examples.join('; ')})` : ''}. Ingest ${served.ingestSeconds.toFixed(1)} s (${ingestCounts(served.ingestSummary)}), REST reads ${served.readSeconds.toFixed(1)} s (${((served.readSeconds * 1000) / Math.max(1, items)).toFixed(1)} ms per item).`,
  ];
}

// ------------------------------------------------------------------ published_at

interface DatedPage {
  id: string;
  url: string;
  html_file: string | null;
  date: string | null;
  host: string;
}

async function publishedAtSet(): Promise<SetReport> {
  const records = readJsonl<DatedPage>('published_at/records.jsonl');
  if (records === undefined) return { name: 'published_at', lines: ['skipped: no published_at/records.jsonl'] };
  const pages = records.filter((page) => page.html_file !== null);
  const bodies = new Map(pages.map((page) => [page.url, gunzipSync(readFileSync(join(SIGNALS_DATA, 'published_at', page.html_file!)))]));
  const items: Array<Item<number | undefined> & { date: string | null }> = pages.map((page) => {
    const { html } = decodeHtml(bodies.get(page.url)!, undefined);
    const { document } = parseHTML(html);
    return { url: page.url, half: halfOf(page.host, 0), date: page.date, module: derivePublishedAt(document as never, page.url, FETCHED_AT).value };
  });
  const form: Form = { name: 'HTML pages in a WARC (WARC-Date now, Content-Type text/html)', file: 'pages.warc.gz', bytes: warc(pages.map((page) => ({ url: page.url, body: bodies.get(page.url)! }))) };
  const served = await serve('published_at', form, items.map((item) => item.url), false);
  const restSeconds = (read: Read | undefined): number | undefined => (typeof read?.hit?.published_at === 'number' ? read.hit.published_at : undefined);
  const rows: Array<Array<string | number>> = [];
  for (const half of ['tune', 'check'] as const) {
    const inHalf = items.filter((item) => item.half === half);
    const right = (value: (item: (typeof items)[number]) => number | undefined) => inHalf.filter((item) => onDay(value(item), item.date)).length / Math.max(1, inHalf.length);
    rows.push([half, inHalf.length, 'right day', percent(right((item) => item.module)), percent(right((item) => restSeconds(served.reads.get(item.url))))]);
  }
  const diff = differences(items, served.reads, restSeconds, (module) => module);
  return { name: 'published_at', lines: [...table(['half', 'pages', 'measure', 'module (derivePublishedAt)', `REST: ${form.name}`], rows), '', ...formLines(form, served, items.length, diff)] };
}

// ------------------------------------------------------------------ source_role (and host_rank)

interface LabelledHost {
  host: string;
  role: string;
  labels?: { role_ambiguous?: boolean };
  trust?: { mbfc_factuality_coarse?: string };
}

const ROLES = ['official', 'primary', 'secondary', 'ugc'] as const;

interface HostModule {
  role: string;
  hostRank: number;
}

function hostModule(host: string): HostModule {
  const fields = deriveHostFields(host);
  const publicSuffix = publicSuffixOf(fields);
  const role = deriveSourceRole({ host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix, path: '/', pageOrigin: 'none' }).role;
  const hostRank = deriveHostRank({ host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix, tld: fields.tld }, undefined).value;
  return { role, hostRank };
}

/** Host-only record forms: what a checker with nothing but a host name might feed. */
const HOST_FORMS: ReadonlyArray<{ name: string; url: (host: string) => string; record: (host: string, url: string) => Record<string, unknown> }> = [
  { name: 'JSONL https://HOST/, title and text the host', url: (host) => `https://${host}/`, record: (host, url) => ({ url, title: host, text: host, fetched_at: FETCHED_AT }) },
  { name: 'JSONL https://HOST/, empty title and text (the URL only)', url: (host) => `https://${host}/`, record: (_host, url) => ({ url, title: '', text: '', fetched_at: FETCHED_AT }) },
  {
    name: 'JSONL https://www.HOST/ (an IP address as it is), the URL only',
    url: (host) => (/^[\d.]+$/.test(host) || host.startsWith('www.') ? `https://${host}/` : `https://www.${host}/`),
    record: (_host, url) => ({ url, title: '', text: '', fetched_at: FETCHED_AT }),
  },
];

async function sourceRoleSet(): Promise<SetReport> {
  const hosts = readJsonl<LabelledHost>('source_role/hosts.jsonl');
  if (hosts === undefined) return { name: 'source_role', lines: ['skipped: no source_role/hosts.jsonl'] };
  const scored = hosts.filter((host) => host.labels?.role_ambiguous !== true);
  const modules = new Map(scored.map((host) => [host.host, hostModule(host.host)]));
  const itemsFor = (url: (host: string) => string): Array<Item<HostModule> & { label: LabelledHost }> => scored.map((host) => ({ url: url(host.host), half: halfOf(host.host, 1), module: modules.get(host.host)!, label: host }));
  const items = itemsFor((host) => `https://${host}/`);
  const rows: Array<Array<string | number>> = [];
  const header = ['half', 'hosts', 'measure', 'module (deriveSourceRole, host only)'];
  const notes: string[] = [];
  const perForm: Array<{ form: Form; served: Served; urlOf: Map<string, string> }> = [];
  for (const shape of HOST_FORMS) {
    const formItems = itemsFor(shape.url);
    const form: Form = { name: shape.name, file: 'hosts.jsonl', bytes: jsonl(scored.map((host) => shape.record(host.host, shape.url(host.host)))) };
    const served = await serve('source_role', form, formItems.map((item) => item.url), true);
    perForm.push({ form, served, urlOf: new Map(scored.map((host) => [`https://${host.host}/`, shape.url(host.host)])) });
    header.push(`REST: ${form.name}`);
    notes.push(...formLines(form, served, formItems.length, differences(formItems, served.reads, (read) => read?.role ?? 'unknown', (module) => module.role)));
    const notFirst = [...served.reads.values()].filter((read) => read.firstIsOwn === false).length;
    notes.push(`  corroborate's first evidence item is the passage's own in all but ${notFirst} of ${served.reads.size} answers.`);
  }
  for (const half of ['tune', 'check'] as const) {
    const inHalf = items.filter((item) => item.half === half);
    const score = (role: (item: (typeof items)[number]) => string) => {
      const pairs = inHalf.map((item): [string, string] => [item.label.role, role(item)]);
      return { f1: macroF1(pairs, ROLES), unknown: pairs.filter(([, predicted]) => predicted === 'unknown').length / Math.max(1, pairs.length) };
    };
    const module = score((item) => item.module.role);
    const rest = perForm.map(({ served, urlOf }) => score((item) => served.reads.get(urlOf.get(item.url)!)?.role ?? 'unknown'));
    rows.push([half, inHalf.length, 'macro-F1', percent(module.f1.macro), ...rest.map((figure) => percent(figure.f1.macro))]);
    for (const role of ROLES) rows.push([half, inHalf.length, `F1 ${role}`, percent(module.f1.perLabel[role]), ...rest.map((figure) => percent(figure.f1.perLabel[role]))]);
    rows.push([half, inHalf.length, 'unknown share', percent(module.unknown), ...rest.map((figure) => percent(figure.unknown))]);
    // host_rank: MBFC news hosts, high against low factuality (no link graph in a host list: name priors only).
    const news = inHalf.filter((item) => item.label.role === 'secondary' && (item.label.trust?.mbfc_factuality_coarse === 'high' || item.label.trust?.mbfc_factuality_coarse === 'low'));
    const auc = (rank: (item: (typeof items)[number]) => number) => rocAuc(news.map((item) => ({ score: rank(item), positive: item.label.trust?.mbfc_factuality_coarse === 'high' })));
    rows.push([half, news.length, 'host_rank AUC, MBFC high vs low', percent(auc((item) => item.module.hostRank)), ...perForm.map(({ served, urlOf }) => percent(auc((item) => Number(served.reads.get(urlOf.get(item.url)!)?.hit?.host_rank ?? Number.NaN))))]);
  }
  return { name: 'source_role', lines: [...table(header, rows), '', 'Rows "unknown share" count a host with no REST answer (not present) as unknown. The module figure is bench:signals\' host-only one (a page at the host\'s root, no content type).', '', ...notes] };
}

// ------------------------------------------------------------------ content_type

interface LabelledText {
  id: string;
  text: string;
  content_type: string;
}

/** A URL that says nothing about the text: a neutral host and the SHA-256 of the id (the ids name their corpus and sometimes a genre hint). */
function textUrl(id: string): string {
  return `https://texts.example.org/t/${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;
}

function firstWords(text: string, count: number): string {
  return text.split(/\s+/).filter((word) => word !== '').slice(0, count).join(' ');
}

const TEXT_FORMS: ReadonlyArray<{ name: string; record: (text: LabelledText) => Record<string, unknown> }> = [
  { name: 'JSONL neutral URL, empty title, the text', record: (text) => ({ url: textUrl(text.id), title: '', text: text.text, fetched_at: FETCHED_AT }) },
  { name: 'JSONL neutral URL, title its first 10 words, the text', record: (text) => ({ url: textUrl(text.id), title: firstWords(text.text, 10), text: text.text, fetched_at: FETCHED_AT }) },
];

async function contentTypeSet(): Promise<SetReport> {
  const texts = readJsonl<LabelledText>('content_type/records.jsonl');
  if (texts === undefined) return { name: 'content_type', lines: ['skipped: no content_type/records.jsonl'] };
  const labels = [...new Set(texts.map((text) => text.content_type))].sort();
  const items: Array<Item<string> & { label: string }> = texts.map((text) => ({ url: textUrl(text.id), half: halfOf(text.id, 1), module: contentTypeFromText('', text.text).type, label: text.content_type }));
  const header = ['half', 'texts', 'measure', 'module (contentTypeFromText, no title)'];
  const notes: string[] = [];
  const perForm: Served[] = [];
  for (const shape of TEXT_FORMS) {
    const form: Form = { name: shape.name, file: 'texts.jsonl', bytes: jsonl(texts.map(shape.record)) };
    const served = await serve('content_type', form, items.map((item) => item.url), false);
    perForm.push(served);
    header.push(`REST: ${form.name}`);
    notes.push(...formLines(form, served, items.length, differences(items, served.reads, (read) => read?.hit?.content_type, (module) => module)));
  }
  const rows: Array<Array<string | number>> = [];
  for (const half of ['tune', 'check'] as const) {
    const inHalf = items.filter((item) => item.half === half);
    const score = (type: (item: (typeof items)[number]) => string) => macroF1(inHalf.map((item) => [item.label, type(item)]), labels).macro;
    rows.push([half, inHalf.length, 'macro-F1 (9 types)', percent(score((item) => item.module)), ...perForm.map((served) => percent(score((item) => String(served.reads.get(item.url)?.hit?.content_type ?? 'none'))))]);
  }
  return { name: 'content_type', lines: [...table(header, rows), '', 'The tune half is in-sample for the text model (it was trained there).', '', ...notes] };
}

// ------------------------------------------------------------------ vertical

interface CurlieSite {
  url: string;
  host: string;
  title: string | null;
  text: string | null;
  topics: string[];
}

function siteUrl(site: CurlieSite): string {
  return new URL(site.url).href;
}

const SITE_FORMS: ReadonlyArray<{ name: string; url: (site: CurlieSite) => string; record: (site: CurlieSite, url: string) => Record<string, unknown> }> = [
  { name: 'JSONL the record\'s URL (WHATWG form, trailing slash), title, description as text (the title when it has none)', url: siteUrl, record: (site, url) => ({ url, title: site.title ?? '', text: (site.text ?? '').trim() || (site.title ?? ''), fetched_at: FETCHED_AT }) },
  { name: 'JSONL https://HOST/, title, description as text (the title when none)', url: (site) => `https://${site.host}/`, record: (site, url) => ({ url, title: site.title ?? '', text: (site.text ?? '').trim() || (site.title ?? ''), fetched_at: FETCHED_AT }) },
  { name: 'JSONL the record\'s URL as written (no trailing slash), title, description as text (empty when none)', url: (site) => site.url, record: (site, url) => ({ url, title: site.title ?? '', text: site.text ?? '', fetched_at: FETCHED_AT }) },
];

async function verticalSet(): Promise<SetReport> {
  const sites = readJsonl<CurlieSite>('vertical/records.jsonl');
  if (sites === undefined) return { name: 'vertical', lines: ['skipped: no vertical/records.jsonl'] };
  const halfName = (site: CurlieSite): Half => (hostHalf(site.host) === VERTICAL_TRAIN_HALF ? 'tune' : 'check');
  const moduleOf = (site: CurlieSite) => deriveVertical({ title: site.title ?? '', text: site.text ?? '', host: site.host }).value;
  const header = ['half', 'sites', 'measure', 'module (deriveVertical, shipped model)'];
  const notes: string[] = [];
  const perForm: Array<{ served: Served; items: Array<Item<string> & { topics: string[] }> }> = [];
  for (const shape of SITE_FORMS) {
    const items = sites.map((site) => ({ url: shape.url(site), half: halfName(site), module: moduleOf(site), topics: site.topics }));
    const form: Form = { name: shape.name, file: 'sites.jsonl', bytes: jsonl(sites.map((site) => shape.record(site, shape.url(site)))) };
    const served = await serve('vertical', form, items.map((item) => item.url), false);
    perForm.push({ served, items });
    header.push(`REST: ${form.name}`);
    notes.push(...formLines(form, served, items.length, differences(items, served.reads, (read) => read?.hit?.vertical ?? GENERAL_VERTICAL, (module) => module)));
  }
  const rows: Array<Array<string | number>> = [];
  for (const half of ['tune', 'check'] as const) {
    const measure = (items: ReadonlyArray<Item<string> & { topics: string[] }>, vertical: (item: Item<string> & { topics: string[] }) => string) => {
      const inHalf = items.filter((item) => item.half === half);
      let assigned = 0;
      let hits = 0;
      for (const item of inHalf) {
        const value = vertical(item);
        if (value === GENERAL_VERTICAL) continue;
        assigned++;
        if (item.topics.includes(CURLIE_OF.get(value) ?? '')) hits++;
      }
      return { nonDefault: assigned / Math.max(1, inHalf.length), hitRate: hits / Math.max(1, inHalf.length), given: hits / Math.max(1, assigned), sites: inHalf.length };
    };
    const module = measure(perForm[0].items, (item) => item.module);
    const rest = perForm.map(({ served, items }) => measure(items, (item) => String(served.reads.get(item.url)?.hit?.vertical ?? GENERAL_VERTICAL)));
    rows.push([half, module.sites, 'non-default share', percent(module.nonDefault), ...rest.map((figure) => percent(figure.nonDefault))]);
    rows.push([half, module.sites, 'hit rate (all sites)', percent(module.hitRate), ...rest.map((figure) => percent(figure.hitRate))]);
    rows.push([half, module.sites, 'hit rate (given one)', percent(module.given), ...rest.map((figure) => percent(figure.given))]);
  }
  return {
    name: 'vertical',
    lines: [
      ...table(header, rows),
      '',
      'The shipped model was fitted on both halves: both are in-sample here (bench:signals\' not-tuned-on figure refits on the tune half). A site that is not present over why_not counts as the default vertical.',
      '',
      ...notes,
    ],
  };
}

// ------------------------------------------------------------------ safety

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

const SAFETY_FORMS: ReadonlyArray<{ name: string; url: (record: SafetyRecord) => string; record: (record: SafetyRecord, url: string) => Record<string, unknown> }> = [
  {
    name: 'JSONL http://HOST/ with title and text the host; a page record its URL, title the host, text the URL',
    url: (record) => record.url ?? `http://${record.host}/`,
    record: (record, url) => ({ url, title: record.host, text: record.url ?? record.host, fetched_at: FETCHED_AT }),
  },
  { name: 'JSONL the same URLs, empty title and text (the URL only)', url: (record) => record.url ?? `http://${record.host}/`, record: (_record, url) => ({ url, title: '', text: '', fetched_at: FETCHED_AT }) },
];

async function safetySet(): Promise<SetReport> {
  const records = readSafetyRecords().filter((record) => record.explicit !== null);
  if (records.length === 0) return { name: 'safety', lines: ['skipped: no safety/records.jsonl'] };
  const items: Array<Item<boolean> & { record: SafetyRecord }> = records.map((record) => {
    const url = SAFETY_FORMS[0].url(record);
    return { url, half: safetyHalf(record.host) === SAFETY_TUNE_HALF ? 'tune' : 'check', module: deriveSafety({ host: record.host, path: record.url === undefined ? '/' : pathOf(record.url), title: '', text: '' }).value === 'explicit', record };
  });
  // Page URLs and host URLs must not collide within one index: a host's root and a listed page never share a URL here.
  const list = process.env.SAFETY_HOST_LIST ? 'SAFETY_HOST_LIST set' : 'no host list';
  const header = ['half', 'records', 'measure', `module (deriveSafety, ${list})`];
  const notes: string[] = [];
  const perForm: Served[] = [];
  for (const shape of SAFETY_FORMS) {
    const form: Form = { name: shape.name, file: 'safety.jsonl', bytes: jsonl([...new Map(records.map((record) => [shape.url(record), shape.record(record, shape.url(record))])).values()]) };
    const served = await serve('safety', form, [...new Set(items.map((item) => item.url))], false);
    perForm.push(served);
    header.push(`REST: ${form.name}`);
    notes.push(...formLines(form, served, items.length, differences(items, served.reads, (read) => read?.hit?.safety === 'explicit', (module) => module)));
  }
  const rows: Array<Array<string | number>> = [];
  for (const half of ['tune', 'check'] as const) {
    const inHalf = items.filter((item) => item.half === half);
    const hosts = inHalf.filter((item) => item.record.level === 'host');
    const hard = hosts.filter((item) => isHardNegative(item.record));
    const pages = inHalf.filter((item) => item.record.level === 'page');
    const figures = (said: (item: (typeof items)[number]) => boolean) => {
      const counts = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
      for (const item of hosts) {
        const explicit = said(item);
        if (explicit && item.record.explicit) counts.truePositives++;
        else if (explicit) counts.falsePositives++;
        else if (item.record.explicit) counts.falseNegatives++;
      }
      return { ...precisionRecallF1(counts), hard: hard.filter(said).length / Math.max(1, hard.length), pages: pages.filter(said).length / Math.max(1, pages.length) };
    };
    const module = figures((item) => item.module);
    const rest = perForm.map((served) => figures((item) => served.reads.get(item.url)?.hit?.safety === 'explicit'));
    for (const [measure, key] of [['host precision', 'precision'], ['host recall', 'recall'], ['host F1', 'f1'], ['hard negatives called explicit', 'hard'], ['explicit page URLs found', 'pages']] as const) {
      rows.push([half, key === 'pages' ? pages.length : key === 'hard' ? hard.length : hosts.length, measure, percent(module[key]), ...rest.map((figure) => percent(figure[key]))]);
    }
  }
  return { name: 'safety', lines: [...table(header, rows), '', `Module and ingest read the same SAFETY_HOST_LIST (${list}). Host records carry no page text (the module is given none); a page record's text in the first form is its URL.`, '', ...notes] };
}

// ------------------------------------------------------------------ entry

const SETS: ReadonlyArray<readonly [string, () => Promise<SetReport>]> = [
  ['published_at', publishedAtSet],
  ['source_role', sourceRoleSet],
  ['content_type', contentTypeSet],
  ['vertical', verticalSet],
  ['safety', safetySet],
];

const wanted = [...process.argv.slice(2), ...(process.env.SIGNALS ?? '').split(',')].map((name) => name.trim()).filter((name) => name !== '');
const unknownNames = wanted.filter((name) => !SETS.some(([set]) => set === name));
if (unknownNames.length > 0) {
  console.error(`bench:signals-rest: no set named ${unknownNames.join(', ')}; sets: ${SETS.map(([set]) => set).join(', ')}`);
  process.exit(2);
}
mkdirSync(OUT, { recursive: true });
const report: string[] = ['# Signals over REST (ingest + server) beside the modules', ''];
for (const [name, run] of SETS) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const started = performance.now();
  const result = await run();
  const block = [`## ${result.name}`, '', ...result.lines, '', `(${((performance.now() - started) / 1000).toFixed(1)} s)`, ''];
  console.log(block.join('\n'));
  report.push(...block);
}
writeFileSync(join(ROOT, 'bench', 'out', 'signals-rest.md'), `${report.join('\n')}\n`);
