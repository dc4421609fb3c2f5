/** The deep-web crawler's own seeded randomness (SFC32): samples and shuffles, same seed same choices. */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;
  constructor(seed: number) {
    this.a = seed | 0;
    this.b = Math.imul(seed, 0x9e3779b9) | 0;
    this.c = (seed ^ 0x85ebca6b) | 0;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** k distinct integers from [0, n), in the order drawn. */
  sample(n: number, k: number): number[] {
    const picked = new Set<number>();
    while (picked.size < Math.min(k, n)) picked.add(this.int(n));
    return [...picked];
  }
}
