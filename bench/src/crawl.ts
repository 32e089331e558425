/**
 * `npm run bench:crawl`: crawl ingest throughput, next to JSONL ingest of the same pages in the
 * same run. The input is a WARC built from the response records of CRAWL_FILES (default: the
 * 22-page sample in packages/ingest/test/data), each page repeated CRAWL_REPEAT times (default 40) at its own URL with
 * one paragraph of its own (so no copy is left out as redundant). Measured, each in a fresh
 * index with one shard:
 *
 * - extract: WARC -> page records only (gzip, WARC parse, charset, Readability, links), no index;
 *   it also writes those records as JSONL;
 * - WARC ingest: `ingestFiles` on the WARC;
 * - JSONL ingest: `ingestFiles` on the JSONL of the same pages.
 *
 * Pages/s, input MB/s, passages/s and peak RSS for each; then language identification measured
 * on the pages that declare `<html lang>`. The table goes to stdout and bench/out/crawl.md.
 */
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { crawlItemOf, detectInputFormat, detectLanguage, ingestFiles, readWarcItems, type IngestSummary } from '@evidence/ingest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** A real 22-page crawl kept with the ingest tests (allenai/dolma's test WARC, ODC-By). */
const DEFAULT_FILE = join(ROOT, 'packages', 'ingest', 'test', 'data', 'sample-0000.warc.gz');

interface Measured {
  name: string;
  inputBytes: number;
  seconds: number;
  pages: number;
  passages: number;
  peakRssBytes: number;
}

async function measure(name: string, inputBytes: number, run: () => Promise<{ pages: number; passages: number }>): Promise<Measured> {
  global.gc?.();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  try {
    const { pages, passages } = await run();
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    return { name, inputBytes, seconds, pages, passages, peakRssBytes: peak };
  } finally {
    clearInterval(timer);
  }
}

/** Response records of `files` as raw WARC bytes, each page `repeat` times with a URL and a paragraph of its own. */
async function buildWarc(files: string[], repeat: number, out: string): Promise<number> {
  const stream = createWriteStream(out);
  let records = 0;
  for (const file of files) {
    const format = await detectInputFormat(file);
    for await (const item of readWarcItems(file, format.compression)) {
      if (item.kind !== 'record' || item.headers.get('warc-type') !== 'response') continue;
      const block = item.block.toString('latin1');
      const uri = (item.headers.get('warc-target-uri') ?? '').replace(/^<|>$/g, '');
      for (let copy = 0; copy < repeat; copy++) {
        // A chunked body cannot take an inserted paragraph without rewriting its chunk sizes.
        const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(block.slice(0, block.indexOf('\r\n\r\n')));
        const marked = chunked ? block : block.replace(/<body([^>]*)>/i, `<body$1><p>Benchmark copy ${copy} of this page, with a paragraph of its own so that it is not a redundant copy of the others.</p>`);
        const body = Buffer.from(marked, 'latin1');
        const header = [
          'WARC/1.0',
          'WARC-Type: response',
          `WARC-Target-URI: ${uri}${uri.includes('?') ? '&' : '?'}copy=${copy}`,
          `WARC-Date: ${item.headers.get('warc-date')}`,
          'Content-Type: application/http;msgtype=response',
          `Content-Length: ${body.length}`,
        ].join('\r\n');
        const record = Buffer.concat([Buffer.from(`${header}\r\n\r\n`, 'latin1'), body, Buffer.from('\r\n\r\n')]);
        if (!stream.write(gzipSync(record))) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
        records++;
      }
    }
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return records;
}

function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}

function row(measured: Measured): string {
  return `| ${measured.name} | ${measured.pages} | ${megabytes(measured.inputBytes)} | ${measured.seconds.toFixed(2)} | ${Math.round(measured.pages / measured.seconds)} | ${(measured.inputBytes / 1_048_576 / measured.seconds).toFixed(2)} | ${Math.round(measured.passages / measured.seconds)} | ${Math.round(measured.peakRssBytes / 1_048_576)} |`;
}

let warcSummary: IngestSummary | undefined;

/** Page records read (admitted or not: copies left out as redundant cost the same reading). */
function ingested(summary: IngestSummary): { pages: number; passages: number } {
  return { pages: summary.crawl.pages > 0 ? summary.crawl.pages : summary.lines, passages: summary.passagesAdded + summary.passagesSkipped };
}

async function main(): Promise<void> {
  const files = (process.env.CRAWL_FILES ?? DEFAULT_FILE).split(',').filter((file) => file !== '');
  const missing = files.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    console.error(
      `bench:crawl needs WARC files: ${missing.join(', ')} not found; point CRAWL_FILES at .warc or .warc.gz files (comma-separated). ` +
        'Nothing was measured.',
    );
    process.exit(2);
  }
  const repeat = Number(process.env.CRAWL_REPEAT ?? 40);
  const work = mkdtempSync(join(tmpdir(), 'bench-crawl-'));
  try {
    const warc = join(work, 'bench.warc.gz');
    const records = await buildWarc(files, repeat, warc);
    const warcBytes = statSync(warc).size;
    const jsonl = join(work, 'bench.jsonl');

    const extract = await measure('extract only (WARC -> page records)', warcBytes, async () => {
      const lines: string[] = [];
      let pages = 0;
      for await (const item of readWarcItems(warc, 'gzip')) {
        if (item.kind !== 'record') continue;
        const crawled = crawlItemOf(item);
        if (crawled.kind !== 'page') continue;
        pages++;
        lines.push(JSON.stringify(crawled.record));
      }
      writeFileSync(jsonl, `${lines.join('\n')}\n`);
      return { pages, passages: 0 };
    });
    const jsonlBytes = statSync(jsonl).size;
    const log = (): void => {};
    const warcIngest = await measure('WARC ingest (.warc.gz)', warcBytes, async () => {
      warcSummary = await ingestFiles([warc], { dataDir: join(work, 'warc-index'), shards: 1, log });
      return ingested(warcSummary);
    });
    const jsonlIngest = await measure('JSONL ingest (same pages)', jsonlBytes, async () => ingested(await ingestFiles([jsonl], { dataDir: join(work, 'jsonl-index'), shards: 1, log })));

    // Language identification against what the pages declare.
    let declared = 0;
    let agreed = 0;
    const disagreements: string[] = [];
    for (const file of files) {
      const format = await detectInputFormat(file);
      for await (const item of readWarcItems(file, format.compression)) {
        if (item.kind !== 'record') continue;
        const crawled = crawlItemOf(item);
        if (crawled.kind !== 'page' || crawled.declaredLang === undefined) continue;
        declared++;
        const expected = crawled.declaredLang.split(/[-_]/)[0].toLowerCase();
        const detected = detectLanguage(String(crawled.record.text));
        if (detected === expected) agreed++;
        else disagreements.push(`${String(crawled.record.url)}: declared ${expected}, detected ${detected}`);
      }
    }

    const lines = [
      `# Crawl ingest (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
      '',
      `Input: ${records} WARC response records (${files.length} file(s) x ${repeat} copies), ${megabytes(warcBytes)} MB as .warc.gz (one gzip member per record); the JSONL of the same pages is ${megabytes(jsonlBytes)} MB. One shard, fresh index each.`,
      '',
      '| run | pages | input MB | seconds | pages/s | input MB/s | passages/s | peak RSS MiB |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      row(extract),
      row(warcIngest),
      row(jsonlIngest),
      '',
      `Pages are page records read; both ingests admit ${warcSummary?.pages ?? 0} of them (the rest are copies left out as redundant: the benchmark's own paragraph sits outside the main text on some pages). WARC records skipped: ${JSON.stringify(warcSummary?.crawl.skipped ?? {})}. Passages/s counts passages indexed.`,
      '',
      `WARC ingest / JSONL ingest, pages/s: ${(warcIngest.pages / warcIngest.seconds / (jsonlIngest.pages / jsonlIngest.seconds)).toFixed(2)}`,
      '',
      `Language identification (detectLanguage on the extracted text) against <html lang>: ${agreed}/${declared} pages agree${declared > 0 ? ` (${((100 * agreed) / declared).toFixed(1)}%)` : ''}.`,
      ...disagreements.map((line) => `- ${line}`),
    ];
    const report = lines.join('\n');
    process.stdout.write(`${report}\n`);
    mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'out', 'crawl.md'), `${report}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
