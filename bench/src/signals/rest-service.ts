/**
 * The service side of `npm run bench:signals-rest` (bench/src/signals-rest.ts): one input form of a
 * labelled set written to a fresh DATA_DIR under bench/out/signals-rest/, ingested by the real
 * ingest CLI (EMBEDDER=hashing, one shard), served by the real server, and every URL read back
 * over REST (why_not's hit; with `withRole`, corroborate's evidence item of the passage itself);
 * the input writers (JSONL, a gzip WARC of HTML pages) and the report lines that compare a form's
 * answers with the modules'.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createBenchKey, startServerProcess } from '../load.js';
import { ROOT, type Half } from './halves.js';

export const OUT = join(ROOT, 'bench', 'out', 'signals-rest');
export const FETCHED_AT = Math.floor(Date.now() / 1000);
const CONCURRENCY = 6;

/** One labelled item: the URL it was ingested under, its half, and what the module says of it. */
export interface Item<M> {
  url: string;
  half: Half;
  module: M;
}

/** What REST gave for one URL: the why_not hit (absent when the URL is not present) and, when asked, the corroborate item's role. */
export interface Read {
  status: string;
  hit?: Record<string, unknown>;
  role?: string;
  roleConfidence?: number;
  /** Whether corroborate's first evidence item is the passage's own (a checker may read the first). */
  firstIsOwn?: boolean;
}

/** One input form of a set: the file to ingest (JSONL lines or WARC bytes) and what it is. */
export interface Form {
  name: string;
  file: string;
  bytes: Buffer;
}

// ------------------------------------------------------------------ the service

export interface Served {
  reads: Map<string, Read>;
  ingestSummary: string;
  ingestSeconds: number;
  readSeconds: number;
}

/** Ingest `form` into a fresh DATA_DIR with `npm run ingest`, serve it, and read every URL back. */
export async function serve(set: string, form: Form, urls: readonly string[], withRole: boolean): Promise<Served> {
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

export function jsonl(records: ReadonlyArray<Record<string, unknown>>): Buffer {
  return Buffer.from(records.map((record) => JSON.stringify(record)).join('\n') + '\n');
}

/** A gzip WARC of HTML response records, one gzip member each, as a crawler writes them; no charset in the HTTP header, so the page's own declaration (or sniffing) decides, as bench:signals decodes it. */
export function warc(pages: ReadonlyArray<{ url: string; body: Buffer }>): Buffer {
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

export interface SetReport {
  name: string;
  lines: string[];
}

export function differences<M>(items: ReadonlyArray<Item<M>>, reads: ReadonlyMap<string, Read>, restValue: (read: Read | undefined) => unknown, moduleValue: (module: M) => unknown, show = 6): { count: number; absent: number; examples: string[] } {
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
export function ingestCounts(summary: string): string {
  const wanted = /^(pages|crawl pages|malformed lines|redundant copies \(not admitted\)|skipped [\w-]+|damaged [\w-]+|outdated records.*):\s+(\d+)$/;
  const counts: string[] = [];
  for (const line of summary.split('\n')) {
    const match = wanted.exec(line.trim());
    if (match !== null && (match[1] === 'pages' || match[2] !== '0')) counts.push(`${match[1]} ${match[2]}`);
  }
  return counts.join(', ');
}

export function formLines(form: Form, served: Served, items: number, diff: { count: number; absent: number; examples: string[] }): string[] {
  return [
    `- ${form.name}: ${items} items; ${diff.absent} not present over why_not; ${diff.count} differ from the module${diff.count > 0 ? ` (e.g. ${diff.examples.join('; ')})` : ''}. Ingest ${served.ingestSeconds.toFixed(1)} s (${ingestCounts(served.ingestSummary)}), REST reads ${served.readSeconds.toFixed(1)} s (${((served.readSeconds * 1000) / Math.max(1, items)).toFixed(1)} ms per item).`,
  ];
}
