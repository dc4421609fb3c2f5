/**
 * Per-host politeness: at most N requests in flight per host, a minimum gap between requests
 * (the larger of the configured delay, Crawl-delay and, with AutoThrottle, the latency rule),
 * back-off of the whole host on 429/503 with Retry-After, and exponential back-off of the whole
 * host on 5xx/429 without it (Heritrix and Scrapy back off a failing server, not one URL).
 * acquire() waits until the host may be contacted; release() records the response.
 *
 * The gap is kept as the server sees it: with a gap, one request at a time awaits its answer,
 * and the next starts a gap after the moment the previous one was written to the socket and a
 * gap after its response headers arrived. A busy server reads a request late, but always before
 * it answers, so requests a gap apart after the answer are a gap apart in the server's clock too
 * (a gap counted from the send alone read as 175 ms at 200 ms on a loaded machine).
 */
import type { RobotsRules } from './robots-cache.ts';
import type { SendWatch } from './sendtime.ts';

export interface PolitenessSettings {
  perHostConcurrency: number;
  delayMs: number;
  autoThrottle: boolean;
  autoThrottleTarget: number;
  autoThrottleMaxDelayMs: number;
  /** Base of the host back-off on server errors (the larger of it and the gap, doubled per error in a row). */
  retryBaseMs: number;
  hostBackoffMaxMs: number;
}

/** What release() needs of a response (null: no response, e.g. a network error). */
export interface ResponseMark {
  status: number;
  latencyMs: number;
  headersAt: number;
  retryAfterMs?: number;
}

/** Timers may fire up to a millisecond before performance.now() says the time has come. */
const TIMER_SLACK_MS = 1;

export class HostState {
  readonly name: string;
  inFlight = 0;
  /** Earliest performance.now() at which the next request may start. */
  nextAt = 0;
  /** Current gap (configured delay, raised by Crawl-delay and AutoThrottle). */
  delayMs: number;
  crawlDelayMs = 0;
  /** Pages dispatched to this host (for maxPagesPerHost). */
  dispatched = 0;
  /** The rules last fetched for this host, of whichever origin (for scheduling and reasons). */
  robots: RobotsRules | null = null;
  /**
   * Rules per origin (scheme, host, port: RFC 9309 2.3): http://h/robots.txt says nothing about
   * https://h/, and a host reached by both has two files.
   */
  readonly robotsByOrigin = new Map<string, RobotsRules>();
  readonly robotsPending = new Map<string, Promise<RobotsRules>>();
  /** Set when the host is excluded from the crawl (e.g. Crawl-delay above the maximum). */
  skipped: string | null = null;
  /** Set when the host's address may not be connected to (CRAWL_ERR_ADDRESS_REFUSED): the reason. */
  refused: string | null = null;
  /** Server errors (5xx, 429 without Retry-After) in a row: the host back-off doubles with each. */
  errorStreak = 0;
  /** The crawl is stopping: no slot is granted any more, pauses end at once. */
  halted = false;
  private waiters: ((granted: boolean) => void)[] = [];
  private sleepers = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;

  /** onBackoff: told each time the host is held back for a server error (the summary counts them). */
  constructor(
    name: string,
    private readonly s: PolitenessSettings,
    private readonly onBackoff?: () => void,
  ) {
    this.name = name;
    this.delayMs = s.delayMs;
  }

  get minGapMs(): number {
    return Math.max(this.s.delayMs, this.crawlDelayMs, this.s.autoThrottle ? this.delayMs : 0);
  }

  /** Requests that may be in flight: perHostConcurrency, or one while a gap applies. */
  private get slots(): number {
    return this.minGapMs > 0 ? 1 : this.s.perHostConcurrency;
  }

  private get gapWithSlack(): number {
    return this.minGapMs > 0 ? this.minGapMs + TIMER_SLACK_MS : 0;
  }

  /** True when a request could start right now. */
  ready(now = performance.now()): boolean {
    return this.inFlight < this.slots && now >= this.nextAt;
  }

  /**
   * Waits for a free slot and the gap, then takes the slot (FIFO among waiters). The returned
   * watch must be passed to watchSend() around the request: the gap counts (also) from the
   * moment the request is written to the socket. null: the crawl is stopping (halt()), no slot
   * was taken.
   */
  async acquire(): Promise<SendWatch | null> {
    if (this.halted) return null;
    if (!(this.waiters.length === 0 && this.ready())) {
      const granted = await new Promise<boolean>((resolve) => {
        this.waiters.push(resolve);
        this.pump();
      });
      if (!granted) return null;
    } else this.take();
    return new HostWatch(this);
  }

  /** The request of a granted slot was written to the socket at `at` (HostWatch). */
  sentAt(at: number): void {
    this.nextAt = Math.max(this.nextAt, at + this.gapWithSlack);
    this.pump();
  }

  private take(): void {
    const now = performance.now();
    this.inFlight++;
    this.nextAt = now + this.gapWithSlack;
  }

  private pump(): void {
    if (this.timer) return;
    while (this.waiters.length && this.ready()) {
      this.take();
      this.waiters.shift()!(true);
    }
    if (this.waiters.length && this.inFlight < this.slots) {
      const wait = Math.max(0, this.nextAt - performance.now()) + TIMER_SLACK_MS;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, wait);
    }
  }

  /**
   * Frees the slot. With a response: the next request waits the gap after its headers arrived;
   * AutoThrottle: target = latency / target concurrency, new = max(target, (old + target) / 2);
   * a 5xx or a 429 without Retry-After holds the host back max(gap, retryBaseMs) x 2^(errors in
   * a row - 1), at most hostBackoffMaxMs; any other response ends the streak.
   */
  release(watch: SendWatch, res: ResponseMark | null): void {
    this.inFlight--;
    watch.sent = true; // a request that failed before reaching the socket is not watched any more
    if (res) {
      const gap = this.minGapMs;
      if (gap > 0) this.nextAt = Math.max(this.nextAt, res.headersAt + this.gapWithSlack);
      if (this.s.autoThrottle) {
        const target = res.latencyMs / this.s.autoThrottleTarget;
        let next = Math.max(target, (this.delayMs + target) / 2);
        next = Math.min(this.s.autoThrottleMaxDelayMs, Math.max(this.s.delayMs, next));
        // a non-200 response never shortens the delay (its latency says little about the server)
        if (res.status === 200 || next > this.delayMs) this.delayMs = next;
      }
      const serverError = res.status >= 500 || res.status === 429;
      if (serverError && res.retryAfterMs === undefined) {
        this.errorStreak++;
        this.onBackoff?.();
        const hold = Math.max(gap, this.s.retryBaseMs) * 2 ** Math.min(30, this.errorStreak - 1);
        this.nextAt = Math.max(this.nextAt, performance.now() + Math.min(this.s.hostBackoffMaxMs, hold));
      } else if (!serverError) this.errorStreak = 0;
    }
    this.pump();
  }

  /** Holds the whole host back (429/503 Retry-After). */
  backoff(ms: number): void {
    this.nextAt = Math.max(this.nextAt, performance.now() + ms);
    this.pump();
  }

  /** Waits ms (a retry's back-off); ends at once when the crawl stops. */
  pause(ms: number): Promise<void> {
    if (this.halted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.sleepers.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /** The crawl stops: waiters get no slot, pauses end, no slot is granted from now on. */
  halt(): void {
    this.halted = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.waiters.splice(0)) w(false);
    for (const s of [...this.sleepers]) s();
  }
}

/** A granted slot's request, watched until it is sent (one object per request, no closure). */
class HostWatch implements SendWatch {
  sent = false;
  constructor(private readonly host: HostState) {}
  onSent(at: number): void {
    this.host.sentAt(at);
  }
}
