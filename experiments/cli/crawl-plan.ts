/**
 * The crawl command's flags checked, all of them, before anything starts (issue #54): a refusal
 * used to come after the web was served and the models trained (`--strategy adaptive-rescue
 * --processes 2` was refused after 19 s of training, and left the server listening). planCrawl
 * reads the flags into a CrawlPlan and refuses what cannot run (a UsageError, exit 2); what needs
 * the web or the archive itself (the site to crawl, the target's kinds) is checked by
 * crawl-env.ts before it serves them.
 */
import { basename, extname } from 'node:path';
import { type CrawlSettings, NUMBER_SETTINGS } from '../../crawler/index.ts';
import { RELEVANCE_MODES, type RelevanceMode } from '../../crawler/focused/index.ts';
import { intFlag, usage } from '../../lib/cli.ts';
import { type DistributedFlags, distributedFlags } from '../distributed/crawl-command.ts';
import { loadStrategyModule, resolveParams, strategyNames, strategyNeeds } from '../strategy-registry.ts';

/** The crawl command's flag values, as parsed. */
export type CrawlValues = Record<string, string | undefined> & {
  start?: string[];
  scope?: string[];
  resolve?: string[];
  replay?: string[];
  param?: string[];
  fresh?: boolean;
};

export interface CrawlPlan {
  values: CrawlValues;
  /** Settings from the flags; the environment adds seeds, scope and resolve rules. */
  settings: Partial<CrawlSettings>;
  /** A built-in's name, or a strategy module's file name (without extension). */
  strategy: string;
  /** The strategy module's file, when --strategy named one. */
  module: string | null;
  params: Record<string, unknown>;
  /** What the strategy needs trained (its descriptor's `needs`), or null. */
  needs: 'models' | 'pages' | null;
  relevance: RelevanceMode | undefined;
  /** Page kinds that are relevant on a generated web (--target). */
  kinds: string[];
  /** The generated web's random seed (--seed, default 1). */
  webSeed: number;
  outDir: string;
  /** Where trained models are kept between runs (null: --no-cache). */
  modelCache: string | null;
  /** Processes and their flags, for a distributed crawl; null: one process. */
  distributed: { processes: number; flags: DistributedFlags } | null;
}

/** A comma-separated flag as its non-empty items. */
export const list = (x: string | undefined): string[] =>
  (x ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Settings from the flags (crawler/settings.ts declares each numeric one with its flag). */
function settingsOf(v: CrawlValues, flag: (k: string) => boolean): Partial<CrawlSettings> {
  const settings: Partial<CrawlSettings> = {};
  const set = <K extends keyof CrawlSettings>(k: K, x: CrawlSettings[K] | undefined): void => {
    if (x !== undefined) settings[k] = x;
  };
  set('startUrls', v.start);
  set('scope', v.scope);
  set('resolve', v.resolve);
  for (const d of NUMBER_SETTINGS) if (d.flag) set(d.key, intFlag(d.flag, v[d.flag], d.min));
  set('userAgent', v['user-agent']);
  const timeout = intFlag('timeout-ms', v['timeout-ms'], 1);
  if (timeout) {
    settings.headersTimeoutMs = timeout;
    settings.bodyTimeoutMs = timeout;
  }
  if (flag('no-autothrottle')) settings.autoThrottle = false;
  if (flag('allow-private')) settings.allowPrivateAddresses = true;
  if (flag('deterministic')) settings.deterministic = true;
  return settings;
}

/** --param KEY=VALUE pairs (numbers as numbers), checked against a built-in's parameters. */
function paramsOf(v: CrawlValues, strategy: string, isModule: boolean): Record<string, unknown> {
  const pairs: [string, unknown][] = [];
  for (const p of v.param ?? []) {
    const m = /^([A-Za-z_][\w-]*)=(.*)$/.exec(p);
    if (!m) usage(`--param: "${p}" must be KEY=VALUE`);
    pairs.push([m[1], m[2] !== '' && Number.isFinite(Number(m[2])) ? Number(m[2]) : m[2]]);
  }
  // own properties, "__proto__" too (an assignment would drop it without a word); the later wins
  const params: Record<string, unknown> = Object.fromEntries(pairs);
  if (!isModule) {
    try {
      resolveParams(strategy, params);
    } catch (e) {
      usage(`--param: ${(e as Error).message}`);
    }
  }
  return params;
}

/** What a distributed crawl cannot do yet, refused before it starts. */
function checkDistributed(v: CrawlValues, isModule: boolean, flag: (k: string) => boolean): void {
  if (isModule)
    usage(
      '--strategy FILE: strategy modules are not supported in distributed crawls yet (the processes are built from names)',
    );
  if (v.resume)
    usage(
      '--resume is for one-process crawls; a distributed crawl resumes by starting its processes again (the queues are in the coordinator)',
    );
  if (v.warc) usage('--warc is not supported in distributed crawls yet');
  if (flag('deterministic')) usage('--deterministic: a distributed crawl has no global order');
  if (v.replay) usage('--replay is not supported in distributed crawls yet');
  if (v.target || v.relevance)
    usage('--target and --relevance are not supported in distributed crawls yet (processes train for research papers)');
}

/** Every flag of the crawl command checked; a module strategy loaded (it registers its name). */
export async function planCrawl(values: Record<string, string | string[] | boolean | undefined>): Promise<CrawlPlan> {
  const v = values as CrawlValues;
  const flag = (k: string): boolean => values[k] === true;
  const settings = settingsOf(v, flag);
  // a strategy module runs under its file name
  const isModule = !!v.strategy && ['.ts', '.js', '.mjs', '.mts'].includes(extname(v.strategy));
  const strategy = isModule ? basename(v.strategy!, extname(v.strategy!)) : (v.strategy ?? 'bfs');
  if (isModule) await loadStrategyModule(strategy, v.strategy!).catch((e: Error) => usage(`--strategy: ${e.message}`));
  else if (!strategyNames().includes(strategy))
    usage(`--strategy: "${strategy}" is not one of ${strategyNames().join(', ')}, nor a module file (.ts, .js)`);
  settings.strategy = strategy;
  const params = paramsOf(v, strategy, isModule);
  // --seed is a generated web's random seed in every command; a URL there was a start URL once
  if (v.seed !== undefined && /^[a-z]+:/i.test(v.seed))
    usage(`--seed: "${v.seed}" is a URL; start URLs are given with --start (--seed is the web's random seed)`);
  for (const s of v.start ?? []) {
    try {
      new URL(s);
    } catch {
      usage(`--start: "${s}" is not an absolute URL`);
    }
  }
  if (v.resume && (v.web || v.replay))
    usage(
      '--resume continues a crawl with its saved settings; start the web separately (--resolve) or drop --web/--replay',
    );
  if (v.web && v.replay) usage('--web and --replay: one web at a time');
  if (!v.resume && !v.start?.length && !v.web && !v.replay)
    usage('give at least one --start URL (or --web, --replay, or --resume DIR); see --help');
  if (v.seed !== undefined && !v.web)
    usage('--seed is the random seed of a generated web: it goes with --web (start URLs: --start)');
  const webSeed = intFlag('seed', v.seed, 0) ?? 1;
  const needs = strategyNeeds(strategy);
  if (needs !== null && !v.web && !v.replay && !v.resume)
    usage(
      `--strategy ${strategy} learns from labelled sites: give --web or --replay with --labels (it trains on the other sites)`,
    );
  const relevance = v.relevance as RelevanceMode | undefined;
  if (relevance !== undefined && !RELEVANCE_MODES.includes(relevance))
    usage(`--relevance: "${relevance}" is not one of ${RELEVANCE_MODES.join(', ')}`);
  const processes = intFlag('processes', v.processes, 1);
  let distributed: CrawlPlan['distributed'] = null;
  if (processes !== undefined || v.redis) {
    checkDistributed(v, isModule, flag);
    // the processes load models trained on the generated web (the descriptor says which need them)
    const flags = distributedFlags(values as Record<string, string | boolean | undefined>, strategy, !!v.web);
    distributed = { processes: processes ?? 1, flags };
  }
  return {
    values: v,
    settings,
    strategy,
    module: isModule ? v.strategy! : null,
    params,
    needs,
    relevance,
    kinds: list(v.target ?? 'paper').map((k) => k.toLowerCase()),
    webSeed,
    outDir: v.resume ?? v.out ?? 'out/crawl',
    modelCache: flag('no-cache') ? null : '.cache/models',
    distributed,
  };
}
