/**
 * One crawler process of a distributed crawl. It runs a CrawlEngine whose frontier holds only
 * the URLs of the buckets this process owns, delivered by the coordinator; every URL it
 * discovers (its own hosts' included) is published to its owner's bucket, so the frontier
 * lives outside the process. A delivery is acknowledged only after its URL has been fetched
 * and the page's links published: a process that dies loses nothing (the bucket's next owner
 * reclaims what it left unacknowledged). Before fetching, a URL is claimed in the coordinator
 * (no URL fetched twice, global budget). Membership is polled with every heartbeat; when
 * buckets move to a process that joined, their queued URLs are dropped here unacknowledged.
 */
import type { Dispatcher } from 'undici';
import { CrawlEngine, type CrawlSummary, type RemoteHooks } from '../engine.ts';
import type { LogEntry } from '../journal.ts';
import type { CrawlSettings } from '../settings.ts';
import type { PageView, Strategy } from '../strategy.ts';
import type { Coordinator, Delivery, UrlMessage } from './coordinator.ts';
import type { Partitioner } from './partition.ts';
import { sleep } from '../../lib/time.ts';
import { append } from '../../lib/arrays.ts';

export interface NodeOptions {
  id: string;
  datacentre: string;
  coordinator: Coordinator;
  partitioner: Partitioner;
  settings: Partial<CrawlSettings>;
  strategy: Strategy;
  /** Pages over all processes. */
  budget: number;
  dispatcher?: Dispatcher;
  outDir?: string;
  onLog?: (e: LogEntry, page: PageView | null) => void;
  /** Wait until this many processes of this data centre have joined, or the crawl has started, before crawling (0: start at once). */
  expectMembers?: number;
  heartbeatMs?: number;
  /** A member silent this long is dead; its unacknowledged deliveries are reclaimed after it. */
  deadMs?: number;
  /** Deliveries read at a time, and the frontier size above which no more are read. */
  readBatch?: number;
  maxQueued?: number;
}

export interface NodeSummary extends CrawlSummary {
  id: string;
  datacentre: string;
  /** Buckets owned at the end. */
  buckets: number;
  published: number;
  delivered: number;
}

export class CrawlNode {
  private readonly o: Required<Omit<NodeOptions, 'dispatcher' | 'outDir' | 'onLog'>> &
    Pick<NodeOptions, 'dispatcher' | 'outDir' | 'onLog'>;
  private engine!: CrawlEngine;
  private outbox: { bucket: string; msg: UrlMessage }[] = [];
  private seedBox: { bucket: string; msg: UrlMessage }[] | null = [];
  private acks: Delivery[] = [];
  private doneUrls: string[] = [];
  /** URL -> its deliveries not yet acknowledged (a URL may arrive more than once). */
  private readonly pending = new Map<string, Delivery[]>();
  private readonly claimed = new Set<string>();
  private owned = new Set<string>();
  private budgetSpent = false;
  private stopped = false;
  private lastBeat = 0;
  private publishedCount = 0;
  private deliveredCount = 0;
  private pumping: Promise<void> = Promise.resolve();

  constructor(opts: NodeOptions) {
    this.o = { expectMembers: 0, heartbeatMs: 250, deadMs: 2000, readBatch: 200, maxQueued: 2000, ...opts };
  }

  private hostOf(url: string): string {
    return new URL(url).host;
  }

  private hooks(): RemoteHooks {
    return {
      forward: (e) => {
        const item = {
          bucket: this.o.partitioner.bucketOf(e.host),
          msg: { url: e.url, score: e.score, depth: e.depth },
        };
        (this.seedBox ?? this.outbox).push(item);
      },
      claim: async (url) => {
        const r = await this.o.coordinator.claim(url, this.o.id, this.o.budget, this.o.deadMs);
        if (r === 'budget') {
          // the crawl is over: stop now rather than drain the frontier through politeness gaps
          this.budgetSpent = true;
          this.engine.stop();
        }
        if (r !== 'ok') return false;
        this.claimed.add(url);
        return true;
      },
      settled: (url) => {
        if (this.claimed.delete(url)) this.doneUrls.push(url);
        const ds = this.pending.get(url);
        if (ds) append(this.acks, ds);
        this.pending.delete(url);
      },
      idle: async () => {
        await this.pumpOrReport();
        if (this.budgetSpent || this.stopped) return true;
        const c = await this.o.coordinator.counters();
        if (c.pages >= this.o.budget) return true;
        // every message ever published has been settled: no process has work or will get any
        if (c.published === c.settled && !this.outbox.length && !this.pending.size) return true;
        await sleep(20);
        return false;
      },
    };
  }

  /**
   * Publish what was discovered, mark fetched URLs, then acknowledge: in that order, so a crash
   * loses nothing. All three are taken at once, before the first await: a page settled while
   * the links were being published (its links in the next outbox) was otherwise marked done and
   * acknowledged in this round, and a crash before the next round lost its links.
   */
  private async flush(): Promise<void> {
    const c = this.o.coordinator;
    const out = this.outbox;
    const done = this.doneUrls;
    const acks = this.acks;
    this.outbox = [];
    this.doneUrls = [];
    this.acks = [];
    let published = false;
    let marked = 0;
    try {
      if (out.length) await c.publish(out);
      this.publishedCount += out.length;
      published = true;
      for (; marked < done.length; marked++) await c.done(done[marked]);
      if (acks.length) await c.ack(acks);
    } catch (e) {
      // a transport error: what was not sent goes first into the next round, in the same order
      if (!published) this.outbox = out.concat(this.outbox);
      this.doneUrls = done.slice(marked).concat(this.doneUrls);
      this.acks = acks.concat(this.acks);
      throw e;
    }
  }

  private async membership(): Promise<void> {
    const c = this.o.coordinator;
    await c.heartbeat({ id: this.o.id, datacentre: this.o.datacentre, beat: Date.now() });
    const members = await c.members(this.o.deadMs);
    const mine = members.filter((m) => m.datacentre === this.o.datacentre).map((m) => m.id);
    if (!mine.includes(this.o.id)) mine.push(this.o.id);
    const owned = new Set(this.o.partitioner.owned(this.o.datacentre, mine, this.o.id));
    const lost = [...this.owned].filter((b) => !owned.has(b));
    this.owned = owned;
    if (lost.length && this.engine) {
      // buckets that moved to a process that joined: their queued URLs go back, unacknowledged
      const gone = new Set(lost);
      const moved = (host: string): boolean => gone.has(this.o.partitioner.bucketOf(host));
      this.engine.dropHosts(moved);
      for (const [url] of this.pending) if (moved(this.hostOf(url)) && !this.claimed.has(url)) this.pending.delete(url);
    }
  }

  private deliver(ds: Delivery[]): void {
    const fresh: UrlMessage[] = [];
    for (const d of ds) {
      if (!this.owned.has(d.bucket)) continue; // moved away meanwhile: left for its owner
      this.deliveredCount++;
      const known = this.pending.get(d.msg.url);
      if (known) {
        if (!known.some((k) => k.id === d.id)) known.push(d);
        continue;
      }
      this.pending.set(d.msg.url, [d]);
      fresh.push(d.msg);
    }
    if (fresh.length) this.engine.inject(fresh);
  }

  /** One round of the transport loop (serialised: rounds never overlap). */
  private pump(): Promise<void> {
    // a failed round (reported by its caller) must not fail every round after it
    const previous = this.pumping.catch(() => undefined);
    this.pumping = previous.then(async () => {
      const now = Date.now();
      if (now - this.lastBeat >= this.o.heartbeatMs) {
        this.lastBeat = now;
        await this.membership();
        const owned = [...this.owned];
        this.deliver(await this.o.coordinator.reclaim(this.o.id, owned, this.o.deadMs, this.o.readBatch));
      }
      await this.flush();
      if (this.engine.queued < this.o.maxQueued && !this.budgetSpent)
        this.deliver(await this.o.coordinator.read(this.o.id, [...this.owned], this.o.readBatch));
    });
    return this.pumping;
  }

  /** A round whose transport error is reported, not thrown: flush() keeps what it did not send for the next round. */
  private pumpOrReport(): Promise<void> {
    return this.pump().catch((e: Error) => {
      process.stderr.write(`crawler ${this.o.id}: transport error: ${e.message}\n`);
    });
  }

  /** Crawls until the global budget is spent or the whole crawl is quiet. */
  async run(): Promise<NodeSummary> {
    await this.membership();
    for (const t0 = Date.now(); this.o.expectMembers > 0; await sleep(this.o.heartbeatMs)) {
      const n = (await this.o.coordinator.members(this.o.deadMs)).filter(
        (m) => m.datacentre === this.o.datacentre,
      ).length;
      if (n >= this.o.expectMembers) break;
      // someone saw everyone and started the crawl (a small one may be over, its processes gone)
      if ((await this.o.coordinator.counters()).published > 0) break;
      if (Date.now() - t0 > 60_000)
        throw new Error(`only ${n} of ${this.o.expectMembers} crawler processes joined within 60 s`);
      await this.membership();
    }
    await this.membership();
    this.engine = CrawlEngine.create({
      settings: { ...this.o.settings, maxPages: Infinity },
      strategy: this.o.strategy,
      dispatcher: this.o.dispatcher,
      outDir: this.o.outDir,
      onLog: this.o.onLog,
      remote: this.hooks(),
    });
    const seeds = this.seedBox ?? [];
    this.seedBox = null;
    await this.o.coordinator.seed(seeds);
    let loop = true;
    const ticker = (async () => {
      while (loop) {
        await this.pumpOrReport();
        await sleep(10);
      }
    })();
    let summary: CrawlSummary;
    try {
      summary = await this.engine.run();
    } finally {
      loop = false;
      await ticker;
      await this.flush().catch(() => undefined);
      await this.o.coordinator.leave(this.o.id).catch(() => undefined);
    }
    return {
      ...summary,
      id: this.o.id,
      datacentre: this.o.datacentre,
      buckets: this.owned.size,
      published: this.publishedCount,
      delivered: this.deliveredCount,
    };
  }

  /** Stops after the requests in flight (their URLs are settled; queued ones stay in the coordinator). */
  stop(): void {
    this.stopped = true;
    this.engine?.stop();
  }
}
