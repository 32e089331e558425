/**
 * The article-extraction benchmark's metric (scrapinghub/article-extraction-benchmark, as its
 * README in ../shared/data/extraction states it): word 4-shingles counted as a multiset, page
 * precision and recall, each averaged over the pages where it is defined, F1 of the two means.
 */

/** Tokens as Python's `\w+` on a str: runs of letters, numbers and the underscore. */
const TOKEN = /[\p{L}\p{N}_]+/gu;

function shingles(text: string): Map<string, number> {
  const tokens = text.match(TOKEN) ?? [];
  const counts = new Map<string, number>();
  if (tokens.length === 0) return counts;
  if (tokens.length < 4) {
    counts.set(tokens.join(' '), 1);
    return counts;
  }
  for (let index = 0; index + 4 <= tokens.length; index++) {
    const shingle = tokens.slice(index, index + 4).join(' ');
    counts.set(shingle, (counts.get(shingle) ?? 0) + 1);
  }
  return counts;
}

export interface PageScore {
  /** Undefined when the prediction has no shingle. */
  precision?: number;
  /** Undefined when the truth has no shingle. */
  recall?: number;
}

export function scorePage(truth: string, prediction: string): PageScore {
  const expected = shingles(truth);
  const predicted = shingles(prediction);
  let truePositives = 0;
  let predictedTotal = 0;
  let expectedTotal = 0;
  for (const [shingle, count] of predicted) {
    predictedTotal += count;
    truePositives += Math.min(count, expected.get(shingle) ?? 0);
  }
  for (const count of expected.values()) expectedTotal += count;
  const falsePositives = predictedTotal - truePositives;
  const falseNegatives = expectedTotal - truePositives;
  const same = falsePositives === 0 && falseNegatives === 0;
  const score: PageScore = {};
  if (predictedTotal > 0) score.precision = same ? 1 : truePositives / (truePositives + falsePositives);
  if (expectedTotal > 0) score.recall = same ? 1 : truePositives / (truePositives + falseNegatives);
  return score;
}

export interface SetScore {
  precision: number;
  recall: number;
  f1: number;
  pages: number;
}

export function scoreSet(scores: PageScore[]): SetScore {
  const precisions = scores.flatMap((score) => (score.precision === undefined ? [] : [score.precision]));
  const recalls = scores.flatMap((score) => (score.recall === undefined ? [] : [score.recall]));
  const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
  const precision = mean(precisions);
  const recall = mean(recalls);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall), pages: scores.length };
}
