/**
 * What a focused strategy is built from (the context its descriptor's make() receives, and what a
 * plugin module's factory receives): everything it may know about the target comes through here.
 * The experiment runner fills it (experiments/focused/run-one.ts); a crawl from the command line fills
 * what it has (experiments/cli/crawl.ts).
 */
import { type BaseContext, StrategyError } from '../strategy.ts';
import type { AdaptiveSettings } from './adaptive-options.ts';
import type { Calibration } from './calibrate.ts';
import type { LinkClassifier } from './nb.ts';
import type { PageClassifier, RelevanceJudge } from './relevance.ts';
import { Topic } from './topic.ts';
import type { QExample } from './training-examples.ts';

export interface StrategyContext extends BaseContext {
  /**
   * The topic's terms as the experiment's keyword file writes them ("supervised"), not stemmed:
   * tokens a strategy reads (linkWords, judgedTokens, tokenize) are stems ("supervis"), so compare
   * them with tokenize(term) or through new Topic(keywords), which stems them.
   */
  keywords?: readonly string[];
  /** Models trained on the other sites (leave-one-site-out), built on first call. */
  models?: () => {
    future: LinkClassifier;
    calibration: Calibration;
    examples: QExample[];
    pages: PageClassifier | null;
  };
  /** The experiment config's sections (experiments/focused/config.ts ExperimentSchema documents them). */
  immediate?: { sourceWeight: number };
  adaptive?: AdaptiveSettings;
  future?: { gamma: number; horizon: number };
  /** The relevance judgement (default: the paper's); built on demand (a learned one needs training). */
  judge?: () => RelevanceJudge;
  /** The strategy's parameters from the config; for a built-in, its defaults with the config's values. */
  params?: Readonly<Record<string, unknown>>;
}

/** An input the strategy cannot run without, or a StrategyError naming it. */
export function need<T>(v: T | undefined, what: string, name: string): T {
  if (v === undefined) throw new StrategyError(`strategy ${name} needs ${what}`);
  return v;
}

/** The topic of the context's keywords. */
export const topicOf = (ctx: StrategyContext, name: string): Topic =>
  new Topic(need(ctx.keywords, 'topic keywords', name));
