/**
 * Thresholds of the adaptive crawler, chosen on the training sites only (never on the site being
 * crawled), for each scope (adaptive-options.ts SCOPES) on the quantity that scope compares them
 * with:
 * - scope "page": r1 the page immediate value cos(q, page) that best separates the pages of
 *   topical communities (pages that link directly to a relevant document) from the rest; r2,
 *   among pages below r1, the page future value (largest expected Q of its links, from the
 *   trained classifier) that best predicts that some relevant document lies within the Q horizon
 *   through one of its links (true Q >= the first bin's bound);
 * - scope "link" (the paper's "(2) if the immediate value of the link is above r1 ... (3)
 *   otherwise, if its future value is above r2"): the same two questions asked of each link: r1
 *   the link's immediate value (formula (1), (1 - beta) cos(q, link words) + beta cos(q, page), as
 *   the crawler computes it) that best predicts that the link leads to a relevant document; r2,
 *   among links below r1, the link's own expected Q that best predicts a relevant document within
 *   Q's horizon through it.
 * "Best" is a rule (THRESHOLD_RULES, a reading: the paper gives neither values nor a rule); the
 * default is F1. idf for the similarities comes from the training pages themselves.
 */
import type { LinkClassifier } from './nb.ts';
import { stateValues } from './qvalue.ts';
import { wholeTokens } from './tokens.ts';
import { type DocumentFrequencies, documentFrequencies, Topic } from './topic.ts';
import { siteLinkFeatures, type LabelledPage } from './training-examples.ts';
import { linkWords } from './features.ts';

/** How a threshold is chosen from labelled training values (THRESHOLD_RULES). */
export type ThresholdRule = 'f1' | 'quantile' | 'precision';

/**
 * Rules that choose a threshold t (v >= t predicts y) from the training values, a reading of a
 * point the paper leaves open (it gives no values and no rule):
 * - "f1" (the default): the t with the best F1;
 * - "quantile": the quantile at the positives' share: as many training values reach t as there
 *   are positives (the base rate, so the rule has no parameter of its own);
 * - "precision": the lowest t whose training precision is at least PRECISION_TARGET, the 50% the
 *   paper asks of its crawler after the early phase.
 */
export const THRESHOLD_RULES: readonly ThresholdRule[] = ['f1', 'quantile', 'precision'];

/** The training precision the "precision" rule asks for: the paper's 50%. */
export const PRECISION_TARGET = 0.5;

export interface Calibration {
  /** The page thresholds by F1 (the default rule), and the F1 each reaches. */
  r1: number;
  r2: number;
  f1r1: number;
  f1r2: number;
  pages: number;
  /** The page thresholds (scope "page") by every rule (THRESHOLD_RULES). */
  rules: Record<ThresholdRule, { r1: number; r2: number }>;
  /** The link thresholds (scope "link") by every rule, fitted on links' immediate values and Qs. */
  link: Record<ThresholdRule, { r1: number; r2: number }>;
  /** Links the link thresholds were fitted on, and formula (1)'s beta their immediate values used. */
  links: number;
  sourceWeight: number;
}

/** The thresholds a crawler of this scope and rule compares with (Infinity: nothing reaches it; a cache stores it as null). */
export function thresholdsFor(c: Calibration, rule: ThresholdRule, scope: 'page' | 'link'): { r1: number; r2: number } {
  const t = scope === 'link' ? c.link[rule] : c.rules[rule];
  const finite = (x: number | null): number => x ?? Infinity;
  return { r1: finite(t.r1), r2: finite(t.r2) };
}

/**
 * The threshold on v that the rule chooses (v >= t predicts y); t Infinity when nothing is
 * positive (or, under "precision", no threshold reaches the target).
 */
export function chooseThreshold(
  xs: readonly { v: number; y: boolean }[],
  rule: ThresholdRule,
): { t: number; f1: number } {
  const sorted = [...xs].sort((a, b) => b.v - a.v);
  const pos = xs.filter((x) => x.y).length;
  if (!pos) return { t: Infinity, f1: 0 };
  let tp = 0;
  let chosen = { t: Infinity, f1: 0 };
  // thresholds from the highest value down, a group of equal values taken whole
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i].y) tp++;
    if (i + 1 < sorted.length && sorted[i + 1].v === sorted[i].v) continue;
    const at = { t: sorted[i].v, f1: (2 * tp) / (i + 1 + pos) };
    if (rule === 'f1') {
      if (at.f1 > chosen.f1) chosen = at; // the first best: ties keep the higher threshold
    } else if (rule === 'quantile') {
      // the first value at which as many values as positives reach it
      if (i + 1 >= pos) return at;
    } else if (tp / (i + 1) >= PRECISION_TARGET) chosen = at; // the lowest such t: keep going down
  }
  return chosen;
}

/** Tokens of a page as the strategies see it (title and text); callers may compute them once. */
export function pageTokens(p: LabelledPage): string[] {
  // from the page's words where kept (no joined text), shared with the strategies' judged tokens
  return wholeTokens(p.page);
}

export function calibrateAdaptive(
  pages: readonly LabelledPage[],
  model: LinkClassifier,
  keywords: readonly string[],
  gamma = 0.5,
  horizon = 5,
  tokens: readonly string[][] = pages.map(pageTokens),
  /** Each link's feature tokens; callers that have them pass them (training computes them once per site). */
  features: readonly (readonly string[])[][] = siteLinkFeatures(pages),
  /** The pages' document frequencies, in parts that add up to all of them (training counts them once per site). */
  frequencies: readonly DocumentFrequencies[] = [documentFrequencies(tokens)],
  /** Formula (1)'s beta in a link's immediate value (the crawler's adaptive.sourceWeight). */
  sourceWeight = 0.3,
): Calibration {
  const topic = new Topic(keywords);
  for (const f of frequencies) topic.addDocuments(f);
  const index = new Map(pages.map((p, i) => [p.url, i]));
  const out = pages.map((p) => p.page.links.map((l) => index.get(l.url) ?? -1));
  const V = stateValues({ out, reward: pages.map((p) => (p.relevant ? 1 : 0)) }, gamma, horizon);
  const html = pages
    .map((p, i) => ({ p, i }))
    .filter(({ p, i }) => p.page.kind === 'html' && out[i].some((v) => v >= 0));
  const sims = html.map(({ i }) => ({
    i,
    v: topic.similarity(tokens[i]),
    y: out[i].some((v) => v >= 0 && pages[v].relevant),
  }));
  // each page's future value once: the rules differ in which pages are below r1, not in the values
  const future = new Map<number, { v: number; y: boolean }>();
  const futureOf = (i: number): { v: number; y: boolean } => {
    let x = future.get(i);
    if (!x) {
      x = {
        v: Math.max(0, ...features[i].map((f) => model.expectedQ(f))),
        y: out[i].some((v) => v >= 0 && V[v] >= model.bins.thresholds[0]),
      };
      future.set(i, x);
    }
    return x;
  };
  const round = (x: number): number => Math.round(x * 1e4) / 1e4;
  const byRule = (rule: ThresholdRule): { r1: { t: number; f1: number }; r2: { t: number; f1: number } } => {
    const r1 = chooseThreshold(sims, rule);
    return {
      r1,
      r2: chooseThreshold(
        sims.filter((s) => s.v < r1.t).map(({ i }) => futureOf(i)),
        rule,
      ),
    };
  };
  const f1 = byRule('f1');
  const link = linkThresholds(pages, out, V, html, sims, model, topic, features, sourceWeight);
  const rules = Object.fromEntries(
    THRESHOLD_RULES.map((rule) => {
      const { r1, r2 } = rule === 'f1' ? f1 : byRule(rule);
      return [rule, { r1: round(r1.t), r2: round(r2.t) }];
    }),
  ) as Calibration['rules'];
  return {
    r1: round(f1.r1.t),
    r2: round(f1.r2.t),
    f1r1: round(f1.r1.f1),
    f1r2: round(f1.r2.f1),
    pages: html.length,
    rules,
    link: Object.fromEntries(
      THRESHOLD_RULES.map((rule) => {
        const { r1, r2 } = link.byRule(rule);
        return [rule, { r1: round(r1), r2: round(r2) }];
      }),
    ) as Calibration['link'],
    links: link.count,
    sourceWeight,
  };
}

/**
 * Scope "link": every link of a training page with links, between pages of the training set,
 * labelled as the page questions lifted to the link: whether its target is relevant (r1), whether
 * a relevant document lies within Q's horizon through it (r2, among links below r1).
 */
function linkThresholds(
  pages: readonly LabelledPage[],
  out: readonly number[][],
  V: ArrayLike<number>,
  html: readonly { i: number }[],
  sims: readonly { i: number; v: number }[],
  model: LinkClassifier,
  topic: Topic,
  features: readonly (readonly string[])[][],
  b: number,
): { count: number; byRule: (rule: ThresholdRule) => { r1: number; r2: number } } {
  const links: { v: number; y: boolean; i: number; k: number; target: number }[] = [];
  for (let h = 0; h < html.length; h++) {
    const i = html[h].i;
    const pageSim = sims[h].v;
    const ls = pages[i].page.links;
    for (let k = 0; k < ls.length; k++) {
      const target = out[i][k];
      if (target < 0) continue;
      const l = ls[k];
      const sim = topic.similarity(linkWords({ url: l.url, anchor: l.anchor, around: l.aroundList ?? l.around }));
      // formula (1) summed as the crawler sums it (adaptive.ts exploit()), so a tie compares equal
      links.push({ v: (1 - b) * sim + b * pageSim, y: pages[target].relevant, i, k, target });
    }
  }
  const qs = new Map<number, { v: number; y: boolean }>();
  const futureOf = (n: number): { v: number; y: boolean } => {
    let x = qs.get(n);
    if (!x) {
      const l = links[n];
      x = { v: model.expectedQ(features[l.i][l.k]), y: V[l.target] >= model.bins.thresholds[0] };
      qs.set(n, x);
    }
    return x;
  };
  return {
    count: links.length,
    byRule: (rule) => {
      const r1 = chooseThreshold(links, rule).t;
      const below: { v: number; y: boolean }[] = [];
      for (let n = 0; n < links.length; n++) if (links[n].v < r1) below.push(futureOf(n));
      return { r1, r2: chooseThreshold(below, rule).t };
    },
  };
}
