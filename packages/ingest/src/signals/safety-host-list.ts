/**
 * An optional list of adult hosts for the safety signal: the file named by SAFETY_HOST_LIST, one
 * host per line, lower-case, without `www.`, sorted byte-wise (`LC_ALL=C sort -u`), as
 * `npm run fetch:safety-list` writes it. A host is listed when it or a parent domain of it (down
 * to its site domain: not a blog platform's) is.
 *
 * The file is read once, on first use, into one buffer and searched by bisection (a 2.3-million
 * host list: 57 MB and about 20 µs a lookup, where a Set of its strings takes 450 MB and 5 s to
 * build). Unset, or unreadable (a warning on stderr, once), there is no list and safety is the
 * rules and the host-name model alone. A file that is not sorted is refused the same way, since
 * bisection would silently miss hosts in it.
 */
import { readFileSync } from 'node:fs';
import { deriveHostFields } from '../derive.js';

const NEWLINE = 0x0a;

export class SortedHostList {
  readonly size: number;

  constructor(private readonly lines: Buffer) {
    let count = 0;
    let previous: Buffer | undefined;
    let start = 0;
    while (start < lines.length) {
      let end = lines.indexOf(NEWLINE, start);
      if (end < 0) end = lines.length;
      const line = lines.subarray(start, end);
      if (line.length === 0) throw new Error(`host list has an empty line at line ${count + 1}`);
      if (previous !== undefined && Buffer.compare(previous, line) >= 0) throw new Error(`host list is not sorted byte-wise at line ${count + 1} (sort it with LC_ALL=C sort -u)`);
      previous = line;
      count++;
      start = end + 1;
    }
    this.size = count;
  }

  /** Whether `host` itself is a line of the list. */
  hasExactly(host: string): boolean {
    const target = Buffer.from(host, 'utf8');
    let low = 0;
    let high = this.lines.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = middle === 0 ? 0 : this.lines.lastIndexOf(NEWLINE, middle - 1) + 1;
      let end = this.lines.indexOf(NEWLINE, start);
      if (end < 0 || end > high) end = high;
      const order = Buffer.compare(target, this.lines.subarray(start, end));
      if (order === 0) return true;
      if (order < 0) high = start;
      else low = end + 1;
    }
    return false;
  }

  /**
   * Whether `host` or a parent domain of it down to its site domain is listed (`a.example.com`
   * by `example.com`; `alice.blogspot.com` never by `blogspot.com`, a platform of separate owners).
   */
  has(host: string): boolean {
    const lower = host.toLowerCase();
    const siteDomain = deriveHostFields(lower).siteDomain.replace(/^www\./, '');
    let name = lower.replace(/^www\./, '');
    for (;;) {
      if (this.hasExactly(name)) return true;
      if (name === siteDomain || !name.endsWith(`.${siteDomain}`)) return false;
      name = name.slice(name.indexOf('.') + 1);
    }
  }
}

let loaded: { path: string; list: SortedHostList | undefined } | undefined;

/** The list SAFETY_HOST_LIST names, read on first use; undefined when unset or unreadable. */
export function configuredHostList(): SortedHostList | undefined {
  const path = process.env.SAFETY_HOST_LIST ?? '';
  if (path === '') return undefined;
  if (loaded?.path === path) return loaded.list;
  let list: SortedHostList | undefined;
  try {
    list = new SortedHostList(readFileSync(path));
  } catch (error) {
    process.stderr.write(`SAFETY_HOST_LIST ${path}: ${(error as Error).message}; safety goes on without the host list\n`);
  }
  loaded = { path, list };
  return list;
}
