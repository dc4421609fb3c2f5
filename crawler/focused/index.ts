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
  AdaptiveStrategy,
  DEFAULT_ADAPTIVE,
  FutureStrategy,
  ImmediateStrategy,
  judgePage,
  judgedTokens,
} from './strategies.ts';
export { BestFirstStrategy, BestNFirstStrategy, DEFAULT_BEST_N } from './best-first.ts';
export { ClassifierStrategy } from './classifier.ts';
export { UrlPriorStrategy } from './url-prior.ts';
export { DEFAULT_SHARK, SharkSearchStrategy } from './shark-search.ts';
export { DEFAULT_INFOSPIDERS, InfoSpidersStrategy } from './infospiders.ts';
