/**
 * Small seeded PRNG (mulberry32) plus helpers. Everything in the demo corpus is drawn from one
 * stream, so the output is a pure function of (seed, passages, now).
 */

/** 32-bit avalanche mix (murmur3 finaliser). */
export function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** FNV-1a hash of a string, 32 bits. Used for stable per-host jitter. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Stable number in [0, 1) derived from a string. */
export function unitHash(s: string): number {
  return mix32(fnv1a(s)) / 4294967296;
}

export class Rng {
  private state: number;

  constructor(seed: number) {
    // Fold seeds up to 2^53 into 32 bits, then scramble so that small seeds differ a lot.
    const lo = seed >>> 0;
    const hi = Math.floor(seed / 4294967296) >>> 0;
    this.state = mix32(lo ^ mix32(hi ^ 0x9e3779b9));
  }

  /** Uniform float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [lo, hi] (inclusive). */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(arr: readonly T[]): T {
    return arr[Math.floor(this.next() * arr.length)];
  }

  /** Pick favouring the start of the array (power > 1 skews harder). */
  skewPick<T>(arr: readonly T[], power: number): T {
    return arr[Math.floor(Math.pow(this.next(), power) * arr.length)];
  }

  /** Pick by cumulative weights (cum[i] = sum of weights 0..i). */
  pickCum<T>(arr: readonly T[], cum: readonly number[]): T {
    const r = this.next() * cum[cum.length - 1];
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    return arr[lo];
  }

  /** k distinct elements (k <= arr.length), order random. */
  sample<T>(arr: readonly T[], k: number): T[] {
    const copy = arr.slice();
    const out: T[] = [];
    for (let i = 0; i < k && copy.length > 0; i++) {
      const j = this.int(copy.length);
      out.push(copy[j]);
      copy[j] = copy[copy.length - 1];
      copy.pop();
    }
    return out;
  }

  /** Exponentially distributed value with the given mean. */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
}

/** Build a cumulative weight table. */
export function cumulative(weights: readonly number[]): number[] {
  const out: number[] = [];
  let acc = 0;
  for (const w of weights) {
    acc += w;
    out.push(acc);
  }
  return out;
}
