/**
 * The adaptive crawler's "subcrawl" reading of "keep following from this node" (TUNNEL_MODES): the
 * paper's step (4) spawns a thread for every link that tunnels. Each tunnelling link found by the
 * main crawl opens a thread (a SubCrawl): a frontier of its own, links ordered by Q, that runs
 * beside the main crawl for up to `maxPages` pages; its own pages' tunnelling links join it. At
 * most MAX_THREADS are open at a time (Threads; adaptive-options.ts); a tunnelling link found
 * while they all are waits, best Q first, for one to close. The threads share the request budget
 * and the concurrency slots with the main crawl as threads share one machine, turn by turn: each
 * page of the main crawl that comes back releases one link of every open thread to the engine,
 * ahead of everything queued, so with k threads open the main crawl makes one of every k + 1
 * fetches; the engine holds a thread's links as discarded until then (PageDecision.readmit). When
 * a thread has fetched `maxPages` pages, or has nothing left, it closes and its unreleased links
 * fall back to the main frontier by Q, as "priority" queues them.
 */
import { append } from '../../lib/arrays.ts';

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

/** A released link of a thread: which thread, and the crawl's page count when it was released. */
interface Pending {
  thread: SubCrawl;
  at: number;
}

/**
 * The open threads (at most `cap`) and the tunnelling links waiting for one. A page that comes back
 * is told to its thread by its URL; one under a URL no thread released (a redirect's target, which
 * keeps its link's priority) settles the oldest released link of any thread.
 */
export class Threads {
  readonly open: SubCrawl[] = [];
  private readonly waiting: (HeldLink & { order: number })[] = [];
  private readonly released = new Map<string, Pending>();
  private waited = 0;
  opened = 0;

  constructor(
    readonly cap: number,
    readonly maxPages: number,
  ) {}

  /** A tunnelling link of the main crawl: a thread of its own, or a wait for one. */
  start(l: HeldLink): void {
    if (this.open.length < this.cap) this.spawn(l);
    else this.waiting.push({ ...l, order: this.waited++ });
  }

  private spawn(l: HeldLink): void {
    const t = new SubCrawl(++this.opened, this.maxPages);
    t.add(l);
    this.open.push(t);
  }

  /** The thread a page that came back belongs to (null: a page of the main crawl); it is told. */
  returned(url: string, released: boolean): SubCrawl | null {
    let p = this.released.get(url);
    if (p) this.released.delete(url);
    else if (released) {
      // a redirect's target: the oldest released link of any thread
      const oldest = this.released.entries().next();
      if (!oldest.done) {
        p = oldest.value[1];
        this.released.delete(oldest.value[0]);
      }
    }
    if (!p) return null;
    p.thread.returned(url);
    return p.thread;
  }

  /** Up to n links of each open thread (first opened first), released at page count `now`. */
  take(n: number, now: number): HeldLink[] {
    return this.open.flatMap((t) => this.remember(t, t.take(n, now), now));
  }

  /** Up to n links in all, a thread's at a time (the main frontier ran dry). */
  takeAll(n: number, now: number): HeldLink[] {
    const out: HeldLink[] = [];
    for (const t of this.open) if (out.length < n) append(out, this.remember(t, t.take(n - out.length, now), now));
    return out;
  }

  /** Links a thread released, remembered as its until they come back. */
  private remember(t: SubCrawl, links: HeldLink[], now: number): HeldLink[] {
    for (const l of links) this.released.set(l.url, { thread: t, at: now });
    return links;
  }

  /**
   * Forgets released links lost on the way (SubCrawl.expire), closes spent threads and opens
   * waiting ones in their place: the links of the closed ones, never released.
   */
  step(now: number): HeldLink[] {
    for (const [url, p] of this.released) if (now - p.at > LOST_AFTER) this.released.delete(url);
    const left: HeldLink[] = [];
    const still: SubCrawl[] = [];
    for (const t of this.open) {
      t.expire(now);
      if (t.done) append(left, t.drain());
      else still.push(t);
    }
    this.open.splice(0, this.open.length, ...still);
    if (this.waiting.length && this.open.length < this.cap) {
      this.waiting.sort((a, b) => b.q - a.q || a.order - b.order);
      for (const { order: _, ...l } of this.waiting.splice(0, this.cap - this.open.length)) this.spawn(l);
    }
    return left;
  }

  /** Links held by a thread or waiting for one. */
  get holding(): boolean {
    return this.waiting.length > 0 || this.open.some((t) => !t.done);
  }
}
