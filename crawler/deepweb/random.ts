/** The deep-web crawler's own seeded randomness (SFC32, lib/rng.ts): samples and shuffles, same seed same choices. */
import { Sfc32 } from '../../lib/rng.ts';

export class SeededRandom extends Sfc32 {
  constructor(seed: number) {
    super(seed | 0, Math.imul(seed, 0x9e3779b9) | 0, (seed ^ 0x85ebca6b) | 0, 12);
  }

  /** k distinct integers from [0, n), in the order drawn. */
  sample(n: number, k: number): number[] {
    const picked = new Set<number>();
    while (picked.size < Math.min(k, n)) picked.add(this.int(n));
    return [...picked];
  }
}
