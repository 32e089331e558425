/**
 * Stream a file as lines, a chunk's worth at a time, without ever holding the whole file
 * (inputs reach gigabytes). Splitting on the byte 0x0a is safe in UTF-8: it never occurs inside
 * a multi-byte character.
 */
import { createReadStream } from 'node:fs';

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineBatch {
  /** The complete lines of this chunk, without their line terminators. */
  lines: string[];
  /** Line number (from 1) of `lines[0]`. */
  firstLineNumber: number;
  /** Bytes of the file consumed so far. */
  bytesRead: number;
}

function decodeLine(buffer: Buffer, start: number, end: number): string {
  const lineEnd = end > start && buffer[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
  return buffer.toString('utf8', start, lineEnd);
}

/** Yields the lines of `path` in batches (one per chunk read); the last line needs no newline. */
export function readLineBatches(path: string): AsyncGenerator<LineBatch> {
  return splitLineBatches(createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>);
}

/**
 * The lines of a stream of chunks (a file, or a decompressed one), in batches. `bytesRead` is
 * the bytes of `chunks` consumed, unless `fileBytesRead` tells how much of the underlying file
 * (compressed) was read by then.
 */
export async function* splitLineBatches(chunks: AsyncIterable<Buffer>, fileBytesRead?: () => number): AsyncGenerator<LineBatch> {
  /** Pieces of a line that started in an earlier chunk and has not ended yet. */
  let carried: Buffer[] = [];
  let nextLineNumber = 1;
  let streamBytes = 0;
  let bytesRead = 0;
  for await (const chunk of chunks) {
    streamBytes += chunk.length;
    bytesRead = fileBytesRead?.() ?? streamBytes;
    const lines: string[] = [];
    let lineStart = 0;
    let newline = chunk.indexOf(NEWLINE, lineStart);
    if (carried.length > 0 && newline >= 0) {
      carried.push(chunk.subarray(0, newline));
      const joined = Buffer.concat(carried);
      lines.push(decodeLine(joined, 0, joined.length));
      carried = [];
      lineStart = newline + 1;
      newline = chunk.indexOf(NEWLINE, lineStart);
    }
    while (newline >= 0) {
      lines.push(decodeLine(chunk, lineStart, newline));
      lineStart = newline + 1;
      newline = chunk.indexOf(NEWLINE, lineStart);
    }
    if (lineStart < chunk.length) carried.push(chunk.subarray(lineStart));
    if (lines.length === 0) continue;
    if (nextLineNumber === 1 && lines[0].charCodeAt(0) === 0xfeff) lines[0] = lines[0].slice(1);
    yield { lines, firstLineNumber: nextLineNumber, bytesRead };
    nextLineNumber += lines.length;
  }
  if (carried.length > 0) {
    const joined = Buffer.concat(carried);
    let last = decodeLine(joined, 0, joined.length);
    if (nextLineNumber === 1 && last.charCodeAt(0) === 0xfeff) last = last.slice(1);
    yield { lines: [last], firstLineNumber: nextLineNumber, bytesRead };
  }
}
