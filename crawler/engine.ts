/**
 * The crawl engine: seeds -> frontier -> (scope, robots, per-host politeness) -> fetch ->
 * parse -> strategy scores -> frontier, with a crawl log and a journal for resume.
 *
 * Two modes. Throughput mode keeps `concurrency` requests in flight and handles each response as
 * it arrives. Deterministic mode works in batches: it takes the best `concurrency` URLs (at most
 * perHostConcurrency per host), fetches them concurrently (politely), then handles the results in
 * the order they were taken, so the same web, settings and strategy always give the same fetch
 * order and the same log, whatever the timing.
 */
import type { Dispatcher } from 'undici';
import { CrawlError } from './errors.ts';
import { ACCEPT, Fetcher, type FetchResult } from './fetcher.ts';
import { Frontier, type QueueEntry } from './frontier.ts';
import { HostState } from './hosts.ts';
import { Journal, recover, type LogEntry } from './journal.ts';
import { crawlerDispatcher, parseResolveRule } from './net.ts';
import { contentTypeOf, parseBody, type ParsedLink } from './parser.ts';
import type { RobotsRules } from './robots.ts';
import { politeFetch, retryBackoff, robotsFor, sleep, type GateContext } from './polite.ts';
import { Scope, type OutOfScope } from './scope.ts';
import type { WarcSink } from './warc.ts';
import { DEFAULT_SETTINGS, resolveSettings, type CrawlSettings } from './settings.ts';
import type { PageView, Strategy } from './strategy.ts';
import { FingerprintSet, normalizeUrl } from './url.ts';
import { hostOf } from '../lib/url.ts';
import { ParentUrls } from './parents.ts';

export interface CrawlSummary {
  pages: number;
  bytes: number;
  elapsedMs: number;
  pagesPerSec: number;
  statuses: Record<string, number>;
  errors: Record<string, number>;
  outOfScope: Record<OutOfScope, number>;
  /** URLs of hosts whose address the policy refuses (each logged with CRAWL_ERR_ADDRESS_REFUSED). */
  addressRefused: number;
  robotsBlocked: number;
  robotsFetches: number;
  /** robots.txt requests that gave no rules, by error code or HTTP_<status>. */
  robotsErrors: Record<string, number>;
  skippedHosts: { host: string; reason: string; urlsDropped: number }[];
  duplicates: number;
  nofollow: number;
  depthLimited: number;
  hostCapped: number;
  discarded: number;
  redirectsQueued: number;
  redirectLoops: number;
  truncated: number;
  /** Links longer than maxUrlLength (never queued), and links past maxLinksPerPage on a page. */
  urlTooLong: number;
  linksCapped: number;
  /** Times a host was held back for server errors in a row (5xx, 429 without Retry-After). */
  hostBackoffs: number;
  /** Seeds that answered with 2xx or 3xx; seedFailures says why others did not (the first 100). */
  seedsFetched: number;
  seedFailures: string[];
  frontierLeft: number;
  strategy: Record<string, number>;
}

/** The counters a resumed crawl continues from (everything in the summary that is not timing). */
type Counters = Omit<CrawlSummary, 'elapsedMs' | 'pagesPerSec' | 'frontierLeft' | 'strategy'>;

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
  /** Use this dispatcher instead of building one from the resolve rules. */
  dispatcher?: Dispatcher;
  onProgress?: (p: Progress) => void;
  /** Archive every response (robots.txt included) here, e.g. a WarcWriter. Closed when the crawl ends. */
  warc?: WarcSink;
  /** Receives every log entry as it is written (experiments compute metrics from it). */
  onLog?: (e: LogEntry, page: PageView | null) => void;
  /** Part of a distributed crawl: URLs arrive by inject() and leave by forward() (see RemoteHooks). */
  remote?: RemoteHooks;
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

type Outcome =
  | { kind: 'fetched'; entry: QueueEntry; res: FetchResult; attempts: number; ms: number }
  | { kind: 'failed'; entry: QueueEntry; error: CrawlError; attempts: number; ms: number }
  | { kind: 'robots'; entry: QueueEntry }
  | { kind: 'skipped'; entry: QueueEntry }
  | { kind: 'elsewhere'; entry: QueueEntry }
  /** The crawl stopped before the request was sent: not logged, the URL stays in the journal. */
  | { kind: 'stopped'; entry: QueueEntry };

export class CrawlEngine {
  readonly settings: CrawlSettings;
  readonly strategy: Strategy;
  private readonly fetcher: Fetcher;
  private readonly dispatcher: Dispatcher;
  private readonly ownDispatcher: boolean;
  private readonly scope: Scope;
  private readonly gate: GateContext;
  private readonly frontier = new Frontier();
  private readonly seen = new FingerprintSet();
  private readonly hosts = new Map<string, HostState>();
  private readonly journal: Journal | null;
  private readonly redirectChains = new Map<string, string[]>();
  private readonly s: CrawlSummary;
  private seq = 0;
  private pages = 0;
  private dispatched = 0;
  private started = 0;
  private stopping = false;
  private lastCheckpoint = 0;
  private queueSeq = 1;
  /** Parent URLs of queued URLs, for the log. */
  private readonly parents = new ParentUrls();
  // Batch crawling (Strategy.batch, Best-N-First): while a batch is being fetched, new links
  // wait in `held`; they enter the frontier, and the next batch is ranked, when it is done.
  private readonly held: QueueEntry[] = [];
  private batchLeft = 0;
  private wakeLoop: (() => void) | null = null;
  /** Tasks given to a host and not finished (throughput mode): waiting ones hold no global slot twice. */
  private readonly assignedCount = new Map<string, number>();

  private constructor(
    private readonly opts: EngineOptions,
    settings: CrawlSettings,
  ) {
    this.settings = settings;
    this.strategy = opts.strategy;
    this.scope = new Scope(settings.scope, settings.seeds, settings.allowPrivateAddresses);
    const rules = settings.resolve.map(parseResolveRule);
    this.ownDispatcher = !opts.dispatcher;
    this.dispatcher =
      opts.dispatcher ??
      crawlerDispatcher(rules, settings.allowPrivateAddresses, {
        connectTimeoutMs: settings.connectTimeoutMs,
        connections: Math.max(4, settings.perHostConcurrency),
      });
    this.fetcher = new Fetcher(this.dispatcher, {
      userAgent: settings.userAgent,
      headersTimeoutMs: settings.headersTimeoutMs,
      bodyTimeoutMs: settings.bodyTimeoutMs,
      maxResponseMs: settings.maxResponseMs,
      maxBodyBytes: settings.maxBodyBytes,
      headers: settings.region ? { 'x-crawler-region': settings.region } : undefined,
    });
    this.journal = opts.outDir ? new Journal(opts.outDir, !!opts.resume) : null;
    this.gate = {
      fetcher: this.fetcher,
      settings,
      scope: this.scope,
      backoff: retryBackoff(settings),
      onResponse: (url, res) => this.opts.warc?.record(url, res, this.requestHeaders()),
      onRobotsFetch: () => {
        this.s.robotsFetches++;
      },
      hostState: (name) => this.host(name),
      onRobotsError: (code) => this.count(this.s.robotsErrors, code),
    };
    this.s = {
      pages: 0,
      bytes: 0,
      elapsedMs: 0,
      pagesPerSec: 0,
      statuses: {},
      errors: {},
      outOfScope: { scheme: 0, host: 0, port: 0, address: 0 },
      addressRefused: 0,
      robotsBlocked: 0,
      robotsFetches: 0,
      robotsErrors: {},
      skippedHosts: [],
      duplicates: 0,
      nofollow: 0,
      depthLimited: 0,
      hostCapped: 0,
      discarded: 0,
      redirectsQueued: 0,
      redirectLoops: 0,
      truncated: 0,
      urlTooLong: 0,
      linksCapped: 0,
      hostBackoffs: 0,
      seedsFetched: 0,
      seedFailures: [],
      frontierLeft: 0,
      strategy: {},
    };
  }

  /** Builds an engine; with resume, reloads the frontier, the seen set and the counters from outDir. */
  static create(opts: EngineOptions): CrawlEngine {
    if (opts.resume) {
      if (!opts.outDir) throw new CrawlError('CRAWL_ERR_RESUME', 'resume needs an output directory');
      const rec = recover(opts.outDir);
      const saved = { ...(rec.settings as { settings: CrawlSettings }).settings } as Record<string, unknown>;
      // JSON has no Infinity: unlimited settings come back as null
      for (const [k, v] of Object.entries(DEFAULT_SETTINGS))
        if (saved[k] === null && v === Infinity) saved[k] = Infinity;
      const settings = resolveSettings({
        ...(saved as Partial<CrawlSettings>),
        ...(opts.settings.maxPages ? { maxPages: opts.settings.maxPages } : {}),
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
    for (const raw of settings.seeds) {
      const url = normalizeUrl(raw, undefined, settings);
      if (raw.length > settings.maxUrlLength)
        engine.seedFailed(
          `${raw.slice(0, 80)}...: CRAWL_ERR_URL_TOO_LONG (${raw.length} > ${settings.maxUrlLength} characters)`,
        );
      else if (url)
        engine.admit(
          {
            url,
            host: new URL(url).host,
            score: opts.strategy.seedScore(url),
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
      Object.assign(this.s, counters);
    }
    for (const e of rec.fetched) {
      fetched.add(e.url);
      this.parents.restore(e.seq, e.url);
      this.pages++;
      this.seq = Math.max(this.seq, e.seq + 1);
      const h = this.host(new URL(e.url).host);
      h.dispatched++;
      if (saved?.seq === lastSeq) continue;
      // a crawl directory from before counters were saved: what the log alone says
      this.s.statuses[String(e.status ?? 'error')] = (this.s.statuses[String(e.status ?? 'error')] ?? 0) + 1;
      if (e.error) this.s.errors[e.error] = (this.s.errors[e.error] ?? 0) + 1;
      this.s.bytes += e.bytes;
    }
    this.dispatched = this.pages;
    let maxSeq = 0;
    // a URL's last journal line wins (a priority update rewrites it)
    const last = new Map(rec.queued.map((q) => [q.url, q] as const));
    // URLs already dropped and counted stay dropped: robots-blocked, capped, and those of skipped hosts
    const skipped = new Set(this.s.skippedHosts.map((h) => h.host));
    for (const q of last.values()) {
      this.seen.add(q.url);
      maxSeq = Math.max(maxSeq, q.seq);
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
    // journalled at once, held or not: a resumed crawl queues every link it found
    if (this.batchLeft > 0) this.held.push(entry);
    else this.frontier.push(entry);
    this.journal?.queued(entry);
    return true;
  }

  /** Called before taking a URL: at a batch boundary, queues the held links and opens the next batch. */
  private openBatch(): void {
    if (!this.strategy.batch || this.batchLeft > 0) return;
    for (const e of this.held.splice(0)) this.frontier.push(e);
    this.batchLeft = this.strategy.batch;
  }

  /** The frontier is empty: ends the current batch early if links are held; false if none are. */
  private releaseHeld(): boolean {
    if (!this.held.length) return false;
    this.batchLeft = 0;
    this.openBatch();
    return true;
  }

  private host(name: string): HostState {
    let h = this.hosts.get(name);
    if (!h) {
      h = new HostState(name, this.settings, () => {
        this.s.hostBackoffs++;
      });
      this.hosts.set(name, h);
    }
    return h;
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
  stop(): void {
    this.stopping = true;
    for (const h of this.hosts.values()) h.halt();
    this.wakeLoop?.();
  }

  /** Adds URLs delivered by a distributed crawl's transport (deduped by the caller). */
  inject(items: readonly { url: string; score: number; depth: number }[]): void {
    for (const it of items)
      this.enqueue(
        { url: it.url, host: hostOf(it.url), score: it.score, depth: it.depth, parent: -1, redirects: 0, seq: 0 },
        false,
      );
    this.wakeLoop?.();
  }

  /** Drops queued URLs of hosts that moved to another process; returns how many. */
  dropHosts(moved: (host: string) => boolean): number {
    let n = 0;
    for (const h of [...this.frontier.hostsWithWork()]) if (moved(h)) n += this.frontier.dropHost(h);
    return n;
  }

  /** URLs waiting in the frontier. */
  get queued(): number {
    return this.frontier.size + this.held.length;
  }

  async run(): Promise<CrawlSummary> {
    this.started = performance.now();
    try {
      if (this.settings.deterministic) await this.runBatches();
      else await this.runConcurrent();
    } finally {
      for (const h of this.hosts.values()) h.halt();
      this.s.pages = this.pages;
      this.s.elapsedMs = Math.round(performance.now() - this.started);
      this.s.pagesPerSec = Math.round((this.pages / Math.max(1, this.s.elapsedMs)) * 1000 * 10) / 10;
      this.s.frontierLeft = this.frontier.size + this.held.length;
      this.s.strategy = this.strategy.stats?.() ?? {};
      if (this.journal) {
        this.journal.flush();
        this.checkpoint();
        this.journal.writeJson('summary.json', this.s);
        this.journal.close();
      }
      if (this.ownDispatcher) await this.dispatcher.close();
      await this.opts.warc?.close();
    }
    return this.s;
  }

  private budgetLeft(): number {
    return this.settings.maxPages - this.dispatched;
  }

  private eligible(hostName: string, batchCount?: Map<string, number>): boolean {
    const h = this.host(hostName);
    if (h.skipped) return true; // taken so that its URLs are dropped and counted
    if (h.dispatched >= this.settings.maxPagesPerHost) return true; // likewise
    if (batchCount) return (batchCount.get(hostName) ?? 0) < this.settings.perHostConcurrency;
    // until a host's robots.txt is known (its Crawl-delay may be long), give it one task: tasks
    // waiting at a host's gate would hold global slots the other hosts could use
    if (!h.robots) return this.assigned(hostName) < 1;
    // a host with a gap starts one request per gap: a second task before the first has passed
    // the gate would only wait there, holding a global slot
    const assigned = this.assigned(hostName);
    if (h.minGapMs > 0 && assigned > h.inFlight) return false;
    return assigned < this.settings.perHostConcurrency && h.ready();
  }

  private async runBatches(): Promise<void> {
    while (!this.stopping && this.budgetLeft() > 0 && (this.frontier.size > 0 || this.releaseHeld() || this.rescue())) {
      const counts = new Map<string, number>();
      const batch: QueueEntry[] = [];
      this.openBatch();
      // a step never straddles two Best-N-First batches: the next batch is ranked after this one's links are in
      const room = this.strategy.batch ? this.batchLeft : Infinity;
      while (batch.length < Math.min(this.settings.concurrency, this.budgetLeft(), room)) {
        const e = this.frontier.next((h) => this.eligible(h, counts));
        if (!e) break;
        if (this.precheck(e)) {
          counts.set(e.host, (counts.get(e.host) ?? 0) + 1);
          batch.push(e);
          this.dispatched++;
        }
      }
      if (this.strategy.batch) this.batchLeft -= batch.length;
      if (!batch.length) continue;
      const outcomes = await Promise.all(batch.map((e) => this.task(e)));
      for (const o of outcomes) this.handle(o);
      this.afterStep();
    }
  }

  private async runConcurrent(): Promise<void> {
    const inflight = new Set<Promise<void>>();
    const done: Outcome[] = [];
    let wake: (() => void) | null = null;
    for (;;) {
      while (!this.stopping && inflight.size < this.settings.concurrency && this.budgetLeft() > 0) {
        this.openBatch();
        const e = this.frontier.next((h) => this.eligible(h));
        if (!e) break;
        if (!this.precheck(e)) continue;
        this.dispatched++;
        if (this.strategy.batch) this.batchLeft--;
        this.assignedCount.set(e.host, this.assigned(e.host) + 1);
        const p: Promise<void> = this.task(e).then((o) => {
          this.assignedCount.set(e.host, this.assigned(e.host) - 1);
          done.push(o);
          inflight.delete(p);
          wake?.();
        });
        inflight.add(p);
      }
      if (done.length) {
        for (const o of done.splice(0)) this.handle(o);
        this.afterStep();
        continue;
      }
      if (inflight.size === 0) {
        if (this.stopping || this.budgetLeft() <= 0) break;
        if (this.frontier.size === 0) {
          if (this.releaseHeld() || this.rescue()) continue;
          if (!this.opts.remote || (await this.opts.remote.idle())) break;
          continue;
        }
        // every host with work is waiting for its politeness gap: sleep until the first is ready
        let soonest = Infinity;
        for (const name of this.frontier.hostsWithWork()) soonest = Math.min(soonest, this.host(name).nextAt);
        await sleep(Math.max(1, Math.min(1000, soonest - performance.now())));
        continue;
      }
      await new Promise<void>((r) => {
        wake = r;
        this.wakeLoop = r;
        // also wake when a waiting host becomes ready, so that its URLs are dispatched on time
        setTimeout(r, 50);
      });
      wake = null;
    }
  }

  private assigned(host: string): number {
    return this.assignedCount.get(host) ?? 0;
  }

  /** Drops URLs of skipped or capped hosts (counted); true if the URL should be fetched. */
  private precheck(e: QueueEntry): boolean {
    const h = this.host(e.host);
    if (h.skipped || h.dispatched >= this.settings.maxPagesPerHost) this.parents.unref(e.parent);
    if (h.skipped) {
      const rec = this.s.skippedHosts.find((x) => x.host === h.name);
      if (rec) rec.urlsDropped++;
      this.journal?.dropped(e.url);
      this.opts.remote?.settled(e.url);
      return false;
    }
    if (h.dispatched >= this.settings.maxPagesPerHost) {
      this.s.hostCapped++;
      this.journal?.dropped(e.url);
      this.opts.remote?.settled(e.url);
      return false;
    }
    h.dispatched++;
    return true;
  }

  /** Robots, politeness gate, fetch, retries. Never throws. */
  private async task(entry: QueueEntry): Promise<Outcome> {
    const h = this.host(entry.host);
    let rules: RobotsRules;
    try {
      rules = await this.robotsFor(h, entry.url);
    } catch (e) {
      if (e instanceof CrawlError && e.code === 'CRAWL_ERR_STOPPED') return { kind: 'stopped', entry };
      throw e;
    }
    if (h.skipped) return { kind: 'skipped', entry };
    if (h.refused)
      return {
        kind: 'failed',
        entry,
        error: new CrawlError('CRAWL_ERR_ADDRESS_REFUSED', h.refused),
        attempts: 0,
        ms: 0,
      };
    if (!rules.isAllowed(entry.url)) return { kind: 'robots', entry };
    if (this.opts.remote && !(await this.opts.remote.claim(entry.url))) return { kind: 'elsewhere', entry };
    const o = await politeFetch(this.gate, h, entry.url);
    if (!o.ok && o.error.code === 'CRAWL_ERR_STOPPED') return { kind: 'stopped', entry };
    return o.ok
      ? { kind: 'fetched', entry, res: o.res, attempts: o.attempts, ms: o.ms }
      : { kind: 'failed', entry, error: o.error, attempts: o.attempts, ms: o.ms };
  }

  private robotsFor(h: HostState, url: string): Promise<RobotsRules> {
    return robotsFor(this.gate, h, url, (host) => {
      // distributed: the URLs are dropped one by one as they come up, so that each is settled
      this.s.skippedHosts.push({
        host: host.name,
        reason: host.skipped!,
        urlsDropped: this.opts.remote ? 0 : this.frontier.dropHost(host.name),
      });
    });
  }

  private handle(o: Outcome): void {
    if (o.kind === 'robots' || o.kind === 'skipped' || o.kind === 'elsewhere' || o.kind === 'stopped') {
      // no request was made: the URL does not use the page budget
      this.dispatched--;
      this.host(o.entry.host).dispatched--;
      if (o.kind === 'robots') {
        this.s.robotsBlocked++;
        this.journal?.dropped(o.entry.url);
      }
      const seed = o.entry.depth === 0 && o.entry.redirects === 0;
      if (seed && o.kind === 'robots') {
        const why = this.host(o.entry.host).robots?.reason;
        this.seedFailed(
          `${o.entry.url}: ${why ? `robots.txt gave no rules (${why}), so nothing is allowed` : 'disallowed by robots.txt'}`,
        );
      }
      if (seed && o.kind === 'skipped')
        this.seedFailed(`${o.entry.url}: host skipped (${this.host(o.entry.host).skipped})`);
      // a URL the stop kept from being sent stays with the coordinator (unsettled), as queued ones do
      if (o.kind !== 'stopped') this.opts.remote?.settled(o.entry.url);
      this.parents.unref(o.entry.parent);
      return;
    }
    const e = o.entry;
    const seq = this.seq++;
    this.pages++;
    const parent = e.parent >= 0 ? this.parents.url(e.parent) : null;
    const log: LogEntry = {
      seq,
      url: e.url,
      status: null,
      bytes: 0,
      type: '',
      depth: e.depth,
      parent,
      score: round(e.score),
      attempts: o.attempts,
    };
    if (!this.settings.deterministic) log.ms = Math.round(performance.now() - this.started);
    let page: PageView | null = null;
    if (o.kind === 'failed') {
      log.error = o.error.code;
      this.count(this.s.errors, o.error.code);
      this.count(this.s.statuses, 'error');
      if (o.error.code === 'CRAWL_ERR_ADDRESS_REFUSED') this.s.addressRefused++;
      if (e.depth === 0 && e.redirects === 0) this.seedFailed(`${e.url}: ${o.error.code} (${o.error.message})`);
    } else {
      const res = o.res;
      this.opts.warc?.record(e.url, res, this.requestHeaders());
      log.status = res.status;
      log.bytes = res.body.length;
      log.type = contentTypeOf(res.headers['content-type']).mime;
      this.s.bytes += res.body.length;
      this.count(this.s.statuses, String(res.status));
      if (res.truncated) {
        log.truncated = true;
        this.s.truncated++;
      }
      if (res.status >= 400) this.count(this.s.errors, `HTTP_${res.status}`);
      if (e.depth === 0 && e.redirects === 0) {
        if (res.status < 400) this.s.seedsFetched++;
        else this.seedFailed(`${e.url}: HTTP ${res.status}`);
      }
      if (res.status >= 300 && res.status < 400 && res.headers.location) {
        log.location = this.redirect(e, res.headers.location);
      } else if (res.status >= 200 && res.status < 300) {
        page = this.parsePage(seq, e, res);
        const cands = this.candidates(page, e);
        const d = this.strategy.onPage(page, cands);
        if (d.relevance !== undefined) log.relevance = round(d.relevance);
        for (let i = 0; i < cands.length; i++) {
          const score = d.scores[i];
          if (score === null || score === undefined) {
            this.s.discarded++;
            continue;
          }
          this.admit(
            {
              url: cands[i].url,
              host: hostOf(cands[i].url),
              score,
              depth: e.depth + 1,
              parent: seq,
              redirects: 0,
              seq: 0,
            },
            false,
          );
        }
        for (const u of d.updates ?? []) {
          const updated = this.frontier.update(u.url, u.score);
          if (updated) this.journal?.queued(updated); // the journal's last line for a URL wins on resume
        }
      }
    }
    this.opts.remote?.settled(e.url);
    this.parents.remember(seq, e.url);
    this.parents.unref(e.parent);
    this.journal?.fetched(log);
    this.opts.onLog?.(log, page);
  }

  private parsePage(seq: number, e: QueueEntry, res: FetchResult): PageView {
    const p = parseBody(res.body, res.headers['content-type'], e.url, this.settings, this.settings.aroundWords);
    this.s.urlTooLong += p.linksTooLong ?? 0;
    this.s.linksCapped += p.linksCapped ?? 0;
    const links = p.links.filter((l) => {
      if (l.nofollow) this.s.nofollow++;
      return !l.nofollow;
    });
    return {
      seq,
      url: e.url,
      status: res.status,
      depth: e.depth,
      score: e.score,
      contentType: contentTypeOf(res.headers['content-type']).mime,
      kind: p.kind,
      title: p.title,
      headings: p.headings,
      text: p.text,
      links,
    };
  }

  /** New, in-scope, within-depth links of a page, deduped in page order. */
  private candidates(page: PageView, e: QueueEntry): ParsedLink[] {
    const out: ParsedLink[] = [];
    for (const l of page.links) {
      let u: URL;
      try {
        u = new URL(l.url);
      } catch {
        continue;
      }
      const why = this.scope.check(u);
      if (why) {
        this.s.outOfScope[why]++;
        continue;
      }
      if (e.depth + 1 > this.settings.maxDepth) {
        this.s.depthLimited++;
        continue;
      }
      if (!this.seen.add(l.url)) {
        this.s.duplicates++;
        continue;
      }
      out.push(l);
    }
    return out;
  }

  /** Queues a redirect's target as a new URL (so it passes scope, robots and dedupe); returns it. */
  private redirect(e: QueueEntry, location: string): string | undefined {
    const target = normalizeUrl(location, e.url, this.settings);
    if (!target) return undefined;
    if (target.length > this.settings.maxUrlLength) {
      this.s.urlTooLong++;
      return undefined;
    }
    const chain = [...(this.redirectChains.get(e.url) ?? []), e.url];
    this.redirectChains.delete(e.url);
    if (chain.includes(target)) {
      this.s.redirectLoops++;
      this.count(this.s.errors, 'CRAWL_ERR_REDIRECT_LOOP');
      return target;
    }
    if (e.redirects + 1 > this.settings.maxRedirects) {
      this.count(this.s.errors, 'CRAWL_ERR_TOO_MANY_REDIRECTS');
      return target;
    }
    const why = this.scope.check(new URL(target));
    if (why) {
      this.s.outOfScope[why]++;
      return target;
    }
    if (!this.seen.add(target)) {
      // a target already queued or fetched by another way (a loop through the chain returned above)
      this.s.duplicates++;
      return target;
    }
    this.redirectChains.set(target, chain);
    this.admit(
      {
        url: target,
        host: hostOf(target),
        score: e.score,
        depth: e.depth,
        parent: e.parent,
        redirects: e.redirects + 1,
        seq: 0,
      },
      false,
    );
    this.s.redirectsQueued++;
    return target;
  }

  private requestHeaders(): Record<string, string> {
    return { 'user-agent': this.settings.userAgent, accept: ACCEPT };
  }

  private count(map: Record<string, number>, key: string): void {
    map[key] = (map[key] ?? 0) + 1;
  }

  /** Why a seed gave no page; the first MAX_SEED_FAILURES are kept (the summary is rewritten every step). */
  private seedFailed(reason: string): void {
    if (this.s.seedFailures.length < MAX_SEED_FAILURES) this.s.seedFailures.push(reason);
  }

  /** The counters as a resumed crawl needs them (robots-blocked seeds and the like included). */
  private counters(): Counters {
    const { elapsedMs: _e, pagesPerSec: _p, frontierLeft: _f, strategy: _s, ...c } = this.s;
    return { ...c, pages: this.pages };
  }

  private afterStep(): void {
    // counters first, tagged with the last page of the step: a kill before the log lines are
    // written leaves counters a resume ignores (it takes those of the last logged page)
    if (this.journal && this.seq > 0) this.journal.counters(this.seq - 1, this.counters());
    this.journal?.flush();
    if (this.journal && this.pages - this.lastCheckpoint >= this.settings.checkpointEvery) this.checkpoint();
    const errors = Object.values(this.s.errors).reduce((a, b) => a + b, 0);
    this.opts.onProgress?.({
      pages: this.pages,
      frontier: this.frontier.size,
      errors,
      pagesPerSec: (this.pages / Math.max(1, performance.now() - this.started)) * 1000,
    });
  }

  private checkpoint(): void {
    this.lastCheckpoint = this.pages;
    this.journal?.compactCounters();
    if (this.journal && this.strategy.snapshot) this.journal.writeJson('strategy.json', this.strategy.snapshot());
  }
}

const MAX_SEED_FAILURES = 100;

const round = (x: number): number => Math.round(x * 1e6) / 1e6;
