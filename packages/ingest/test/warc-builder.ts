/** Build WARC and WET files for tests: records as bytes, one gzip member each, and ways to damage them. */
import { gzipSync } from 'node:zlib';

export const WARC_DATE = '2024-05-01T10:00:00Z';
export const WARC_SECONDS = Date.parse(WARC_DATE) / 1000;

export interface RecordOptions {
  type: string;
  uri?: string;
  /** Write the URI inside angle brackets, as wget does. */
  bracketed?: boolean;
  contentType?: string;
  block: Buffer | string;
  headers?: Record<string, string>;
  /** Declare this Content-Length instead of the true one. */
  contentLength?: number;
  /** Replace the `WARC/1.0` line. */
  versionLine?: string;
}

export function warcRecord(options: RecordOptions): Buffer {
  const block = typeof options.block === 'string' ? Buffer.from(options.block, 'utf8') : options.block;
  const lines = [options.versionLine ?? 'WARC/1.0', `WARC-Type: ${options.type}`, `WARC-Date: ${WARC_DATE}`, `WARC-Record-ID: <urn:uuid:${Math.random().toString(16).slice(2)}>`];
  if (options.uri !== undefined) lines.push(`WARC-Target-URI: ${options.bracketed ? `<${options.uri}>` : options.uri}`);
  if (options.contentType !== undefined) lines.push(`Content-Type: ${options.contentType}`);
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${options.contentLength ?? block.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), block, Buffer.from('\r\n\r\n')]);
}

/** An HTTP response record; `body` bytes are written as given (so any charset can be tested). */
export function responseRecord(uri: string, body: Buffer | string, options: { status?: string; contentType?: string; bracketed?: boolean } = {}): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const head = `HTTP/1.1 ${options.status ?? '200 OK'}\r\nContent-Type: ${options.contentType ?? 'text/html; charset=utf-8'}\r\nContent-Length: ${payload.length}\r\n\r\n`;
  return warcRecord({ type: 'response', uri, bracketed: options.bracketed, contentType: 'application/http;msgtype=response', block: Buffer.concat([Buffer.from(head, 'latin1'), payload]) });
}

/** One gzip member per record, as Common Crawl writes them. */
export function gzipMembers(records: Buffer[]): Buffer {
  return Buffer.concat(records.map((record) => gzipSync(record)));
}

/** A page with navigation, footer and an article of paragraphs. */
export function articleHtml(options: { title: string; paragraphs: string[]; head?: string; extra?: string; nav?: string; footer?: string }): string {
  return `<!DOCTYPE html><html lang="en"><head><title>${options.title}</title>${options.head ?? ''}</head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li><li><a href="https://other.example.net/x">${options.nav ?? 'Partners'}</a></li></ul></nav>
<article><h1>${options.title}</h1>
${options.paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n')}
${options.extra ?? ''}
</article>
<footer><p>${options.footer ?? 'Copyright footer text'}</p><a href="/imprint">Imprint</a></footer>
</body></html>`;
}
