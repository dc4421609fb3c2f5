/**
 * Public API of focused crawling: the topic and its words, relevance judges, the link and page
 * classifiers, training of the future-value model, and the strategies (immediate, future,
 * adaptive, best-first, best-N-first, shark-search, InfoSpiders, the page classifier).
 * Experiments and plugin strategies import from here, not from the modules behind it.
 */
export { type DocumentFrequencies, documentFrequencies, Topic, loadKeywords } from './topic.ts';
export { tokenize } from '../../lib/text.ts';
export { linkWords } from './features.ts';
export {
  RELEVANCE_MODES,
  RelevanceJudge,
  PageClassifier,
  type PageClassifierJson,
  type RelevanceMode,
  type Judgement,
} from './relevance.ts';
export { LinkClassifier, type ClassifierJson } from './nb.ts';
export {
  DEFAULT_FUTURE,
  siteExamples,
  siteLinkFeatures,
  trainingExamples,
  trainFutureModel,
  type FutureConfig,
  type LabelledPage,
  type QExample,
} from './training-examples.ts';
export { calibrateAdaptive, pageTokens, thresholdsFor, type Calibration } from './calibrate.ts';
export { FUTURE, FutureStrategy, IMMEDIATE, ImmediateStrategy, judgePage, judgedTokens } from './immediate-future.ts';
export { AdaptiveStrategy, DEFAULT_ADAPTIVE } from './adaptive.ts';
export { ADAPTIVE, ADAPTIVE_PAGE, ADAPTIVE_RESCUE, FIXED_READINGS } from './adaptive-descriptors.ts';
export { BEST_FIRST, BEST_N_FIRST, BestFirstStrategy, BestNFirstStrategy, DEFAULT_BEST_N } from './best-first.ts';
export { CLASSIFIER, ClassifierStrategy } from './classifier.ts';
export { URL_PRIOR, UrlPriorStrategy } from './url-prior.ts';
export { DEFAULT_SHARK, SHARK_SEARCH, SharkSearchStrategy } from './shark-search.ts';
export { DEFAULT_INFOSPIDERS, INFOSPIDERS, InfoSpidersStrategy } from './infospiders.ts';
export type { AdaptiveSettings } from './adaptive-options.ts';
export { need, type StrategyContext, topicOf } from './context.ts';
import { builtInsIn } from '../registry.ts';
import type { StrategyDescriptor } from '../strategy.ts';
import type { StrategyContext } from './context.ts';

/**
 * The built-in focused strategies in the house order (each descriptor's rank): every descriptor
 * the modules of this folder export (crawler/registry.ts). A new one is its module; nothing here.
 */
export const FOCUSED_STRATEGIES: readonly StrategyDescriptor<StrategyContext>[] = await builtInsIn(import.meta.url);
