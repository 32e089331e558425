/**
 * Small seeded PRNG (mulberry32) plus helpers. Everything in the demo corpus is drawn from one
 * stream, so the output is a pure function of (seed, passages, now).
 */

/** 32-bit avalanche mix (murmur3 finaliser). */
export function mix32(value: number): number {
  value = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  value = Math.imul(value ^ (value >>> 13), 0xc2b2ae35);
  return (value ^ (value >>> 16)) >>> 0;
}

/** FNV-1a hash of a string, 32 bits. Used for stable per-host jitter. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Stable number in [0, 1) derived from a string. */
export function unitHash(text: string): number {
  return mix32(fnv1a(text)) / 4294967296;
}

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    // Fold seeds up to 2^53 into 32 bits, then scramble so that small seeds differ a lot.
    const low32 = seed >>> 0;
    const high32 = Math.floor(seed / 4294967296) >>> 0;
    this.state = mix32(low32 ^ mix32(high32 ^ 0x9e3779b9));
  }

  /** Uniform float in [0, 1). */
  next(): number {
    let bits = (this.state = (this.state + 0x6d2b79f5) | 0);
    bits = Math.imul(bits ^ (bits >>> 15), bits | 1);
    bits ^= bits + Math.imul(bits ^ (bits >>> 7), bits | 61);
    return ((bits ^ (bits >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform 32-bit unsigned integer. */
  uint32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }

  /** Integer in [0, bound). */
  below(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /** Integer in [low, high] (inclusive). */
  range(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Pick favouring the start of the array (power > 1 skews harder). */
  pickSkewed<T>(items: readonly T[], power: number): T {
    return items[Math.floor(Math.pow(this.next(), power) * items.length)];
  }

  /** Pick by cumulative weights (cumulativeWeights[i] = sum of weights 0..i). */
  pickWeighted<T>(items: readonly T[], cumulativeWeights: readonly number[]): T {
    const target = this.next() * cumulativeWeights[cumulativeWeights.length - 1];
    let low = 0;
    let high = cumulativeWeights.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulativeWeights[middle] > target) high = middle;
      else low = middle + 1;
    }
    return items[low];
  }

  /** count distinct items (count <= items.length), order random. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const picked: T[] = [];
    for (let i = 0; i < count && copy.length > 0; i++) {
      const index = this.below(copy.length);
      picked.push(copy[index]);
      copy[index] = copy[copy.length - 1];
      copy.pop();
    }
    return picked;
  }

  /** Exponentially distributed value with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
}

/** Build a cumulative weight table. */
export function cumulative(weights: readonly number[]): number[] {
  const sums: number[] = [];
  let total = 0;
  for (const weight of weights) {
    total += weight;
    sums.push(total);
  }
  return sums;
}
