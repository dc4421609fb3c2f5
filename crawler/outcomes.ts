/**
 * What becomes of a URL once its task is done: a log line, counters, and for a page its links,
 * scored by the strategy and admitted to the crawl; for a redirect its target, queued as a new
 * URL so that it passes scope, robots.txt and dedupe like any other. The scheduler hands
 * outcomes here in the order their URLs were taken.
 */
import { Sfc32 } from '../lib/rng.ts';
import type { CrawlError } from './errors.ts';
import type { FetchResult } from './fetcher.ts';
import type { Frontier, QueueEntry } from './frontier.ts';
import type { HostState } from './hosts.ts';
import type { Journal, LogEntry } from './journal.ts';
import type { ParentUrls } from './parents.ts';
import type { ParseCache } from './parse-cache.ts';
import { contentTypeOf, otherScheme, parseBody, type ParsedLink, type ParsedPage, refreshTarget } from './parser.ts';
import type { Scope } from './scope.ts';
import type { CrawlSettings } from './settings.ts';
import type { CrawlStats } from './summary.ts';
import { type PageView, type Strategy, StrategyFailed } from './strategy.ts';
import { decide, linksProblem } from './strategy-guard.ts';
import { normalizeUrl, type FingerprintSet } from './url.ts';
import { hostOf } from '../lib/url.ts';

export type Outcome =
  | { kind: 'fetched'; entry: QueueEntry; res: FetchResult; attempts: number; ms: number }
  | { kind: 'failed'; entry: QueueEntry; error: CrawlError; attempts: number; ms: number }
  | { kind: 'robots'; entry: QueueEntry }
  | { kind: 'skipped'; entry: QueueEntry }
  | { kind: 'elsewhere'; entry: QueueEntry }
  /** The crawl stopped before the request was sent: not logged, the URL stays in the journal. */
  | { kind: 'stopped'; entry: QueueEntry };

/** The crawl's parts an outcome touches (the engine builds them). */
export interface OutcomeContext {
  settings: CrawlSettings;
  strategy: Strategy;
  stats: CrawlStats;
  frontier: Frontier;
  seen: FingerprintSet;
  scope: Scope;
  parents: ParentUrls;
  journal: Journal | null;
  host(name: string): HostState;
  /** A new URL for the crawl (this frontier, or its owner in a distributed crawl). */
  admit(e: QueueEntry): void;
  /** A distributed crawl's coordinator is told the URL is done with. */
  settled?(url: string): void;
  /** Every response that becomes a log line (the archive). */
  record?(url: string, res: FetchResult): void;
  /** Every log line as it is written, with the page when there is one. */
  onLog?(e: LogEntry, page: PageView | null): void;
  /** Milliseconds since the crawl started (throughput mode logs it). */
  elapsedMs(): number;
  /** Parsed pages shared with other crawls of the same settings (crawler/parse-cache.ts). */
  parseCache?: ParseCache;
  /** Ends the crawl (a strategy's decision asked to). */
  stop(reason: string): void;
}

export class OutcomeHandler {
  /** Sequence number of the next log line. */
  seq = 0;
  /** URLs a redirect chain passed through, by the chain's latest target (for loop detection). */
  private readonly redirectChains = new Map<string, string[]>();
  /** Links the strategy discarded (gave null), which it may re-admit (PageDecision.readmit). */
  private readonly discarded = new Set<string>();

  constructor(private readonly ctx: OutcomeContext) {}

  /** Logs and follows up one outcome; false if no request was made (the URL did not use the page budget). */
  handle(o: Outcome): boolean {
    if (o.kind === 'robots' || o.kind === 'skipped' || o.kind === 'elsewhere' || o.kind === 'stopped') {
      this.unsent(o.kind, o.entry);
      return false;
    }
    const { ctx } = this;
    const s = ctx.stats.summary;
    const e = o.entry;
    const seq = this.seq++;
    ctx.stats.pages++;
    const parent = e.parent >= 0 ? ctx.parents.url(e.parent) : null;
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
    if (!ctx.settings.deterministic) log.ms = Math.round(ctx.elapsedMs());
    let page: PageView | null = null;
    if (o.kind === 'failed') {
      log.error = o.error.code;
      ctx.stats.count(s.errors, o.error.code);
      ctx.stats.count(s.statuses, 'error');
      if (o.error.code === 'CRAWL_ERR_ADDRESS_REFUSED') s.addressRefused++;
      if (isSeed(e)) ctx.stats.seedFailed(`${e.url}: ${o.error.code} (${o.error.message})`);
    } else {
      const res = o.res;
      ctx.record?.(e.url, res);
      log.status = res.status;
      log.bytes = res.body.length;
      const type = contentTypeOf(res.headers['content-type']).mime;
      log.type = type;
      s.bytes += res.body.length;
      ctx.stats.count(s.statuses, String(res.status));
      if (res.truncated) {
        log.truncated = true;
        s.truncated++;
      }
      if (res.status >= 400) ctx.stats.count(s.errors, `HTTP_${res.status}`);
      if (isSeed(e)) {
        if (res.status < 400) s.seedsFetched++;
        else ctx.stats.seedFailed(`${e.url}: HTTP ${res.status}`);
      }
      if (res.status >= 300 && res.status < 400 && res.headers.location) {
        log.location = this.redirect(e, res.headers.location);
      } else if (res.status >= 200 && res.status < 300) {
        page = this.parsePage(seq, e, res, type, log);
        const relevance = this.follow(page, e, seq);
        if (relevance !== undefined) log.relevance = relevance;
      }
    }
    ctx.settled?.(e.url);
    ctx.parents.remember(seq, e.url);
    ctx.parents.unref(e.parent);
    ctx.journal?.fetched(log);
    ctx.onLog?.(log, page);
    return true;
  }

  /** No request was made: robots.txt forbade it, its host was skipped, another process took it, or the crawl stopped. */
  private unsent(kind: 'robots' | 'skipped' | 'elsewhere' | 'stopped', entry: QueueEntry): void {
    const { ctx } = this;
    const h = ctx.host(entry.host);
    h.dispatched--;
    if (kind === 'robots') {
      ctx.stats.summary.robotsBlocked++;
      ctx.journal?.dropped(entry.url);
    }
    if (isSeed(entry) && kind === 'robots') {
      const why = h.robots?.reason;
      ctx.stats.seedFailed(
        `${entry.url}: ${why ? `robots.txt gave no rules (${why}), so nothing is allowed` : 'disallowed by robots.txt'}`,
      );
    }
    if (isSeed(entry) && kind === 'skipped') ctx.stats.seedFailed(`${entry.url}: host skipped (${h.skipped})`);
    // a URL the stop kept from being sent stays with the coordinator (unsettled), as queued ones do
    if (kind !== 'stopped') ctx.settled?.(entry.url);
    ctx.parents.unref(entry.parent);
  }

  /** The strategy scores the page's new links, which are admitted; returns the page's relevance, if judged. */
  private follow(page: PageView, e: QueueEntry, seq: number): number | undefined {
    const { ctx } = this;
    const cands = this.candidates(page, e);
    const d = decide(ctx.strategy, page, cands, ctx.settings.strategyTimeoutMs);
    for (let i = 0; i < cands.length; i++) {
      const score = d.scores[i];
      if (score === null || score === undefined) {
        ctx.stats.summary.discarded++;
        if (ctx.strategy.readmits) this.discarded.add(cands[i].url);
        continue;
      }
      const url = cands[i].url;
      ctx.admit({ url, host: hostOf(url), score, depth: e.depth + 1, parent: seq, redirects: 0, seq: 0 });
    }
    this.reprioritise(d.updates);
    if (d.readmit?.length && !ctx.strategy.readmits)
      throw new StrategyFailed(
        `strategy "${ctx.strategy.name}" on ${page.url}: readmit needs the strategy to say readmits: true (the engine then remembers what it discards)`,
      );
    for (const r of d.readmit ?? []) {
      if (!this.discarded.delete(r.url)) continue;
      ctx.stats.summary.readmitted++;
      const depth = r.depth ?? e.depth + 1;
      ctx.admit({ url: r.url, host: hostOf(r.url), score: r.score, depth, parent: seq, redirects: 0, seq: 0 });
    }
    if (d.reprioritise && ctx.strategy.reprioritise) {
      const queued = [...ctx.frontier.entries()].map((q) => ({ url: q.url, score: q.score, depth: q.depth }));
      const ups = ctx.strategy.reprioritise(queued);
      const why = linksProblem('reprioritise()', ups);
      if (why) throw new StrategyFailed(`strategy "${ctx.strategy.name}" after ${page.url}: ${why}`);
      this.reprioritise(ups);
    }
    if (d.stop) ctx.stop(`strategy ${ctx.strategy.name}: ${d.stop}`);
    return d.relevance === undefined ? undefined : round(d.relevance);
  }

  /** New priorities for queued URLs; URLs no longer queued are ignored. */
  private reprioritise(ups: readonly { url: string; score: number }[] | undefined): void {
    for (const u of ups ?? []) {
      const updated = this.ctx.frontier.update(u.url, u.score);
      if (updated) this.ctx.journal?.queued(updated); // the journal's last line for a URL wins on resume
    }
  }

  private parsePage(seq: number, e: QueueEntry, res: FetchResult, contentType: string, log: LogEntry): PageView {
    const { settings, stats, parseCache } = this.ctx;
    const ct = res.headers['content-type'];
    const p = parseCache
      ? parseCache.parse(res.body, ct, e.url, settings, settings.aroundWords)
      : parseBody(res.body, ct, e.url, settings, settings.aroundWords);
    stats.summary.urlTooLong += p.linksTooLong ?? 0;
    stats.summary.linksCapped += p.linksCapped ?? 0;
    // a page whose deepest tags were read flat is a page read in part, as a body cut at maxBodyBytes is
    stats.summary.truncated += p.nestingCut ?? 0;
    // one whose parse stopped at maxParseTags lost its later links: counted apart (and logged, below)
    if (p.linksCut) {
      stats.summary.linksCut++;
      log.linksCut = true;
    }
    stats.summary.undecodable += p.undecodable ?? 0;
    stats.summary.outOfScope.scheme += p.linksOtherScheme ?? 0;
    stats.summary.refreshLinks += p.refreshLinks ?? 0;
    const links = p.links.filter((l) => {
      if (l.nofollow) stats.summary.nofollow++;
      return !l.nofollow;
    });
    const refresh = this.refreshHeader(e, res, p, links);
    if (refresh) links.push(refresh);
    return new FetchedPage(seq, e, res.status, contentType, p, links);
  }

  /**
   * The link a Refresh header names (followRefresh), or null: none, a refresh of the page itself,
   * or a URL the page links already. Counted with the meta refreshes (refreshLinks).
   */
  private refreshHeader(
    e: QueueEntry,
    res: FetchResult,
    p: ParsedPage,
    links: readonly ParsedLink[],
  ): ParsedLink | null {
    const { settings, stats } = this.ctx;
    const header = res.headers.refresh;
    if (!settings.followRefresh || typeof header !== 'string') return null;
    const to = refreshTarget(header);
    const url = to === null ? null : normalizeUrl(to, e.url, settings);
    if (url === null || url === e.url || links.some((l) => l.url === url)) return null;
    stats.summary.refreshLinks++;
    return { url, anchor: '', around: '', heading: p.title, nofollow: false };
  }

  /** New, in-scope, within-depth links of a page, deduped in page order. */
  private candidates(page: PageView, e: QueueEntry): ParsedLink[] {
    const { ctx } = this;
    const s = ctx.stats.summary;
    const out: ParsedLink[] = [];
    for (const l of page.links) {
      let why: ReturnType<typeof ctx.scope.check>;
      try {
        why = ctx.scope.checkHref(l.url);
      } catch {
        continue;
      }
      if (why) {
        s.outOfScope[why]++;
        continue;
      }
      if (e.depth + 1 > ctx.settings.maxDepth) {
        s.depthLimited++;
        continue;
      }
      if (!ctx.seen.add(l.url)) {
        s.duplicates++;
        continue;
      }
      out.push(l);
    }
    return ctx.settings.linkOrderSeed ? shuffled(out, ctx.settings.linkOrderSeed, page.url) : out;
  }

  /** Queues a redirect's target as a new URL (so it passes scope, robots and dedupe); returns it. */
  private redirect(e: QueueEntry, location: string): string | undefined {
    const { ctx } = this;
    const s = ctx.stats.summary;
    const target = normalizeUrl(location, e.url, ctx.settings);
    if (!target) {
      // a redirect to file:, data:, javascript:, ftp: ... is refused, and counted
      if (otherScheme(location, e.url)) s.outOfScope.scheme++;
      return undefined;
    }
    if (target.length > ctx.settings.maxUrlLength) {
      s.urlTooLong++;
      return undefined;
    }
    const chain = [...(this.redirectChains.get(e.url) ?? []), e.url];
    this.redirectChains.delete(e.url);
    if (chain.includes(target)) {
      s.redirectLoops++;
      ctx.stats.count(s.errors, 'CRAWL_ERR_REDIRECT_LOOP');
      return target;
    }
    if (e.redirects + 1 > ctx.settings.maxRedirects) {
      ctx.stats.count(s.errors, 'CRAWL_ERR_TOO_MANY_REDIRECTS');
      return target;
    }
    const why = ctx.scope.check(new URL(target));
    if (why) {
      s.outOfScope[why]++;
      return target;
    }
    if (!ctx.seen.add(target)) {
      // a target already queued or fetched by another way (a loop through the chain returned above)
      s.duplicates++;
      return target;
    }
    this.redirectChains.set(target, chain);
    ctx.admit({
      url: target,
      host: hostOf(target),
      score: e.score,
      depth: e.depth,
      parent: e.parent,
      redirects: e.redirects + 1,
      seq: 0,
    });
    s.redirectsQueued++;
    return target;
  }
}

/**
 * What a strategy sees of a fetched page. A class with the text and words read through from the
 * parse, so a strategy that never reads the text never has it joined (crawler/parser.ts); an
 * object literal with getters kept every page alive through young-generation collections (see
 * HtmlPage there).
 */
class FetchedPage implements PageView {
  readonly url: string;
  readonly depth: number;
  readonly score: number;
  readonly kind: ParsedPage['kind'];
  readonly title: string;
  readonly headings: string[];
  constructor(
    readonly seq: number,
    e: QueueEntry,
    readonly status: number,
    readonly contentType: string,
    private readonly parsed: ParsedPage,
    readonly links: ParsedLink[],
  ) {
    this.url = e.url;
    this.depth = e.depth;
    this.score = e.score;
    this.kind = parsed.kind;
    this.title = parsed.title;
    this.headings = parsed.headings;
  }
  get text(): string {
    return this.parsed.text;
  }
  get words(): readonly string[] | undefined {
    return this.parsed.words;
  }
  toJSON(): PageView {
    const { seq, url, status, depth, score, contentType, kind, title, headings, text, words, links } = this;
    return { seq, url, status, depth, score, contentType, kind, title, headings, text, words, links };
  }
}

/** A seed as queued at the start (not a redirect's target). */
const isSeed = (e: QueueEntry): boolean => e.depth === 0 && e.redirects === 0;

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * The links in a permutation seeded by (seed, the page's URL): the same page gives the same order
 * in every crawl of that seed (Fisher-Yates over SFC32). Ties in the frontier (equal scores, BFS
 * within a level) follow the order links are queued in, so a seed is one of the orders a crawl
 * could have had.
 */
function shuffled<T>(xs: T[], seed: number, url: string): T[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) h = Math.imul(h ^ url.charCodeAt(i), 0x01000193);
  const rng = new Sfc32(seed | 0, h | 0, 0x5eed, 12);
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = xs[i];
    xs[i] = xs[j];
    xs[j] = t;
  }
  return xs;
}
