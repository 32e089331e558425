/**
 * published_at on htmldate's evaluation pages (SIGNALS_DATA/published_at): the share of pages
 * given the right day (the measure: an instant that falls on the reference day in some
 * time zone from UTC-12 to UTC+14; a page with no reference date is right when it gets none),
 * the strict share (the declared day itself equals the reference), and htmldate's precision,
 * recall and F-score definitions, per half: `tune` (pages whose host's SHA-256 starts with an
 * even byte; the module's order, patterns and confidences were chosen there) and `check`
 * (never looked at while tuning). Beside it: a trivial baseline (a full date in the URL, else
 * nothing) and the htmldate peer (extensive and fast modes) on the same pages in the same run.
 * Pages whose HTML the data omits (too large) are counted, not scored.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeHtml, derivePublishedAt, PUBLISHED_AT_CONFIDENCE, type PublishedAtSignal } from '@evidence/ingest';
import { parseHTML } from 'linkedom';
import { halfOf, readJsonl, SIGNALS_DATA, type Half } from './halves.js';
import { runHtmldate } from './htmldate-peer.js';
import { percent, table, type SignalSection } from './section.js';

/** One record of the htmldate evaluation set (published_at/records.jsonl). */
export interface DatedPage {
  id: string;
  url: string;
  html_file: string | null;
  date: string | null;
  host: string;
}

const HOUR = 3600;

/** The measure: `seconds` falls on `day` in some time zone from UTC-12 to UTC+14. */
export function onDay(seconds: number | undefined, day: string | null): boolean {
  if (seconds === undefined || day === null) return seconds === undefined && day === null;
  for (let offset = -12; offset <= 14; offset++) if (new Date((seconds + offset * HOUR) * 1000).toISOString().slice(0, 10) === day) return true;
  return false;
}

function noonOf(day: string | null | undefined): number | undefined {
  return day === null || day === undefined ? undefined : Date.parse(`${day}T12:00:00Z`) / 1000;
}

/** A full date in the URL path, else nothing: the trivial baseline. */
function urlOnly(url: string): string | undefined {
  const match = /(?:^|[/_-])((?:19|20)\d{2})[/_-]?(0[1-9]|1[0-2])[/_-]?(0[1-9]|[12]\d|3[01])(?:[/_.-]|$)/.exec(new URL(url).pathname);
  return match === null ? undefined : `${match[1]}-${match[2]}-${match[3]}`;
}

interface Tally {
  pages: number;
  right: number;
  strict: number;
  tp: number;
  fp: number;
  fn: number;
}

function tally(): Tally {
  return { pages: 0, right: 0, strict: 0, tp: 0, fp: 0, fn: 0 };
}

function count(into: Tally, reference: string | null, seconds: number | undefined, day: string | undefined): void {
  into.pages++;
  const right = onDay(seconds, reference);
  if (right) into.right++;
  if ((day ?? null) === reference) into.strict++;
  if (reference !== null) {
    if (seconds === undefined) into.fn++;
    else if (right) into.tp++;
    else into.fp++;
  }
}

function row(name: string, half: Half, figures: Tally): Array<string | number> {
  const precision = figures.tp / (figures.tp + figures.fp);
  const recall = figures.tp / (figures.tp + figures.fn);
  return [name, half, figures.pages, percent(figures.right / figures.pages), percent(figures.strict / figures.pages), percent(precision), percent(recall), percent((2 * figures.tp) / (2 * figures.tp + figures.fp + figures.fn))];
}

export const publishedAtSection: SignalSection = {
  name: 'published_at',
  async run() {
    const records = readJsonl<DatedPage>('published_at/records.jsonl');
    if (records === undefined) return [`skipped: no ${join(SIGNALS_DATA, 'published_at/records.jsonl')}`];
    const pages = records.filter((page) => page.html_file !== null);
    const fetchedAt = Math.floor(Date.now() / 1000);
    const ours = new Map<Half, Tally>();
    const baseline = new Map<Half, Tally>();
    const bySource = new Map<string, { found: number; right: number }>();
    const signals = new Map<string, PublishedAtSignal>();
    let deriveMs = 0;
    for (const page of pages) {
      const half = halfOf(page.host, 0);
      const body = gunzipSync(readFileSync(join(SIGNALS_DATA, 'published_at', page.html_file!)));
      const { html } = decodeHtml(body, undefined);
      const { document } = parseHTML(html);
      const started = performance.now();
      const signal = derivePublishedAt(document as never, page.url, fetchedAt);
      deriveMs += performance.now() - started;
      signals.set(page.id, signal);
      if (!ours.has(half)) ours.set(half, tally());
      count(ours.get(half)!, page.date, signal.value, signal.day);
      if (!baseline.has(half)) baseline.set(half, tally());
      const fromUrl = urlOnly(page.url);
      count(baseline.get(half)!, page.date, noonOf(fromUrl), fromUrl);
      if (half === 'tune') {
        const key = signal.source ?? 'none';
        const entry = bySource.get(key) ?? { found: 0, right: 0 };
        entry.found++;
        if (onDay(signal.value, page.date)) entry.right++;
        bySource.set(key, entry);
      }
    }
    const header = ['extractor', 'half', 'pages', 'right day', 'strict day', 'precision', 'recall', 'F'];
    const rows: Array<Array<string | number>> = [];
    for (const half of ['tune', 'check'] as const) {
      rows.push(row('ours (signals/published-at.ts)', half, ours.get(half) ?? tally()));
      rows.push(row('baseline: URL date only', half, baseline.get(half) ?? tally()));
    }
    const notes: string[] = [];
    const peer = runHtmldate(
      pages.map((page) => ({ id: page.id, url: page.url, file: join(SIGNALS_DATA, 'published_at', page.html_file!) })),
      (line) => notes.push(line),
    );
    if (typeof peer === 'string') notes.push(`htmldate peer skipped: ${peer}`);
    else {
      for (const mode of ['extensive', 'fast'] as const) {
        for (const half of ['tune', 'check'] as const) {
          const figures = tally();
          for (const page of pages) if (halfOf(page.host, 0) === half) {
            const day = peer.get(page.id)?.[mode] ?? null;
            count(figures, page.date, noonOf(day), day ?? undefined);
          }
          rows.push(row(`htmldate ${mode} (peer)`, half, figures));
        }
      }
    }
    const sources = [...bySource.entries()].sort((a, b) => b[1].found - a[1].found);
    return [
      `${pages.length} pages with HTML (${records.length - pages.length} listed without HTML: not scored); crawl time = now.`,
      '',
      ...table(header, rows),
      '',
      'By source, tune half (right/found; the module\'s confidence is (right+1)/(found+2)):',
      '',
      ...table(
        ['source', 'found', 'right', 'share', 'confidence in the module'],
        sources.map(([source, entry]) => [source, entry.found, entry.right, percent(entry.right / entry.found), source in PUBLISHED_AT_CONFIDENCE ? PUBLISHED_AT_CONFIDENCE[source as keyof typeof PUBLISHED_AT_CONFIDENCE] : '-']),
      ),
      '',
      `Cost: ${(deriveMs / pages.length).toFixed(2)} ms per page for the date alone (the page already parsed).`,
      ...notes.map((note) => `Note: ${note}`),
    ];
  },
};
