/**
 * Seeded randomness for the synthetic web. Every random choice of the generator and the
 * server goes through here, so one (config, seed) pair always yields the same web.
 */
import seedrandom from 'seedrandom';

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

export function makeRng(seed: string): Rng {
  const alea = seedrandom.alea(seed);
  const next = (): number => alea();
  return {
    next,
    int: (n) => Math.floor(next() * n),
    range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}

/**
 * A small fast generator (SFC32) seeded from integers through hash32: rendering creates one
 * per page view, where seeding seedrandom from a string would cost more than the page.
 */
export function fastRng(a: number, b = 0, c = 0, d = 0): Rng {
  return new Sfc32(hash32(a, b, c, d), hash32(b, c, d, a), hash32(c, d, a, b));
}

class Sfc32 implements Rng {
  private s3 = 1;
  constructor(private s0: number, private s1: number, private s2: number) {
    for (let i = 0; i < 8; i++) this.next();
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
  int(n: number): number { return Math.floor(this.next() * n); }
  range(lo: number, hi: number): number { return lo + Math.floor(this.next() * (hi - lo + 1)); }
  chance(p: number): boolean { return this.next() < p; }
  pick<T>(items: readonly T[]): T { return items[Math.floor(this.next() * items.length)]; }
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

/** String to a 32-bit seed, so configs can name seeds as numbers or words. */
export function seedNumber(seed: string | number): number {
  const s = String(seed);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Sampler over ranks 0..n-1 with P(rank r) proportional to 1/(r+1)^s (Zipf). */
export class ZipfSampler {
  private readonly cdf: Float64Array;
  /** Inverse-CDF lookup table: rendering samples millions of words, so O(1) per word. */
  private readonly table: Uint16Array;
  static readonly TABLE = 8192;
  constructor(n: number, s: number) {
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let r = 0; r < n; r++) {
      total += 1 / Math.pow(r + 1, s);
      this.cdf[r] = total;
    }
    for (let r = 0; r < n; r++) this.cdf[r] /= total;
    this.table = new Uint16Array(ZipfSampler.TABLE);
    for (let j = 0; j < ZipfSampler.TABLE; j++) this.table[j] = lowerBound(this.cdf, (j + 0.5) / ZipfSampler.TABLE);
  }
  /** Rank for a uniform u in [0, 1), quantised to 1/8192 (every rank keeps probability > 0 for n <= 8192 / H(n)). */
  sample(u: number): number {
    return this.table[(u * ZipfSampler.TABLE) | 0];
  }
}

/** First index i with arr[i] > u (arr ascending); the inverse-CDF lookup. */
export function lowerBound(arr: Float64Array, u: number, lo = 0, hi = arr.length): number {
  let l = lo;
  let h = hi - 1;
  while (l < h) {
    const m = (l + h) >>> 1;
    if (arr[m] > u) h = m;
    else l = m + 1;
  }
  return l;
}
