/**
 * What an input file holds, told from its first bytes rather than its name: the compression
 * (gzip or zstd magic number, else none) and, inside it, WARC (a `WARC/1.` line, which WET files
 * are too) or JSONL. And the decompressed bytes of a file as a stream, for JSONL and for WARC
 * files that are not one gzip member per record.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { Decompress as ZstdDecompress } from 'fzstd';
import { headerLength } from './gzip-members.js';

export type Compression = 'none' | 'gzip' | 'zstd';
export type InputContent = 'jsonl' | 'warc';

export interface InputFormat {
  compression: Compression;
  content: InputContent;
}

const SNIFF_BYTES = 64 << 10;

function compressionOf(head: Buffer): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return 'zstd';
  return 'none';
}

/** The start of the decompressed data, as far as `head` goes (a cut stream gives what it can). */
function decompressedPrefix(head: Buffer, compression: Compression): Buffer {
  if (compression === 'none') return head;
  try {
    if (compression === 'gzip') {
      // The first member only: what follows it may be damaged, and says nothing about the content.
      const header = headerLength(head, 0);
      if (header < 0) return Buffer.alloc(0);
      return zlib.inflateRawSync(head.subarray(header), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    }
    const pieces: Uint8Array[] = [];
    const stream = new ZstdDecompress((chunk) => pieces.push(chunk));
    stream.push(head, false);
    return Buffer.concat(pieces);
  } catch {
    return Buffer.alloc(0);
  }
}

function contentOf(prefix: Buffer): InputContent {
  let start = 0;
  if (prefix[0] === 0xef && prefix[1] === 0xbb && prefix[2] === 0xbf) start = 3;
  while (start < prefix.length && (prefix[start] === 0x0d || prefix[start] === 0x0a)) start++;
  return prefix.subarray(start, start + 7).toString('latin1') === 'WARC/1.' ? 'warc' : 'jsonl';
}

/** Detect compression and content from the first 64 KiB of `path`. */
export async function detectInputFormat(path: string): Promise<InputFormat> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    const bytes = head.subarray(0, bytesRead);
    const compression = compressionOf(bytes);
    return { compression, content: contentOf(decompressedPrefix(bytes, compression)) };
  } finally {
    await handle.close();
  }
}

/** fzstd (pure JS) as a stream, where Node has no zstd of its own (before 22.15 / 23.8). */
class FzstdTransform extends Transform {
  private readonly decoder: ZstdDecompress;
  private output: Uint8Array[] = [];

  constructor() {
    super();
    this.decoder = new ZstdDecompress((chunk) => this.output.push(chunk));
  }

  private drain(): void {
    for (const chunk of this.output) this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.output = [];
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.decoder.push(chunk, false);
      this.drain();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.decoder.push(new Uint8Array(0), true);
      this.drain();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }
}

function decompressor(compression: Compression): Transform | undefined {
  if (compression === 'gzip') return zlib.createGunzip();
  if (compression === 'zstd') {
    const native = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;
    return native !== undefined ? native() : new FzstdTransform();
  }
  return undefined;
}

/**
 * The decompressed bytes of `path` from file offset `start`, chunk by chunk; `onBytesRead`
 * gets the file bytes read so far (compressed), for the progress bar. A damaged stream throws
 * from the iteration after the last good chunk.
 */
export async function* decompressedChunks(
  path: string,
  compression: Compression,
  options: { start?: number; onBytesRead?: (bytes: number) => void } = {},
): AsyncGenerator<Buffer> {
  const start = options.start ?? 0;
  const file = createReadStream(path, { start, highWaterMark: 1 << 20 });
  let bytesRead = start;
  const transform = decompressor(compression);
  if (transform === undefined) {
    try {
      for await (const chunk of file as AsyncIterable<Buffer>) {
        bytesRead += chunk.length;
        options.onBytesRead?.(bytesRead);
        yield chunk;
      }
    } finally {
      file.destroy();
    }
    return;
  }
  file.on('data', (chunk) => {
    bytesRead += chunk.length;
    options.onBytesRead?.(bytesRead);
  });
  file.on('error', (error) => transform.destroy(error));
  file.pipe(transform);
  try {
    for await (const chunk of transform as AsyncIterable<Buffer>) yield chunk;
  } finally {
    file.destroy();
    transform.destroy();
  }
}
