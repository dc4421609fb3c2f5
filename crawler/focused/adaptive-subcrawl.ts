/**
 * The adaptive crawler's "subcrawl" reading of "keep following from this node" (TUNNEL_MODES): a
 * tunnelled page opens a second frontier, its links ordered by Q, that runs beside the main crawl
 * for up to `maxPages` pages. It shares the request budget and the concurrency slots: each page of
 * the main crawl that comes back releases one of its links to the engine, ahead of everything
 * queued, so the two alternate; the engine holds the sub-crawl's links as discarded until then
 * (PageDecision.readmit). Its own pages' tunnelling links join it. When it has fetched `maxPages`
 * pages, or has nothing left, it closes and its unreleased links fall back to the main frontier
 * by Q, as "priority" queues them.
 */

export interface HeldLink {
  url: string;
  q: number;
  depth: number;
}

/**
 * Pages of the crawl after which a released link that has not come back is taken as lost (a
 * non-2xx answer, which no strategy sees): a released link is fetched next, so it comes back
 * within about the crawl's concurrency, and 64 is four times the crawler's default of 16.
 */
export const LOST_AFTER = 64;

export class SubCrawl {
  /** Links released (each one request of the shared budget) and pages of it that came back. */
  released = 0;
  fetched = 0;
  private readonly queue: (HeldLink & { order: number })[] = [];
  /** Released links not back yet, with the crawl's page count when each was released. */
  private readonly pending = new Map<string, number>();
  private added = 0;

  constructor(
    readonly id: number,
    readonly maxPages: number,
  ) {}

  /** A link into the sub-crawl's frontier. */
  add(l: HeldLink): void {
    this.queue.push({ ...l, order: this.added++ });
  }

  /** Up to n of the best links by Q (ties: first added first), released to the engine at page count `now`. */
  take(n: number, now: number): HeldLink[] {
    const room = Math.max(0, this.maxPages - this.released);
    if (!room || !this.queue.length) return [];
    this.queue.sort((a, b) => b.q - a.q || a.order - b.order);
    const out = this.queue.splice(0, Math.min(n, room)).map(({ url, q, depth }) => ({ url, q, depth }));
    for (const l of out) this.pending.set(l.url, now);
    this.released += out.length;
    return out;
  }

  /**
   * A page of the sub-crawl came back. One under a URL it did not release is a redirect's target
   * (it keeps its link's priority): it settles the oldest pending link.
   */
  returned(url: string): void {
    this.fetched++;
    if (this.pending.delete(url)) return;
    const oldest = this.pending.keys().next();
    if (!oldest.done) this.pending.delete(oldest.value);
  }

  /** Forgets released links that have not come back within LOST_AFTER pages of the crawl. */
  expire(now: number): void {
    for (const [url, at] of this.pending) if (now - at > LOST_AFTER) this.pending.delete(url);
  }

  /** Nothing on the way, and its pages spent or nothing left to release. */
  get done(): boolean {
    return this.pending.size === 0 && (this.released >= this.maxPages || !this.queue.length);
  }

  /** The links it never released (when it closes). */
  drain(): HeldLink[] {
    return this.queue.splice(0).map(({ url, q, depth }) => ({ url, q, depth }));
  }
}
