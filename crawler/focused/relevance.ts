/**
 * The crawler's relevance judgement of a fetched page: what the adaptive crawler learns from
 * (its reward and its top-K), what crawl.jsonl logs as `relevance`. The target belongs to the
 * experiment, so the judgement is one of three modes, named in its config:
 *
 * - `paper`: the paper's setting, hand-written: 0.5 x [a .pdf/.ps with an abstract and a
 *   reference list] + 0.5 x min(1, cos(q, text) / 0.5) (Topic.judge); relevant = looks like a
 *   paper.
 * - `keywords`: the topic alone: relevance = min(1, cos(q, text) / 0.5); relevant at >= 0.5
 *   (cosine 0.25).
 * - `learned`: a page classifier learnt leave-one-site-out from the labelled pages of the
 *   training sites, as Chakrabarti's focused crawler and ACHE's page classifier do: multinomial
 *   Naive Bayes over the page's words (title and text), its URL path words and its document kind;
 *   relevance = P(relevant | page), relevant at >= 0.5.
 *
 * The classifier is the link classifier's Naive Bayes (nb.ts) with two classes whose values are
 * 0 and 1, so its expected value is the posterior P(relevant | page).
 */
import { FeatureSpace, pathWords } from './features.ts';
import { LinkClassifier, type ClassifierJson } from './nb.ts';
import { tokenize } from './text.ts';
import type { Topic } from './topic.ts';

export type RelevanceMode = 'paper' | 'keywords' | 'learned';
export const RELEVANCE_MODES: readonly RelevanceMode[] = ['paper', 'keywords', 'learned'];

export interface Judgement {
  /** In [0, 1]. */
  relevance: number;
  /** The crawler's yes/no: its reward (1 per relevant page) when it learns online. */
  relevant: boolean;
  /** cos(q, page): the page's immediate value. */
  similarity: number;
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

export class PageClassifier {
  private constructor(private readonly nb: LinkClassifier) {}

  /** Trains on labelled pages of the training sites (tokens: title and text, tokenized). */
  static train(
    pages: readonly { url: string; kind: string; tokens: readonly string[]; relevant: boolean }[],
  ): PageClassifier {
    const examples = pages.map((p) => ({ tokens: pageFeatures(p.url, p.kind, p.tokens), label: p.relevant ? 1 : 0 }));
    if (!examples.some((e) => e.label === 1))
      throw new Error('page classifier: the training sites have no relevant page');
    const space = FeatureSpace.select(examples, 2, PAGE_NAMESPACES);
    return new PageClassifier(
      LinkClassifier.fromCounts(space, LinkClassifier.count(space, examples, 2), { thresholds: [0.5], means: [0, 1] }),
    );
  }

  /** P(relevant | page). */
  probability(url: string, kind: string, tokens: readonly string[]): number {
    return this.nb.expectedQ(pageFeatures(url, kind, tokens));
  }

  /** The most telling features for and against relevance. */
  topWords(k = 15): { relevant: string[]; other: string[] } {
    const [other, relevant] = this.nb.topWords(k);
    return { relevant: relevant.words.map((w) => w.word), other: other.words.map((w) => w.word) };
  }

  toJSON(): ClassifierJson {
    return this.nb.toJSON();
  }
  static fromJSON(j: ClassifierJson): PageClassifier {
    return new PageClassifier(LinkClassifier.fromJSON(j));
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
    const relevance =
      this.mode === 'learned'
        ? this.classifier!.probability(page.url, page.kind, tokens)
        : Math.min(1, similarity / 0.5);
    return { relevance, relevant: relevance >= 0.5, similarity };
  }
}

/** The paper's judgement, the default of every strategy. */
export const PAPER_JUDGE = new RelevanceJudge('paper');
