/**
 * A second implementation of the paper's three focused crawlers, written from the paper's text
 * (the steps quoted below), to check crawler/focused/ against: the differential tests
 * (test/reference.test.ts) and `npm run check:reference` (test/reference/compare.ts) run both on
 * the same web with the same model state.
 *
 * It shares with crawler/focused/ only the basics: the page as a crawler sees it (PageView, the
 * parser's links), the tokenizer (a link's words and features, a page's judged tokens), tf-idf
 * (Topic) with the paper's judgement of a page, and Naive Bayes (LinkClassifier's posteriors and
 * counts, Q bins). The crawl loop, the frontiers, the routing, the threads, the Q-values over the
 * crawled graph and the retraining are its own, and it crawls a site held in memory, one page at a
 * time: no HTTP, no concurrency, no engine.
 *
 * The paper's steps (2)-(5), link by link (the literal reading, adaptive.scope "link"):
 *   "(2) if the immediate value of the link is above r1, add it to the exploiting queue;
 *    (3) otherwise, if its future value is above r2, add it to the tunnelling queue;
 *    (4) otherwise add it to the discarded list" -- and a tunnelling link is followed by a thread
 *   spawned for it ("keep following from this node"), its own frontier ordered by Q.
 *   "Every interval T the link classifier is retrained with the top-100 most topic-relevant
 *    pages crawled so far and their forward links."
 * Where the text is silent this implements the shipped defaults, each named: the start page's
 * links are never discarded and open no thread (startPage "tunnel"); threads take turns with the
 * main crawl, one page each per turn, at most `maxThreads` open, waiting links best Q first; a
 * thread ends after `threadPages` requests or when it has nothing left, its leftovers queued in
 * the main crawl by Q below every exploiting link; the top-K are the most relevant crawled pages
 * that have links; a retraining adds its counts to the offline links' (an even sample); it scores
 * only links found after it (retrainUpdates "new-links"); thresholds fixed (thresholds "calibrated").
 */
import type { AdaptiveOptions } from '../../crawler/focused/adaptive-options.ts';
import { featuresOfLink } from '../../crawler/focused/tokens.ts';
import { judgePage } from '../../crawler/focused/immediate-future.ts';
import { linkWords } from '../../crawler/focused/features.ts';
import { type Example, LinkClassifier } from '../../crawler/focused/nb.ts';
import { binOf } from '../../crawler/focused/qvalue.ts';
import { PAPER_JUDGE } from '../../crawler/focused/relevance.ts';
import { Topic } from '../../crawler/focused/topic.ts';
import type { QExample } from '../../crawler/focused/training-examples.ts';
import type { ParsedLink } from '../../crawler/parser.ts';
import type { PageView } from '../../crawler/strategy.ts';

/** A page as the site serves it (the crawl adds its place: seq, depth, score). */
export type ServedPage = Omit<PageView, 'seq' | 'depth' | 'score'>;

/**
 * A site in memory: what a request for a URL gets (a page; a redirect, followed at once at the
 * cost of one more request; undefined: nothing), whether a URL may be requested at all (scope and
 * robots.txt: a URL that may not costs nothing), and where the crawl starts.
 */
export interface MemorySite {
  start: string;
  page(url: string): ServedPage | { redirect: string } | undefined;
  allowed(url: string): boolean;
}

/**
 * One request for a queued URL (two for a redirect to a URL not seen yet); the page it got, if any.
 * Every request is appended to `out`, the crawl.
 */
function request(site: MemorySite, e: Entry, seen: Set<string>, out: Crawl, budget: number): PageView | null {
  out.push(e.url);
  let got = site.page(e.url);
  if (got && 'redirect' in got) {
    const to = got.redirect;
    if (seen.has(to) || !site.allowed(to) || out.length >= budget) return null;
    seen.add(to);
    out.push(to);
    got = site.page(to);
  }
  if (!got || 'redirect' in got) return null;
  return { ...got, seq: out.length - 1, depth: e.depth, score: e.score };
}

export type Route = 'exploit' | 'tunnel' | 'discard';

/** Steps (2)-(4) for one link; at the start page a link below r1 is never discarded. */
export function route(immediate: number, q: number, r1: number, r2: number, startPage = false): Route {
  if (immediate >= r1) return 'exploit';
  if (q >= r2 || startPage) return 'tunnel';
  return 'discard';
}

/** The crawler's settings the reference reads (the same names: a type shared, no logic), its budget and thread cap. */
export type ReferenceOptions = Pick<
  AdaptiveOptions,
  'sourceWeight' | 'r1' | 'r2' | 'retrainEvery' | 'topK' | 'gamma' | 'horizon' | 'offlineSample' | 'threadPages'
> & { budget: number; maxThreads: number };

interface Entry {
  url: string;
  score: number;
  depth: number;
  order: number;
}

/** A frontier: best score first, ties first added first (a plain sorted insert: sites here are small). */
class Queue {
  private readonly xs: Entry[] = [];
  private added = 0;
  push(url: string, score: number, depth: number): void {
    const e = { url, score, depth, order: this.added++ };
    let i = this.xs.length;
    while (i > 0 && this.xs[i - 1].score < score) i--;
    this.xs.splice(i, 0, e);
  }
  pop(): Entry | undefined {
    return this.xs.shift();
  }
  get size(): number {
    return this.xs.length;
  }
  drain(): Entry[] {
    return this.xs.splice(0);
  }
}

/** The URLs a crawl requested, in order (at most the budget). */
export type Crawl = string[];

/** Immediate value, formula (1): best-first by (1 - beta) cos(q, link words) + beta cos(q, page). */
export function crawlImmediate(site: MemorySite, keywords: readonly string[], o: ReferenceOptions): Crawl {
  const topic = new Topic(keywords);
  const b = o.sourceWeight;
  return bestFirst(site, o.budget, (page, links) => {
    const j = judgePage(topic, PAPER_JUDGE, page);
    return links.map((l) => (1 - b) * topic.similarity(linkWords(linkContext(l))) + b * j.similarity);
  });
}

/** Future value: best-first by the link's expected Q under the classifier trained on the other sites. */
export function crawlFuture(
  site: MemorySite,
  keywords: readonly string[],
  model: LinkClassifier,
  budget: number,
): Crawl {
  const topic = new Topic(keywords);
  return bestFirst(site, budget, (page, links) => {
    judgePage(topic, PAPER_JUDGE, page);
    return links.map((l) => model.expectedQ(featuresOfLink(l, page.title)));
  });
}

function bestFirst(
  site: MemorySite,
  budget: number,
  score: (page: PageView, links: readonly ParsedLink[]) => number[],
): Crawl {
  const q = new Queue();
  const seen = new Set([site.start]);
  q.push(site.start, Infinity, 0);
  const out: Crawl = [];
  while (out.length < budget && q.size) {
    const e = q.pop()!;
    const page = request(site, e, seen, out, budget);
    if (!page) continue;
    const links = fresh(site, page.links, seen);
    score(page, links).forEach((s, i) => q.push(links[i].url, s, e.depth + 1));
  }
  return out;
}

/** A page's links that may be requested and were not seen before, each once, in page order (marked seen). */
function fresh(site: MemorySite, links: readonly ParsedLink[], seen: Set<string>): ParsedLink[] {
  const out: ParsedLink[] = [];
  for (const l of links)
    if (!seen.has(l.url) && site.allowed(l.url)) {
      seen.add(l.url);
      out.push(l);
    }
  return out;
}

const linkContext = (l: ParsedLink) => ({ url: l.url, anchor: l.anchor, around: l.aroundList ?? l.around });

/** A page the crawler read, the new links it routed (in page order) and how. */
export interface Visit {
  page: PageView;
  candidates: ParsedLink[];
  routes: Route[];
}

interface Thread {
  frontier: Queue;
  requests: number;
}

interface Crawled {
  links: string[];
  parsed: readonly ParsedLink[];
  title: string;
  relevant: boolean;
  relevance: number;
  url: string;
}

/**
 * The online incremental adaptive crawler, link by link, tunnelling links followed by threads.
 * Returns the crawl and, for the routing test, every link's route in the order links were routed.
 */
export function crawlAdaptive(
  site: MemorySite,
  keywords: readonly string[],
  start: LinkClassifier,
  offline: readonly QExample[],
  o: ReferenceOptions,
): { crawl: Crawl; visits: Visit[]; threadsOpened: number } {
  const topic = new Topic(keywords);
  let model = start;
  const qmax = Math.max(...model.bins.means, 1e-9);
  const b = o.sourceWeight;
  const main = new Queue();
  const threads: Thread[] = [];
  const waiting = new Queue();
  const seen = new Set([site.start]);
  const crawled: Crawled[] = [];
  const crawledAt = new Map<string, number>();
  const visits: Visit[] = [];
  const out: Crawl = [];
  let threadsOpened = 0;
  // the offline links, labelled by the offline bins, an even sample (Naive Bayes counts add up)
  const sample: Example[] = evenly(offline, o.offlineSample).map((e) => ({
    tokens: e.tokens,
    label: binOf(model.bins, e.q),
  }));
  const offlineCounts = LinkClassifier.count(model.space, sample, model.classes);

  /** One request; the page's new links routed into the main crawl or into `thread`. */
  const visit = (e: Entry, thread: Thread | null): void => {
    const page = request(site, e, seen, out, o.budget);
    if (!page) return;
    const j = judgePage(topic, PAPER_JUDGE, page);
    if (!crawledAt.has(page.url)) crawledAt.set(page.url, crawled.length);
    crawled.push({
      url: page.url,
      links: page.links.map((l) => l.url),
      parsed: page.links,
      title: page.title,
      relevant: j.relevant,
      relevance: j.relevance,
    });
    const isStart = e.depth === 0;
    const candidates = fresh(site, page.links, seen);
    const routes: Route[] = [];
    visits.push({ page, candidates, routes });
    for (const l of candidates) {
      const iv = (1 - b) * topic.similarity(linkWords(linkContext(l))) + b * j.similarity;
      const q = model.expectedQ(featuresOfLink(l, page.title));
      const r = route(iv, q, o.r1, o.r2, isStart);
      routes.push(r);
      if (r === 'exploit') main.push(l.url, 1 + iv, e.depth + 1);
      else if (r === 'tunnel') {
        if (thread) thread.frontier.push(l.url, q, e.depth + 1);
        else if (isStart) main.push(l.url, Math.min(0.999, q / qmax), e.depth + 1);
        else if (threads.length < o.maxThreads) spawn(l.url, q, e.depth + 1);
        else waiting.push(l.url, q, e.depth + 1);
      }
    }
    // every T pages the crawler read (a request that got no page teaches nothing)
    if (crawled.length % o.retrainEvery === 0) model = retrain(model);
  };

  const spawn = (url: string, q: number, depth: number): void => {
    const t = { frontier: new Queue(), requests: 0 };
    t.frontier.push(url, q, depth);
    threads.push(t);
    threadsOpened++;
  };

  /** Threads that spent their requests or have nothing left end; waiting links take their places. */
  const reap = (): void => {
    for (let i = 0; i < threads.length; i++) {
      const t = threads[i];
      if (t.requests < o.threadPages && t.frontier.size) continue;
      for (const l of t.frontier.drain()) main.push(l.url, Math.min(0.999, l.score / qmax), l.depth);
      threads.splice(i--, 1);
    }
    while (threads.length < o.maxThreads && waiting.size) {
      const w = waiting.pop()!;
      spawn(w.url, w.score, w.depth);
    }
  };

  const retrain = (m: LinkClassifier): LinkClassifier => {
    const withLinks = crawled
      .map((p, i) => ({ p, i }))
      .filter(({ p, i }) => p.links.length > 0 && crawledAt.get(p.url) === i)
      .sort((x, y) => y.p.relevance - x.p.relevance || (x.p.url < y.p.url ? -1 : x.p.url > y.p.url ? 1 : 0))
      .slice(0, o.topK);
    const examples: { vector: Map<number, number>; label: number }[] = [];
    for (const { p } of withLinks)
      p.parsed.forEach((l) => {
        if (!crawledAt.has(l.url)) return;
        examples.push({
          vector: m.space.vectorize(featuresOfLink(l, p.title)),
          label: binOf(m.bins, qOfCrawled(l.url)),
        });
      });
    if (!examples.length) return m;
    const on = LinkClassifier.countVectors(m.space.size, examples, m.classes);
    return LinkClassifier.fromCounts(
      m.space,
      {
        classCounts: offlineCounts.classCounts.map((x, c) => x + on.classCounts[c]),
        featureCounts: offlineCounts.featureCounts.map((row, c) => row.map((x, f) => x + on.featureCounts[c][f])),
      },
      m.bins,
    );
  };

  /** Q of a crawled page: sum of gamma^k over the pages judged relevant k <= horizon links from it, crawled ones only. */
  const qOfCrawled = (url: string): number => {
    const dist = new Map([[url, 0]]);
    let ring = [url];
    for (let k = 1; k <= o.horizon; k++) {
      const next: string[] = [];
      for (const u of ring)
        for (const v of crawled[crawledAt.get(u)!].links)
          if (!dist.has(v) && crawledAt.has(v)) {
            dist.set(v, k);
            next.push(v);
          }
      ring = next;
    }
    let x = 0;
    for (const [u, k] of dist) if (crawled[crawledAt.get(u)!].relevant) x += o.gamma ** k;
    return x;
  };

  main.push(site.start, Infinity, 0);
  while (out.length < o.budget) {
    const e = main.pop();
    if (e) visit(e, null);
    reap();
    // each open thread's turn: one request each
    for (const t of [...threads]) {
      if (out.length >= o.budget) break;
      const n = t.frontier.pop();
      if (!n) continue;
      t.requests++;
      visit(n, t);
    }
    reap();
    if (!e && !threads.length && !main.size) break;
  }
  return { crawl: out, visits, threadsOpened };
}

function evenly<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]);
}

/** Recall AUC: the area under recall against requests from (0, 0) to the budget, by trapezoids one request wide, over the budget. */
export function recallAuc(crawl: Crawl, relevant: ReadonlySet<string>, budget: number): number {
  if (!relevant.size) return 0;
  const found = new Set<string>();
  let area = 0;
  let before = 0;
  for (let i = 0; i < budget; i++) {
    const u = crawl[i];
    if (u !== undefined && relevant.has(u)) found.add(u);
    const now = found.size / relevant.size;
    area += (before + now) / 2;
    before = now;
  }
  return area / budget;
}
