/**
 * Public API of the crawl core. It never imports sim/ (a crawler cannot see ground truth) nor
 * focused/ (strategies plug into the core, not the reverse). Experiments import the crawler only
 * through this file and the index files of focused/, deepweb/ and distributed/ (the architecture
 * test checks all three).
 */
export { CrawlEngine, type CrawlSummary, type EngineOptions, type Progress } from './engine.ts';
export type { ArchiveReading } from './summary.ts';
export { CrawlError, type CrawlErrorCode } from './errors.ts';
export {
  CrawlSettingsSchema,
  DEFAULT_SETTINGS,
  NUMBER_SETTINGS,
  resolveSettings,
  type CrawlSettings,
  type NumberSetting,
} from './settings.ts';
export {
  BFS,
  BfsStrategy,
  defineStrategy,
  RANDOM,
  RandomStrategy,
  STRATEGY_SETTINGS_SECTIONS,
  StrategyError,
  StrategyFailed,
  type BaseContext,
  type StrategySettingsSection,
  type StrategyDescriptor,
  type ParamSpec,
  paramDefaults,
  paramSpec,
  type PageDecision,
  type PageView,
  type RescuedLink,
  type Strategy,
} from './strategy.ts';
export { outside, watched } from './strategy-guard.ts';
export type { LogEntry } from './journal.ts';
export { checkCrawlFolder, lockCrawlFolder } from './journal.ts';
export { normalizeUrl, fingerprint, FingerprintSet } from './url.ts';
export { parseBody, parseHtml, type ParsedLink, type ParsedPage } from './parser.ts';
export { WarcWriter } from './warc-writer.ts';
export { ParseCache } from './parse-cache.ts';
import { ORDER_STRATEGIES } from './orders/index.ts';
import { byRank } from './registry.ts';
import { BFS, RANDOM, type StrategyDescriptor } from './strategy.ts';
export { DOCS_FIRST, DOCS_SHARE, DocsFirstStrategy, DocsShareStrategy, OPIC, OpicStrategy } from './orders/index.ts';
export { builtInsIn, byRank } from './registry.ts';
/** The built-in orders that read no topic, in the house order: breadth-first, random and crawler/orders/. */
export const CORE_STRATEGIES: readonly StrategyDescriptor[] = byRank([BFS, RANDOM, ...ORDER_STRATEGIES]);
