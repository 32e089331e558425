/**
 * Redundant copies: a page whose title and every passage have the same normalised text, in the
 * same order, as a page the index holds at another URL, and which is not a publication of its own, adds
 * nothing and is not admitted (the ledger records it `redundant`, superseded by the kept copy's
 * first passage). A copy is redundant when it is on the same site (site domain, derive.ts: two
 * blogs on one platform are two sites), when
 * its URL embeds the kept page's host (a mirror, cache or archive path), or when it declares the
 * same published_at as the kept page. A copy at another site with a date of its own, or none, is
 * admitted: its passages are republishes (origin.ts).
 *
 * Only page records are compared (a passage record is one passage of a page, not a page). The
 * table of admitted pages is appended to `DATA_DIR/copies.tsv` at each commit and replayed at start:
 *
 *   <page hash (16 hex)> <TAB> page id <TAB> published_at or empty <TAB> site domain <TAB> host
 */
import { LineAppender } from './line-appender.js';
import { readLineBatches } from './line-reader.js';

export const COPIES_FILE = 'copies.tsv';

export interface KeptPage {
  pageId: string;
  publishedAt: number | undefined;
  siteDomain: string;
  host: string;
}

export interface CopyCandidate {
  url: string;
  pageId: string;
  publishedAt: number | undefined;
  siteDomain: string;
  host: string;
}

/** Whether `copy`, identical in text to `kept`, is a redundant copy of it (see above). */
export function isRedundantCopy(copy: CopyCandidate, kept: KeptPage): boolean {
  if (copy.pageId === kept.pageId) return false;
  if (copy.siteDomain === kept.siteDomain) return true;
  if (copy.url.slice(copy.url.indexOf('://') + 3).toLowerCase().includes(`/${kept.host}`)) return true;
  return copy.publishedAt !== undefined && copy.publishedAt === kept.publishedAt;
}

export class CopyTable {
  /** Every admitted page by text hash (usually one; a republish adds a second). */
  private readonly kept = new Map<string, KeptPage[]>();
  /** Pages that left the index (re-crawled or removed): a copy of one of them is not redundant. */
  private readonly retired = new Set<string>();
  private log: LineAppender | undefined;

  static async open(path: string): Promise<CopyTable> {
    const table = new CopyTable();
    try {
      for await (const batch of readLineBatches(path)) for (const line of batch.lines) table.replayLine(line);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    table.log = LineAppender.open(path);
    return table;
  }

  static inMemory(): CopyTable {
    return new CopyTable();
  }

  /** Distinct page texts remembered. */
  get size(): number {
    return this.kept.size;
  }

  /** The page `copy` (whose text hashes to `hash`) is a redundant copy of, if any (the earliest kept). */
  redundantWith(hash: string, copy: CopyCandidate): KeptPage | undefined {
    const pages = this.kept.get(hash);
    if (pages === undefined) return undefined;
    for (const page of pages) if (!this.retired.has(page.pageId) && isRedundantCopy(copy, page)) return page;
    return undefined;
  }

  /** Remember an admitted page. */
  remember(hash: string, page: KeptPage): void {
    if (!this.add(hash, page)) return;
    this.log?.append(`${hash}\t${page.pageId}\t${page.publishedAt ?? ''}\t${page.siteDomain}\t${page.host}`);
  }

  /** A page left the index. */
  retire(pageId: string): void {
    this.retired.add(pageId);
  }

  flush(): void {
    this.log?.flush();
  }

  close(): void {
    this.log?.close();
  }

  private add(hash: string, page: KeptPage): boolean {
    let pages = this.kept.get(hash);
    if (pages === undefined) {
      pages = [];
      this.kept.set(hash, pages);
    }
    // Retired pages are dropped here: only live pages can be kept copies.
    const live = pages.filter((other) => !this.retired.has(other.pageId));
    if (live.some((other) => other.pageId === page.pageId)) return false;
    live.push(page);
    this.kept.set(hash, live);
    return true;
  }

  private replayLine(line: string): void {
    const fields = line.split('\t');
    if (fields.length !== 5 || fields[0].length !== 16 || fields[1] === '') return;
    const publishedAt = fields[2] === '' ? undefined : Number(fields[2]);
    if (publishedAt !== undefined && !Number.isSafeInteger(publishedAt)) return;
    this.add(fields[0], { pageId: fields[1], publishedAt, siteDomain: fields[3], host: fields[4] });
  }
}
