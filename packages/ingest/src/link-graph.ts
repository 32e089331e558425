/**
 * The host link graph behind in_degree, centrality and community_id. Ingest reads its input
 * twice: pass 1 (here) takes only `url` and `links` from each line, adds the host pairs to the
 * graph persisted in `DATA_DIR/graph.tsv` (one `from <TAB> to` line per distinct pair, appended
 * at commit), and computes the signals; pass 2 indexes the passages with them.
 *
 * Pass 1 does not validate records (pass 2 does and reports): a line whose links fail later
 * validation still adds its host pairs. Links are facts about the web, so pairs are never taken
 * back, not even when their page is removed.
 */
import { crawlLinksOf } from './crawl-page.js';
import { detectInputFormat } from './input-format.js';
import { jsonlBatches } from './input-reader.js';
import { LineAppender } from './line-appender.js';
import { readWarcItems } from './warc-reader.js';
import { readLineBatches } from './line-reader.js';
import { computeHostSignals, type HostSignals } from './graph-signals.js';
import { linkHost } from './url-parts.js';

export const GRAPH_FILE = 'graph.tsv';
/** Edge keys pack two host numbers into one safe integer. */
const HOST_LIMIT = 1 << 26;

export class HostGraph {
  private readonly hostNames: string[] = [];
  private readonly hostIndex = new Map<string, number>();
  private readonly edgeKeys = new Set<number>();
  private from: number[] = [];
  private to: number[] = [];
  private log: LineAppender | undefined;

  static async open(path: string): Promise<HostGraph> {
    const graph = new HostGraph();
    try {
      for await (const batch of readLineBatches(path)) {
        for (const line of batch.lines) {
          const tab = line.indexOf('\t');
          if (tab <= 0 || tab === line.length - 1 || line.indexOf('\t', tab + 1) >= 0) continue;
          graph.add(line.slice(0, tab), line.slice(tab + 1));
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    graph.log = LineAppender.open(path);
    return graph;
  }

  static inMemory(): HostGraph {
    return new HostGraph();
  }

  get hosts(): number {
    return this.hostNames.length;
  }

  get edges(): number {
    return this.from.length;
  }

  private intern(host: string): number {
    let index = this.hostIndex.get(host);
    if (index === undefined) {
      index = this.hostNames.length;
      if (index >= HOST_LIMIT) throw new Error(`the link graph holds more than ${HOST_LIMIT} hosts`);
      this.hostNames.push(host);
      this.hostIndex.set(host, index);
    }
    return index;
  }

  /** Record that `fromHost` links to `toHost`; self-links and repeats add nothing. */
  add(fromHost: string, toHost: string): void {
    if (fromHost === toHost) return;
    const from = this.intern(fromHost);
    const to = this.intern(toHost);
    const key = from * HOST_LIMIT + to;
    if (this.edgeKeys.has(key)) return;
    this.edgeKeys.add(key);
    this.from.push(from);
    this.to.push(to);
    this.log?.append(`${fromHost}\t${toHost}`);
  }

  signals(): Map<string, HostSignals> {
    return computeHostSignals(this.hostNames, Int32Array.from(this.from), Int32Array.from(this.to));
  }

  flush(): void {
    this.log?.flush();
  }

  close(): void {
    this.log?.close();
  }
}

/** Index just past the JSON string that opens at `start` (a `"`), or -1. */
function endOfJsonString(line: string, start: number): number {
  for (let index = start + 1; index < line.length; index++) {
    const code = line.charCodeAt(index);
    if (code === 92) index++;
    else if (code === 34) return index + 1;
  }
  return -1;
}

/** Index past whitespace from `index`. */
function skipSpace(line: string, index: number): number {
  let at = index;
  while (at < line.length && (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9 || line.charCodeAt(at) === 10 || line.charCodeAt(at) === 13)) at++;
  return at;
}

/** Where the value of top-level-looking key `"name"` starts (after the colon), or -1. */
function valueStart(line: string, name: string): number {
  const quoted = `"${name}"`;
  for (let at = line.indexOf(quoted); at >= 0; at = line.indexOf(quoted, at + 1)) {
    const colon = skipSpace(line, at + quoted.length);
    if (line.charCodeAt(colon) === 58) return skipSpace(line, colon + 1);
  }
  return -1;
}

/**
 * `url` and `links` of a line without parsing the whole record (its text is most of it): each
 * value is cut out and parsed alone. A line this does not understand is parsed whole.
 */
export function linksOfLine(line: string): { url: string; links: unknown[] } | undefined {
  const linksAt = valueStart(line, 'links');
  const urlAt = valueStart(line, 'url');
  if (linksAt >= 0 && urlAt >= 0 && line.charCodeAt(linksAt) === 91 && line.charCodeAt(urlAt) === 34 && !line.includes('"removed"')) {
    let end = -1;
    for (let index = linksAt + 1; index < line.length; index++) {
      const code = line.charCodeAt(index);
      if (code === 34) {
        index = endOfJsonString(line, index) - 1;
        if (index < 0) break;
      } else if (code === 93) {
        end = index + 1;
        break;
      } else if (code === 91 || code === 123) {
        break;
      }
    }
    const urlEnd = endOfJsonString(line, urlAt);
    if (end > 0 && urlEnd > 0) {
      try {
        const url: unknown = JSON.parse(line.slice(urlAt, urlEnd));
        const links: unknown = JSON.parse(line.slice(linksAt, end));
        if (typeof url === 'string' && Array.isArray(links)) return { url, links };
      } catch {
        // Parsed whole below.
      }
    }
  }
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const { url, links, removed } = record as { url?: unknown; links?: unknown; removed?: unknown };
  if (typeof url !== 'string' || !Array.isArray(links) || removed !== undefined) return undefined;
  return { url, links };
}

function addLinks(graph: HostGraph, url: string, links: readonly unknown[]): void {
  const fromHost = linkHost(url);
  if (fromHost === undefined) return;
  for (const link of links) {
    if (typeof link !== 'string') continue;
    const toHost = linkHost(link);
    if (toHost !== undefined) graph.add(fromHost, toHost);
  }
}

/**
 * Pass 1: add the host pairs of every page's links to `graph`. JSONL lines without a `links` key
 * are not even parsed; WARC responses give the `<a href>`s of their HTML (a tag scan, no DOM:
 * the same links pass 2 stores). Unreadable files are passed over (pass 2 reports them).
 */
export async function collectLinks(files: readonly string[], graph: HostGraph): Promise<void> {
  for (const file of files) {
    try {
      const format = await detectInputFormat(file);
      if (format.content === 'warc') {
        for await (const item of readWarcItems(file, format.compression)) {
          if (item.kind !== 'record') continue;
          let found: { url: string; links: string[] } | undefined;
          try {
            found = crawlLinksOf(item);
          } catch {
            continue;
          }
          if (found !== undefined) addLinks(graph, found.url, found.links);
        }
        continue;
      }
      for await (const batch of jsonlBatches(file, format.compression)) {
        if (batch.kind !== 'lines') continue;
        for (const line of batch.lines) {
          if (!line.includes('"links"')) continue;
          const found = linksOfLine(line);
          if (found !== undefined) addLinks(graph, found.url, found.links);
        }
      }
    } catch {
      // Reported by pass 2, which reads the same files.
    }
  }
}
