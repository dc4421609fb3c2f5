/**
 * Per-host politeness: at most N requests in flight per host, a minimum gap between request
 * starts (the larger of the configured delay, Crawl-delay and, with AutoThrottle, the latency
 * rule), and back-off of the whole host on 429/503 with Retry-After. acquire() waits until the
 * host may be contacted; release() records the response for AutoThrottle.
 */
import type { RobotsRules } from './robots.ts';
import type { SendWatch } from './sendtime.ts';

export interface PolitenessSettings {
  perHostConcurrency: number;
  delayMs: number;
  autoThrottle: boolean;
  autoThrottleTarget: number;
  autoThrottleMaxDelayMs: number;
}

/** Timers may fire up to a millisecond before performance.now() says the time has come. */
const TIMER_SLACK_MS = 1;

export class HostState {
  readonly name: string;
  inFlight = 0;
  /** Slots granted whose request has not reached the socket yet: the next one waits for them. */
  unsent = 0;
  /** Earliest performance.now() at which the next request may start. */
  nextAt = 0;
  /** Current gap (configured delay, raised by Crawl-delay and AutoThrottle). */
  delayMs: number;
  crawlDelayMs = 0;
  /** Pages dispatched to this host (for maxPagesPerHost). */
  dispatched = 0;
  robots: RobotsRules | null = null;
  robotsPending: Promise<RobotsRules> | null = null;
  /** Set when the host is excluded from the crawl (e.g. Crawl-delay above the maximum). */
  skipped: string | null = null;
  private waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(name: string, private readonly s: PolitenessSettings) {
    this.name = name;
    this.delayMs = s.delayMs;
  }

  get minGapMs(): number {
    return Math.max(this.s.delayMs, this.crawlDelayMs, this.s.autoThrottle ? this.delayMs : 0);
  }

  /** True when a request could start right now. */
  ready(now = performance.now()): boolean {
    return this.inFlight < this.s.perHostConcurrency && now >= this.nextAt && (this.unsent === 0 || this.minGapMs === 0);
  }

  /**
   * Waits for a free slot and the gap, then takes the slot (FIFO among waiters). The returned
   * watch must be passed to watchSend() around the request: the gap counts from the moment the
   * request is written to the socket, and the next request waits until then.
   */
  async acquire(): Promise<SendWatch> {
    if (!(this.waiters.length === 0 && this.ready())) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        this.pump();
      });
    } else this.take();
    const watch: SendWatch = {
      sent: false,
      onSent: (at) => {
        this.unsent--;
        this.nextAt = Math.max(this.nextAt, at + this.minGapMs + (this.minGapMs > 0 ? TIMER_SLACK_MS : 0));
        this.pump();
      },
    };
    return watch;
  }

  private take(): void {
    const now = performance.now();
    this.inFlight++;
    this.unsent++;
    this.nextAt = now + this.minGapMs + (this.minGapMs > 0 ? TIMER_SLACK_MS : 0);
  }

  private pump(): void {
    if (this.timer) return;
    while (this.waiters.length && this.ready()) {
      this.take();
      this.waiters.shift()!();
    }
    if (this.waiters.length && this.inFlight < this.s.perHostConcurrency && (this.unsent === 0 || this.minGapMs === 0)) {
      const wait = Math.max(0, this.nextAt - performance.now()) + TIMER_SLACK_MS;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, wait);
    }
  }

  /** Frees the slot; AutoThrottle: target = latency / target concurrency, new = max(target, (old + target) / 2). */
  release(watch: SendWatch, latencyMs: number | null, status: number | null): void {
    this.inFlight--;
    if (!watch.sent) {
      // failed before reaching the socket (connect error, refused address)
      watch.sent = true;
      this.unsent--;
    }
    if (this.s.autoThrottle && latencyMs !== null) {
      const target = latencyMs / this.s.autoThrottleTarget;
      let next = Math.max(target, (this.delayMs + target) / 2);
      next = Math.min(this.s.autoThrottleMaxDelayMs, Math.max(this.s.delayMs, next));
      // a non-200 response never shortens the delay (its latency says little about the server)
      if (status === 200 || next > this.delayMs) this.delayMs = next;
    }
    this.pump();
  }

  /** Holds the whole host back (429/503 Retry-After). */
  backoff(ms: number): void {
    this.nextAt = Math.max(this.nextAt, performance.now() + ms);
    this.pump();
  }

  /** Pending waiters are released (used when a crawl stops). */
  drain(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.waiters.splice(0)) w();
  }
}
