/**
 * Seeded randomness both sides share: the SFC32 generator (fast, 128-bit state, seeded from
 * integers) and a stateless 32-bit hash. The synthetic web (sim/web-rng.ts) and the crawler's own
 * choices (crawler/deepweb/random.ts) seed it each in their way; the steps are this one. Two older
 * streams live here too: xorshift32 (the trained models rest on its sequence) and lcg32 (retry jitter).
 */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** Integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** SFC32 (Chris Doty-Humphrey's small fast chaotic generator), counter starting at 1, `warmup` steps discarded. */
export class Sfc32 implements Rng {
  private s3 = 1;
  constructor(
    private s0: number,
    private s1: number,
    private s2: number,
    warmup: number,
  ) {
    for (let i = 0; i < warmup; i++) this.next();
  }
  next(): number {
    const t = (((this.s0 + this.s1) | 0) + this.s3) | 0;
    this.s3 = (this.s3 + 1) | 0;
    this.s0 = this.s1 ^ (this.s1 >>> 9);
    this.s1 = (this.s2 + (this.s2 << 3)) | 0;
    this.s2 = (this.s2 << 21) | (this.s2 >>> 11);
    this.s2 = (this.s2 + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

/**
 * 32-bit hash of up to four integers (murmur3-style multiply-xorshift rounds): cheap, stateless
 * decisions (faults, noise, names) keyed by ids. Rendering calls it several times per link.
 */
export function hash32(a: number, b = 0, c = 0, d = 0): number {
  let h = Math.imul((a | 0) ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h ^ (b | 0), 0xc2b2ae35);
  h ^= h >>> 13;
  h = Math.imul(h ^ (c | 0), 0x85ebca6b);
  h ^= h >>> 16;
  h = Math.imul(h ^ (d | 0), 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** hash32 mapped to [0, 1). */
export function unit(a: number, b = 0, c = 0, d = 0): number {
  return hash32(a, b, c, d) / 4294967296;
}

/**
 * Marsaglia's xorshift32 (shifts 13, 17, 5) as a [0, 1) stream; a seed of 0 is made odd. The
 * Naive Bayes sampler shuffles with it: its sequence fixes which rows train a model, so the
 * trained models and every focused result stay as they were.
 */
export function xorshift32(seed: number): () => number {
  let s = seed | 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/**
 * The classic C library LCG (multiplier 1103515245, increment 12345, modulo 2^32) as a [0, 1)
 * stream; the seed is made odd. Cheap and good enough where only timing depends on it (retry
 * jitter); nothing a result rests on may use it.
 */
export function lcg32(seed: number): () => number {
  let s = seed | 1;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    return (s >>> 0) / 4294967296;
  };
}
