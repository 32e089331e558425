/**
 * The served page link graph (related, path): which page links to which, read from the page
 * link log ingest appends at each commit (`DATA_DIR/links.tsv`: `url <TAB> link <TAB> ...`,
 * packages/ingest/src/page-links.ts) and kept current by following the file as the admission
 * ledger is followed (ledger-index.ts): each walk first reads what was appended since the last
 * one, in small chunks between awaits; a file that shrank or was replaced is read again.
 *
 * Memory is bounded and compact: pages are numbered once (their normalised URL is the key, the
 * first spelling seen is kept to look the page up in the index), and the edges live in typed
 * arrays as two linked adjacency lists (out and in), so adding an edge never rebuilds anything:
 * 16 bytes per edge and 8 per page beside the URL strings. Repeated edges and self-links are
 * dropped on the way in.
 */
import { AppendedLines } from './appended-lines.js';
import { normaliseUrl } from './urls.js';

/** Bytes read and parsed per step (each line's URLs are normalised: about a millisecond). */
export const LINKS_CHUNK_BYTES = 32 * 1024;

const INITIAL_CAPACITY = 1024;

function grown(array: Int32Array<ArrayBuffer>, needed: number, fill?: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  let size = array.length;
  while (size < needed) size *= 2;
  const next = new Int32Array(size);
  if (fill !== undefined) next.fill(fill);
  next.set(array);
  return next;
}

export interface PathSearch {
  /** Pages from the start to the goal (both included), or null when none was found. */
  pages: string[] | null;
  /** For each hop, whether its first page links to the second (true) or the second to the first. */
  forward: boolean[];
  /** Pages whose links were walked. */
  visited: number;
  /** A bound (depth or work) stopped the search before it could tell. */
  truncated: boolean;
}

interface Reach {
  from: number;
  forward: boolean;
  distance: number;
}

export interface CoCitation {
  url: string;
  /** Pages linking to both. */
  count: number;
  /** Those pages, in URL order (at most `examples`). */
  linkers: string[];
}

export class PageGraph {
  private keys = new Map<string, number>();
  private spellings: string[] = [];
  private outHead: Int32Array<ArrayBuffer> = new Int32Array(INITIAL_CAPACITY).fill(-1);
  private inHead: Int32Array<ArrayBuffer> = new Int32Array(INITIAL_CAPACITY).fill(-1);
  private edgeFrom = new Int32Array(INITIAL_CAPACITY);
  private edgeTo = new Int32Array(INITIAL_CAPACITY);
  private outNext = new Int32Array(INITIAL_CAPACITY);
  private inNext = new Int32Array(INITIAL_CAPACITY);
  private edgeCount = 0;
  private readonly file: AppendedLines | null;

  constructor(readonly path: string | null) {
    this.file = path === null ? null : new AppendedLines(path, (line) => this.addLine(line), () => this.reset(), LINKS_CHUNK_BYTES);
  }

  /** A graph of the given lines, not backed by a file (tests, benchmarks). */
  static fromLines(lines: Iterable<string>): PageGraph {
    const graph = new PageGraph(null);
    for (const line of lines) graph.addLine(line);
    return graph;
  }

  get pages(): number {
    return this.spellings.length;
  }

  get edges(): number {
    return this.edgeCount;
  }

  /** Bytes held in typed arrays (URL strings and the key map come on top). */
  get arrayBytes(): number {
    return (this.outHead.length + this.inHead.length + this.edgeFrom.length + this.edgeTo.length + this.outNext.length + this.inNext.length) * 4;
  }

  /** Read what was appended since the last refresh; concurrent callers share one read. */
  refresh(): Promise<void> {
    return this.file === null ? Promise.resolve() : this.file.catchUp();
  }

  /** The page number of a URL, or undefined when the graph does not know it. */
  private pageOf(url: string): number | undefined {
    const key = normaliseUrl(url);
    return key === null ? undefined : this.keys.get(key);
  }

  /** The URL the index knows a page by (the first spelling seen). */
  spelling(page: number): string {
    return this.spellings[page];
  }

  /** Pages `url` links to, in the order the links were recorded. */
  outLinks(url: string): string[] {
    const page = this.pageOf(url);
    if (page === undefined) return [];
    const found: string[] = [];
    for (let edge = this.outHead[page]; edge >= 0; edge = this.outNext[edge]) found.push(this.spellings[this.edgeTo[edge]]);
    return found.reverse();
  }

  /** Pages linking to `url`, in the order the links were recorded. */
  inLinks(url: string): string[] {
    const page = this.pageOf(url);
    if (page === undefined) return [];
    const found: string[] = [];
    for (let edge = this.inHead[page]; edge >= 0; edge = this.inNext[edge]) found.push(this.spellings[this.edgeFrom[edge]]);
    return found.reverse();
  }

  /**
   * Pages cited together with `url`: linked to by a page that links to `url`, most shared
   * linkers first, then by URL. At most `maxLinkers` linkers are walked (in recorded order);
   * `cut` says when there were more.
   */
  coCited(url: string, maxLinkers: number, examples = 3): { pages: CoCitation[]; cut: boolean } {
    const page = this.pageOf(url);
    if (page === undefined) return { pages: [], cut: false };
    const linkers: number[] = [];
    for (let edge = this.inHead[page]; edge >= 0; edge = this.inNext[edge]) linkers.push(this.edgeFrom[edge]);
    linkers.reverse();
    const cut = linkers.length > maxLinkers;
    const shared = new Map<number, number[]>();
    for (const linker of linkers.slice(0, maxLinkers)) {
      for (let edge = this.outHead[linker]; edge >= 0; edge = this.outNext[edge]) {
        const target = this.edgeTo[edge];
        if (target === page) continue;
        const by = shared.get(target);
        if (by) by.push(linker);
        else shared.set(target, [linker]);
      }
    }
    const pages = [...shared].map(([target, by]) => ({
      url: this.spellings[target],
      count: by.length,
      linkers: by.map((linker) => this.spellings[linker]).sort().slice(0, examples),
    }));
    pages.sort((left, right) => right.count - left.count || (left.url < right.url ? -1 : left.url > right.url ? 1 : 0));
    return { pages, cut };
  }

  /**
   * The shortest link path between two pages, following links either way: a breadth-first
   * search from both ends at once, each round expanding the smaller frontier by one whole layer
   * (at each page its outlinks before its inlinks, each in recorded order), so a hub on one side
   * does not make the other side's work explode. `maxDepth` bounds the hops and `maxEdges` the
   * links looked at (the work); `truncated` is true when a bound stopped the search before it
   * could tell whether a path exists.
   */
  shortestPath(fromUrl: string, toUrl: string, maxDepth: number, maxEdges: number): PathSearch {
    const start = this.pageOf(fromUrl);
    const goal = this.pageOf(toUrl);
    if (start === undefined || goal === undefined) return { pages: null, forward: [], visited: 0, truncated: false };
    if (start === goal) return { pages: [this.spellings[start]], forward: [], visited: 1, truncated: false };
    // Per side: page -> the page it was reached from (nearer that side's end), the link's
    // direction as walked from that end, and its distance from that end.
    const sides = [
      { reached: new Map<number, Reach>([[start, { from: -1, forward: true, distance: 0 }]]), frontier: [start], depth: 0 },
      { reached: new Map<number, Reach>([[goal, { from: -1, forward: true, distance: 0 }]]), frontier: [goal], depth: 0 },
    ];
    let visited = 0;
    let edges = 0;
    while (sides[0].frontier.length > 0 && sides[1].frontier.length > 0) {
      if (sides[0].depth + sides[1].depth >= maxDepth) return { pages: null, forward: [], visited, truncated: true };
      const which = sides[0].frontier.length <= sides[1].frontier.length ? 0 : 1;
      const side = sides[which];
      const other = sides[1 - which];
      const next: number[] = [];
      let meeting: { page: number; length: number } | null = null;
      for (const page of side.frontier) {
        visited++;
        for (const [head, nextOf, endOf, forward] of [
          [this.outHead, this.outNext, this.edgeTo, true],
          [this.inHead, this.inNext, this.edgeFrom, false],
        ] as const) {
          const neighbours: number[] = [];
          for (let edge = head[page]; edge >= 0; edge = nextOf[edge]) {
            if (++edges > maxEdges) return { pages: null, forward: [], visited, truncated: true };
            neighbours.push(endOf[edge]);
          }
          for (let index = neighbours.length - 1; index >= 0; index--) {
            const neighbour = neighbours[index];
            if (side.reached.has(neighbour)) continue;
            side.reached.set(neighbour, { from: page, forward, distance: side.depth + 1 });
            next.push(neighbour);
            const across = other.reached.get(neighbour);
            if (across !== undefined) {
              const length = side.depth + 1 + across.distance;
              if (meeting === null || length < meeting.length) meeting = { page: neighbour, length };
            }
          }
        }
      }
      side.depth++;
      side.frontier = next;
      if (meeting !== null) return { ...this.joined(sides[0].reached, sides[1].reached, meeting.page), visited, truncated: false };
    }
    return { pages: null, forward: [], visited, truncated: false };
  }

  /** The path start .. meeting .. goal from the two sides' reach maps. */
  private joined(fromStart: Map<number, Reach>, fromGoal: Map<number, Reach>, meeting: number): { pages: string[]; forward: boolean[] } {
    const pages: number[] = [];
    const forward: boolean[] = [];
    for (let page = meeting; page >= 0; ) {
      const reach = fromStart.get(page)!;
      pages.push(page);
      if (reach.from >= 0) forward.push(reach.forward);
      page = reach.from;
    }
    pages.reverse();
    forward.reverse();
    for (let page = meeting; ; ) {
      const reach = fromGoal.get(page)!;
      if (reach.from < 0) break;
      // Walked from the goal's side: an outlink of `reach.from` is a link against the path's direction.
      forward.push(!reach.forward);
      pages.push(reach.from);
      page = reach.from;
    }
    return { pages: pages.map((page) => this.spellings[page]), forward };
  }

  private intern(url: string): number | undefined {
    const key = normaliseUrl(url);
    if (key === null) return undefined;
    let page = this.keys.get(key);
    if (page === undefined) {
      page = this.spellings.length;
      this.keys.set(key, page);
      this.spellings.push(url);
      this.outHead = grown(this.outHead, page + 1, -1);
      this.inHead = grown(this.inHead, page + 1, -1);
    }
    return page;
  }

  private addEdge(from: number, to: number): void {
    if (from === to) return;
    for (let edge = this.outHead[from]; edge >= 0; edge = this.outNext[edge]) if (this.edgeTo[edge] === to) return;
    const edge = this.edgeCount++;
    this.edgeFrom = grown(this.edgeFrom, edge + 1);
    this.edgeTo = grown(this.edgeTo, edge + 1);
    this.outNext = grown(this.outNext, edge + 1);
    this.inNext = grown(this.inNext, edge + 1);
    this.edgeFrom[edge] = from;
    this.edgeTo[edge] = to;
    this.outNext[edge] = this.outHead[from];
    this.outHead[from] = edge;
    this.inNext[edge] = this.inHead[to];
    this.inHead[to] = edge;
  }

  /** One line of the link log; a line that is not `url <TAB> link ...` adds nothing. */
  addLine(line: string): void {
    const fields = line.split('\t');
    if (fields.length < 2) return;
    const from = this.intern(fields[0]);
    if (from === undefined) return;
    for (let index = 1; index < fields.length; index++) {
      const to = this.intern(fields[index]);
      if (to !== undefined) this.addEdge(from, to);
    }
  }

  private reset(): void {
    this.keys = new Map();
    this.spellings = [];
    this.outHead = new Int32Array(INITIAL_CAPACITY).fill(-1);
    this.inHead = new Int32Array(INITIAL_CAPACITY).fill(-1);
    this.edgeCount = 0;
  }
}
