/**
 * The crawler's relevance judgement of a fetched page: what the adaptive crawler learns from
 * (its reward and its top-K), what crawl.jsonl logs as `relevance`. The target belongs to the
 * experiment, so the judgement is one of three modes, named in its config:
 *
 * - `paper`: the paper's setting, hand-written: 0.5 x [a .pdf/.ps with an abstract and a
 *   reference list] + 0.5 x min(1, cos(q, text) / 0.5) (Topic.judge); relevant = looks like a
 *   paper.
 * - `paper-url`: the paper's definition where the documents' bodies were not kept (the 1997
 *   WebKB departments): relevant = the URL ends in .pdf or .ps, compressed forms included
 *   (lib/document-types.ts PAPER_EXTENSIONS); relevance = 0.5 x that + 0.5 x min(1, cos(q, text) / 0.5).
 * - `keywords`: the topic alone: relevance = min(1, cos(q, text) / 0.5); relevant at >= 0.5
 *   (cosine 0.25).
 * - `learned`: a page classifier learnt leave-one-site-out from the labelled pages of the
 *   training sites, as Chakrabarti's focused crawler and ACHE's page classifier do: multinomial
 *   Naive Bayes over the page's words (title and text), its URL path words and its document kind;
 *   relevance = P(relevant | page); features seen on one training site only are dropped, and
 *   relevant means log-odds at or above a threshold chosen on the training sites (best F1,
 *   leave-one-training-site-out; PageClassifier.train).
 *
 * The classifier is the link classifier's Naive Bayes (nb.ts) with two classes whose values are
 * 0 and 1, so its expected value is the posterior P(relevant | page).
 */
import { hasExtension, PAPER_EXTENSIONS } from '../../lib/document-types.ts';
import { FeatureSpace, pathWords } from './features.ts';
import { LinkClassifier, type ClassifierJson } from './nb.ts';
import { tokenize } from '../../lib/text.ts';
import type { Topic } from './topic.ts';

export type RelevanceMode = 'paper' | 'paper-url' | 'keywords' | 'learned';
export const RELEVANCE_MODES: readonly RelevanceMode[] = ['paper', 'paper-url', 'keywords', 'learned'];

export interface Judgement {
  /** In [0, 1]. */
  relevance: number;
  /** The crawler's yes/no: its reward (1 per relevant page) when it learns online. */
  relevant: boolean;
  /** cos(q, page): the page's immediate value. */
  similarity: number;
  /** The score the yes/no comes from when it is not `relevance` (learned: the log-odds), for ranking. */
  score?: number;
}

/** What the judgement reads of a page. */
export interface JudgedPage {
  url: string;
  kind: string;
  text: string;
}

/** Features per namespace: page words, URL path words, document kind. */
const PAGE_NAMESPACES: Record<string, number> = { w: 300, u: 100, k: 8 };

/** Namespaced features of a page from its tokens (title and text, as the strategies tokenize them). */
function pageFeatures(url: string, kind: string, tokens: readonly string[]): string[] {
  const out = tokens.map((t) => `w:${t}`);
  for (const t of tokenize(pathWords(url))) out.push(`u:${t}`);
  out.push(`k:${kind}`);
  return out;
}

/** A labelled page of a training site, as the page classifier reads it. */
export interface TrainingPage {
  url: string;
  kind: string;
  tokens: readonly string[];
  relevant: boolean;
  /** The training site the page comes from (features must be seen on two of them); default the URL's host. */
  site?: string;
}

export interface PageClassifierJson {
  nb: ClassifierJson;
  threshold: number;
}

const siteOf = (p: TrainingPage): string => p.site ?? new URL(p.url).host;

/**
 * Only features seen on at least two training sites (of those there are): a word of one
 * department (a professor's name, a course number) says nothing about another department.
 */
function sharedFeatures(pages: readonly TrainingPage[]): { tokens: string[]; label: number }[] {
  const raw = pages.map((p) => pageFeatures(p.url, p.kind, p.tokens));
  const sites = new Map<string, Set<string>>();
  raw.forEach((fs, i) => {
    for (const f of fs) {
      let s = sites.get(f);
      if (!s) sites.set(f, (s = new Set()));
      s.add(siteOf(pages[i]));
    }
  });
  const need = Math.min(2, new Set(pages.map(siteOf)).size);
  return raw.map((fs, i) => ({
    tokens: fs.filter((f) => sites.get(f)!.size >= need),
    label: pages[i].relevant ? 1 : 0,
  }));
}

function fitClassifier(pages: readonly TrainingPage[]): LinkClassifier {
  const examples = sharedFeatures(pages);
  const space = FeatureSpace.select(examples, 2, PAGE_NAMESPACES);
  return LinkClassifier.fromCounts(space, LinkClassifier.count(space, examples, 2), {
    thresholds: [0.5],
    means: [0, 1],
  });
}

/** The threshold with the best F1 over (score, label) pairs (the highest of equals); 0 without a positive. */
export function bestF1Threshold(scored: readonly { p: number; relevant: boolean }[]): number {
  const sorted = [...scored].sort((a, b) => b.p - a.p);
  const positives = sorted.filter((x) => x.relevant).length;
  if (!positives) return 0;
  let best = { f1: -1, t: 0 };
  let tp = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i].relevant) tp++;
    if (i + 1 < sorted.length && sorted[i + 1].p === sorted[i].p) continue;
    const f1 = (2 * tp) / (i + 1 + positives);
    if (f1 > best.f1) best = { f1, t: sorted[i].p };
  }
  return best.t;
}

export class PageClassifier {
  private constructor(
    private readonly nb: LinkClassifier,
    /** Log-odds of relevance at or above which a page is called relevant (0: P = 0.5). */
    readonly threshold: number,
  ) {}

  /**
   * Trains on labelled pages of the training sites (tokens: title and text, tokenized), keeping
   * features seen on two sites or more. The yes/no threshold (on the log-odds, which keep their
   * order where the probability saturates at 1) is chosen on the training sites alone:
   * leave-one-training-site-out, each site scored by a classifier trained on the others, the
   * threshold with the best F1 over the pooled scores (0, i.e. P = 0.5, with one training site).
   */
  static train(pages: readonly TrainingPage[]): PageClassifier {
    if (!pages.some((p) => p.relevant)) throw new Error('page classifier: the training sites have no relevant page');
    const sites = [...new Set(pages.map(siteOf))].sort();
    let threshold = 0;
    if (sites.length >= 2) {
      const scored: { p: number; relevant: boolean }[] = [];
      for (const s of sites) {
        const rest = pages.filter((p) => siteOf(p) !== s);
        if (!rest.some((p) => p.relevant)) continue;
        const inner = fitClassifier(rest);
        for (const p of pages)
          if (siteOf(p) === s)
            scored.push({ p: inner.logOdds(pageFeatures(p.url, p.kind, p.tokens)), relevant: p.relevant });
      }
      threshold = bestF1Threshold(scored);
    }
    return new PageClassifier(fitClassifier(pages), threshold);
  }

  /** P(relevant | page). */
  probability(url: string, kind: string, tokens: readonly string[]): number {
    return this.nb.expectedQ(pageFeatures(url, kind, tokens));
  }

  /** log P(relevant | page) - log P(other | page): what the threshold applies to. */
  logOdds(url: string, kind: string, tokens: readonly string[]): number {
    return this.nb.logOdds(pageFeatures(url, kind, tokens));
  }

  /** The most telling features for and against relevance. */
  topWords(k = 15): { relevant: string[]; other: string[] } {
    const [other, relevant] = this.nb.topWords(k);
    return { relevant: relevant.words.map((w) => w.word), other: other.words.map((w) => w.word) };
  }

  toJSON(): PageClassifierJson {
    return { nb: this.nb.toJSON(), threshold: this.threshold };
  }
  static fromJSON(j: PageClassifierJson): PageClassifier {
    return new PageClassifier(LinkClassifier.fromJSON(j.nb), j.threshold);
  }
}

export class RelevanceJudge {
  constructor(
    readonly mode: RelevanceMode = 'paper',
    private readonly classifier: PageClassifier | null = null,
  ) {
    if (mode === 'learned' && !classifier)
      throw new Error('relevance "learned" needs a page classifier trained on the training sites');
  }

  judge(topic: Topic, page: JudgedPage, tokens: readonly string[]): Judgement {
    if (this.mode === 'paper') {
      const j = topic.judge(page.kind, page.text, tokens);
      return { relevance: j.relevance, relevant: j.paper, similarity: j.similarity };
    }
    const similarity = topic.similarity(tokens);
    if (this.mode === 'learned') {
      const c = this.classifier!;
      const score = c.logOdds(page.url, page.kind, tokens);
      return {
        relevance: c.probability(page.url, page.kind, tokens),
        relevant: score >= c.threshold,
        similarity,
        score,
      };
    }
    if (this.mode === 'paper-url') {
      const paper = hasExtension(page.url, PAPER_EXTENSIONS);
      return { relevance: 0.5 * (paper ? 1 : 0) + 0.5 * Math.min(1, similarity / 0.5), relevant: paper, similarity };
    }
    const relevance = Math.min(1, similarity / 0.5);
    return { relevance, relevant: relevance >= 0.5, similarity };
  }

  /** The yes/no threshold: the classifier's on its log-odds (learned), 0.5 on relevance (keywords), none for the rules. */
  get threshold(): number | null {
    if (this.mode === 'learned') return this.classifier!.threshold;
    return this.mode === 'keywords' ? 0.5 : null;
  }
}

/** The paper's judgement, the default of every strategy. */
export const PAPER_JUDGE = new RelevanceJudge('paper');
