/**
 * Main text on the article-extraction benchmark's development half: our extractor
 * (`extractHtmlPage`), Readability.js alone and trafilatura on the same pages, scored by the
 * benchmark's metric on the even-indexed pages (the half the extractor was tuned on), the odd
 * ones (not tuned on) and all; then the service end to end: the crawl WARC of the same pages
 * ingested into a fresh index and each page's passages read back and joined, scored the same way.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extractHtmlPage, ingestFiles } from '@evidence/ingest';
import { ShardReader, decodeDocument, ledgerPath, readManifest, shardDirectory } from '@evidence/native';
import { scorePage, scoreSet, type PageScore, type SetScore } from './metric.js';
import { readabilityAlone, runTrafilatura } from './peers.js';

export interface ExtractionPage {
  id: string;
  url: string;
  truth: string;
  html: string;
}

/** The development pages in id order (the order the halves are taken in). */
export function loadExtractionPages(directory: string): ExtractionPage[] {
  const truth = JSON.parse(readFileSync(join(directory, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>;
  return Object.keys(truth)
    .sort()
    .filter((id) => existsSync(join(directory, 'pages', `${id}.html.gz`)))
    .map((id) => ({ id, url: truth[id].url, truth: truth[id].articleBody, html: gunzipSync(readFileSync(join(directory, 'pages', `${id}.html.gz`))).toString('utf8') }));
}

export interface SystemRow {
  name: string;
  even: SetScore;
  odd: SetScore;
  all: SetScore;
  pagesPerSecond?: number;
}

function rowOf(name: string, pages: ExtractionPage[], texts: (page: ExtractionPage) => string, seconds?: number): SystemRow {
  const scores: PageScore[] = pages.map((page) => scorePage(page.truth, texts(page)));
  const half = (parity: number): SetScore => scoreSet(scores.filter((_, index) => index % 2 === parity));
  return { name, even: half(0), odd: half(1), all: scoreSet(scores), pagesPerSecond: seconds === undefined ? undefined : pages.length / seconds };
}

/**
 * Run extractors over every page, timed page by page in turn (A then B on each page), so a
 * change of load on the shared machine weighs on both alike.
 */
function timedInTurn(pages: ExtractionPage[], extractors: ((page: ExtractionPage) => string)[]): { texts: Map<string, string>; seconds: number }[] {
  const runs = extractors.map(() => ({ texts: new Map<string, string>(), seconds: 0 }));
  for (const page of pages) {
    extractors.forEach((extract, index) => {
      const started = performance.now();
      runs[index].texts.set(page.id, extract(page));
      runs[index].seconds += (performance.now() - started) / 1000;
    });
  }
  return runs;
}

export interface MainTextResult {
  rows: SystemRow[];
  skipped: string[];
  /** Pages where our extractor loses most against the best peer (F1 by page), for reading. */
  losses: { url: string; ours: number; peer: number; peerName: string }[];
}

function pageF1(score: PageScore): number {
  const precision = score.precision ?? 0;
  const recall = score.recall ?? 0;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

export function measureMainText(directory: string, outDirectory: string, trafilaturaScript: string, log: (line: string) => void): MainTextResult {
  const pages = loadExtractionPages(directory);
  const skipped: string[] = [];
  // Warm both JavaScript extractors on a few pages so neither pays the JIT in its timing.
  for (const page of pages.slice(0, 5)) {
    extractHtmlPage(page.html, page.url, 1_900_000_000);
    readabilityAlone(page.html);
  }
  const [ours, readability] = timedInTurn(pages, [(page) => extractHtmlPage(page.html, page.url, 1_900_000_000).text, (page) => readabilityAlone(page.html)]);
  const rows = [rowOf('ours (extractHtmlPage)', pages, (page) => ours.texts.get(page.id) ?? '', ours.seconds), rowOf('Readability.js 0.6 alone', pages, (page) => readability.texts.get(page.id) ?? '', readability.seconds)];
  const trafilatura = runTrafilatura(join(directory, 'pages'), outDirectory, trafilaturaScript, log);
  let peerTexts = readability.texts;
  let peerName = 'Readability.js';
  if ('skipped' in trafilatura) skipped.push(trafilatura.skipped);
  else {
    rows.push(rowOf(`trafilatura ${trafilatura.version ?? ''} (Python)`, pages, (page) => trafilatura.texts.get(page.id) ?? '', trafilatura.seconds));
    peerTexts = trafilatura.texts;
    peerName = 'trafilatura';
  }
  const losses = pages
    .map((page) => ({ url: page.url, ours: pageF1(scorePage(page.truth, ours.texts.get(page.id) ?? '')), peer: pageF1(scorePage(page.truth, peerTexts.get(page.id) ?? '')), peerName }))
    .filter((loss) => loss.ours < loss.peer)
    .sort((left, right) => left.ours - left.peer - (right.ours - right.peer))
    .slice(0, 8);
  return { rows, skipped, losses };
}

/** Every admitted page's passages, joined in order, by URL (read back from the shards). */
export function indexedPageTexts(dataDir: string): Map<string, string> {
  const manifest = readManifest(dataDir);
  if (manifest === null) throw new Error(`no index in ${dataDir}`);
  const readers = Array.from({ length: manifest.shards }, (_, shard) => ShardReader.open(shardDirectory(dataDir, shard), { dimensions: manifest.dimensions }));
  const texts = new Map<string, string>();
  try {
    for (const line of readFileSync(ledgerPath(dataDir), 'utf8').split('\n')) {
      if (line === '') continue;
      const event = JSON.parse(line) as { event: string; url: string; page_id: string; passages: number };
      if (event.event !== 'admitted') continue;
      const parts: string[] = [];
      for (let passageNo = 0; passageNo < event.passages; passageNo++) {
        for (const reader of readers) {
          const encoded = reader.document(`${event.page_id}:${passageNo}`);
          if (encoded !== null) {
            parts.push(decodeDocument(encoded).text);
            break;
          }
        }
      }
      texts.set(event.url, parts.join('\n\n'));
    }
  } finally {
    for (const reader of readers) reader.close();
  }
  return texts;
}

/** The crawl WARC of the same pages ingested, passages read back, scored; pages not admitted count as empty. */
export async function measureService(directory: string, warc: string): Promise<{ row: SystemRow; admitted: number; pages: number } | { skipped: string }> {
  if (!existsSync(warc)) return { skipped: `${warc} not found` };
  const pages = loadExtractionPages(directory);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-extract-'));
  try {
    const started = performance.now();
    await ingestFiles([warc], { dataDir, shards: 1, log: () => undefined });
    const seconds = (performance.now() - started) / 1000;
    const texts = indexedPageTexts(dataDir);
    const row = rowOf('service: WARC ingested, passages read back', pages, (page) => texts.get(page.url) ?? '', seconds);
    return { row, admitted: pages.filter((page) => texts.has(page.url)).length, pages: pages.length };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
