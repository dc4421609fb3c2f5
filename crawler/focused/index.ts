/**
 * Public API of focused crawling: the topic and its words, relevance judges, the link and page
 * classifiers, training of the future-value model, and the strategies (immediate, future,
 * adaptive, best-first, best-N-first, shark-search, InfoSpiders, the page classifier).
 * Experiments and plugin strategies import from here, not from the modules behind it.
 */
export { Topic, loadKeywords } from './topic.ts';
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
} from './training.ts';
export { calibrateAdaptive, pageTokens, type Calibration } from './calibrate.ts';
export {
  ADAPTIVE,
  ADAPTIVE_RESCUE,
  AdaptiveStrategy,
  DEFAULT_ADAPTIVE,
  FUTURE,
  FutureStrategy,
  IMMEDIATE,
  ImmediateStrategy,
  judgePage,
  judgedTokens,
} from './strategies.ts';
export { BEST_FIRST, BEST_N_FIRST, BestFirstStrategy, BestNFirstStrategy, DEFAULT_BEST_N } from './best-first.ts';
export { CLASSIFIER, ClassifierStrategy } from './classifier.ts';
export { URL_PRIOR, UrlPriorStrategy } from './url-prior.ts';
export { DEFAULT_SHARK, SHARK_SEARCH, SharkSearchStrategy } from './shark-search.ts';
export { DEFAULT_INFOSPIDERS, INFOSPIDERS, InfoSpidersStrategy } from './infospiders.ts';
export { type AdaptiveSettings, need, type StrategyContext, topicOf } from './context.ts';
import { ADAPTIVE, ADAPTIVE_RESCUE, FUTURE, IMMEDIATE } from './strategies.ts';
import { BEST_FIRST, BEST_N_FIRST } from './best-first.ts';
import { CLASSIFIER } from './classifier.ts';
import { URL_PRIOR } from './url-prior.ts';
import { SHARK_SEARCH } from './shark-search.ts';
import { INFOSPIDERS } from './infospiders.ts';
/**
 * The built-in focused strategies in the house order: the probe that learns, the field's
 * baselines, the paper's three and our variant. A new one: its descriptor, one line here.
 */
export const FOCUSED_STRATEGIES = [
  URL_PRIOR,
  BEST_FIRST,
  BEST_N_FIRST,
  SHARK_SEARCH,
  CLASSIFIER,
  INFOSPIDERS,
  IMMEDIATE,
  FUTURE,
  ADAPTIVE,
  ADAPTIVE_RESCUE,
] as const;
