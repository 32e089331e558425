/**
 * WARC records (ISO 28500, versions 1.0 and 1.1) cut from a stream of bytes: a header block of
 * `Name: value` lines after a `WARC/1.x` line, a content block of exactly `Content-Length`
 * bytes, two CRLFs. Damage is reported, not thrown: a bad header, a `Content-Length` that does
 * not land on the next record, or data that ends inside a record each yield a `damaged` item
 * with the offset and the reason, and parsing resumes at the next `WARC/1.` line.
 *
 * Header values are read as UTF-8, the encoding WARC 1.1 gives header fields (a `WARC-Target-URI` may be an IRI,
 * written as raw UTF-8: `https://de.wikipedia.org/wiki/Köln`); a header block that is not valid
 * UTF-8 is read as latin1, one character per byte, as older writers meant it.
 */
import { isUtf8 } from 'node:buffer';

const CRLF_CRLF = Buffer.from('\r\n\r\n');
const WARC_MAGIC = Buffer.from('WARC/1.');
/** A header block longer than this is not one. */
const MAX_HEADER_BYTES = 64 << 10;
/** Records above this are skipped (Common Crawl truncates payloads at 1 MiB; video captures are not pages). */
export const MAX_RECORD_BYTES = 64 << 20;

export interface WarcRecord {
  kind: 'record';
  /** Byte offset of the record: in the file, or of its gzip member in a `.warc.gz`. */
  offset: number;
  /** Header names lower-cased; a repeated header keeps its first value. */
  headers: Map<string, string>;
  block: Buffer;
}

export interface WarcDamage {
  kind: 'damaged';
  offset: number;
  reason: string;
}

export type WarcItem = WarcRecord | WarcDamage;

function isLineBreak(byte: number | undefined): boolean {
  return byte === 0x0d || byte === 0x0a;
}

function parseHeaderBlock(text: string): { headers: Map<string, string> } | { error: string } {
  const lines = text.split(/\r?\n/);
  if (!/^WARC\/1\.[01]$/.test(lines[0])) return { error: `bad header: ${JSON.stringify(lines[0].slice(0, 20))} is not a WARC/1.0 or WARC/1.1 line` };
  const headers = new Map<string, string>();
  let lastName: string | undefined;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index];
    if (line === '') continue;
    if ((line[0] === ' ' || line[0] === '\t') && lastName !== undefined) {
      headers.set(lastName, `${headers.get(lastName)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `bad header: line ${index + 1} is not "Name: value"` };
    const name = line.slice(0, colon).trim().toLowerCase();
    lastName = name;
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers };
}

export class WarcParser {
  private buffer: Buffer = Buffer.alloc(0);
  /** Stream offset of buffer[0]. */
  private bufferOffset = 0;
  /** Bytes of an oversized record still to drop. */
  private skipping = 0;
  /** Every item is reported at this offset (a gzip member's), instead of its stream offset. */
  private readonly fixedOffset: number | undefined;

  constructor(options: { fixedOffset?: number; streamOffset?: number } = {}) {
    this.fixedOffset = options.fixedOffset;
    this.bufferOffset = options.streamOffset ?? 0;
  }

  private offsetAt(index: number): number {
    return this.fixedOffset ?? this.bufferOffset + index;
  }

  private drop(count: number): void {
    this.buffer = this.buffer.subarray(count);
    this.bufferOffset += count;
  }

  /** After damage: bytes are dropped, not parsed, until a `WARC/1.` line starts. */
  private seeking = false;

  /**
   * Drop bytes up to the next `WARC/1.` at a line start after `from`; without one, drop all but a
   * tail that may begin one and keep seeking as more bytes come. True when a record start was found.
   */
  private resync(from: number): boolean {
    for (let at = this.buffer.indexOf(WARC_MAGIC, from); at >= 0; at = this.buffer.indexOf(WARC_MAGIC, at + 1)) {
      if (at === 0 || this.buffer[at - 1] === 0x0a) {
        this.drop(at);
        this.seeking = false;
        return true;
      }
    }
    this.drop(Math.max(Math.min(from, this.buffer.length), this.buffer.length - WARC_MAGIC.length));
    this.seeking = true;
    return false;
  }

  /** Parse what `chunk` completes; `ended` says no more bytes follow. */
  push(chunk: Buffer | undefined, ended = false): WarcItem[] {
    if (chunk !== undefined && chunk.length > 0) {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    }
    const items: WarcItem[] = [];
    for (;;) {
      if (this.skipping > 0) {
        const count = Math.min(this.skipping, this.buffer.length);
        this.drop(count);
        this.skipping -= count;
        if (this.skipping > 0) break;
      }
      if (this.seeking && !this.resync(0)) {
        if (ended) this.drop(this.buffer.length);
        break;
      }
      let start = 0;
      while (start < this.buffer.length && isLineBreak(this.buffer[start])) start++;
      if (start > 0) this.drop(start);
      if (this.buffer.length === 0) break;

      const headerEnd = this.buffer.indexOf(CRLF_CRLF);
      if (headerEnd < 0 || headerEnd > MAX_HEADER_BYTES) {
        if (!ended && this.buffer.length <= MAX_HEADER_BYTES) break;
        items.push({ kind: 'damaged', offset: this.offsetAt(0), reason: headerEnd < 0 && ended ? 'truncated record header' : 'bad header: no end of the header block' });
        this.resync(1);
        continue;
      }
      const headerBytes = this.buffer.subarray(0, headerEnd);
      const parsed = parseHeaderBlock(headerBytes.toString(isUtf8(headerBytes) ? 'utf8' : 'latin1'));
      if ('error' in parsed) {
        items.push({ kind: 'damaged', offset: this.offsetAt(0), reason: parsed.error });
        this.resync(1);
        continue;
      }
      const lengthText = parsed.headers.get('content-length');
      if (lengthText === undefined || !/^\d+$/.test(lengthText)) {
        items.push({ kind: 'damaged', offset: this.offsetAt(0), reason: lengthText === undefined ? 'bad header: no Content-Length' : `bad header: Content-Length ${JSON.stringify(lengthText.slice(0, 20))}` });
        this.resync(1);
        continue;
      }
      const length = Number(lengthText);
      const blockStart = headerEnd + 4;
      if (length > MAX_RECORD_BYTES) {
        items.push({ kind: 'damaged', offset: this.offsetAt(0), reason: `record of ${length} bytes is larger than ${MAX_RECORD_BYTES}` });
        this.drop(blockStart);
        this.skipping = length;
        continue;
      }
      const blockEnd = blockStart + length;
      if (this.buffer.length < blockEnd + 4 && !ended) break;
      // The block must end where the data ends or where the next record begins (after its CRLFs).
      let after = blockEnd;
      while (after < this.buffer.length && after < blockEnd + 4 && isLineBreak(this.buffer[after])) after++;
      if (!ended && after < this.buffer.length && this.buffer.length < after + 5) break;
      const landsOnRecord = blockEnd <= this.buffer.length && (after >= this.buffer.length || this.buffer.subarray(after, after + 5).toString('latin1') === 'WARC/');
      if (!landsOnRecord) {
        const reason = blockEnd > this.buffer.length ? `truncated record (Content-Length ${length} runs past the end of the data)` : `wrong Content-Length ${length} (the block does not end at a record boundary)`;
        items.push({ kind: 'damaged', offset: this.offsetAt(0), reason });
        this.resync(1);
        continue;
      }
      items.push({ kind: 'record', offset: this.offsetAt(0), headers: parsed.headers, block: this.buffer.subarray(blockStart, blockEnd) });
      this.drop(after);
    }
    if (ended && this.buffer.length > 0 && this.skipping === 0) {
      items.push({ kind: 'damaged', offset: this.offsetAt(0), reason: 'truncated record' });
      this.drop(this.buffer.length);
    }
    return items;
  }
}
