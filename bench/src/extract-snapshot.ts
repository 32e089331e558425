/**
 * `npm run bench:extract-snapshot [-- OUT.jsonl [BEFORE.jsonl]]`: every real shared page's
 * extraction output, one JSON line each, for a before/after check that a change to extraction
 * leaves real pages byte-identical: `extractHtmlPage` on each parsed page of the extraction and
 * htmldate sets, `crawlItemOf` on each record of the three WARCs (crawl/articles-dev,
 * crawl/sample-0000, hidden-text/pages), from SHARED_DATA (default ../shared/data). Writes OUT
 * (default bench/out/extract-snapshot.jsonl); given BEFORE (a snapshot of an earlier build), says
 * whether they are identical and lists the pages that differ.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { crawlItemOf, decodeHtml, extractHtmlPage, readWarcItems } from '@evidence/ingest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED = resolve(process.env.SHARED_DATA ?? join(ROOT, '..', 'shared', 'data'));
const FETCHED_AT = 1_700_000_000;

async function snapshot(): Promise<string[]> {
  const lines: string[] = [];
  const groundTruth = JSON.parse(readFileSync(join(SHARED, 'extraction', 'ground-truth.json'), 'utf8')) as Record<string, { url: string }>;
  for (const name of readdirSync(join(SHARED, 'extraction', 'pages')).sort()) {
    const { html, encoding } = decodeHtml(gunzipSync(readFileSync(join(SHARED, 'extraction', 'pages', name))), undefined);
    const url = groundTruth[name.replace('.html.gz', '')]?.url ?? 'https://unknown.example/';
    lines.push(JSON.stringify({ page: `extraction/${name}`, output: extractHtmlPage(html, url, FETCHED_AT, encoding) }));
  }
  for (const line of readFileSync(join(SHARED, 'signals', 'published_at', 'records.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as { id: string; url: string; html_file: string | null };
    if (record.html_file === null) continue;
    const { html, encoding } = decodeHtml(gunzipSync(readFileSync(join(SHARED, 'signals', 'published_at', record.html_file))), undefined);
    lines.push(JSON.stringify({ page: `htmldate/${record.id}`, output: extractHtmlPage(html, record.url, FETCHED_AT, encoding) }));
  }
  for (const warc of ['crawl/articles-dev.warc.gz', 'crawl/sample-0000.warc.gz', 'hidden-text/pages.warc.gz']) {
    for await (const item of readWarcItems(join(SHARED, warc), 'gzip')) {
      lines.push(JSON.stringify({ page: `${warc}@${item.offset}`, output: item.kind === 'record' ? crawlItemOf(item) : item }));
    }
  }
  return lines;
}

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? join(ROOT, 'bench', 'out', 'extract-snapshot.jsonl'));
  const before = process.argv[3];
  const started = performance.now();
  const lines = await snapshot();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, lines.join('\n') + '\n');
  console.log(`${lines.length} outputs of the real shared pages in ${((performance.now() - started) / 1000).toFixed(1)} s: ${out}`);
  if (before === undefined) return;
  if (!existsSync(before)) throw new Error(`no snapshot at ${before}`);
  const previous = readFileSync(before, 'utf8').split('\n').filter((line) => line !== '');
  const pageOf = (line: string): string => (JSON.parse(line) as { page: string }).page;
  const earlier = new Map(previous.map((line) => [pageOf(line), line]));
  const differing = lines.filter((line) => earlier.get(pageOf(line)) !== line).map(pageOf);
  const current = new Set(lines.map(pageOf));
  const missing = [...earlier.keys()].filter((page) => !current.has(page)).length;
  if (differing.length === 0 && missing === 0) console.log(`identical to ${before}: ${lines.length} outputs, byte for byte`);
  else {
    console.log(`${differing.length} of ${lines.length} outputs differ from ${before}${missing > 0 ? `; ${missing} of its outputs are missing` : ''}:`);
    for (const page of differing.slice(0, 50)) console.log(`  ${page}`);
    process.exitCode = 1;
  }
}

await main();
