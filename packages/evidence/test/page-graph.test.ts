/**
 * The served page link graph: lines in, links out both ways, repeats and self-links dropped,
 * URLs compared normalised, co-citation counts, the shortest path (checked against a plain
 * breadth-first search on a random graph) with its bounds, and following the file as it grows.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PageGraph } from '../src/index.js';

const page = (name: string) => `https://example.org/${name}`;

describe('PageGraph', () => {
  it('reads link lines, drops repeats and self-links, and compares URLs normalised', () => {
    const graph = PageGraph.fromLines([
      `${page('a')}\t${page('b')}\t${page('c')}\t${page('a')}`,
      `${page('a')}\t${page('b')}`,
      `HTTPS://EXAMPLE.ORG:443/b#top\t${page('c')}`,
      'not a line',
      `${page('d')}\tmailto:someone@example.org`,
    ]);
    expect(graph.edges).toBe(3);
    expect(graph.outLinks(page('a'))).toEqual([page('b'), page('c')]);
    expect(graph.inLinks('https://example.org/c')).toEqual([page('a'), page('b')]);
    expect(graph.outLinks(page('b'))).toEqual([page('c')]);
    expect(graph.outLinks(page('zzz'))).toEqual([]);
  });

  it('counts co-citations: pages linked from the pages that link to a page', () => {
    const graph = PageGraph.fromLines([
      `${page('x')}\t${page('seed')}\t${page('p')}\t${page('q')}`,
      `${page('y')}\t${page('seed')}\t${page('q')}`,
      `${page('z')}\t${page('q')}`,
    ]);
    expect(graph.coCited(page('seed'), 10)).toEqual({
      pages: [
        { url: page('q'), count: 2, linkers: [page('x'), page('y')] },
        { url: page('p'), count: 1, linkers: [page('x')] },
      ],
      cut: false,
    });
    expect(graph.coCited(page('seed'), 1).cut).toBe(true);
  });

  it('finds shortest paths as long as a plain breadth-first search does, either link direction', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const nodes = 300;
    const lines: string[] = [];
    const neighbours = Array.from({ length: nodes }, () => new Set<number>());
    for (let from = 0; from < nodes; from++) {
      const targets = Array.from({ length: Math.floor(random() * 3) }, () => Math.floor(random() * nodes)).filter((to) => to !== from);
      if (targets.length === 0) continue;
      lines.push([page(`n${from}`), ...targets.map((to) => page(`n${to}`))].join('\t'));
      for (const to of targets) {
        neighbours[from].add(to);
        neighbours[to].add(from);
      }
    }
    const graph = PageGraph.fromLines(lines);
    const distance = (from: number, to: number): number | null => {
      const seen = new Map([[from, 0]]);
      let frontier = [from];
      while (frontier.length > 0) {
        const next: number[] = [];
        for (const node of frontier) for (const neighbour of neighbours[node]) if (!seen.has(neighbour)) { seen.set(neighbour, seen.get(node)! + 1); next.push(neighbour); }
        frontier = next;
      }
      return seen.get(to) ?? null;
    };
    for (let trial = 0; trial < 200; trial++) {
      const from = Math.floor(random() * nodes);
      const to = Math.floor(random() * nodes);
      if (graph.outLinks(page(`n${from}`)).length + graph.inLinks(page(`n${from}`)).length === 0) continue;
      const expected = distance(from, to);
      const found = graph.shortestPath(page(`n${from}`), page(`n${to}`), 50, 1_000_000);
      expect(found.pages === null ? null : found.pages.length - 1, `${from} -> ${to}`).toBe(expected);
      if (found.pages) {
        expect(found.pages[0]).toBe(page(`n${from}`));
        expect(found.pages.at(-1)).toBe(page(`n${to}`));
        found.pages.slice(1).forEach((url, index) => {
          const previous = found.pages![index];
          const links = found.forward[index] ? graph.outLinks(previous) : graph.inLinks(previous);
          expect(links).toContain(url);
        });
      }
    }
  });

  it('says truncated when the depth or the work bound stops the search', () => {
    const chain = Array.from({ length: 6 }, (_, index) => `${page(`c${index}`)}\t${page(`c${index + 1}`)}`);
    const graph = PageGraph.fromLines(chain);
    expect(graph.shortestPath(page('c0'), page('c6'), 6, 1000)).toMatchObject({ truncated: false });
    expect(graph.shortestPath(page('c0'), page('c6'), 6, 1000).pages).toHaveLength(7);
    expect(graph.shortestPath(page('c0'), page('c6'), 5, 1000)).toMatchObject({ pages: null, truncated: true });
    expect(graph.shortestPath(page('c0'), page('c6'), 6, 3)).toMatchObject({ pages: null, truncated: true });
  });

  it('follows its file as lines are appended, and starts over when the file is replaced', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'page-graph-'));
    try {
      const path = join(directory, 'links.tsv');
      const graph = new PageGraph(path);
      await graph.refresh();
      expect(graph.pages).toBe(0);
      writeFileSync(path, `${page('a')}\t${page('b')}\n${page('b')}\t`);
      await graph.refresh();
      expect(graph.outLinks(page('a'))).toEqual([page('b')]);
      appendFileSync(path, `${page('c')}\n`);
      await graph.refresh();
      expect(graph.outLinks(page('b'))).toEqual([page('c')]);
      rmSync(path);
      writeFileSync(path, `${page('x')}\t${page('y')}\n`);
      await graph.refresh();
      expect(graph.outLinks(page('a'))).toEqual([]);
      expect(graph.outLinks(page('x'))).toEqual([page('y')]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
