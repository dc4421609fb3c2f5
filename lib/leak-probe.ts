/**
 * The learnt leak probe (issue #66): does a web mark its target where a crawler looks before it
 * fetches, without any topic? Each link a crawler meets is described by topic-free tokens of what
 * it sees before fetching it (linkContextTokens): the heading above the link, the anchor's shape
 * (words, capitals, digits), the words of the target's URL path, the link's place among its
 * page's links and the share of its page's links that name a document file. Topic words are left
 * out, and so is the file type (the docs-first probe reads that). A Naive Bayes learns on the
 * other sites and scores the held-out one (leaveOneSiteOut): ROC AUC and the break-even of
 * precision and recall (the largest min(P, R) over thresholds). Beside it, the heading rule: the
 * same learner reading only the words of the heading above the link.
 *
 * A probe that finds the target (AUC near 1, min(P, R) high) says that a crawler trained on other
 * sites could too, knowing nothing of the topic: the web gives the target away. Both adapters,
 * the generator's renderer (sim/web-leak.ts) and a crawler's parse of any web (experiments/env-leak.ts),
 * feed the same tokens.
 */
import { DEFAULT_DOCUMENT_EXTENSIONS, hasExtension } from './document-types.ts';
import { tokenize } from './text.ts';
import { append } from './arrays.ts';

/** What a crawler sees of a link before fetching it, and whether its target is relevant. */
export interface LinkContext {
  /** The heading above the link on its page ('' if none). */
  heading: string;
  anchor: string;
  /** Absolute URL of the target. */
  url: string;
  /** The link's place among its page's links (0 first), and how many links the page has. */
  position: number;
  links: number;
  /** Links of the page whose URL names a document file. */
  documentLinks: number;
  positive: boolean;
}

export interface ProbeExample {
  tokens: string[];
  positive: boolean;
}

export interface ProbeScore {
  links: number;
  positives: number;
  /** ROC AUC of the held-out site's links (Mann-Whitney, ties half); NaN without both classes. */
  auc: number;
  /** The largest min(precision, recall) over thresholds (the break-even). */
  minPR: number;
  /**
   * The same at COMMON_RATE positives: min(P, R) depends on the share of links that lead to the
   * target (3-5% on the generated web, 15-35% on WebKB), AUC does not; weighting the negatives so
   * that positives are COMMON_RATE of the weight makes two webs' probes comparable.
   */
  minPRAtRate: number;
}

/**
 * The common share of positives min(P, R) is compared at (ProbeScore.minPRAtRate): 10%, a
 * condition between the generated departments' 3-5% of links to papers and WebKB's 15-35%.
 */
export const COMMON_RATE = 0.1;

const bucket = (x: number, edges: readonly number[]): number => {
  let i = 0;
  while (i < edges.length && x >= edges[i]) i++;
  return i;
};

/** The path words of a URL, its file type left out (the extension of a document file). */
function pathWords(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '';
  }
  const ext = DEFAULT_DOCUMENT_EXTENSIONS.filter((e) => path.toLowerCase().endsWith(e)).sort(
    (a, b) => b.length - a.length,
  )[0];
  if (ext) path = path.slice(0, -ext.length);
  return path.replace(/\.(s?html?|php|asp|cgi)$/i, '').replace(/[^A-Za-z0-9]+/g, ' ');
}

/** A heading's words, lower-case, each also stemmed as tokenize() stems it (so a topic word is found either way). */
function headingWords(heading: string): string[] {
  return heading
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => tokenize(w)[0] ?? w);
}

/**
 * The heading, anchor and URL tokens of links already read, for one `topical`: a site's pages link
 * the same pages under the same headings and anchors many times (a fifth of the probe's time, issue #70).
 */
export interface TokenMemo {
  headings: Map<string, string[]>;
  anchors: Map<string, string[]>;
  urls: Map<string, string[]>;
}

const newTokenMemo = (): TokenMemo => ({ headings: new Map(), anchors: new Map(), urls: new Map() });

/** The anchor's shape: how many words (aw:), the share of them capitalised (ac:), whether it has a digit (ad:). */
function anchorShape(anchor: string): string[] {
  const words = anchor.split(/\s+/).filter(Boolean);
  const caps = words.filter((w) => /^[A-Z]/.test(w)).length;
  const out = [
    `aw:${Math.min(words.length, 8)}`,
    `ac:${words.length ? bucket(caps / words.length, [0.01, 0.5, 0.99]) : 0}`,
  ];
  if (/\d/.test(anchor)) out.push('ad:1');
  return out;
}

/**
 * Topic-free tokens of a link: heading words (h:), anchor shape (aw: words, ac: capitalised
 * words, ad: digits), URL path words (u:), place (p:) and its page's share of document links
 * (d:). Words for which `topical` is true are left out.
 */
export function linkContextTokens(
  l: LinkContext,
  topical: (stem: string) => boolean,
  memo: TokenMemo = newTokenMemo(),
): string[] {
  const out: string[] = [];
  // every word of the heading, stop words too: "See also" above a link says as much as "Papers"
  let h = memo.headings.get(l.heading);
  if (!h)
    memo.headings.set(
      l.heading,
      (h = headingWords(l.heading)
        .filter((w) => !topical(w))
        .map((w) => `h:${w}`)),
    );
  append(out, h);
  let a = memo.anchors.get(l.anchor);
  if (!a) memo.anchors.set(l.anchor, (a = anchorShape(l.anchor)));
  append(out, a);
  let u = memo.urls.get(l.url);
  if (!u)
    memo.urls.set(
      l.url,
      (u = tokenize(pathWords(l.url))
        .filter((t) => !topical(t))
        .map((t) => `u:${t}`)),
    );
  append(out, u);
  out.push(`p:${bucket(l.position, [1, 2, 3, 6, 11, 21, 51])}`);
  out.push(`d:${bucket(l.links ? l.documentLinks / l.links : 0, [0.01, 0.1, 0.3, 0.6])}`);
  return out;
}

/** Whether a URL names a document file (the page's document-link share). */
export const namesDocument = (url: string): boolean => hasExtension(url, DEFAULT_DOCUMENT_EXTENSIONS);

/** How many examples of each class hold each token (once per example), and how many examples each class has. */
interface ClassCounts {
  pos: Map<string, number>;
  neg: Map<string, number>;
  np: number;
  nn: number;
}

/** Examples whose tokens are each held once (unique(): the first of each, in order). */
function countTokens(examples: readonly ProbeExample[]): ClassCounts {
  const c: ClassCounts = { pos: new Map(), neg: new Map(), np: 0, nn: 0 };
  for (const e of examples) {
    const m = e.positive ? c.pos : c.neg;
    if (e.positive) c.np++;
    else c.nn++;
    for (const t of e.tokens) m.set(t, (m.get(t) ?? 0) + 1);
  }
  return c;
}

/** The first of each token, in order (what iterating a Set of them gives); a link has a dozen or so. */
function unique(tokens: string[]): string[] {
  if (tokens.length > 32) return [...new Set(tokens)];
  const out: string[] = [];
  for (const t of tokens) if (!out.includes(t)) out.push(t);
  return out;
}

/** The counts of every site but one: all sites' counts less the held-out site's (counted once per site, not once per fold). */
function allBut(total: ClassCounts, part: ClassCounts): ClassCounts {
  const less = (m: Map<string, number>, p: Map<string, number>): Map<string, number> => {
    const out = new Map(m);
    for (const [t, k] of p) out.set(t, out.get(t)! - k);
    return out;
  };
  return {
    pos: less(total.pos, part.pos),
    neg: less(total.neg, part.neg),
    np: total.np - part.np,
    nn: total.nn - part.nn,
  };
}

function sumCounts(parts: readonly ClassCounts[]): ClassCounts {
  const total: ClassCounts = { pos: new Map(), neg: new Map(), np: 0, nn: 0 };
  for (const c of parts) {
    for (const [t, k] of c.pos) total.pos.set(t, (total.pos.get(t) ?? 0) + k);
    for (const [t, k] of c.neg) total.neg.set(t, (total.neg.get(t) ?? 0) + k);
    total.np += c.np;
    total.nn += c.nn;
  }
  return total;
}

/**
 * A Bernoulli-style Naive Bayes over the tokens present (Laplace-smoothed): log-odds of positive,
 * of examples whose tokens are each held once. Each token's weight is computed once per model, not
 * once per example that holds it.
 */
function naiveBayes({ pos, neg, np, nn }: ClassCounts): (tokens: readonly string[]) => number {
  const prior = Math.log((np + 1) / (nn + 1));
  const weight = new Map<string, number>();
  for (const m of [pos, neg])
    for (const t of m.keys()) {
      if (weight.has(t)) continue;
      const a = pos.get(t) ?? 0;
      const b = neg.get(t) ?? 0;
      // a token no training site had says nothing (held out, its counts are 0)
      if (a || b) weight.set(t, Math.log((a + 1) / (np + 2)) - Math.log((b + 1) / (nn + 2)));
    }
  return (tokens) => {
    let s = prior;
    for (const t of tokens) {
      const w = weight.get(t);
      if (w !== undefined) s += w;
    }
    return s;
  };
}

/** AUC of scores against labels (Mann-Whitney U with ties counted half); NaN without both classes. */
export function rocAuc(scores: readonly number[], labels: readonly boolean[]): number {
  const idx = scores.map((_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let rankSumPos = 0;
  let pos = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j < idx.length && scores[idx[j]] === scores[idx[i]]) j++;
    const rank = (i + 1 + j) / 2; // mean rank of the tie group (1-based)
    for (let k = i; k < j; k++)
      if (labels[idx[k]]) {
        rankSumPos += rank;
        pos++;
      }
    i = j;
  }
  const neg = labels.length - pos;
  return pos && neg ? (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg) : NaN;
}

/** The largest min(precision, recall) over thresholds (a tie group is taken whole). */
export function breakEven(scores: readonly number[], labels: readonly boolean[]): number {
  return weightedBreakEven(scores, labels, 1);
}

/**
 * breakEven as if positives were `rate` of the links: each negative weighs (positives / negatives)
 * x (1 - rate) / rate, so that precision is tp / (tp + weight x fp); recall does not change.
 */
export function breakEvenAtRate(scores: readonly number[], labels: readonly boolean[], rate: number): number {
  const positives = labels.filter(Boolean).length;
  const negatives = labels.length - positives;
  return weightedBreakEven(scores, labels, negatives ? ((positives / negatives) * (1 - rate)) / rate : 0);
}

/** The largest min(tp / (tp + w x fp), recall) over thresholds, a tie group taken whole. */
function weightedBreakEven(scores: readonly number[], labels: readonly boolean[], w: number): number {
  const idx = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
  const positives = labels.filter(Boolean).length;
  if (!positives) return 0;
  let tp = 0;
  let best = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j < idx.length && scores[idx[j]] === scores[idx[i]]) j++;
    for (let k = i; k < j; k++) if (labels[idx[k]]) tp++;
    if (tp) best = Math.max(best, Math.min(tp / (tp + w * (j - tp)), tp / positives));
    i = j;
  }
  return best;
}

const r3 = (x: number): number => Math.round(x * 1e3) / 1e3;

const score = (scores: number[], labels: boolean[]): ProbeScore => ({
  links: labels.length,
  positives: labels.filter(Boolean).length,
  auc: r3(rocAuc(scores, labels)),
  minPR: r3(breakEven(scores, labels)),
  minPRAtRate: r3(breakEvenAtRate(scores, labels, COMMON_RATE)),
});

/** The probe and the heading rule at each site, trained on the others (a site with no positive link scores NaN / 0). */
export function leaveOneSiteOut(
  sites: readonly (readonly LinkContext[])[],
  topical: (stem: string) => boolean,
): { probe: ProbeScore; heading: ProbeScore }[] {
  const memo = newTokenMemo();
  const examples = sites.map((links) =>
    links.map((l) => ({ tokens: unique(linkContextTokens(l, topical, memo)), positive: l.positive })),
  );
  // the heading rule: the same learner reading the heading's words alone
  const headings = examples.map((xs) => xs.map((e) => ({ ...e, tokens: e.tokens.filter((t) => t.startsWith('h:')) })));
  const folds = (all: ProbeExample[][]): ProbeScore[] => {
    const counts = all.map(countTokens);
    const total = sumCounts(counts);
    return all.map((xs, i) => {
      const nb = naiveBayes(allBut(total, counts[i]));
      return score(
        xs.map((e) => nb(e.tokens)),
        xs.map((e) => e.positive),
      );
    });
  };
  const probe = folds(examples);
  const heading = folds(headings);
  return sites.map((_, i) => ({ probe: probe[i], heading: heading[i] }));
}
