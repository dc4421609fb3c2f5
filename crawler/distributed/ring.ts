/**
 * Consistent hashing (Karger et al.; BUbiNG assigns hosts to agents this way): members sit at
 * many points of a 32-bit ring, a key belongs to the first member point at or after its hash.
 * A member joining or leaving moves only the keys next to its points.
 */
import { fingerprint } from '../url.ts';

const hash = (s: string): number => fingerprint(s)[0] >>> 0;

export class HashRing {
  private readonly points: { at: number; member: string }[] = [];

  constructor(
    members: readonly string[],
    readonly replicas = 128,
  ) {
    for (const m of members) for (let i = 0; i < replicas; i++) this.points.push({ at: hash(`${m}#${i}`), member: m });
    this.points.sort((a, b) => a.at - b.at || (a.member < b.member ? -1 : 1));
  }

  get size(): number {
    return this.points.length / this.replicas;
  }

  /** The member owning key, or undefined on an empty ring. */
  owner(key: string): string | undefined {
    if (!this.points.length) return undefined;
    const h = hash(key);
    let lo = 0;
    let hi = this.points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.points[mid].at < h) lo = mid + 1;
      else hi = mid;
    }
    return this.points[lo === this.points.length ? 0 : lo].member;
  }
}
