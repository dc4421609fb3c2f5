/**
 * The paper's online incremental adaptive crawler, behind the core's Strategy interface. By default
 * (scope "link", the paper's steps (2)-(4) as they read) each new link of a fetched page goes its
 * own way: its immediate value (formula (1)) >= r1 -> queued by immediate score (exploiting a
 * topical community; priority 1 + value); else its own Q >= r2 -> tunnelled (tunnel "subcrawl":
 * a thread of its own, adaptive-subcrawl.ts); else discarded and counted. Under scope "page" (the
 * project's first reading, the strategy adaptive-page) the page decides for all its links: its
 * cosine against r1, else the largest Q among its links against r2 (tunnel "priority": queued by
 * Q / Q_max, below every exploiting link). Each threshold is fitted on the quantity it is compared
 * with (calibrate.ts). The start page's links are never all discarded (ours: the paper does not
 * say what happens at the start page, START_PAGE_MODES). With `rescue` (ours, the variant
 * "adaptive-rescue", not the paper's algorithm), when the frontier runs dry while links were
 * discarded, the best of them by Q are tunnelled through after all (rescue()), so the crawl never
 * strands; without it the paper's crawler ends. Every T pages the link classifier is retrained
 * from the top-K (100) most relevant pages crawled so far that have links (papers are leaves) and
 * their forward links, Q measured on the crawled graph with the crawler's own relevance
 * judgements, together with a sample of the offline training links (adaptive-learner.ts). What the
 * paper leaves open is a named reading, each quoted against its text: SCOPES, TUNNEL_MODES,
 * RETRAIN_UPDATES, THRESHOLD_MODES, START_PAGE_MODES (adaptive-options.ts) and THRESHOLD_RULES
 * (calibrate.ts). test/reference/paper-crawlers.ts is a second implementation from the text that
 * the differential test (test/reference.test.ts) holds this one to.
 */
import type { ParsedLink } from '../parser.ts';
import type { PageDecision, PageView, QueuedLink, RescuedLink, Strategy } from '../strategy.ts';
import type { LinkClassifier } from './nb.ts';
import { featuresOfLink } from './tokens.ts';
import type { Topic } from './topic.ts';
import { PAPER_JUDGE, type RelevanceJudge } from './relevance.ts';
import type { QExample } from './training-examples.ts';
import { featuresOf, type Judged, judgePage, wordsOfLink } from './immediate-future.ts';
import { type AdaptiveOptions, MAX_THREADS, RESCUE_BATCH, TUNNEL_STEPS } from './adaptive-options.ts';
import { AdaptiveLearner } from './adaptive-learner.ts';
import { type HeldLink, type SubCrawl, Threads } from './adaptive-subcrawl.ts';

export {
  type AdaptiveOptions,
  DEFAULT_ADAPTIVE,
  MAX_THREADS,
  RESCUE_BATCH,
  RETRAIN_UPDATES,
  SCOPES,
  START_PAGE_MODES,
  THRESHOLD_MODES,
  TUNNEL_MODES,
  TUNNEL_STEPS,
} from './adaptive-options.ts';
import { append } from '../../lib/arrays.ts';

/** What routes a page's links: the page, its judgement, its new links, the thread it is in, the sub-crawl it feeds. */
interface Routing {
  page: PageView;
  j: Judged;
  candidates: readonly ParsedLink[];
  /** Tunnelling pages in a row that led here (tunnel "thread"). */
  inThread: number;
  /**
   * Where its tunnelling links go under tunnel "subcrawl": into the thread the page belongs to, a
   * thread each ("new": a page of the main crawl), or nowhere (null: another reading, the start page).
   */
  intoSub: SubCrawl | 'new' | null;
}

/** The way the paper's steps (2)-(4) send a link: followed by immediate value, tunnelled by Q, or discarded. */
export type Route = 'exploit' | 'tunnel' | 'discard';

/** How a link was queued (AdaptiveStrategy.queuedBy). */
const EXPLOIT = 0;
const TUNNEL = 1;
const THREAD = 2;

export class AdaptiveStrategy implements Strategy {
  readonly name: string;
  private pages = 0;
  private readonly counters = {
    exploitPages: 0,
    tunnelPages: 0,
    discardPages: 0,
    linksDiscarded: 0,
    rescuedLinks: 0,
    linksScored: 0,
    rerankedLinks: 0,
    readmittedLinks: 0,
    threadLinks: 0,
    exploitLinks: 0,
    tunnelLinks: 0,
    tunnelFetched: 0,
    threadFetched: 0,
    r2AboveReach: 0,
  };
  /** How each queued link not yet fetched was queued (a candidate is new, so queued once): exploited, tunnelled, in a thread. */
  private readonly queuedBy = new Map<string, number>();
  /** The largest Q the crawl computed for a link (-1: none yet). */
  private maxQ = -1;
  /** What it learns as it crawls: the crawled graph, the top-K, the classifier, the thresholds in force. */
  private readonly learner: AdaptiveLearner;
  /** Links of discarded pages with their Q, in case the frontier runs dry (see rescue()); their link and page title when a retraining may re-admit them. */
  private readonly discarded: {
    url: string;
    q: number;
    depth: number;
    order: number;
    link?: ParsedLink;
    title?: string;
  }[] = [];
  /** Queued links the classifier scored (tunnelling), when a retraining re-ranks the frontier: their link and page title. */
  private readonly tunnelled = new Map<string, { link: ParsedLink; title: string }>();
  /** "thread" tunnelling: queued links of a thread, with the tunnelling pages in a row that led to them. */
  private readonly threadSteps = new Map<string, number>();
  /** "subcrawl" tunnelling: the open threads and the links waiting for one. */
  private readonly threads: Threads | null;
  readonly readmits: boolean;
  /** How the last page's candidates were routed, in page order (lastRoutes). */
  private routes: Route[] = [];

  constructor(
    private readonly topic: Topic,
    model: LinkClassifier,
    offline: readonly QExample[],
    private readonly o: AdaptiveOptions,
    private readonly judge: RelevanceJudge = PAPER_JUDGE,
    name = o.rescue ? 'adaptive-rescue' : 'adaptive',
  ) {
    this.name = name;
    // a sub-crawl's links wait in the engine as discarded until released (PageDecision.readmit)
    this.readmits = o.retrainUpdates === 'frontier-and-discarded' || o.tunnel === 'subcrawl';
    this.learner = new AdaptiveLearner(model, offline, o);
    this.threads = o.tunnel === 'subcrawl' ? new Threads(MAX_THREADS, o.threadPages) : null;
    this.checkReach();
  }

  private get model(): LinkClassifier {
    return this.learner.model;
  }
  private get r1(): number {
    return this.learner.r1;
  }
  private get r2(): number {
    return this.learner.r2;
  }

  seedScore(): number {
    return 3;
  }

  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    const j = judgePage(this.topic, this.judge, page);
    this.learner.remember(page, j);
    this.routes = [];
    this.counters.linksScored += candidates.length;
    const inThread = this.threadSteps.get(page.url) ?? 0;
    this.threadSteps.delete(page.url);
    // how the page was reached: through a tunnelling link (and a thread's), or not
    const via = this.queuedBy.get(page.url);
    if (via !== undefined) {
      this.queuedBy.delete(page.url);
      if (via !== EXPLOIT) this.counters.tunnelFetched++;
      if (via === THREAD) this.counters.threadFetched++;
    }
    // "subcrawl": a page of a thread (its priority, 2 and up, which a redirect's target keeps)
    // feeds that thread; every tunnelling link of any other page but the start page opens one
    const thread = this.threads?.returned(page.url, page.depth > 0 && page.score >= 2) ?? null;
    if (thread && via !== THREAD) this.counters.threadFetched++;
    const intoSub: Routing['intoSub'] = !this.threads ? null : (thread ?? (page.depth > 0 ? 'new' : null));
    const routing = { page, j, candidates, inThread, intoSub };
    let decision: PageDecision = this.o.scope === 'link' ? this.byLink(routing) : this.byPage(routing);
    this.pages++;
    const readmit = this.threads ? this.stepThreads(thread !== null) : [];
    if (this.pages % this.o.retrainEvery === 0 && this.retrain() && this.o.retrainUpdates !== 'new-links') {
      decision = { ...decision, reprioritise: true };
      if (this.o.retrainUpdates === 'frontier-and-discarded') append(readmit, this.readmitted());
    }
    return readmit.length ? { ...decision, readmit } : decision;
  }

  /**
   * The threads after a page: spent ones close, their unreleased links queued by Q below every
   * exploiting link, and waiting links open threads in their place; a page of the main crawl then
   * releases one link of every open thread (so the threads and the main crawl take turns).
   */
  private stepThreads(fromThread: boolean): { url: string; score: number; depth: number }[] {
    const threads = this.threads!;
    const out = this.fallBack(threads.step(this.pages));
    if (!fromThread) append(out, this.release(threads.take(1, this.pages)));
    return out;
  }

  /** Links of closed threads: queued by Q below every exploiting link, as "priority" queues them. */
  private fallBack(links: readonly HeldLink[]): { url: string; score: number; depth: number }[] {
    return links.map((l) => {
      this.queuedBy.set(l.url, TUNNEL);
      return { url: l.url, score: this.qScore(l.q), depth: l.depth };
    });
  }

  /** Links of the threads handed to the engine: ahead of everything queued (2 + Q / Q_max). */
  private release(links: readonly HeldLink[]): { url: string; score: number; depth: number }[] {
    return links.map((l) => {
      this.queuedBy.set(l.url, THREAD);
      return { url: l.url, score: 2 + this.qScore(l.q), depth: l.depth };
    });
  }

  /** A tunnelling link's priority by Q: Q / Q_max, below every exploiting link (which score 1 and up). */
  private qScore(q: number): number {
    return Math.min(0.999, q / Math.max(...this.model.bins.means, 1e-9));
  }

  /** The cosine of a link's words to the topic (formula (1)'s first term). */
  private linkSimilarity(l: ParsedLink): number {
    return this.topic.similarity(wordsOfLink(l));
  }

  /** Scope "page": the page's cosine against r1, the largest Q among its links against r2; all links one way. */
  private byPage({ page, j, candidates, inThread, intoSub }: Routing): PageDecision {
    if (j.similarity >= this.r1 || (page.depth === 0 && this.o.startPage === 'exploit')) {
      this.counters.exploitPages++;
      return { relevance: j.relevance, scores: candidates.map((l) => this.exploit(l, this.linkSimilarity(l), j)) };
    }
    const qs = candidates.map((l) => this.q(l, page));
    const fv = qs.length ? Math.max(...qs) : 0;
    // the start page's links are never all discarded: the crawl would end at its first page
    if (fv >= this.r2 || page.depth === 0) {
      this.counters.tunnelPages++;
      const thread = this.o.tunnel === 'thread' && inThread < TUNNEL_STEPS;
      return {
        relevance: j.relevance,
        scores: candidates.map((l, i) => this.tunnel(l, page, qs[i], thread, inThread, intoSub)),
      };
    }
    this.counters.discardPages++;
    return { relevance: j.relevance, scores: candidates.map((l, i) => this.discard(l, page, qs[i])) };
  }

  /**
   * Scope "link", the paper's steps (2)-(5) read link by link: a link's immediate value >= r1 ->
   * exploited; else its Q >= r2 -> tunnelled; else discarded. At the start page, "exploit" follows
   * every link by immediate score and "tunnel" never discards (as under scope "page").
   */
  private byLink({ page, j, candidates, inThread, intoSub }: Routing): PageDecision {
    const start = page.depth === 0;
    const thread = this.o.tunnel === 'thread' && inThread < TUNNEL_STEPS;
    let exploited = 0;
    let tunnelled = 0;
    const b = this.o.sourceWeight;
    const values = this.o.thresholds === 'online' ? new Map<string, number>() : null;
    const scores = candidates.map((l) => {
      // the link's immediate value, formula (1) as immediate scores it
      const sim = this.linkSimilarity(l);
      const iv = (1 - b) * sim + b * j.similarity;
      values?.set(l.url, iv);
      if (iv >= this.r1 || (start && this.o.startPage === 'exploit')) {
        exploited++;
        return this.exploit(l, sim, j);
      }
      const q = this.q(l, page);
      if (q >= this.r2 || start) {
        tunnelled++;
        return this.tunnel(l, page, q, thread, inThread, intoSub);
      }
      return this.discard(l, page, q);
    });
    // a page counts under the branch most of its links took (ties: exploit, then tunnel)
    const discarded = candidates.length - exploited - tunnelled;
    if (exploited >= tunnelled && exploited >= discarded && exploited > 0) this.counters.exploitPages++;
    else if (tunnelled >= discarded && tunnelled > 0) this.counters.tunnelPages++;
    else this.counters.discardPages++;
    if (values) this.learner.routedLinks(page.url, values);
    return { relevance: j.relevance, scores };
  }

  /** An exploiting link's priority: 1 + its immediate value, above every tunnelling link. */
  private exploit(l: ParsedLink, sim: number, j: Judged): number {
    this.counters.exploitLinks++;
    this.routes.push('exploit');
    this.queuedBy.set(l.url, EXPLOIT);
    const b = this.o.sourceWeight;
    // summed in this order, as it always was: the priorities (and the golden logs) stay bit for bit
    return 1 + (1 - b) * sim + b * j.similarity;
  }

  /**
   * A tunnelling link's priority: Q / Q_max below every exploiting link, or next (2 + ...) in a
   * thread; into a sub-crawl (null: held until it is released).
   */
  private tunnel(
    l: ParsedLink,
    page: PageView,
    q: number,
    thread: boolean,
    inThread: number,
    intoSub: SubCrawl | 'new' | null,
  ): number | null {
    this.counters.tunnelLinks++;
    this.routes.push('tunnel');
    if (intoSub) {
      this.counters.threadLinks++;
      const held = { url: l.url, q, depth: page.depth + 1 };
      if (intoSub === 'new') this.threads!.start(held);
      else intoSub.add(held);
      return null;
    }
    if (this.o.retrainUpdates !== 'new-links') this.tunnelled.set(l.url, { link: l, title: page.title });
    this.queuedBy.set(l.url, thread ? THREAD : TUNNEL);
    const score = this.qScore(q);
    if (!thread) return score;
    // a thread: the links come next (above every exploiting link, which scores below 2)
    this.counters.threadLinks++;
    this.threadSteps.set(l.url, inThread + 1);
    return 2 + score;
  }

  /** A discarded link: kept with its Q (rescue, re-admission), not queued. */
  private discard(l: ParsedLink, page: PageView, q: number): null {
    this.counters.linksDiscarded++;
    this.routes.push('discard');
    this.discarded.push({
      url: l.url,
      q,
      depth: page.depth + 1,
      order: this.discarded.length,
      ...(this.o.retrainUpdates === 'frontier-and-discarded' ? { link: l, title: page.title } : {}),
    });
    return null;
  }

  /** A link's priority as a tunnelling link under the current classifier. */
  private tunnelScore(link: ParsedLink, title: string): { q: number; score: number } {
    const q = this.model.expectedQ(featuresOfLink(link, title));
    return { q, score: Math.min(0.999, q / Math.max(...this.model.bins.means, 1e-9)) };
  }

  /** After a retraining ("frontier" readings): the queued tunnelling links at the new classifier's priorities. */
  reprioritise(queued: readonly QueuedLink[]): { url: string; score: number }[] {
    const still = new Set(queued.map((q) => q.url));
    // links fetched since they were queued are forgotten
    for (const url of this.tunnelled.keys()) if (!still.has(url)) this.tunnelled.delete(url);
    const out: { url: string; score: number }[] = [];
    for (const q of queued) {
      const t = this.tunnelled.get(q.url);
      // a thread's link keeps its place ahead of the rest
      if (t)
        out.push({
          url: q.url,
          score: (this.threadSteps.has(q.url) ? 2 : 0) + this.tunnelScore(t.link, t.title).score,
        });
    }
    this.counters.rerankedLinks += out.length;
    return out;
  }

  /** After a retraining ("frontier-and-discarded"): discarded links whose new future value reaches r2. */
  private readmitted(): { url: string; score: number; depth: number }[] {
    const out: { url: string; score: number; depth: number }[] = [];
    for (let i = this.discarded.length - 1; i >= 0; i--) {
      const d = this.discarded[i];
      if (!d.link) continue;
      const { q, score } = this.tunnelScore(d.link, d.title ?? '');
      d.q = q;
      if (q < this.r2) continue;
      out.push({ url: d.url, score, depth: d.depth });
      this.discarded.splice(i, 1);
    }
    this.counters.readmittedLinks += out.length;
    return out.reverse();
  }

  /**
   * The frontier ran dry while links were discarded: tunnel through the best of them, highest Q
   * first (ties in discard order), RESCUE_BATCH at a time, queued like tunnelling links.
   */
  rescue(): RescuedLink[] {
    // the main frontier ran dry while threads hold links: they are all there is to fetch. Nothing is
    // in flight when the engine asks (crawler/scheduler.ts), so a released link not back is lost (a
    // non-2xx answer): forgotten at once, or its thread, never done, would keep the waiting ones out
    if (this.threads?.holding) {
      const left = this.fallBack(this.threads.step(Number.POSITIVE_INFINITY));
      const held = [...left, ...this.release(this.threads.takeAll(RESCUE_BATCH, this.pages))];
      if (held.length) return held;
    }
    if (!this.o.rescue || !this.discarded.length) return [];
    this.discarded.sort((a, b) => b.q - a.q || a.order - b.order);
    const take = this.discarded.splice(0, RESCUE_BATCH);
    this.counters.rescuedLinks += take.length;
    const qmax = Math.max(...this.model.bins.means, 1e-9);
    return take.map((d) => ({ url: d.url, score: Math.min(0.999, d.q / qmax), depth: d.depth }));
  }

  /** Retrains the classifier (and, online, the thresholds) from the crawl so far; false if there was nothing to learn. */
  retrain(): boolean {
    if (!this.learner.retrain()) return false;
    this.checkReach();
    return true;
  }

  /**
   * Marks (r2AboveReach) a run whose r2 was at some time above every Q the classifier can give (a
   * Q is a mean of the bins' mean Q weighted by posteriors, never above the largest): tunnelling
   * could not happen but at the start page. stats() also marks a run whose r2 stayed above every
   * Q it computed; the report warns of both.
   */
  private checkReach(): void {
    if (this.r2 > Math.max(...this.model.bins.means)) this.counters.r2AboveReach = 1;
  }

  private q(l: ParsedLink, page: PageView): number {
    const q = this.model.expectedQ(featuresOf(l, page));
    if (q > this.maxQ) this.maxQ = q;
    return q;
  }

  /** How the last page's candidates were routed, in page order (the differential test reads it). */
  get lastRoutes(): readonly Route[] {
    return this.routes;
  }

  /** The thresholds in force: the calibrated ones, or the last chosen online. */
  get thresholds(): { r1: number; r2: number } {
    return { r1: this.r1, r2: this.r2 };
  }

  get classifier(): LinkClassifier {
    return this.model;
  }

  stats(): Record<string, number> {
    const unreachable = this.maxQ >= 0 && this.r2 > this.maxQ ? 1 : 0;
    return {
      ...this.counters,
      ...this.learner.counters,
      threadsOpened: this.threads?.opened ?? 0,
      r2AboveReach: Math.max(this.counters.r2AboveReach, unreachable),
    };
  }
}
