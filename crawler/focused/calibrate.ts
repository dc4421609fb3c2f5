/**
 * Default thresholds of the adaptive crawler, chosen on the training sites only (never on the
 * site being crawled):
 * - r1: the page immediate value cos(q, page) that best separates, by F1, the pages of topical
 *   communities (pages that link directly to a relevant document) from the rest;
 * - r2: among pages below r1, the page future value (largest expected Q of its links, from the
 *   trained classifier) that best predicts, by F1, that some relevant document lies within the
 *   Q horizon through one of its links (true Q >= the first bin's bound).
 * idf for the similarities comes from the training pages themselves.
 */
import type { LinkClassifier } from './nb.ts';
import { stateValues } from './qvalue.ts';
import { wholeTokens } from './tokens.ts';
import { type DocumentFrequencies, documentFrequencies, Topic } from './topic.ts';
import { siteLinkFeatures, type LabelledPage } from './training-examples.ts';

export interface Calibration {
  r1: number;
  r2: number;
  f1r1: number;
  f1r2: number;
  pages: number;
}

/** The threshold on v that best predicts y by F1 (v >= t predicts y); t Infinity when nothing does. */
export function bestThreshold(xs: readonly { v: number; y: boolean }[]): { t: number; f1: number } {
  const sorted = [...xs].sort((a, b) => b.v - a.v);
  const pos = xs.filter((x) => x.y).length;
  let tp = 0;
  let best = { t: Infinity, f1: 0 };
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i].y) tp++;
    if (i + 1 < sorted.length && sorted[i + 1].v === sorted[i].v) continue;
    const f1 = (2 * tp) / (i + 1 + pos);
    if (f1 > best.f1) best = { t: sorted[i].v, f1 };
  }
  return best;
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
  const r1 = bestThreshold(sims);
  const below = sims
    .filter((s) => s.v < r1.t)
    .map(({ i }) => ({
      v: Math.max(0, ...features[i].map((f) => model.expectedQ(f))),
      y: out[i].some((v) => v >= 0 && V[v] >= model.bins.thresholds[0]),
    }));
  const r2 = bestThreshold(below);
  const round = (x: number): number => Math.round(x * 1e4) / 1e4;
  return { r1: round(r1.t), r2: round(r2.t), f1r1: round(r1.f1), f1r2: round(r2.f1), pages: html.length };
}
