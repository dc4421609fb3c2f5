/**
 * What the adaptive crawler (adaptive.ts) learns as it crawls: the pages crawled and their links
 * (the crawled graph), the top-K most relevant pages among those with links, the link classifier
 * retrained every T pages from them and their forward links (Q measured on the crawled graph with
 * the crawler's own judgements) together with a sample of the offline training links, and the
 * thresholds in force, chosen again at each retraining under "online" thresholds.
 */
import type { ParsedLink } from '../parser.ts';
import type { PageView } from '../strategy.ts';
import type { AdaptiveOptions } from './adaptive-options.ts';
import { chooseThreshold } from './calibrate.ts';
import type { Judged } from './immediate-future.ts';
import { HorizonOne, localValue } from './local-values.ts';
import { type Example, LinkClassifier, type NbCounts } from './nb.ts';
import { binOf, stateValues } from './qvalue.ts';
import { featuresOfLink } from './tokens.ts';
import type { QExample } from './training-examples.ts';

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
  /** Scope "link": each new link's immediate value when it was routed (what was compared with r1), by URL. */
  linkValues: Map<string, number> | null;
}

export class AdaptiveLearner {
  model: LinkClassifier;
  /** The thresholds in force (re-chosen at each retraining under "online" thresholds). */
  r1: number;
  r2: number;
  readonly counters = { retrainings: 0, onlineExamples: 0, recalibrations: 0 };
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

  constructor(
    model: LinkClassifier,
    offline: readonly QExample[],
    private readonly o: AdaptiveOptions,
  ) {
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

  remember(page: PageView, j: Judged): void {
    const node: CrawledPage = {
      links: page.links.map((l) => l.url),
      relevant: j.relevant,
      relevance: j.relevance,
      similarity: j.similarity,
      parsed: page.links,
      title: page.title,
      vectors: null,
      features: null,
      linkValues: null,
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

  /** Scope "link": the immediate values the page's new links were routed by (online thresholds refit r1 on them). */
  routedLinks(url: string, values: Map<string, number>): void {
    const i = this.indexOf.get(url);
    if (i !== undefined) this.nodes[i].linkValues = values;
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
    if (this.o.scope === 'link') return this.recalibrateLinks(nodes, index, V);
    const withLinks = nodes.filter((p) => p.links.length > 0);
    const reaches = (p: CrawledPage, ok: (v: number) => boolean): boolean =>
      p.links.some((l) => {
        const v = index.get(l);
        return v !== undefined && ok(v);
      });
    const rule = this.o.thresholdRule;
    const r1 = chooseThreshold(
      withLinks.map((p) => ({ v: p.similarity, y: reaches(p, (v) => nodes[v].relevant) })),
      rule,
    );
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
    const r2 = chooseThreshold(below, rule);
    if (r2.f1 > 0) this.r2 = r2.t;
    this.counters.recalibrations++;
  }

  /**
   * "online" thresholds under scope "link", on the quantities that scope compares them with: r1 the
   * link immediate value (as routed) that best predicts a crawled target judged relevant; r2, among
   * links below it, the link's Q under the retrained classifier that best predicts a crawled target
   * of value within Q's horizon. Links whose target was not crawled are left out (nothing known).
   */
  private recalibrateLinks(
    nodes: readonly CrawledPage[],
    index: ReadonlyMap<string, number>,
    V: ArrayLike<number>,
  ): void {
    const links: { v: number; y: boolean; p: CrawledPage; k: number; target: number }[] = [];
    for (const p of nodes) {
      if (!p.linkValues) continue;
      p.parsed.forEach((l, k) => {
        const v = p.linkValues!.get(l.url);
        const target = index.get(l.url);
        if (v !== undefined && target !== undefined) links.push({ v, y: nodes[target].relevant, p, k, target });
      });
    }
    const rule = this.o.thresholdRule;
    const r1 = chooseThreshold(links, rule);
    if (r1.f1 > 0) this.r1 = r1.t;
    const below = links
      .filter((x) => x.v < this.r1)
      .map(({ p, k, target }) => {
        p.features ??= p.parsed.map((l) => featuresOfLink(l, p.title));
        return { v: this.model.expectedQ(p.features[k]), y: V[target] >= this.model.bins.thresholds[0] };
      });
    const r2 = chooseThreshold(below, rule);
    if (r2.f1 > 0) this.r2 = r2.t;
    this.counters.recalibrations++;
  }
}

function sampleEvenly<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  const step = xs.length / n;
  return Array.from({ length: n }, (_, i) => xs[Math.floor(i * step)]);
}

/** The top-K's order: relevance descending, then URL. */
const byRelevance = (a: { r: number; u: string }, b: { r: number; u: string }): number =>
  b.r - a.r || (a.u < b.u ? -1 : a.u > b.u ? 1 : 0);
