/**
 * Is one ranking better than another on these queries, or is the gap noise? A paired
 * comparison over the same queries: the mean per-query difference of a metric, a 95% bootstrap
 * interval for it (queries resampled with replacement, a fixed seed so every run prints the
 * same interval), and how many queries went each way.
 */

export interface PairedDifference {
  /** mean of (a - b) over the paired queries */
  mean: number;
  /** 2.5th and 97.5th percentiles of the bootstrap means */
  low: number;
  high: number;
  better: number;
  same: number;
  worse: number;
  queries: number;
}

export const BOOTSTRAP_SAMPLES = 10_000;
const SAME_WITHIN = 1e-9;

/** A small deterministic generator (mulberry32): the same seed gives the same interval. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** `a` against `b` on the queries both scored. */
export function pairedDifference(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>, samples = BOOTSTRAP_SAMPLES, seed = 1): PairedDifference {
  const differences: number[] = [];
  for (const [query, value] of a) {
    const other = b.get(query);
    if (other !== undefined) differences.push(value - other);
  }
  const count = differences.length;
  const better = differences.filter((difference) => difference > SAME_WITHIN).length;
  const worse = differences.filter((difference) => difference < -SAME_WITHIN).length;
  if (count === 0) return { mean: 0, low: 0, high: 0, better, same: 0, worse, queries: 0 };
  const mean = differences.reduce((sum, difference) => sum + difference, 0) / count;
  const random = generator(seed);
  const means: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    let sum = 0;
    for (let draw = 0; draw < count; draw++) sum += differences[Math.floor(random() * count)];
    means.push(sum / count);
  }
  means.sort((left, right) => left - right);
  const at = (fraction: number) => means[Math.min(samples - 1, Math.floor(fraction * samples))];
  return { mean, low: at(0.025), high: at(0.975), better, same: count - better - worse, worse, queries: count };
}

/** One line: `+0.004 (95% CI -0.010..+0.018; 9 better, 35 same, 6 worse of 50)`. */
export function describeDifference(difference: PairedDifference): string {
  const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
  return `${signed(difference.mean)} (95% CI ${signed(difference.low)}..${signed(difference.high)}; ${difference.better} better, ${difference.same} same, ${difference.worse} worse of ${difference.queries})`;
}
