/**
 * Two of the paper's focused strategies, behind the core's Strategy interface (the third, the
 * adaptive crawler, is adaptive.ts), and what every focused strategy shares: judging a page.
 *
 * - ImmediateStrategy (formula (1)): priority = (1 - beta) cos(q, link words) + beta cos(q, source
 *   page), link words = anchor + words around + URL path words; best-first.
 * - FutureStrategy (Rennie & McCallum): priority = expected Q of the link from the Naive Bayes
 *   bin posteriors, the classifier trained on other sites (leave-one-site-out).
 *
 * Every strategy reports the crawler's own relevance judgement of each page (relevance.ts: the
 * paper's hand-written rule, the topic alone, or a page classifier learnt on the training
 * sites); the adaptive crawler learns from it. None sees the web's ground truth.
 */
import type { ParsedLink } from '../parser.ts';
import { defineStrategy, LINKS_SCORED, type PageDecision, type PageView, type Strategy } from '../strategy.ts';
import { need, type StrategyContext, topicOf } from './context.ts';
import { linkWords } from './features.ts';
import type { LinkClassifier } from './nb.ts';
import { judgedTokens, featuresOfLink } from './tokens.ts';
import type { Topic } from './topic.ts';
import { PAPER_JUDGE, type Judgement, type RelevanceJudge } from './relevance.ts';

export { judgedTokens };

export interface Judged extends Judgement {
  tokens: string[];
}

export function judgePage(topic: Topic, judge: RelevanceJudge, page: PageView): Judged {
  const tokens = judgedTokens(page);
  topic.addDocument(tokens);
  return { tokens, ...judge.judge(topic, page, tokens) };
}

/** A link's features for the link classifier, with its page's title. */
export const featuresOf = (l: ParsedLink, page: PageView): string[] => featuresOfLink(l, page.title);

/** A link's words for the immediate value, from the parser's kept context words where it has them. */
export const wordsOfLink = (l: ParsedLink): string[] =>
  linkWords({ url: l.url, anchor: l.anchor, around: l.aroundList ?? l.around });

export interface ImmediateOptions {
  sourceWeight: number;
}

export class ImmediateStrategy implements Strategy {
  readonly name = 'immediate';
  private scored = 0;
  constructor(
    private readonly topic: Topic,
    private readonly opts: ImmediateOptions = { sourceWeight: 0.3 },
    private readonly judge: RelevanceJudge = PAPER_JUDGE,
  ) {}
  seedScore(): number {
    return 1;
  }
  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    const j = judgePage(this.topic, this.judge, page);
    this.scored += candidates.length;
    const b = this.opts.sourceWeight;
    return {
      relevance: j.relevance,
      scores: candidates.map((l) => (1 - b) * this.topic.similarity(wordsOfLink(l)) + b * j.similarity),
    };
  }
  stats(): Record<string, number> {
    return { linksScored: this.scored };
  }
}

export class FutureStrategy implements Strategy {
  readonly name = 'future';
  private scored = 0;
  constructor(
    private readonly topic: Topic,
    private readonly model: LinkClassifier,
    private readonly judge: RelevanceJudge = PAPER_JUDGE,
  ) {}
  seedScore(): number {
    return Number.MAX_VALUE;
  }
  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    const j = judgePage(this.topic, this.judge, page);
    this.scored += candidates.length;
    return { relevance: j.relevance, scores: candidates.map((l) => this.model.expectedQ(featuresOf(l, page))) };
  }
  stats(): Record<string, number> {
    return { linksScored: this.scored };
  }
}

export const IMMEDIATE = defineStrategy({
  name: 'immediate',
  rank: 110,
  distributed: true,
  summary: "the paper's immediate value: tf-idf cosine of a link's words to the topic",
  counters: LINKS_SCORED,
  reads: 'topic',
  settings: ['immediate'],
  style: ['#56B4E9', [8, 3, 2, 3]],
  make: (ctx: StrategyContext) =>
    new ImmediateStrategy(topicOf(ctx, 'immediate'), ctx.immediate ?? { sourceWeight: 0.3 }, ctx.judge?.()),
});

export const FUTURE = defineStrategy({
  name: 'future',
  rank: 120,
  distributed: true,
  summary:
    "the paper's future value (Rennie & McCallum): Q predicted by Naive Bayes over link words, trained on the other sites",
  needs: 'models',
  counters: LINKS_SCORED,
  reads: 'topic',
  settings: ['future'],
  style: ['#009E73', [4, 4]],
  make: (ctx: StrategyContext) =>
    new FutureStrategy(topicOf(ctx, 'future'), need(ctx.models, 'training data', 'future')().future, ctx.judge?.()),
});
