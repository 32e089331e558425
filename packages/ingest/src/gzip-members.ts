/**
 * A gzip file read member by member, as crawl files are written (one member per WARC record), so
 * that a damaged member costs only itself: a truncated or corrupt member is reported with its
 * byte offset and the reader resumes at the next gzip header. Each member is inflated on its own
 * (zlib, synchronously: members are small, a few KiB to a few MiB) and checked against its
 * CRC-32 and length trailer. Memory holds one read window and one member, whatever the file size.
 */
import { open } from 'node:fs/promises';
import zlib from 'node:zlib';

const READ_BYTES = 1 << 20;
/** A member whose compressed bytes exceed this is not one record: the caller streams the file instead. */
export const MAX_MEMBER_COMPRESSED_BYTES = 32 << 20;
/** Nor is a member that inflates past this (Common Crawl truncates payloads at 1 MiB). */
export const MAX_MEMBER_BYTES = 128 << 20;

const FLAG_HCRC = 2;
const FLAG_EXTRA = 4;
const FLAG_NAME = 8;
const FLAG_COMMENT = 16;

export type GzipMember =
  /** A whole member: `offset` is where it starts in the file (what a CDX index records). */
  | { kind: 'member'; offset: number; compressedBytes: number; data: Buffer }
  /** Bytes that could not be read as a member, skipped up to the next gzip header. */
  | { kind: 'damaged'; offset: number; reason: string }
  /** A member too large to be one record: read the rest of the file as one stream from `offset`. */
  | { kind: 'oversized'; offset: number };

function isGzipHeaderAt(buffer: Buffer, at: number): boolean {
  return buffer[at] === 0x1f && buffer[at + 1] === 0x8b && buffer[at + 2] === 0x08;
}

/** Length of the gzip header at `at`, or -1 when the window ends inside it. */
export function headerLength(buffer: Buffer, at: number): number {
  if (buffer.length - at < 10) return -1;
  const flags = buffer[at + 3];
  let cursor = at + 10;
  if (flags & FLAG_EXTRA) {
    if (buffer.length - cursor < 2) return -1;
    cursor += 2 + buffer.readUInt16LE(cursor);
  }
  for (const flag of [FLAG_NAME, FLAG_COMMENT]) {
    if (!(flags & flag)) continue;
    const end = buffer.indexOf(0, cursor);
    if (end < 0) return -1;
    cursor = end + 1;
  }
  if (flags & FLAG_HCRC) cursor += 2;
  return cursor > buffer.length ? -1 : cursor - at;
}

const crc32: ((data: Buffer) => number) | undefined = (zlib as { crc32?: (data: Buffer) => number }).crc32;

/** Why `data` does not match its trailer, or undefined when it does. */
function trailerMismatch(data: Buffer, trailer: Buffer): string | undefined {
  if (trailer.readUInt32LE(4) !== data.length % 2 ** 32) return 'gzip length trailer does not match the data';
  // zlib.crc32 exists from Node 20.15 and 22.2; where it does not, the length check stands alone.
  if (crc32 !== undefined && trailer.readUInt32LE(0) !== crc32(data) >>> 0) return 'gzip crc32 does not match the data';
  return undefined;
}

function zlibReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/unexpected end of file/i.test(message)) return 'truncated gzip member';
  return `damaged gzip member: ${message}`;
}

/**
 * The members of the gzip file at `path`, in order. `onBytesRead` reports how much of the file
 * was read (for a progress bar that counts bytes).
 */
export async function* readGzipMembers(path: string, onBytesRead?: (bytes: number) => void): AsyncGenerator<GzipMember> {
  const handle = await open(path, 'r');
  try {
    let window = Buffer.alloc(0);
    /** File offset of window[0]. */
    let windowStart = 0;
    let position = 0;
    let eof = false;
    let bytesRead = 0;

    /** Drop what was consumed and append the next read; false at the end of the file. */
    const fill = async (): Promise<boolean> => {
      if (eof) return false;
      const chunk = Buffer.allocUnsafe(READ_BYTES);
      const { bytesRead: count } = await handle.read(chunk, 0, READ_BYTES, windowStart + window.length);
      if (count === 0) {
        eof = true;
        return false;
      }
      bytesRead += count;
      onBytesRead?.(bytesRead);
      window = Buffer.concat([window.subarray(position), chunk.subarray(0, count)]);
      windowStart += position;
      position = 0;
      return true;
    };

    /** Index of the next gzip header after `from`, reading on as needed; -1 at the end of the file. */
    const nextHeader = async (from: number): Promise<number> => {
      let searchFrom = from;
      for (;;) {
        for (let at = window.indexOf(0x1f, searchFrom); at >= 0 && at + 2 < window.length; at = window.indexOf(0x1f, at + 1)) {
          if (isGzipHeaderAt(window, at)) return at;
        }
        // Garbage before a header is dropped as the search reads on, so memory stays bounded.
        position = Math.max(searchFrom, window.length - 2);
        if (!(await fill())) return -1;
        searchFrom = 0;
      }
    };

    for (;;) {
      if (window.length - position < 18 && !eof) await fill();
      if (position >= window.length) return;
      const offset = windowStart + position;
      if (!isGzipHeaderAt(window, position)) {
        const next = await nextHeader(position + 1);
        const skippedTo = next < 0 ? windowStart + window.length : windowStart + next;
        yield { kind: 'damaged', offset, reason: `not a gzip member (${skippedTo - offset} bytes skipped)` };
        if (next < 0) return;
        position = next;
        continue;
      }
      let header = headerLength(window, position);
      while (header < 0 && (await fill())) header = headerLength(window, position);
      if (header < 0) {
        yield { kind: 'damaged', offset, reason: 'truncated gzip header' };
        return;
      }

      let inflated: { buffer: Buffer; engine: zlib.Inflate } | undefined;
      let failure: string | undefined;
      for (;;) {
        try {
          inflated = zlib.inflateRawSync(window.subarray(position + header), { info: true, maxOutputLength: MAX_MEMBER_BYTES }) as unknown as {
            buffer: Buffer;
            engine: zlib.Inflate;
          };
          break;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ERR_BUFFER_TOO_LARGE') {
            yield { kind: 'oversized', offset };
            return;
          }
          const truncatedHere = code === 'Z_BUF_ERROR' && !eof;
          if (truncatedHere && window.length - position > MAX_MEMBER_COMPRESSED_BYTES) {
            yield { kind: 'oversized', offset };
            return;
          }
          if (truncatedHere && (await fill())) continue;
          failure = zlibReason(error);
          break;
        }
      }
      if (inflated === undefined) {
        yield { kind: 'damaged', offset, reason: failure ?? 'damaged gzip member' };
        const next = await nextHeader(position + 1);
        if (next < 0) return;
        position = next;
        continue;
      }
      // Relative to the member's start: reading on moves the window under `position`.
      const trailerFromStart = header + (inflated.engine as unknown as { bytesWritten: number }).bytesWritten;
      while (window.length < position + trailerFromStart + 8 && (await fill())) {
        // Read on until the trailer is in the window.
      }
      const trailerIndex = position + trailerFromStart;
      if (window.length < trailerIndex + 8) {
        yield { kind: 'damaged', offset, reason: 'truncated gzip member (no trailer)' };
        return;
      }
      const mismatch = trailerMismatch(inflated.buffer, window.subarray(trailerIndex, trailerIndex + 8));
      if (mismatch !== undefined) {
        // Corrupt data may also have moved where the member seemed to end: look for the next header.
        yield { kind: 'damaged', offset, reason: mismatch };
        const next = await nextHeader(position + 1);
        if (next < 0) return;
        position = next;
        continue;
      }
      const compressedBytes = trailerIndex + 8 - position;
      position = trailerIndex + 8;
      yield { kind: 'member', offset, compressedBytes, data: inflated.buffer };
    }
  } finally {
    await handle.close();
  }
}
