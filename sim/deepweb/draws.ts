/**
 * The draws a record database (db.ts) is built from that depend on nothing but hashes and a seeded
 * generator: place names, seeded permutations, domain sizes that grow with the database, normal
 * draws and the flights' route map.
 */
import { hash32, type Rng, type ZipfSampler } from '../web-rng.ts';

const SYL = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tor',
  'va',
  'bel',
  'son',
  'dor',
  'fi',
  'gra',
  'hal',
  'ix',
  'jun',
  'mar',
  'nel',
  'os',
  'pra',
  'quin',
  'sar',
  'tel',
  'ul',
  'ven',
  'wick',
  'yar',
  'zen',
];
export function placeName(i: number, salt: number): string {
  const n = 2 + (hash32(i, salt) % 2);
  let s = '';
  for (let k = 0; k < n; k++) s += SYL[hash32(i, salt, k) % SYL.length];
  return s[0].toUpperCase() + s.slice(1);
}

/** n distinct names; a clash gets a numeric suffix ("Kalo 2"). */
export function uniqueNames(n: number, make: (i: number) => string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < n; i++) {
    let v = make(i);
    if (seen.has(v)) v = `${v} ${out.length}`;
    seen.add(v);
    out.push(v);
  }
  return out;
}

/** A seeded permutation, so the most popular value is not always the first option. */
export function permutation(n: number, r: Rng): Uint16Array {
  const p = new Uint16Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = r.int(i + 1);
    const t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

/** Heaps' law exponent for open-ended attribute domains. */
const HEAPS_BETA = 0.5;

/** Domain size growing as records^HEAPS_BETA: 1,000 records -> base, 100,000 -> 10 x base. */
export function scaledDomain(records: number, base: number, max: number): number {
  return Math.max(4, Math.min(max, Math.round(base * (records / 1000) ** HEAPS_BETA)));
}

export function unitOf(a: number, b: number, c: number, d: number): number {
  return hash32(a, b, c, d) / 4294967296;
}

export function gauss(r: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
}

/**
 * Each airport's destinations, by hashes of the base seed alone: a few per airport, more from the
 * hubs (the popular ones), so most (from, to) pairs never occur.
 */
export function flightRoutes(
  A: number,
  perm: ArrayLike<number> & { indexOf(x: number): number },
  popZ: ZipfSampler,
  base: number,
): number[][] {
  const dests: number[][] = [];
  for (let a = 0; a < A; a++) {
    const rank = perm.indexOf(a);
    const k = Math.min(A - 1, 3 + Math.round(12 / Math.sqrt(rank + 1)));
    const set = new Set<number>();
    for (let t = 0; set.size < k; t++) {
      // popular airports first; after many draws fall back to a uniform pick so this ends
      const d = t < 50 * k ? perm[popZ.sample(unitOf(base, a, t, 17))] : hash32(base, a, t, 18) % A;
      if (d !== a) set.add(d);
    }
    dests.push([...set]);
  }
  return dests;
}
