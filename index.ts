/**
 * The package's library face (`import { ... } from 'crawler-harness'`): the synthetic web and
 * its server, the crawl engine, the Strategy contract, and the experiment runner. The commands
 * are the bin (bin/harness.ts); the subsystems' own faces are `crawler-harness/crawler` (crawl
 * core, the only one a crawler may import) and the modules they re-export from.
 */
// the web: generated from a config and a seed, served over HTTP on loopback
export { Web, Kind, KIND_NAMES, type Site } from './sim/web.ts';
export { SimServer, simDispatcher, type SimServerOptions } from './sim/server.ts';
export { ConfigError, loadConfig, resolveConfig, type WebConfig } from './sim/config.ts';
export { GroundTruth } from './sim/truth.ts';
// the crawler: engine, settings, the Strategy contract and the built-in orders (crawler/index.ts)
export * from './crawler/index.ts';
// focused crawling's face: its built-ins, and what a plug-in strategy reads the topic with
export {
  FOCUSED_STRATEGIES,
  type Judgement,
  judgePage,
  judgedTokens,
  linkWords,
  loadKeywords,
  type RelevanceJudge,
  type StrategyContext,
  Topic,
  tokenize,
} from './crawler/focused/index.ts';
// experiments: configs by name or path, the runner, the strategy registry and plug-in modules
export {
  type ExperimentConfig,
  ExperimentConfigError,
  listExperiments,
  loadExperiment,
} from './experiments/focused/config.ts';
export { type ExperimentData, type RunOptions, runExperiment, writeResults } from './experiments/focused/runner.ts';
export type { WriteOptions, Written } from './experiments/focused/experiment-data.ts';
export {
  BUILT_INS,
  type InMemoryStrategy,
  loadStrategyModule,
  type StrategyFactory,
  strategyNames,
} from './experiments/strategy-registry.ts';
// where the shipped files are (a config's "data/webs/paper.json" is found from any folder)
export { ROOT, resource } from './lib/paths.ts';
