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
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { contentTypeFromText, decodeHtml, deriveHostFields, deriveHostRank, derivePublishedAt, deriveSafety, deriveVertical } from '@evidence/ingest';
import { deriveSourceRole, GENERAL_VERTICAL, publicSuffixOf } from '@evidence/schemas';
import { parseHTML } from 'linkedom';
import { halfOf, macroF1, readJsonl, ROOT, SIGNALS_DATA, type Half } from './signals/halves.js';
import { differences, FETCHED_AT, formLines, jsonl, OUT, serve, warc, type Form, type Item, type Read, type Served, type SetReport } from './signals/rest-service.js';
import { onDay, type DatedPage } from './signals/published-at.js';
import { isHardNegative, readSafetyRecords, safetyHalf, TUNE_HALF as SAFETY_TUNE_HALF, type SafetyRecord } from './signals/safety-data.js';
import { percent, precisionRecallF1, rocAuc, table } from './signals/section.js';
import { hostHalf, scoreVerticals, TRAIN_HALF as VERTICAL_TRAIN_HALF } from './signals/vertical-data.js';

// ------------------------------------------------------------------ published_at

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
      const { assigned, hits, sites: count } = scoreVerticals(items.filter((item) => item.half === half), vertical);
      return { nonDefault: assigned / Math.max(1, count), hitRate: hits / Math.max(1, count), given: hits / Math.max(1, assigned), sites: count };
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
