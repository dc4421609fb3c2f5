/**
 * Soft focus (Chakrabarti, van den Berg & Dom, "Focused crawling", WWW8 1999): a page classifier
 * judges how likely a fetched page is relevant, and every link of the page gets that probability
 * as its priority, priority(l) = P(relevant | source page). The classifier is the experiment's
 * page classifier of its target (relevance.ts: Naive Bayes over page words, URL words and kind,
 * trained leave-one-site-out on the labelled training sites), the role ACHE's page classifier
 * plays today. Chakrabarti's distiller (hub scores) is not part of this baseline.
 */
import type { ParsedLink } from '../parser.ts';
import { defineStrategy, LINKS_SCORED, type PageDecision, type PageView, type Strategy } from '../strategy.ts';
import { need, type StrategyContext, topicOf } from './context.ts';
import { PAPER_JUDGE, type PageClassifier, type RelevanceJudge } from './relevance.ts';
import { judgePage } from './immediate-future.ts';
import type { Topic } from './topic.ts';

export class ClassifierStrategy implements Strategy {
  readonly name = 'classifier';
  private scored = 0;
  constructor(
    private readonly topic: Topic,
    private readonly pages: PageClassifier,
    private readonly judge: RelevanceJudge = PAPER_JUDGE,
  ) {}
  seedScore(): number {
    return 1;
  }
  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    const j = judgePage(this.topic, this.judge, page);
    const p = this.pages.probability(page.url, page.kind, j.tokens);
    this.scored += candidates.length;
    return { relevance: j.relevance, scores: candidates.map(() => p) };
  }
  stats(): Record<string, number> {
    return { linksScored: this.scored };
  }
}

export const CLASSIFIER = defineStrategy({
  name: 'classifier',
  rank: 90,
  summary:
    "soft focus (Chakrabarti et al. 1999): a link's priority is its page's class probability, the page classifier trained on the other sites",
  needs: 'pages',
  counters: LINKS_SCORED,
  reads: 'topic',
  settings: [],
  style: ['#CC79A7', [2, 2]],
  make: (ctx: StrategyContext) => {
    const pages = need(ctx.models, 'training data', 'classifier')().pages;
    return new ClassifierStrategy(
      topicOf(ctx, 'classifier'),
      need(pages ?? undefined, 'the page classifier of the target', 'classifier'),
      ctx.judge?.(),
    );
  },
});
