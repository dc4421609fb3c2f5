/**
 * A probe, not a crawler to publish: future value that reads only the link's URL. The Naive Bayes
 * link classifier of future value (nb.ts), trained on the same offline links of the other sites
 * with the same Q bins, but over URL path words alone (the `u:` features): no anchor, no words
 * around the link, no source page, no topic. Where it keeps up with the topical strategies, the
 * URLs of the training sites mark relevance on the held-out one (the transfer leak of
 * sim/structure.ts, measured as a crawl).
 */
import type { ParsedLink } from '../parser.ts';
import { defineStrategy, LINKS_SCORED, type PageDecision, type PageView, type Strategy } from '../strategy.ts';
import { need, type StrategyContext } from './context.ts';
import { pathWords } from './features.ts';
import { type Example, LinkClassifier } from './nb.ts';
import { type Bins, binOf } from './qvalue.ts';
import { tokenize } from '../../lib/text.ts';
import { DEFAULT_FUTURE, type QExample } from './training-examples.ts';

const urlOnly = (tokens: readonly string[]): string[] => tokens.filter((t) => t.startsWith('u:'));

export class UrlPriorStrategy implements Strategy {
  readonly name = 'url-prior';
  private readonly model: LinkClassifier;
  private scored = 0;
  constructor(examples: readonly QExample[], bins: Bins, opts: { maxRows: number; seed: number }) {
    const labelled: Example[] = examples.map((e) => ({ tokens: urlOnly(e.tokens), label: binOf(bins, e.q) }));
    this.model = LinkClassifier.train(labelled, bins, opts);
  }
  seedScore(): number {
    return Number.MAX_VALUE;
  }
  onPage(_page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    this.scored += candidates.length;
    return {
      // the u: features of linkFeatures (features.ts), and nothing else
      scores: candidates.map((l) => this.model.expectedQ(tokenize(pathWords(l.url)).map((t) => `u:${t}`))),
    };
  }
  stats(): Record<string, number> {
    return { linksScored: this.scored };
  }
}

export const URL_PRIOR = defineStrategy({
  name: 'url-prior',
  rank: 50,
  summary: 'probe: future value reading only URL words, trained on the other sites (no topic)',
  needs: 'models',
  counters: LINKS_SCORED,
  reads: 'probe',
  settings: [],
  style: ['#666666', [1, 3]],
  make: (ctx: StrategyContext) => {
    const m = need(ctx.models, 'training data', 'url-prior')();
    return new UrlPriorStrategy(m.examples, m.future.bins, { maxRows: DEFAULT_FUTURE.maxRows, seed: ctx.seed });
  },
});
