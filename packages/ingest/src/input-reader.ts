/**
 * Every input file as batches for the ingest loop, whatever it holds (input-format.ts tells
 * from its bytes): JSONL, plain or compressed with gzip or zstd, as line batches; WARC and WET,
 * plain or compressed, as crawl items (pages built from records, skips and damage reports).
 * `bytesRead` always counts the file's own (compressed) bytes, so the progress bar counts bytes.
 */
import { crawlItemOf, type CrawlItem } from './crawl-page.js';
import { decompressedChunks, detectInputFormat, type Compression } from './input-format.js';
import { readLineBatches, splitLineBatches, type LineBatch } from './line-reader.js';
import { readWarcItems } from './warc-reader.js';

export type InputBatch =
  | ({ kind: 'lines' } & LineBatch)
  | { kind: 'crawl'; items: CrawlItem[]; bytesRead: number }
  /** A compressed JSONL stream broke off: the lines before it were ingested. */
  | { kind: 'damaged'; offset: number; reason: string; bytesRead: number };

/** Crawl items are handed on this many at a time (each costs a page extraction). */
const CRAWL_BATCH_ITEMS = 32;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The line batches of a JSONL file, decompressed as needed; a damaged stream ends with a `damaged` batch. */
export async function* jsonlBatches(path: string, compression: Compression): AsyncGenerator<InputBatch> {
  if (compression === 'none') {
    for await (const batch of readLineBatches(path)) yield { kind: 'lines', ...batch };
    return;
  }
  let fileBytes = 0;
  const chunks = decompressedChunks(path, compression, { onBytesRead: (bytes) => (fileBytes = bytes) });
  try {
    for await (const batch of splitLineBatches(chunks, () => fileBytes)) yield { kind: 'lines', ...batch };
  } catch (error) {
    yield { kind: 'damaged', offset: fileBytes, reason: `unreadable ${compression} stream, the rest of the file is skipped: ${errorMessage(error)}`, bytesRead: fileBytes };
  }
}

/** The crawl items of a WARC or WET file. An extraction that throws skips its record as damaged. */
async function* crawlBatches(path: string, compression: Compression): AsyncGenerator<InputBatch> {
  let bytesRead = 0;
  let items: CrawlItem[] = [];
  for await (const item of readWarcItems(path, compression, (bytes) => (bytesRead = bytes))) {
    if (item.kind === 'damaged') {
      items.push(item);
    } else {
      try {
        items.push(crawlItemOf(item));
      } catch (error) {
        items.push({ kind: 'damaged', offset: item.offset, reason: `page extraction failed: ${errorMessage(error)}` });
      }
    }
    if (items.length >= CRAWL_BATCH_ITEMS) {
      yield { kind: 'crawl', items, bytesRead };
      items = [];
    }
  }
  if (items.length > 0) yield { kind: 'crawl', items, bytesRead };
}

/** The batches of any input file, its format detected from its content. */
export async function* readInputBatches(path: string): AsyncGenerator<InputBatch> {
  const format = await detectInputFormat(path);
  if (format.content === 'warc') yield* crawlBatches(path, format.compression);
  else yield* jsonlBatches(path, format.compression);
}
