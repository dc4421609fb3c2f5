/**
 * Generated pages kept ready to send, by page id, the least recently used dropped first once
 * their bodies pass a byte bound. Safe because a page is a pure function of the web and its id
 * (sim/content.ts): the cache changes no byte that is sent, only how often a page is built.
 *
 * Why it pays: an experiment sends every strategy of a run through one server, so most pages are
 * asked for several times (the focused quick run renders 16,700 pages, 5,600 of them distinct,
 * 30 MB in all), and each is rendered and encoded again otherwise.
 */

/** The server's default bound: the quick run's pages fit; a million-page web's server stays in its memory target. */
export const DEFAULT_CACHE_BYTES = 64 * 2 ** 20;

export class PageCache<P extends { body: Buffer }> {
  private readonly map = new Map<number, P>();
  private held = 0;

  /** maxBytes 0: nothing is kept (bench:sim measures the generator). */
  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.map.size;
  }

  get(id: number): P | undefined {
    const p = this.map.get(id);
    if (p) {
      // most recently used last: a Map keeps insertion order
      this.map.delete(id);
      this.map.set(id, p);
    }
    return p;
  }

  /** Keeps `p` (unless it alone passes the bound) and returns it. */
  put(id: number, p: P): P {
    if (!this.maxBytes || p.body.length > this.maxBytes || this.map.has(id)) return p;
    this.map.set(id, p);
    this.held += p.body.length;
    for (const [old, q] of this.map) {
      if (this.held <= this.maxBytes) break;
      this.map.delete(old);
      this.held -= q.body.length;
    }
    return p;
  }
}
