/**
 * The paper's online incremental adaptive crawler, behind the core's Strategy interface: per
 * fetched page, if its immediate value cos(q, page) >= r1 its links are queued by immediate score
 * (exploiting a topical community; priority 1 + score); else if its future value (the largest
 * expected Q among its new links) >= r2 its links are queued by Q (tunnelling; priority Q / Q_max,
 * below every exploiting link); else its links are discarded and counted. The start page's links
 * are never all discarded (ours: the paper does not say what happens at the start page,
 * START_PAGE_MODES). With `rescue` (ours, the variant "adaptive-rescue", not the paper's
 * algorithm), when the frontier runs dry while links were discarded, the best of them by Q are
 * tunnelled through after all (rescue()), so the crawl never strands; without it the paper's
 * crawler ends. Every T pages the link classifier is retrained from the top-K (100) most relevant
 * pages crawled so far that have links (papers are leaves) and their forward links, Q measured on
 * the crawled graph with the crawler's own relevance judgements, together with a sample of the
 * offline training links (Naive Bayes counts added up over the offline feature space). What the
 * paper leaves open is a named reading, each quoted against its text: TUNNEL_MODES,
 * RETRAIN_UPDATES, THRESHOLD_MODES, START_PAGE_MODES (adaptive-options.ts).
 */
import type { ParsedLink } from '../parser.ts';
import {
  defineStrategy,
  LINKS_SCORED,
  type PageDecision,
  type PageView,
  type QueuedLink,
  type RescuedLink,
  type Strategy,
} from '../strategy.ts';
import { bestThreshold } from './calibrate.ts';
import { need, type StrategyContext, topicOf } from './context.ts';
import { LinkClassifier, type Example, type NbCounts } from './nb.ts';
import { binOf, stateValues } from './qvalue.ts';
import { featuresOfLink } from './tokens.ts';
import type { Topic } from './topic.ts';
import { PAPER_JUDGE, type RelevanceJudge } from './relevance.ts';
import type { QExample } from './training-examples.ts';
import { featuresOf, type Judged, judgePage, wordsOfLink } from './immediate-future.ts';
import { type AdaptiveOptions, DEFAULT_ADAPTIVE, RESCUE_BATCH, TUNNEL_STEPS } from './adaptive-options.ts';
import { HorizonOne, localValue } from './local-values.ts';

export {
  type AdaptiveOptions,
  DEFAULT_ADAPTIVE,
  RESCUE_BATCH,
  RETRAIN_UPDATES,
  START_PAGE_MODES,
  THRESHOLD_MODES,
  TUNNEL_MODES,
  TUNNEL_STEPS,
} from './adaptive-options.ts';

interface CrawledPage {
  links: string[];
  /** The crawler's own judgement (its reward). */
  relevant: boolean;
  relevance: number;
  /** The page's immediate value when it was crawled (what was compared with r1). */
  similarity: number;
  /** The page's links and title, kept to compute link features if the page enters the top-K. */
  parsed: readonly ParsedLink[];
  title: string;
  /** Feature vectors of the links, computed once when the page first reaches the top-K. */
  vectors: Map<number, number>[] | null;
  /** Feature tokens of the links, computed once when online thresholds first need the page's Q. */
  features: string[][] | null;
}

export class AdaptiveStrategy implements Strategy {
  readonly name: string;
  private model: LinkClassifier;
  private readonly offline: Example[];
  private readonly offlineCounts: NbCounts;
  /** Pages crawled, in the order first crawled, their URLs, and each URL's place in it. */
  private readonly nodes: CrawledPage[] = [];
  private readonly urls: string[] = [];
  private readonly indexOf = new Map<string, number>();
  /** Q of crawled pages at horizon 1 kept as they are crawled (local-values.ts); null: searched at each retraining. */
  private readonly local: HorizonOne | null;
  /**
   * The top-K most relevant pages crawled so far among those with links, kept as pages are crawled
   * (relevance descending, then URL): sorting every crawled page at every retraining made a crawl's
   * cost per page grow with the pages crawled (npm run bench:scale, docs/benchmarks.md).
   */
  private top: { i: number; r: number; u: string }[] = [];
  private pages = 0;
  private readonly counters = {
    exploitPages: 0,
    tunnelPages: 0,
    discardPages: 0,
    linksDiscarded: 0,
    rescuedLinks: 0,
    retrainings: 0,
    onlineExamples: 0,
    linksScored: 0,
    rerankedLinks: 0,
    readmittedLinks: 0,
    threadLinks: 0,
    recalibrations: 0,
  };
  /** The thresholds in force (re-chosen at each retraining under "online" thresholds). */
  private r1: number;
  private r2: number;
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
  readonly readmits: boolean;

  constructor(
    private readonly topic: Topic,
    model: LinkClassifier,
    offline: readonly QExample[],
    private readonly o: AdaptiveOptions,
    private readonly judge: RelevanceJudge = PAPER_JUDGE,
  ) {
    this.name = o.rescue ? 'adaptive-rescue' : 'adaptive';
    this.readmits = o.retrainUpdates === 'frontier-and-discarded';
    this.local =
      o.horizon === 1 && o.thresholds !== 'online' ? new HorizonOne(this.nodes, this.urls, this.indexOf) : null;
    this.r1 = o.r1;
    this.r2 = o.r2;
    this.model = model;
    // the offline links, labelled with the offline bins, sampled once (seeded)
    const labelled = offline.map((e) => ({ tokens: e.tokens, label: binOf(model.bins, e.q) }));
    this.offline = sampleEvenly(labelled, o.offlineSample);
    this.offlineCounts = LinkClassifier.count(model.space, this.offline, model.classes);
  }

  seedScore(): number {
    return 3;
  }

  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    const j = judgePage(this.topic, this.judge, page);
    this.remember(page, j);
    this.counters.linksScored += candidates.length;
    const inThread = this.threadSteps.get(page.url) ?? 0;
    this.threadSteps.delete(page.url);
    let decision: PageDecision;
    if (j.similarity >= this.r1 || (page.depth === 0 && this.o.startPage === 'exploit')) {
      this.counters.exploitPages++;
      const b = this.o.sourceWeight;
      decision = {
        relevance: j.relevance,
        scores: candidates.map((l) => 1 + (1 - b) * this.topic.similarity(wordsOfLink(l)) + b * j.similarity),
      };
    } else {
      const qs = candidates.map((l) => this.model.expectedQ(featuresOf(l, page)));
      const fv = qs.length ? Math.max(...qs) : 0;
      // the start page's links are never all discarded: the crawl would end at its first page
      if (fv >= this.r2 || page.depth === 0) {
        this.counters.tunnelPages++;
        const qmax = Math.max(...this.model.bins.means, 1e-9);
        if (this.o.retrainUpdates !== 'new-links')
          for (const l of candidates) this.tunnelled.set(l.url, { link: l, title: page.title });
        // a thread: the links come next (above every exploiting link, which scores below 2)
        const thread = this.o.tunnel === 'thread' && inThread < TUNNEL_STEPS;
        if (thread) {
          this.counters.threadLinks += candidates.length;
          for (const l of candidates) this.threadSteps.set(l.url, inThread + 1);
        }
        decision = {
          relevance: j.relevance,
          scores: qs.map((q) => (thread ? 2 : 0) + Math.min(0.999, q / qmax)),
        };
      } else {
        this.counters.discardPages++;
        this.counters.linksDiscarded += candidates.length;
        const keep = this.readmits;
        candidates.forEach((l, i) =>
          this.discarded.push({
            url: l.url,
            q: qs[i],
            depth: page.depth + 1,
            order: this.discarded.length,
            ...(keep ? { link: l, title: page.title } : {}),
          }),
        );
        decision = { relevance: j.relevance, scores: candidates.map(() => null) };
      }
    }
    if (++this.pages % this.o.retrainEvery === 0 && this.retrain() && this.o.retrainUpdates !== 'new-links')
      decision = { ...decision, reprioritise: true, ...(this.readmits ? { readmit: this.readmitted() } : {}) };
    return decision;
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

  private remember(page: PageView, j: Judged): void {
    const node: CrawledPage = {
      links: page.links.map((l) => l.url),
      relevant: j.relevant,
      relevance: j.relevance,
      similarity: j.similarity,
      parsed: page.links,
      title: page.title,
      vectors: null,
      features: null,
    };
    const known = this.indexOf.get(page.url);
    if (known !== undefined) {
      // a page crawled again (a URL seen twice): its place stays, the top-K is ranked afresh
      this.nodes[known] = node;
      this.local?.replace();
      this.top = this.nodes
        .map((p, i) => ({ i, r: p.relevance, u: this.urls[i] }))
        .filter((x) => this.nodes[x.i].links.length > 0)
        .sort(byRelevance)
        .slice(0, this.o.topK);
      return;
    }
    const i = this.nodes.length;
    this.indexOf.set(page.url, i);
    this.nodes.push(node);
    this.urls.push(page.url);
    this.local?.add(i);
    if (!node.links.length) return;
    const entry = { i, r: node.relevance, u: page.url };
    let lo = 0;
    let hi = this.top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byRelevance(this.top[mid], entry) <= 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= this.o.topK) return;
    this.top.splice(lo, 0, entry);
    if (this.top.length > this.o.topK) this.top.pop();
  }

  /**
   * The frontier ran dry while links were discarded: tunnel through the best of them, highest Q
   * first (ties in discard order), RESCUE_BATCH at a time, queued like tunnelling links.
   */
  rescue(): RescuedLink[] {
    if (!this.o.rescue || !this.discarded.length) return [];
    this.discarded.sort((a, b) => b.q - a.q || a.order - b.order);
    const take = this.discarded.splice(0, RESCUE_BATCH);
    this.counters.rescuedLinks += take.length;
    const qmax = Math.max(...this.model.bins.means, 1e-9);
    return take.map((d) => ({ url: d.url, score: Math.min(0.999, d.q / qmax), depth: d.depth }));
  }

  /** Retrains from the top-K most relevant pages crawled so far and their forward links; false if there was nothing to learn. */
  retrain(): boolean {
    const nodes = this.nodes;
    const index = this.indexOf;
    // Q of the crawled graph: over all of it when online thresholds read every page's, else only
    // where the top-K's links lead (the same values: stateValues' sum, its documents in crawl order)
    const V =
      this.o.thresholds === 'online'
        ? stateValues(
            {
              out: nodes.map((p) => p.links.map((l) => index.get(l) ?? -1)),
              reward: nodes.map((p) => (p.relevant ? 1 : 0)),
            },
            this.o.gamma,
            this.o.horizon,
          )
        : null;
    const memo = new Map<number, number>();
    const qOf = (v: number): number => {
      if (V) return V[v];
      let x = memo.get(v);
      if (x === undefined) {
        x = this.local ? this.local.value(v, this.o.gamma) : localValue(nodes, index, v, this.o.gamma, this.o.horizon);
        memo.set(v, x);
      }
      return x;
    };
    // the top-K most relevant pages crawled so far among those with forward links: papers are leaves,
    // and once K papers are found they would otherwise fill the top-K and leave nothing to learn from
    const top = this.top;
    const online: { vector: Map<number, number>; label: number }[] = [];
    const space = this.model.space;
    for (const { i } of top) {
      const p = nodes[i];
      p.vectors ??= p.parsed.map((l) => space.vectorize(featuresOfLink(l, p.title)));
      p.links.forEach((l, k) => {
        const v = index.get(l);
        if (v === undefined) return; // not crawled yet: its Q is unknown
        online.push({ vector: p.vectors![k], label: binOf(this.model.bins, qOf(v)) });
      });
    }
    if (!online.length) return false;
    this.counters.retrainings++;
    this.counters.onlineExamples = online.length;
    // offline counts + online counts over the offline feature space (see LinkClassifier.fromCounts)
    const on = LinkClassifier.countVectors(space.size, online, this.model.classes);
    const sum: NbCounts = {
      classCounts: this.offlineCounts.classCounts.map((x, c) => x + on.classCounts[c]),
      featureCounts: this.offlineCounts.featureCounts.map((row, c) => row.map((x, j) => x + on.featureCounts[c][j])),
    };
    this.model = LinkClassifier.fromCounts(this.model.space, sum, this.model.bins);
    if (V) this.recalibrate(nodes, index, V);
    return true;
  }

  /**
   * "online" thresholds: r1 and r2 chosen again by the calibration's rule (crawler/focused/calibrate.ts)
   * over the pages crawled so far that have links, with the crawler's own judgements: r1 the
   * immediate value that best separates pages linking a page judged relevant; r2, among pages
   * below it, the future value (under the retrained classifier) that best predicts a crawled page
   * of value within Q's horizon through one of its links. A threshold with nothing to separate is kept.
   */
  private recalibrate(nodes: readonly CrawledPage[], index: ReadonlyMap<string, number>, V: ArrayLike<number>): void {
    const withLinks = nodes.filter((p) => p.links.length > 0);
    const reaches = (p: CrawledPage, ok: (v: number) => boolean): boolean =>
      p.links.some((l) => {
        const v = index.get(l);
        return v !== undefined && ok(v);
      });
    const r1 = bestThreshold(withLinks.map((p) => ({ v: p.similarity, y: reaches(p, (v) => nodes[v].relevant) })));
    if (r1.f1 > 0) this.r1 = r1.t;
    const below = withLinks
      .filter((p) => p.similarity < this.r1)
      .map((p) => {
        p.features ??= p.parsed.map((l) => featuresOfLink(l, p.title));
        return {
          v: Math.max(0, ...p.features.map((f) => this.model.expectedQ(f))),
          y: reaches(p, (v) => V[v] >= this.model.bins.thresholds[0]),
        };
      });
    const r2 = bestThreshold(below);
    if (r2.f1 > 0) this.r2 = r2.t;
    this.counters.recalibrations++;
  }

  /** The thresholds in force: the calibrated ones, or the last chosen online. */
  get thresholds(): { r1: number; r2: number } {
    return { r1: this.r1, r2: this.r2 };
  }

  get classifier(): LinkClassifier {
    return this.model;
  }

  stats(): Record<string, number> {
    return { ...this.counters };
  }
}

function sampleEvenly<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  const step = xs.length / n;
  return Array.from({ length: n }, (_, i) => xs[Math.floor(i * step)]);
}

/** The paper's adaptive crawler; with rescue, our variant that tunnels through discarded links when the frontier runs dry. */
function adaptive(ctx: StrategyContext, rescue: boolean): Strategy {
  const name = rescue ? 'adaptive-rescue' : 'adaptive';
  const m = need(ctx.models, 'training data', name)();
  const a = ctx.adaptive;
  return new AdaptiveStrategy(
    topicOf(ctx, name),
    m.future,
    m.examples,
    {
      ...DEFAULT_ADAPTIVE,
      ...(a
        ? { retrainEvery: a.retrainEvery, topK: a.topK, offlineSample: a.offlineSample, sourceWeight: a.sourceWeight }
        : {}),
      ...(ctx.future ? { gamma: ctx.future.gamma, horizon: ctx.future.horizon } : {}),
      seed: ctx.seed,
      r1: a?.r1 ?? m.calibration.r1,
      r2: a?.r2 ?? m.calibration.r2,
      rescue,
      retrainUpdates: a?.retrainUpdates ?? DEFAULT_ADAPTIVE.retrainUpdates,
      tunnel: a?.tunnel ?? DEFAULT_ADAPTIVE.tunnel,
      thresholds: a?.thresholds ?? DEFAULT_ADAPTIVE.thresholds,
      startPage: a?.startPage ?? DEFAULT_ADAPTIVE.startPage,
    },
    ctx.judge?.(),
  );
}

/** What the adaptive crawler counts (stats()). */
const ADAPTIVE_COUNTERS = {
  ...LINKS_SCORED,
  exploitPages: 'pages whose links it exploited (relevance >= r1)',
  tunnelPages: 'pages it tunnelled through (Q >= r2)',
  discardPages: 'pages whose links it discarded',
  linksDiscarded: 'links not queued',
  rescuedLinks: 'discarded links queued when the frontier ran dry',
  retrainings: 'times the Q model was retrained',
  onlineExamples: 'examples the retrainings learnt from',
  rerankedLinks: 'queued links given a new priority after a retraining',
  readmittedLinks: 'discarded links queued again after a retraining',
  threadLinks: 'links followed as a tunnelling thread',
  recalibrations: 'times r1 and r2 were chosen again',
};

export const ADAPTIVE = defineStrategy({
  name: 'adaptive',
  rank: 130,
  distributed: true,
  summary:
    "the paper's online incremental adaptive crawler: immediate value inside communities, Q between them, retrained every T",
  needs: 'models',
  counters: ADAPTIVE_COUNTERS,
  reads: 'topic',
  settings: ['adaptive', 'future'],
  style: ['#D55E00', []],
  make: (ctx: StrategyContext) => adaptive(ctx, false),
});

export const ADAPTIVE_RESCUE = defineStrategy({
  name: 'adaptive-rescue',
  rank: 140,
  distributed: true,
  summary: 'adaptive plus our fallback: tunnels through discarded links when the frontier runs dry',
  needs: 'models',
  counters: ADAPTIVE_COUNTERS,
  reads: 'topic',
  settings: ['adaptive', 'future'],
  style: ['#D55E00', [2, 2]],
  make: (ctx: StrategyContext) => adaptive(ctx, true),
});

/** The top-K's order: relevance descending, then URL. */
const byRelevance = (a: { r: number; u: string }, b: { r: number; u: string }): number =>
  b.r - a.r || (a.u < b.u ? -1 : a.u > b.u ? 1 : 0);
