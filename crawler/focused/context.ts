/**
 * What a focused strategy is built from (the context its descriptor's make() receives, and what a
 * plugin module's factory receives): everything it may know about the target comes through here.
 * The experiment runner fills it (experiments/focused/run-one.ts); a crawl from the command line fills
 * what it has (experiments/cli/crawl.ts).
 */
import { type BaseContext, StrategyError } from '../strategy.ts';
import type { Calibration, ThresholdRule } from './calibrate.ts';
import type { LinkClassifier } from './nb.ts';
import type { PageClassifier, RelevanceJudge } from './relevance.ts';
import { Topic } from './topic.ts';
import type { QExample } from './training-examples.ts';

/** The adaptive crawler's settings (an experiment config's "adaptive" section, experiments/focused/config.ts). */
export interface AdaptiveSettings {
  retrainEvery: number;
  topK: number;
  offlineSample: number;
  sourceWeight: number;
  r1: number | null;
  r2: number | null;
  /** What a retraining updates (a reading of the paper's silent point: crawler/focused/adaptive.ts RETRAIN_UPDATES). */
  retrainUpdates: RetrainUpdates;
  /** How tunnelling links are followed (a reading: crawler/focused/adaptive.ts TUNNEL_MODES). */
  tunnel: TunnelMode;
  /** Pages a sub-crawl may fetch (tunnel "subcrawl"). */
  threadPages: number;
  /** When r1 and r2 are chosen (a reading: crawler/focused/adaptive.ts THRESHOLD_MODES). */
  thresholds: ThresholdMode;
  /** By which rule r1 and r2 are chosen (a reading: crawler/focused/calibrate.ts THRESHOLD_RULES). */
  thresholdRule: ThresholdRule;
  /** What r1 and r2 are compared with: the page, or each link (a reading: crawler/focused/adaptive.ts SCOPES). */
  scope: AdaptiveScope;
  /** What the start page's links get (a reading: crawler/focused/adaptive.ts START_PAGE_MODES). */
  startPage: StartPageMode;
}

/** How the adaptive crawler's thresholds are chosen (see THRESHOLD_MODES). */
export type ThresholdMode = 'calibrated' | 'online';

/** What the adaptive crawler's thresholds are compared with (see SCOPES). */
export type AdaptiveScope = 'page' | 'link';

/** What the adaptive crawler does with the start page's links (see START_PAGE_MODES). */
export type StartPageMode = 'tunnel' | 'exploit';

/** How the adaptive crawler follows the links of a page it tunnels through (see TUNNEL_MODES). */
export type TunnelMode = 'priority' | 'thread' | 'subcrawl';

/** What a retraining of the adaptive crawler's link classifier updates (see RETRAIN_UPDATES). */
export type RetrainUpdates = 'new-links' | 'frontier' | 'frontier-and-discarded';

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
