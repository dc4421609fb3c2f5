/**
 * Best-first and Best-N-First, the baselines of the standard evaluation of topical crawlers
 * (Menczer, Pant & Srinivasan, ACM TOIT 2004; Srinivasan, Menczer & Pant, Information Retrieval
 * 2005).
 *
 * - best-first: every link of a page gets the page's similarity to the topic,
 *   priority(l) = cos(q, source page) (topic.ts: tf-idf, idf learnt online); the best URL of the
 *   frontier is fetched next, ties first discovered first.
 * - best-n-first: the same priorities, but the engine takes the best N URLs of the frontier as a
 *   batch, fetches them all and only then queues their links and re-ranks (Strategy.batch), so
 *   the lower-ranked URLs of each batch are explored before the crawl follows the newest best
 *   link. N = 256, their setting.
 *
 * Both judge each page with the experiment's relevance judgement (logged, never used to order).
 */
import type { ParsedLink } from '../parser.ts';
import { defineStrategy, LINKS_SCORED, type PageDecision, type PageView, type Strategy } from '../strategy.ts';
import { type StrategyContext, topicOf } from './context.ts';
import { PAPER_JUDGE, type RelevanceJudge } from './relevance.ts';
import { judgePage } from './immediate-future.ts';
import type { Topic } from './topic.ts';

export class BestFirstStrategy implements Strategy {
  readonly name: string = 'best-first';
  private scored = 0;
  constructor(
    private readonly topic: Topic,
    private readonly judge: RelevanceJudge = PAPER_JUDGE,
  ) {}
  seedScore(): number {
    return 1;
  }
  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    const j = judgePage(this.topic, this.judge, page);
    this.scored += candidates.length;
    return { relevance: j.relevance, scores: candidates.map(() => j.similarity) };
  }
  stats(): Record<string, number> {
    return { linksScored: this.scored };
  }
}

export const DEFAULT_BEST_N = { n: 256 };

export class BestNFirstStrategy extends BestFirstStrategy {
  override readonly name = 'best-n-first';
  readonly batch: number;
  constructor(topic: Topic, opts: { n: number } = DEFAULT_BEST_N, judge?: RelevanceJudge) {
    super(topic, judge);
    this.batch = opts.n;
  }
}

export const BEST_FIRST = defineStrategy({
  name: 'best-first',
  rank: 60,
  summary: "best-first (Cho et al. 1998): a link's priority is its page's similarity to the topic",
  counters: LINKS_SCORED,
  reads: 'topic',
  settings: [],
  style: ['#0072B2', []],
  make: (ctx: StrategyContext) => new BestFirstStrategy(topicOf(ctx, 'best-first'), ctx.judge?.()),
});

export const BEST_N_FIRST = defineStrategy({
  name: 'best-n-first',
  rank: 70,
  summary: 'Best-N-First (Pant & Menczer): the best n URLs fetched as a batch, then re-ranked',
  params: {
    n: { default: DEFAULT_BEST_N.n, min: 1, integer: true, help: 'URLs fetched as one batch before re-ranking' },
  },
  counters: LINKS_SCORED,
  reads: 'topic',
  settings: [],
  style: ['#0072B2', [6, 3]],
  make: (ctx: StrategyContext, p) => new BestNFirstStrategy(topicOf(ctx, 'best-n-first'), { n: p.n }, ctx.judge?.()),
});
