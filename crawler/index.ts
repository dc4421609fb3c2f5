/** Public API of the crawler. It never imports sim/: a crawler cannot see ground truth. */
export { CrawlEngine, type CrawlSummary, type EngineOptions, type Progress } from './engine.ts';
export { CrawlError, type CrawlErrorCode } from './errors.ts';
export {
  DEFAULT_SETTINGS,
  NUMBER_SETTINGS,
  resolveSettings,
  type CrawlSettings,
  type NumberSetting,
} from './settings.ts';
export {
  BfsStrategy,
  RandomStrategy,
  type PageDecision,
  type PageView,
  type RescuedLink,
  type Strategy,
} from './strategy.ts';
export type { LogEntry } from './journal.ts';
export { normalizeUrl, fingerprint, FingerprintSet } from './url.ts';
export { parseBody, parseHtml, type ParsedLink, type ParsedPage } from './parser.ts';
export { Topic, loadKeywords } from './focused/topic.ts';
export { tokenize } from './focused/text.ts';
export { linkWords } from './focused/features.ts';
export { judgePage, judgedTokens } from './focused/strategies.ts';
export type { RelevanceJudge, Judgement } from './focused/relevance.ts';
