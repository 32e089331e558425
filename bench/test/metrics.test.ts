/**
 * The quality benchmark's metrics on a toy ranking, against values computed by hand:
 * judgements d1=3, d2=2, d3=0, d4=1, d5=2 (d5 never retrieved); ranking d3 d1 x d4 d2.
 *   DCG@10  = 0/1 + 3/log2(3) + 0/2 + 1/log2(5) + 2/log2(6)      = 3.0971715
 *   IDCG@10 = 3/1 + 2/log2(3) + 2/2 + 1/log2(5)  (grades 3 2 2 1) = 5.6925361
 *   nDCG@10 = 0.5440759;  nDCG@3 = (3/log2(3)) / (3 + 2/log2(3) + 2/2) = 0.3597187
 *   recall@100 (grade >= 1) = 3/4;  (grade >= 2) = 2/3;  recall@2 = 1/4
 */
import { describe, expect, it } from 'vitest';
import { dcg, hasRelevant, mean, ndcgAt, recallAt } from '../src/quality/metrics.js';
import { cleanQuery } from '../src/quality/clean.js';

const judgements = new Map([
  ['d1', 3],
  ['d2', 2],
  ['d3', 0],
  ['d4', 1],
  ['d5', 2],
]);
const ranking = ['d3', 'd1', 'x', 'd4', 'd2'];

describe('quality metrics', () => {
  it('discounts by log2(rank + 1)', () => {
    expect(dcg([3, 2, 1])).toBeCloseTo(3 + 2 / Math.log2(3) + 1 / 2, 12);
    expect(dcg([0, 3, 0, 1, 2])).toBeCloseTo(3.0971715, 6);
  });

  it('computes nDCG@k with graded gains and the ideal from all judgements', () => {
    expect(ndcgAt(ranking, judgements, 10)).toBeCloseTo(0.5440759, 6);
    expect(ndcgAt(ranking, judgements, 3)).toBeCloseTo(0.3597187, 6);
    expect(ndcgAt(['d1', 'd2', 'd5', 'd4'], judgements, 10)).toBeCloseTo(1, 12);
    expect(ndcgAt([], judgements, 10)).toBe(0);
  });

  it('counts a repeated id once', () => {
    expect(ndcgAt(['d1', 'd1', 'd2'], judgements, 2)).toBeCloseTo(1, 12);
    expect(recallAt(['d1', 'd1', 'd1'], judgements, 100)).toBeCloseTo(1 / 4, 12);
  });

  it('computes recall@k at a grade threshold', () => {
    expect(recallAt(ranking, judgements, 100, 1)).toBeCloseTo(3 / 4, 12);
    expect(recallAt(ranking, judgements, 100, 2)).toBeCloseTo(2 / 3, 12);
    expect(recallAt(ranking, judgements, 2, 1)).toBeCloseTo(1 / 4, 12);
  });

  it('gives 0 for a query without relevant judgements, and hasRelevant excludes it', () => {
    const none = new Map([['d3', 0]]);
    expect(ndcgAt(['d3'], none, 10)).toBe(0);
    expect(recallAt(['d3'], none, 100)).toBe(0);
    expect(hasRelevant(none)).toBe(false);
    expect(hasRelevant(undefined)).toBe(false);
    expect(hasRelevant(judgements, 3)).toBe(true);
    expect(mean([0.5, 1])).toBe(0.75);
    expect(mean([])).toBe(0);
  });
});

describe('query cleaning', () => {
  it('neutralises query syntax the same way for every engine', () => {
    expect(cleanQuery("medicare's definition of mechanical ventilation")).toBe('medicare s definition of mechanical ventilation');
    expect(cleanQuery('Compilers that can compile both C AND C++')).toBe('Compilers that can compile both C and C');
    expect(cleanQuery('title:"cast iron" -rust (NOT OR) [a TO b] {x}^2 ~y* why? a\\b/c `d` e!')).toBe('title cast iron rust not or a TO b x 2 y why a b c d e');
    expect(cleanQuery('ANDROID ORBIT IN INDIA')).toBe('ANDROID ORBIT in INDIA');
  });
});
