/**
 * Training data for the future value: labelled pages of training sites (each page parsed by the
 * crawler's own parser, labelled relevant or not) become links with Q-values, Q bins and
 * features. Leave-one-site-out: to crawl one site, train on the others; trainingExamples()
 * refuses a page of the held-out site.
 */
import type { ParsedPage } from '../parser.ts';
import { featuresOfLink } from './tokens.ts';
import { LinkClassifier, type Example } from './nb.ts';
import { binOf, makeBins, stateValues } from './qvalue.ts';
import { hostOf } from '../../lib/url.ts';

export interface LabelledPage {
  url: string;
  page: ParsedPage;
  relevant: boolean;
}

export interface FutureConfig {
  gamma: number;
  /** 'sum': every relevant document within the horizon counts; 'nearest': only the closest one. */
  aggregate: 'sum' | 'nearest';
  horizon: number;
  bins: number;
  maxRows: number;
  seed: number;
  /**
   * What the classifier reads of a link (FUTURE_FEATURES): "all" (anchor, words around, URL path,
   * and the source page's title and the heading above the link), or "link" (the first three: an
   * ablation of the page-level cues, which a generated web may set by page kind).
   */
  features: FutureFeatures;
}

export type FutureFeatures = 'all' | 'link';

/** Feature namespaces (features.ts) each FutureFeatures reads; null: every one. */
export const FUTURE_FEATURES: Record<FutureFeatures, readonly string[] | null> = {
  all: null,
  link: ['a:', 'n:', 'u:'],
};

export const DEFAULT_FUTURE: FutureConfig = {
  gamma: 0.5,
  aggregate: 'sum',
  horizon: 1,
  bins: 3,
  maxRows: 12_000,
  seed: 1,
  features: 'all',
};

export interface QExample {
  tokens: string[];
  q: number;
  /** Host of the page the link is on (for leave-one-site-out checks). */
  host: string;
}

/** Feature tokens of every link of every page (linkFeatures), in page and link order. */
export function siteLinkFeatures(pages: readonly LabelledPage[]): string[][][] {
  return pages.map((p) => p.page.links.map((l) => featuresOfLink(l, p.page.title)));
}

/**
 * Links of one site's pages with their Q (only links to pages of the given set count). An
 * example's tokens are the very array of `features` (the pages' siteLinkFeatures).
 */
export function siteExamples(
  pages: readonly LabelledPage[],
  cfg: Pick<FutureConfig, 'gamma' | 'horizon' | 'aggregate'>,
  features: string[][][] = siteLinkFeatures(pages),
): QExample[] {
  const index = new Map(pages.map((p, i) => [p.url, i]));
  const out = pages.map((p) => p.page.links.map((l) => index.get(l.url) ?? -1));
  const V = stateValues({ out, reward: pages.map((p) => (p.relevant ? 1 : 0)) }, cfg.gamma, cfg.horizon, cfg.aggregate);
  const ex: QExample[] = [];
  pages.forEach((p, i) => {
    const host = hostOf(p.url);
    out[i].forEach((v, k) => {
      if (v >= 0) ex.push({ tokens: features[i][k], q: V[v], host });
    });
  });
  return ex;
}

/** Training examples of every site but the held-out one. */
export function trainingExamples(bySite: ReadonlyMap<string, readonly QExample[]>, heldOut: string): QExample[] {
  const out: QExample[] = [];
  for (const [host, ex] of bySite) {
    if (host === heldOut) continue;
    for (const e of ex) {
      if (e.host === heldOut) throw new Error(`leave-one-site-out: an example of ${heldOut} is in the training data`);
      out.push(e);
    }
  }
  return out;
}

export function trainFutureModel(examples: readonly QExample[], cfg: FutureConfig): LinkClassifier {
  const bins = makeBins(
    examples.map((e) => e.q),
    cfg.bins,
  );
  // an ablation trains on fewer namespaces: the feature space never has the others, so every
  // later count or score (the crawl, the adaptive crawler's retraining) ignores them too
  const keep = FUTURE_FEATURES[cfg.features ?? 'all'];
  const tokensOf = (t: string[]): string[] => (keep ? t.filter((x) => keep.some((k) => x.startsWith(k))) : t);
  const labelled: Example[] = examples.map((e) => ({ tokens: tokensOf(e.tokens), label: binOf(bins, e.q) }));
  return LinkClassifier.train(labelled, bins, { maxRows: cfg.maxRows, seed: cfg.seed });
}
