/**
 * When each queued URL is taken, and how many are in flight. Two modes.
 *
 * Throughput mode keeps `concurrency` requests in flight and hands each outcome on as it
 * arrives; a host gets no more tasks than it can start (one until its robots.txt is known, one
 * per gap while a gap applies), so that no task holds a global slot while it waits at a gate.
 *
 * Deterministic mode works in steps: it takes the best `concurrency` URLs (at most
 * perHostConcurrency per host), runs their tasks concurrently (politely), then hands the
 * outcomes on in the order the URLs were taken, so the same web, settings and strategy always
 * give the same fetch order and the same log, whatever the timing.
 *
 * Batch crawling (Strategy.batch, Best-N-First): while a batch is being fetched, new links wait
 * in `held`; they enter the frontier, and the next batch is ranked, when it is done.
 */
import type { Frontier, QueueEntry } from './frontier.ts';
import type { HostState } from './hosts.ts';
import type { Outcome } from './outcomes.ts';
import type { CrawlSettings } from './settings.ts';
import { sleep } from '../lib/time.ts';

/** What the scheduler asks of the engine. */
export interface SchedulerHooks {
  host(name: string): HostState;
  /** A URL was taken: false if it is dropped unfetched (a skipped or capped host; counted there). */
  take(e: QueueEntry): boolean;
  /** robots.txt, the politeness gate, the fetch and its retries; never throws. */
  task(e: QueueEntry): Promise<Outcome>;
  /** Logs an outcome and admits its links; false if no request was made. */
  handle(o: Outcome): boolean;
  /** After each step's outcomes: journal, checkpoint, progress. */
  afterStep(): void;
  /** The frontier ran dry: true if the strategy rescued links. */
  rescue(): boolean;
  /** Nothing queued or in flight: true ends the crawl (a distributed crawl may wait for more). */
  idle(): Promise<boolean>;
}

export class Scheduler {
  /** URLs taken that count against the page budget (those that made no request are given back). */
  dispatched = 0;
  private stopping = false;
  private readonly held: QueueEntry[] = [];
  private batchLeft = 0;
  private wakeLoop: (() => void) | null = null;
  /** Tasks given to a host and not finished (throughput mode): waiting ones hold no global slot twice. */
  private readonly assignedCount = new Map<string, number>();

  constructor(
    private readonly settings: CrawlSettings,
    private readonly frontier: Frontier,
    /** Strategy.batch; 0: no batches. */
    private readonly batch: number,
    private readonly hooks: SchedulerHooks,
  ) {}

  /** A URL for the frontier, or held until the current batch is done. */
  queue(e: QueueEntry): void {
    if (this.batchLeft > 0) this.held.push(e);
    else this.frontier.push(e);
  }

  /** URLs waiting: in the frontier and held for the next batch. */
  get waiting(): number {
    return this.frontier.size + this.held.length;
  }

  /** Takes no more URLs; the loop ends once the tasks in flight are done. */
  stop(): void {
    this.stopping = true;
    this.wake();
  }

  /** New work arrived from outside (a distributed crawl's transport). */
  wake(): void {
    this.wakeLoop?.();
  }

  run(): Promise<void> {
    return this.settings.deterministic ? this.runSteps() : this.runConcurrent();
  }

  private budgetLeft(): number {
    return this.settings.maxPages - this.dispatched;
  }

  /** Called before taking a URL: at a batch boundary, queues the held links and opens the next batch. */
  private openBatch(): void {
    if (!this.batch || this.batchLeft > 0) return;
    for (const e of this.held.splice(0)) this.frontier.push(e);
    this.batchLeft = this.batch;
  }

  /** The frontier is empty: ends the current batch early if links are held; false if none are. */
  private releaseHeld(): boolean {
    if (!this.held.length) return false;
    this.batchLeft = 0;
    this.openBatch();
    return true;
  }

  private handle(o: Outcome): void {
    if (!this.hooks.handle(o)) this.dispatched--;
  }

  private eligible(hostName: string, stepCount?: Map<string, number>): boolean {
    const h = this.hooks.host(hostName);
    if (h.skipped) return true; // taken so that its URLs are dropped and counted
    if (h.dispatched >= this.settings.maxPagesPerHost) return true; // likewise
    if (stepCount) return (stepCount.get(hostName) ?? 0) < this.settings.perHostConcurrency;
    // until a host's robots.txt is known (its Crawl-delay may be long), give it one task: tasks
    // waiting at a host's gate would hold global slots the other hosts could use
    if (!h.robots) return this.assigned(hostName) < 1;
    // a host with a gap starts one request per gap: a second task before the first has passed
    // the gate would only wait there, holding a global slot
    const assigned = this.assigned(hostName);
    if (h.minGapMs > 0 && assigned > h.inFlight) return false;
    return assigned < this.settings.perHostConcurrency && h.ready();
  }

  private assigned(host: string): number {
    return this.assignedCount.get(host) ?? 0;
  }

  private async runSteps(): Promise<void> {
    const more = (): boolean => this.frontier.size > 0 || this.releaseHeld() || this.hooks.rescue();
    while (!this.stopping && this.budgetLeft() > 0 && more()) {
      const counts = new Map<string, number>();
      const step: QueueEntry[] = [];
      this.openBatch();
      // a step never straddles two Best-N-First batches: the next batch is ranked after this one's links are in
      const room = this.batch ? this.batchLeft : Infinity;
      while (step.length < Math.min(this.settings.concurrency, this.budgetLeft(), room)) {
        const e = this.frontier.next((h) => this.eligible(h, counts));
        if (!e) break;
        if (this.hooks.take(e)) {
          counts.set(e.host, (counts.get(e.host) ?? 0) + 1);
          step.push(e);
          this.dispatched++;
        }
      }
      if (this.batch) this.batchLeft -= step.length;
      if (!step.length) continue;
      const outcomes = await Promise.all(step.map((e) => this.hooks.task(e)));
      for (const o of outcomes) this.handle(o);
      this.hooks.afterStep();
    }
  }

  private async runConcurrent(): Promise<void> {
    const inflight = new Set<Promise<void>>();
    const done: Outcome[] = [];
    let wake: (() => void) | null = null;
    // also wake when a waiting host becomes ready, so that its URLs are dispatched on time: one
    // timer, re-armed at each wait (a new timer per page cost more than the rest of this loop)
    const tick = setTimeout(() => wake?.(), 50);
    try {
      for (;;) {
        while (!this.stopping && inflight.size < this.settings.concurrency && this.budgetLeft() > 0) {
          this.openBatch();
          const e = this.frontier.next((h) => this.eligible(h));
          if (!e) break;
          if (!this.hooks.take(e)) continue;
          this.dispatched++;
          if (this.batch) this.batchLeft--;
          this.assignedCount.set(e.host, this.assigned(e.host) + 1);
          const p: Promise<void> = this.hooks.task(e).then((o) => {
            this.assignedCount.set(e.host, this.assigned(e.host) - 1);
            done.push(o);
            inflight.delete(p);
            wake?.();
          });
          inflight.add(p);
        }
        if (done.length) {
          for (const o of done.splice(0)) this.handle(o);
          this.hooks.afterStep();
          continue;
        }
        if (inflight.size === 0) {
          if (this.stopping || this.budgetLeft() <= 0) break;
          if (this.frontier.size === 0) {
            if (this.releaseHeld() || this.hooks.rescue()) continue;
            if (await this.hooks.idle()) break;
            continue;
          }
          // every host with work is waiting for its politeness gap: sleep until the first is ready
          let soonest = Infinity;
          for (const name of this.frontier.hostsWithWork()) soonest = Math.min(soonest, this.hooks.host(name).nextAt);
          await sleep(Math.max(1, Math.min(1000, soonest - performance.now())));
          continue;
        }
        await new Promise<void>((r) => {
          wake = r;
          this.wakeLoop = r;
          tick.refresh();
        });
        wake = null;
      }
    } finally {
      clearTimeout(tick);
    }
  }
}
