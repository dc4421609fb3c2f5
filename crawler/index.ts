/**
 * Public API of the crawl core. It never imports sim/: a crawler cannot see ground truth.
 * Experiments import the crawler only through this file and the index files of focused/,
 * deepweb/ and distributed/ (the architecture test checks it).
 */
export { CrawlEngine, type CrawlSummary, type EngineOptions, type Progress } from './engine.ts';
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
  StrategyError,
  type BaseContext,
  type StrategyDescriptor,
  type PageDecision,
  type PageView,
  type RescuedLink,
  type Strategy,
} from './strategy.ts';
export type { LogEntry } from './journal.ts';
export { normalizeUrl, fingerprint, FingerprintSet } from './url.ts';
export { parseBody, parseHtml, type ParsedLink, type ParsedPage } from './parser.ts';
export { WarcWriter } from './warc.ts';
export { ParseCache } from './parse-cache.ts';
import { DOCS_FIRST } from './orders/docs-first.ts';
import { OPIC } from './orders/opic.ts';
import { BFS, RANDOM } from './strategy.ts';
export { OPIC, OpicStrategy } from './orders/opic.ts';
export { DOCS_FIRST, DocsFirstStrategy } from './orders/docs-first.ts';
/** The built-in orders that read no topic, in the house order (a new one: its descriptor, one line here). */
export const CORE_STRATEGIES = [BFS, RANDOM, OPIC, DOCS_FIRST] as const;
// focused crawling has its own surface (crawler/focused/index.ts); what a plugin strategy needs is here too
export { Topic, loadKeywords, tokenize, linkWords, judgePage, judgedTokens } from './focused/index.ts';
export type { RelevanceJudge, Judgement } from './focused/index.ts';
