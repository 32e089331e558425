/** The load benchmarks' pure helpers: settings lists, percentiles, latency summaries, ratios, tables, answer overlap. */
import { describe, expect, it } from 'vitest';
import { percentile } from '../src/queries.js';
import { markdownTable, mebibytes, milliseconds, parseCounts, parseNames, ratio, summariseLatencies } from '../src/report.js';
import { WORKLOAD_NAMES, WORKLOADS, workloadLabel } from '../src/workloads.js';
import { meanOverlap } from '../src/answer-shape.js';

describe('settings lists', () => {
  it('parses comma-separated positive integers, with a fallback when unset or empty', () => {
    expect(parseCounts('1,16, 64,256', [1])).toEqual([1, 16, 64, 256]);
    expect(parseCounts(undefined, [1, 16])).toEqual([1, 16]);
    expect(parseCounts(' ', [64])).toEqual([64]);
  });

  it('refuses anything but positive integers, naming the setting', () => {
    expect(() => parseCounts('1,0', [1], 'BENCH_CONNECTIONS')).toThrow(/BENCH_CONNECTIONS/);
    expect(() => parseCounts('1,x', [1])).toThrow();
    expect(() => parseCounts('2.5', [1])).toThrow();
    expect(() => parseCounts('1,,2', [1])).toThrow();
  });

  it('parses names from an allowed set', () => {
    expect(parseNames('ground, search-keyword', WORKLOAD_NAMES, WORKLOAD_NAMES)).toEqual(['ground', 'search-keyword']);
    expect(parseNames(undefined, WORKLOAD_NAMES, ['search-hybrid'])).toEqual(['search-hybrid']);
    expect(() => parseNames('search', WORKLOAD_NAMES, WORKLOAD_NAMES, 'BENCH_PATHS')).toThrow(/BENCH_PATHS: "search" is not one of/);
  });
});

describe('latency figures', () => {
  it('takes the value at floor(fraction x n) of sorted latencies', () => {
    const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(sorted, 0.5)).toBe(51);
    expect(percentile(sorted, 0.99)).toBe(100);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBe(0);
  });

  it('summarises unsorted latencies over the elapsed time', () => {
    const figures = summariseLatencies([4, 1, 3, 2], 2, 1, 2);
    expect(figures).toEqual({ requests: 4, qps: 2, p50: 3, p99: 4, errors: 1, partial: 2 });
    expect(summariseLatencies([], 0)).toEqual({ requests: 0, qps: 0, p50: 0, p99: 0, errors: 0, partial: 0 });
  });

  it('rounds milliseconds to two decimals and bytes to MiB', () => {
    expect(milliseconds(1.23456)).toBe(1.23);
    expect(milliseconds(7)).toBe(7);
    expect(mebibytes(3 * 2 ** 20 + 100)).toBe(3);
  });
});

describe('ratios', () => {
  it('divides by the reference, with two decimals', () => {
    expect(ratio(300, 100)).toBe('3.00x');
    expect(ratio(1, 3)).toBe('0.33x');
  });

  it('is empty without a usable reference', () => {
    expect(ratio(100, undefined)).toBe('');
    expect(ratio(undefined, 100)).toBe('');
    expect(ratio(100, 0)).toBe('');
    expect(ratio(Number.NaN, 100)).toBe('');
  });
});

describe('markdown tables', () => {
  it('pads columns, right-aligns numeric ones and left-aligns text', () => {
    const table = markdownTable([
      { path: '/search keyword', QPS: 1200, ratio: '0.50x' },
      { path: '/ground', QPS: 35, ratio: '' },
    ]);
    expect(table.split('\n')).toEqual([
      '| path            |  QPS | ratio |',
      '|-----------------|-----:|-------|',
      '| /search keyword | 1200 | 0.50x |',
      '| /ground         |   35 |       |',
    ]);
  });

  it('takes the columns given, in order, with empty cells for missing values, and escapes pipes', () => {
    const table = markdownTable([{ a: 'x|y', b: 2 }, { a: 'z' }], ['b', 'a', 'c']);
    expect(table.split('\n')).toEqual(['|   b | a    | c   |', '|----:|------|-----|', '|   2 | x\\|y |     |', '|     | z    |     |']);
  });

  it('is empty without columns', () => {
    expect(markdownTable([])).toBe('');
  });
});

describe('workloads', () => {
  it('sends every bench query with the same limit to every server', () => {
    const keyword = WORKLOADS['search-keyword'];
    expect(keyword.paths).toHaveLength(keyword.peerPaths!.length);
    expect(keyword.paths[0]).toMatch(/^\/search\?q=[^&]+&mode=keyword&limit=10$/);
    expect(keyword.peerPaths![0]).toBe(keyword.paths[0].replace('&mode=keyword', ''));
    expect(WORKLOADS['search-hybrid'].paths[0]).toContain('&mode=hybrid&limit=10');
    expect(WORKLOADS['search-hybrid'].peerPaths).toBeUndefined();
    expect(WORKLOADS.ground.paths[0]).toMatch(/^\/ground\?objective=/);
  });

  it('labels each by route and mode', () => {
    expect(WORKLOAD_NAMES.map(workloadLabel)).toEqual(['/search keyword', '/search hybrid', '/search hybrid-new', '/ground']);
  });
});

describe('answer overlap', () => {
  it('averages, per query with reference hits, the share of them the other server returned', () => {
    const reference = [['a', 'b', 'c', 'd'], [], ['x', 'y']];
    const other = [['d', 'a', 'q', 'r'], ['z'], ['y', 'x']];
    expect(meanOverlap(reference, other)).toBeCloseTo((2 / 4 + 1) / 2, 12);
    expect(meanOverlap(reference, [])).toBe(0);
    expect(meanOverlap([[], []], other)).toBeNull();
  });
});
