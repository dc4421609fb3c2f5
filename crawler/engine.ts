/**
 * The crawl engine: seeds -> frontier -> (scope, robots, politeness gates) -> fetch -> parse ->
 * strategy scores -> frontier, with a crawl log and a journal for resume.
 *
 * The engine builds the crawl's parts and owns what a URL goes through before its task: seeding
 * and resume, admission (scope, dedupe, the journal, a distributed crawl's owner). The task itself
 * (robots.txt, the politeness gates, retries, the fetch) is the polite client's (polite.ts), which
 * the deep-web form client sends through too. When URLs are taken is the scheduler's (scheduler.ts:
 * throughput and deterministic modes, Best-N-First batches), what becomes of a finished task the
 * outcome handler's (outcomes.ts: log, links, redirects), and the counters live in summary.ts.
 */
import type { Dispatcher } from 'undici';
import { CrawlError } from './errors.ts';
import { ACCEPT } from './fetcher.ts';
import { Frontier, type QueueEntry } from './frontier.ts';
import type { HostState } from './hosts.ts';
import { isWriteError } from '../lib/out-folder.ts';
import { claimCrawlFolder, Journal, recover, writeFailure, type LogEntry } from './journal.ts';
import type { ParseCache } from './parse-cache.ts';
import { OutcomeHandler, type Outcome } from './outcomes.ts';
import { PoliteClient } from './polite.ts';
import { Scheduler } from './scheduler.ts';
import type { Scope } from './scope.ts';
import type { WarcSink } from './warc-writer.ts';
import { DEFAULT_SETTINGS, resolveSettings, type CrawlSettings } from './settings.ts';
import type { PageView, Strategy } from './strategy.ts';
import { seedScoreOf } from './strategy-guard.ts';
import { FingerprintSet, normalizeUrl } from './url.ts';
import { hostOf } from '../lib/url.ts';
import { ParentUrls } from './parents.ts';
import { type ArchiveReading, CrawlStats, type Counters, type CrawlSummary } from './summary.ts';

export type { CrawlSummary } from './summary.ts';

export interface Progress {
  pages: number;
  frontier: number;
  errors: number;
  pagesPerSec: number;
}

export interface EngineOptions {
  settings: Partial<CrawlSettings>;
  strategy: Strategy;
  /** Directory for crawl.jsonl, the journal and summary.json; none = in memory only. */
  outDir?: string;
  /** Continue the crawl in outDir (its saved settings win over `settings`, except maxPages). */
  resume?: boolean;
  /** Replace a crawl outDir holds (without it, or resume, such a folder is refused: OUT_ERR_EXISTS). */
  force?: boolean;
  /** Use this dispatcher instead of building one from the resolve rules. */
  dispatcher?: Dispatcher;
  onProgress?: (p: Progress) => void;
  /** Archive every response (robots.txt included) here, e.g. a WarcWriter. Closed when the crawl ends. */
  warc?: WarcSink;
  /** Receives every log entry as it is written (experiments compute metrics from it). */
  onLog?: (e: LogEntry, page: PageView | null) => void;
  /** Part of a distributed crawl: URLs arrive by inject() and leave by forward() (see RemoteHooks). */
  remote?: RemoteHooks;
  /** Parsed pages shared with other crawls of the same settings (crawler/parse-cache.ts). */
  parseCache?: ParseCache;
  /** The archive the crawl replays, as reading it went (summary.json `archive`). */
  archive?: ArchiveReading;
}

/**
 * How an engine takes part in a distributed crawl (crawler/distributed/node.ts implements it).
 * Every discovered URL, seeds included, is forwarded to its owner, this process included, so
 * the frontier is durable outside the process; the engine only fetches what is injected.
 */
export interface RemoteHooks {
  forward(e: { url: string; host: string; score: number; depth: number }): void;
  /** Just before fetching (after robots.txt): false = skip (fetched elsewhere, or the global budget is spent). */
  claim(url: string): Promise<boolean>;
  /** The URL is done with (fetched and its links forwarded, or skipped). */
  settled(url: string): void;
  /** Frontier empty, nothing in flight: true ends the crawl, false looks again. */
  idle(): Promise<boolean>;
}

export class CrawlEngine {
  readonly settings: CrawlSettings;
  readonly strategy: Strategy;
  // the crawl's parts
  /** Robots, the politeness gates, retries and the fetch (polite.ts); the deep-web client uses the same. */
  private readonly client: PoliteClient;
  private readonly scope: Scope;
  /** A distributed crawl's claim, asked before each request. */
  private readonly claim: ((url: string) => Promise<boolean>) | undefined;
  private readonly frontier = new Frontier();
  private readonly seen = new FingerprintSet();
  private readonly journal: Journal | null;
  private readonly stats = new CrawlStats();
  /** Parent URLs of queued URLs, for the log. */
  private readonly parents = new ParentUrls();
  private readonly scheduler: Scheduler;
  private readonly outcomes: OutcomeHandler;
  // bookkeeping
  private started = 0;
  private lastCheckpoint = 0;
  /** A journal commit is queued for the end of this event-loop turn (see afterStep). */
  private commitQueued = false;
  private journalClosed = false;
  /** The write error that closed the journal, if one did. */
  private writeFailed: NodeJS.ErrnoException | undefined;
  /** Releases outDir's lock (set by create()). */
  private releaseOut: () => void = () => {};
  /** Journal order of the next queued URL. */
  private queueSeq = 1;

  private constructor(
    private readonly opts: EngineOptions,
    settings: CrawlSettings,
  ) {
    this.settings = settings;
    this.strategy = opts.strategy;
    this.journal = opts.outDir ? new Journal(opts.outDir, !!opts.resume) : null;
    const s = this.stats.summary;
    const headers = { 'user-agent': settings.userAgent, accept: ACCEPT };
    this.client = new PoliteClient({
      settings,
      dispatcher: opts.dispatcher,
      connections: Math.max(4, settings.perHostConcurrency),
      headers: settings.region ? { 'x-crawler-region': settings.region } : undefined,
      onResponse: (url, res) => this.opts.warc?.record(url, res, headers),
      onRobotsFetch: () => {
        s.robotsFetches++;
      },
      onRobotsError: (code) => this.stats.count(s.robotsErrors, code),
      onBackoff: () => {
        s.hostBackoffs++;
      },
      onSkip: (host) => this.skipped(host),
    });
    this.scope = this.client.scope;
    this.claim = opts.remote && ((url) => opts.remote!.claim(url));
    this.scheduler = new Scheduler(settings, this.frontier, opts.strategy.batch ?? 0, {
      host: (name) => this.host(name),
      take: (e) => this.take(e),
      task: (e) => this.task(e),
      handle: (o) => this.outcomes.handle(o),
      afterStep: () => this.afterStep(),
      rescue: () => this.rescue(),
      idle: async () => !opts.remote || opts.remote.idle(),
    });
    this.outcomes = new OutcomeHandler({
      settings,
      strategy: opts.strategy,
      stats: this.stats,
      frontier: this.frontier,
      seen: this.seen,
      scope: this.scope,
      parents: this.parents,
      journal: this.journal,
      host: (name) => this.host(name),
      admit: (e) => this.admit(e, false),
      settled: opts.remote && ((url) => opts.remote!.settled(url)),
      record: opts.warc && ((url, res) => opts.warc!.record(url, res, headers)),
      onLog: opts.onLog,
      elapsedMs: () => performance.now() - this.started,
      stop: (reason) => this.stop(reason),
      parseCache: opts.parseCache,
    });
  }

  /**
   * Builds an engine; with resume, reloads the frontier, the seen set and the counters from outDir.
   * outDir is held for this crawl until it ends (journal.ts claimCrawlFolder).
   */
  static create(opts: EngineOptions): CrawlEngine {
    const release = opts.outDir ? claimCrawlFolder(opts.outDir, opts) : () => {};
    try {
      const engine = CrawlEngine.build(opts);
      engine.releaseOut = release;
      return engine;
    } catch (e) {
      release();
      throw e;
    }
  }

  private static build(opts: EngineOptions): CrawlEngine {
    if (opts.resume) {
      if (!opts.outDir) throw new CrawlError('CRAWL_ERR_RESUME', 'resume needs an output directory');
      const rec = recover(opts.outDir);
      const saved = { ...(rec.settings as { settings: CrawlSettings }).settings } as Record<string, unknown>;
      // JSON has no Infinity: unlimited settings come back as null
      for (const [k, v] of Object.entries(DEFAULT_SETTINGS))
        if (saved[k] === null && v === Infinity) saved[k] = Infinity;
      // the saved settings, but for a new page budget and new address rules (a web the resuming
      // command serves again, on another port)
      const settings = resolveSettings({
        ...(saved as Partial<CrawlSettings>),
        ...(opts.settings.maxPages ? { maxPages: opts.settings.maxPages } : {}),
        ...(opts.settings.resolve ? { resolve: opts.settings.resolve } : {}),
      });
      const engine = new CrawlEngine(opts, settings);
      engine.restoreFrom(rec);
      return engine;
    }
    const settings = resolveSettings(opts.settings);
    if (opts.remote && settings.deterministic)
      throw new CrawlError(
        'CRAWL_ERR_SETTINGS',
        'deterministic: a distributed crawl has no global order; run it in throughput mode',
      );
    const engine = new CrawlEngine(opts, settings);
    engine.journal?.writeJson('crawl-settings.json', { settings, strategy: opts.strategy.name });
    for (const raw of settings.startUrls) {
      const url = normalizeUrl(raw, undefined, settings);
      if (raw.length > settings.maxUrlLength)
        engine.stats.seedFailed(
          `${raw.slice(0, 80)}...: CRAWL_ERR_URL_TOO_LONG (${raw.length} > ${settings.maxUrlLength} characters)`,
        );
      else if (url)
        engine.admit(
          {
            url,
            host: new URL(url).host,
            score: seedScoreOf(opts.strategy, url),
            depth: 0,
            parent: -1,
            redirects: 0,
            seq: 0,
          },
          true,
        );
    }
    engine.journal?.flush();
    return engine;
  }

  private restoreFrom(rec: ReturnType<typeof recover>): void {
    const fetched = new Set<string>();
    const lastSeq = rec.fetched.at(-1)?.seq ?? -1;
    // the counters saved with the last step whose log lines were written (see Journal.counters)
    const saved = rec.counters.filter((c) => c.seq <= lastSeq).at(-1) as (Counters & { seq: number }) | undefined;
    if (saved && saved.seq === lastSeq) {
      const { seq: _seq, ...counters } = saved;
      this.stats.restore(counters);
    }
    for (const e of rec.fetched) {
      fetched.add(e.url);
      this.parents.restore(e.seq, e.url);
      this.stats.pages++;
      this.outcomes.seq = Math.max(this.outcomes.seq, e.seq + 1);
      const h = this.host(new URL(e.url).host);
      h.dispatched++;
      if (saved?.seq === lastSeq) continue;
      // a crawl directory from before counters were saved: what the log alone says
      this.stats.count(this.stats.summary.statuses, String(e.status ?? 'error'));
      if (e.error) this.stats.count(this.stats.summary.errors, e.error);
      this.stats.summary.bytes += e.bytes;
    }
    this.scheduler.dispatched = this.stats.pages;
    let maxSeq = 0;
    // a URL's last journal line wins (a priority update rewrites it). Lines of a page whose own log
    // line was never written (a kill while its links were journalled: links go first) are left out:
    // the page is fetched again and finds them again, as new links, not as duplicates
    for (const q of rec.queued) maxSeq = Math.max(maxSeq, q.seq);
    const last = new Map(rec.queued.filter((q) => q.parent <= lastSeq).map((q) => [q.url, q] as const));
    // URLs already dropped and counted stay dropped: robots-blocked, capped, and those of skipped hosts
    const skipped = new Set(this.stats.summary.skippedHosts.map((h) => h.host));
    for (const q of last.values()) {
      this.seen.add(q.url);
      const host = new URL(q.url).host;
      if (!fetched.has(q.url) && !rec.dropped.has(q.url) && !skipped.has(host)) {
        this.frontier.push({ ...q, host });
        this.parents.ref(q.parent);
      }
    }
    this.parents.prune();
    this.queueSeq = maxSeq + 1;
    if (rec.strategy !== undefined && this.strategy.restore) this.strategy.restore(rec.strategy);
  }

  /** A new URL for the crawl: into this frontier, or, in a distributed crawl, to its owner (this process included). */
  private admit(e: QueueEntry, checkSeen: boolean): void {
    if (!this.opts.remote) {
      this.enqueue(e, checkSeen);
      return;
    }
    if (checkSeen && !this.seen.add(e.url)) return;
    this.opts.remote.forward({ url: e.url, host: e.host, score: e.score, depth: e.depth });
  }

  private enqueue(e: QueueEntry, checkSeen: boolean): boolean {
    if (checkSeen && !this.seen.add(e.url)) return false;
    const entry = { ...e, seq: this.queueSeq++ };
    this.parents.ref(entry.parent);
    // journalled at once, held for a batch or not: a resumed crawl queues every link it found
    this.scheduler.queue(entry);
    this.journal?.queued(entry);
    return true;
  }

  private host(name: string): HostState {
    return this.client.host(name);
  }

  /** The frontier ran dry: queues the links the strategy rescues; false if there are none. */
  private rescue(): boolean {
    const links = this.strategy.rescue?.() ?? [];
    for (const l of links)
      this.admit(
        { url: l.url, host: hostOf(l.url), score: l.score, depth: l.depth, parent: -1, redirects: 0, seq: 0 },
        false,
      );
    return links.length > 0;
  }

  /**
   * Stops taking new URLs. Requests on the wire finish (within maxResponseMs) and are logged;
   * those waiting for a host's gap, a Retry-After or a retry's back-off are not sent, and stay
   * in the journal for --resume.
   */
  stop(reason = 'stop()'): void {
    this.stoppedBy ??= reason;
    this.client.halt();
    this.scheduler.stop();
  }

  /** Adds URLs delivered by a distributed crawl's transport (deduped by the caller). */
  inject(items: readonly { url: string; score: number; depth: number }[]): void {
    for (const it of items)
      this.enqueue(
        { url: it.url, host: hostOf(it.url), score: it.score, depth: it.depth, parent: -1, redirects: 0, seq: 0 },
        false,
      );
    this.scheduler.wake();
  }

  /** Drops queued URLs of hosts that moved to another process; returns how many. */
  dropHosts(moved: (host: string) => boolean): number {
    let n = 0;
    for (const h of [...this.frontier.hostsWithWork()]) if (moved(h)) n += this.frontier.dropHost(h);
    return n;
  }

  /** URLs waiting in the frontier. */
  get queued(): number {
    return this.scheduler.waiting;
  }

  /** What stopped the crawl before its end (summary.stopped), if anything did. */
  private stoppedBy: string | undefined;

  async run(): Promise<CrawlSummary> {
    this.started = performance.now();
    let summary: CrawlSummary;
    try {
      await this.scheduler.run();
    } finally {
      this.client.halt();
      summary = this.stats.finish(
        performance.now() - this.started,
        this.scheduler.waiting,
        this.strategy.stats?.() ?? {},
      );
      if (this.stoppedBy) summary.stopped = this.stoppedBy;
      if (this.opts.archive) summary.archive = this.opts.archive;
      if (this.journal) this.closeJournal(this.journal, summary);
      this.releaseOut();
      await this.client.close();
      const { maxPages, maxDepth } = this.settings;
      await this.opts.warc?.close({
        pages: summary.pages,
        frontierLeft: summary.frontierLeft,
        ...(summary.stopped ? { stopped: summary.stopped } : {}),
        maxPages,
        maxDepth: Number.isFinite(maxDepth) ? maxDepth : null,
      });
    }
    return summary;
  }

  /** A URL was taken: drops it if its host is skipped or capped (counted); true if it should be fetched. */
  private take(e: QueueEntry): boolean {
    const h = this.host(e.host);
    if (h.skipped || h.dispatched >= this.settings.maxPagesPerHost) this.parents.unref(e.parent);
    if (h.skipped) {
      const rec = this.stats.summary.skippedHosts.find((x) => x.host === h.name);
      if (rec) rec.urlsDropped++;
      this.journal?.dropped(e.url);
      this.opts.remote?.settled(e.url);
      return false;
    }
    if (h.dispatched >= this.settings.maxPagesPerHost) {
      this.stats.summary.hostCapped++;
      this.journal?.dropped(e.url);
      this.opts.remote?.settled(e.url);
      return false;
    }
    h.dispatched++;
    return true;
  }

  /** Robots, the politeness gates, fetch, retries (the polite client). Never throws. */
  private async task(entry: QueueEntry): Promise<Outcome> {
    const sent = await this.client.send(entry.url, entry.host, undefined, this.claim);
    return { ...sent, entry };
  }

  /** A host left the crawl (Crawl-delay too long, robots.txt out of scope): its URLs are dropped. */
  private skipped(host: HostState): void {
    // distributed: the URLs are dropped one by one as they come up, so that each is settled
    this.stats.summary.skippedHosts.push({
      host: host.name,
      reason: host.skipped!,
      urlsDropped: this.opts.remote ? 0 : this.frontier.dropHost(host.name),
    });
  }

  private afterStep(): void {
    // the journal is committed once per journalFlushMs (0: per event-loop turn), after every step
    // that finished meanwhile: a write per file per page was a fifth of a fast crawl's CPU, and
    // once per turn, a page per turn on loopback, still a tenth (docs/benchmarks.md, issue #70).
    // A kill loses at most the steps since the last commit, whose pages were not logged and are
    // fetched again on resume, as in-flight ones are
    if (this.journal && !this.commitQueued) {
      this.commitQueued = true;
      const ms = this.settings.journalFlushMs;
      if (ms > 0) setTimeout(() => this.commit(), ms).unref();
      else setImmediate(() => this.commit());
    }
    this.opts.onProgress?.({
      pages: this.stats.pages,
      frontier: this.frontier.size,
      errors: this.stats.errorTotal(),
      pagesPerSec: (this.stats.pages / Math.max(1, performance.now() - this.started)) * 1000,
    });
  }

  /**
   * The journal's last writes and the summary. After a write error (a full disk) the summary is
   * still tried (it is small), the folder keeps INCOMPLETE and summary.writeError says why.
   */
  private closeJournal(journal: Journal, summary: CrawlSummary): void {
    try {
      if (!this.writeFailed) {
        if (this.commitQueued) this.commit();
        this.journalClosed = true;
        journal.flush();
        this.checkpoint();
      }
    } catch (e) {
      if (!isWriteError(e)) throw e;
      this.failWrite(e);
    }
    if (this.writeFailed) {
      summary.stopped ??= 'write error';
      summary.writeError = writeFailure(journal.dir, this.writeFailed).message;
    }
    try {
      journal.writeJson('summary.json', summary);
      if (this.writeFailed) journal.abandon();
      else {
        journal.close();
        journal.markComplete();
      }
    } catch (e) {
      if (!isWriteError(e)) throw e;
      summary.writeError ??= writeFailure(journal.dir, e).message;
      journal.abandon();
    }
  }

  /** A journal write failed (a full disk): nothing more is written, the crawl stops, resume goes on from what was. */
  private failWrite(e: NodeJS.ErrnoException): void {
    this.writeFailed ??= e;
    this.journalClosed = true;
    this.stop('write error');
  }

  /** Writes what the steps since the last commit queued and logged, then their counters' line. */
  private commit(): void {
    this.commitQueued = false;
    if (!this.journal || this.journalClosed) return;
    try {
      this.commitNow(this.journal);
    } catch (e) {
      if (!isWriteError(e)) throw e;
      this.failWrite(e);
    }
  }

  private commitNow(journal: Journal): void {
    // counters first, tagged with the last page logged: a kill before the log lines are written
    // leaves counters a resume ignores (it takes those of the last logged page)
    if (this.outcomes.seq > 0) journal.counters(this.outcomes.seq - 1, this.stats.counters());
    journal.flush();
    if (this.stats.pages - this.lastCheckpoint >= this.settings.checkpointEvery) this.checkpoint();
  }

  private checkpoint(): void {
    this.lastCheckpoint = this.stats.pages;
    this.journal?.compactCounters();
    if (this.journal && this.strategy.snapshot) this.journal.writeJson('strategy.json', this.strategy.snapshot());
  }
}
