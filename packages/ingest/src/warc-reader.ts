/**
 * The WARC records of a file, whatever its container: plain, gzip with one member per record (as
 * Common Crawl, wget, Heritrix and Browsertrix write them: read member by member, so a damaged
 * member costs only its record), or a gzip or zstd stream of many records (read as one stream;
 * damage then ends the file, reported with its offset). Memory holds one read window and one
 * record.
 */
import { readGzipMembers } from './gzip-members.js';
import { decompressedChunks, type Compression } from './input-format.js';
import { WarcParser, type WarcItem } from './warc-parser.js';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Records parsed from a stream of bytes starting at file offset `start` (offsets: of the stream, for compressed ones). */
async function* streamedRecords(path: string, compression: Compression, start: number, onBytesRead: (bytes: number) => void): AsyncGenerator<WarcItem> {
  const parser = new WarcParser({ streamOffset: compression === 'none' ? start : 0 });
  let bytesRead = start;
  try {
    for await (const chunk of decompressedChunks(path, compression, {
      start,
      onBytesRead: (bytes) => {
        bytesRead = bytes;
        onBytesRead(bytes);
      },
    })) {
      yield* parser.push(chunk);
    }
  } catch (error) {
    yield* parser.push(undefined, true);
    yield { kind: 'damaged', offset: bytesRead, reason: `unreadable ${compression} stream, the rest of the file is skipped: ${errorMessage(error)}` };
    return;
  }
  yield* parser.push(undefined, true);
}

/**
 * The records (and damage reports) of a WARC file. `onBytesRead` gets the bytes of the file read
 * so far, compressed, for a progress bar that counts bytes.
 */
export async function* readWarcItems(path: string, compression: Compression, onBytesRead: (bytes: number) => void = () => {}): AsyncGenerator<WarcItem> {
  if (compression !== 'gzip') {
    yield* streamedRecords(path, compression, 0, onBytesRead);
    return;
  }
  for await (const member of readGzipMembers(path, onBytesRead)) {
    if (member.kind === 'damaged') {
      yield member;
      continue;
    }
    if (member.kind === 'oversized') {
      // Not one record per member (a WARC gzipped whole): read the rest as one stream.
      yield* streamedRecords(path, 'gzip', member.offset, onBytesRead);
      return;
    }
    yield* new WarcParser({ fixedOffset: member.offset }).push(member.data, true);
  }
}
