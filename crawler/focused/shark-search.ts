/**
 * Shark-search (Hersovici, Jacovi, Maarek, Pelleg, Shtalhaim & Ur, "The shark-search algorithm.
 * An application: tailored Web site mapping", WWW7 1998), the refinement of De Bra's
 * fish-search that the standard evaluation of topical crawlers (Menczer et al. 2004) runs.
 *
 * For a link l found on page p, with sim = cos(q, .) (topic.ts):
 *   inherited(l)     = delta * sim(p)            if sim(p) > threshold (p is relevant)
 *                    = delta * inherited(p)      otherwise (decayed along an off-topic chain)
 *   anchor(l)        = sim(anchor text)
 *   context(l)       = 1 if anchor(l) > 0, else sim(words around the link)
 *   neighbourhood(l) = beta * anchor(l) + (1 - beta) * context(l)
 *   priority(l)      = gamma * inherited(l) + (1 - gamma) * neighbourhood(l)
 * and fish-search's depth: a link found on a relevant page gets width `depth`, one found on an
 * irrelevant page its parent's width - 1; the links of a page whose width is 0 are not queued.
 * They are kept, and when the frontier runs dry the best of them are queued after all
 * (rescue()), as the adaptive crawler does, so that the crawl spends its whole budget.
 *
 * Parameters (conditions of this harness, configurable): delta 0.5, beta 0.8, gamma 0.8,
 * depth 3, threshold 0 (the paper's "relevant" is any positive similarity).
 */
import type { ParsedLink } from '../parser.ts';
import {
  defineStrategy,
  LINKS_SCORED,
  type PageDecision,
  type PageView,
  type RescuedLink,
  type Strategy,
} from '../strategy.ts';
import { type StrategyContext, topicOf } from './context.ts';
import { PAPER_JUDGE, type RelevanceJudge } from './relevance.ts';
import { RESCUE_BATCH } from './adaptive.ts';
import { judgePage } from './immediate-future.ts';
import { tokenize } from '../../lib/text.ts';
import type { Topic } from './topic.ts';

export interface SharkOptions {
  delta: number;
  beta: number;
  gamma: number;
  depth: number;
  threshold: number;
}
export const DEFAULT_SHARK: SharkOptions = { delta: 0.5, beta: 0.8, gamma: 0.8, depth: 3, threshold: 0 };

export class SharkSearchStrategy implements Strategy {
  readonly name = 'shark-search';
  /** Inherited score and width of every queued link, until it is fetched. */
  private readonly state = new Map<string, { inherited: number; width: number }>();
  private readonly dropped: { url: string; score: number; depth: number; order: number }[] = [];
  private readonly counters = { linksScored: 0, linksDiscarded: 0, rescuedLinks: 0 };
  constructor(
    private readonly topic: Topic,
    private readonly o: SharkOptions = DEFAULT_SHARK,
    private readonly judge: RelevanceJudge = PAPER_JUDGE,
  ) {}

  seedScore(url: string): number {
    this.state.set(url, { inherited: 0, width: this.o.depth });
    return 1;
  }

  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    const j = judgePage(this.topic, this.judge, page);
    const own = this.state.get(page.url) ?? { inherited: 0, width: this.o.depth };
    this.state.delete(page.url);
    const relevant = j.similarity > this.o.threshold;
    const inherited = this.o.delta * (relevant ? j.similarity : own.inherited);
    const width = relevant ? this.o.depth : own.width - 1;
    this.counters.linksScored += candidates.length;
    const scores = candidates.map((l) => {
      const anchor = this.topic.similarity(tokenize(l.anchor));
      const context = anchor > 0 ? 1 : this.topic.similarity(tokenize(l.around));
      const neighbourhood = this.o.beta * anchor + (1 - this.o.beta) * context;
      return this.o.gamma * inherited + (1 - this.o.gamma) * neighbourhood;
    });
    if (width <= 0) {
      this.counters.linksDiscarded += candidates.length;
      candidates.forEach((l, i) =>
        this.dropped.push({ url: l.url, score: scores[i], depth: page.depth + 1, order: this.dropped.length }),
      );
      return { relevance: j.relevance, scores: candidates.map(() => null) };
    }
    for (const l of candidates) this.state.set(l.url, { inherited, width });
    return { relevance: j.relevance, scores };
  }

  /** The frontier ran dry: the best links of exhausted chains, RESCUE_BATCH at a time, with a fresh width. */
  rescue(): RescuedLink[] {
    if (!this.dropped.length) return [];
    this.dropped.sort((a, b) => b.score - a.score || a.order - b.order);
    const take = this.dropped.splice(0, RESCUE_BATCH);
    this.counters.rescuedLinks += take.length;
    for (const d of take) this.state.set(d.url, { inherited: 0, width: 1 });
    return take.map((d) => ({ url: d.url, score: d.score, depth: d.depth }));
  }

  stats(): Record<string, number> {
    return { ...this.counters };
  }
}

export const SHARK_SEARCH = defineStrategy({
  name: 'shark-search',
  rank: 80,
  summary: 'SharkSearch (Hersovici et al. 1998): inherited and anchor/context scores, fading with depth',
  params: {
    delta: { default: DEFAULT_SHARK.delta, min: 0, max: 1, help: "decay of the inherited score along a link's chain" },
    beta: { default: DEFAULT_SHARK.beta, min: 0, max: 1, help: 'weight of the anchor against the words around it' },
    gamma: {
      default: DEFAULT_SHARK.gamma,
      min: 0,
      max: 1,
      help: 'weight of the inherited score against the neighbourhood',
    },
    depth: {
      default: DEFAULT_SHARK.depth,
      min: 1,
      integer: true,
      help: 'pages followed from a relevant one through irrelevant ones',
    },
    threshold: { default: DEFAULT_SHARK.threshold, min: 0, max: 1, help: 'similarity above which a page is relevant' },
  },
  counters: {
    ...LINKS_SCORED,
    linksDiscarded: 'links not queued: found past the depth from a relevant page',
    rescuedLinks: 'of those, queued when the frontier ran dry',
  },
  reads: 'topic',
  settings: [],
  style: ['#CC79A7', []],
  make: (ctx: StrategyContext, p) =>
    new SharkSearchStrategy(topicOf(ctx, 'shark-search'), { ...DEFAULT_SHARK, ...p }, ctx.judge?.()),
});
