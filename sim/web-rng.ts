/**
 * Seeded randomness for the synthetic web. Every random choice of the generator and the
 * server goes through here, so one (config, seed) pair always yields the same web.
 */
import seedrandom from 'seedrandom';
import { hash32, Sfc32, type Rng } from '../lib/rng.ts';

export { hash32, unit, type Rng } from '../lib/rng.ts';

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
  return new Sfc32(hash32(a, b, c, d), hash32(b, c, d, a), hash32(c, d, a, b), 8);
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
      total += 1 / (r + 1) ** s;
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
  /** Rank for a uniform u in [0, 1) by binary search: every rank reachable, for large n. */
  exact(u: number): number {
    return Math.min(this.cdf.length - 1, lowerBound(this.cdf, u));
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
