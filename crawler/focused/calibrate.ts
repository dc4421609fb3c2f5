/**
 * Thresholds of the adaptive crawler, chosen on the training sites only (never on the site being
 * crawled):
 * - r1: the page immediate value cos(q, page) that best separates the pages of topical
 *   communities (pages that link directly to a relevant document) from the rest;
 * - r2: among pages below r1, the page future value (largest expected Q of its links, from the
 *   trained classifier) that best predicts that some relevant document lies within the Q horizon
 *   through one of its links (true Q >= the first bin's bound).
 * "Best" is a rule (THRESHOLD_RULES, a reading: the paper gives neither values nor a rule); the
 * default is F1. idf for the similarities comes from the training pages themselves.
 */
import type { LinkClassifier } from './nb.ts';
import { stateValues } from './qvalue.ts';
import { wholeTokens } from './tokens.ts';
import { type DocumentFrequencies, documentFrequencies, Topic } from './topic.ts';
import { siteLinkFeatures, type LabelledPage } from './training-examples.ts';

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
  /** The thresholds by F1 (the default rule), and the F1 each reaches. */
  r1: number;
  r2: number;
  f1r1: number;
  f1r2: number;
  pages: number;
  /** The thresholds by every rule (THRESHOLD_RULES). */
  rules: Record<ThresholdRule, { r1: number; r2: number }>;
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
  };
}
