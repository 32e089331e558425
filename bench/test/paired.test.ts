/**
 * The quality benchmark's paired comparison: the mean difference and the counts by hand, an
 * interval that brackets the mean, is the same on every run, and excludes zero only when one
 * side wins clearly.
 */
import { describe, expect, it } from 'vitest';
import { describeDifference, pairedDifference } from '../src/quality/paired.js';

const scores = (values: number[]) => new Map(values.map((value, index) => [`q${index}`, value]));

describe('pairedDifference', () => {
  it('averages per-query differences and counts which way each query went', () => {
    const result = pairedDifference(scores([0.5, 0.4, 0.3, 0.2]), scores([0.5, 0.2, 0.4, 0.2]));
    expect(result.mean).toBeCloseTo((0 + 0.2 - 0.1 + 0) / 4, 12);
    expect([result.better, result.same, result.worse, result.queries]).toEqual([1, 2, 1, 4]);
    expect(result.low).toBeLessThanOrEqual(result.mean);
    expect(result.high).toBeGreaterThanOrEqual(result.mean);
  });

  it('pairs only the queries both sides scored', () => {
    const result = pairedDifference(scores([1, 1, 1]), new Map([['q1', 0.5]]));
    expect(result.queries).toBe(1);
    expect(result.mean).toBe(0.5);
  });

  it('gives the same interval every run', () => {
    const a = scores([0.9, 0.1, 0.5, 0.7, 0.3, 0.6]);
    const b = scores([0.8, 0.3, 0.5, 0.4, 0.4, 0.6]);
    expect(pairedDifference(a, b)).toEqual(pairedDifference(a, b));
  });

  it('excludes zero for a clear win and includes it for a coin toss', () => {
    const steady = pairedDifference(scores(Array.from({ length: 40 }, () => 0.6)), scores(Array.from({ length: 40 }, () => 0.5)));
    expect(steady.low).toBeGreaterThan(0);
    const mixed = pairedDifference(scores(Array.from({ length: 40 }, (_, i) => (i % 2 ? 0.6 : 0.4))), scores(Array.from({ length: 40 }, () => 0.5)));
    expect(mixed.low).toBeLessThan(0);
    expect(mixed.high).toBeGreaterThan(0);
  });

  it('reads as one line', () => {
    expect(describeDifference({ mean: 0.004, low: -0.01, high: 0.018, better: 9, same: 35, worse: 6, queries: 50 })).toBe(
      '+0.004 (95% CI -0.010..+0.018; 9 better, 35 same, 6 worse of 50)',
    );
  });
});
