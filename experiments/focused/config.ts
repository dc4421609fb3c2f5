/**
 * Experiment configs (experiments/configs/NAME.json): declarative descriptions of a head-to-head
 * run, so a researcher adds an experiment without writing code. Loaded and validated here
 * (fields, defaults and their help are declared in config-schema.ts); every field has a default.
 */
import { fileProblem } from '../../lib/input.ts';
import { didYouMean } from '../../lib/strings.ts';
import { loadConfig } from '../../sim/config.ts';
import { readLabels } from '../../sim/labels.ts';
import {
  CONFIG_DIR,
  ExperimentConfigError,
  listExperiments,
  readExperimentJson,
  resolveBySchema,
} from '../config-files.ts';
import type { RelevanceMode } from '../../crawler/focused/index.ts';
import { KIND_NAMES } from '../../sim/web.ts';
import {
  asInMemoryStrategy,
  isInMemoryStrategy,
  registerStrategy,
  resolveParams,
  StrategyError,
  strategyNames,
  strategyNeeds,
} from '../strategy-registry.ts';
import { resource } from '../../lib/paths.ts';
import { dimensionsOf } from '../search-space.ts';

import { ARCHIVE_DEFAULTS, DEFAULT_EXPERIMENT, type ExperimentConfig, ExperimentSchema } from './config-schema.ts';

export { ExperimentConfigError, listExperiments, readExperimentJson };
// the schema's face, where importers have always found it
export { ARCHIVE_DEFAULTS, DEFAULT_EXPERIMENT, type ExperimentConfig, ExperimentSchema };

/** How long a run must take at the least under the config's politeness gap (ms), when it is long enough to say so. */
export function slowRunWarning(c: Pick<ExperimentConfig, 'budget' | 'crawl' | 'name'>, minutes = 2): string | null {
  const ms = c.budget * c.crawl.delayMs;
  if (ms < minutes * 60_000) return null;
  return (
    `warning: ${c.name}: crawl.delayMs ${c.crawl.delayMs} makes every run of ${c.budget} ` +
    `requests take at least ${Math.round(ms / 60_000)} min (one site, one request per gap); ` +
    `the experiment serves its own web on loopback, where "crawl": { "delayMs": 0 } loses nothing`
  );
}

/** Whether a dotted path names a field of obj. */
function hasPath(obj: unknown, path: string): boolean {
  let o: unknown = obj;
  for (const part of path.split('.')) {
    if (!isObj(o) || !Object.hasOwn(o, part)) return false; // "constructor" is no field
    o = o[part];
  }
  return true;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Loads and validates a focused-crawling experiment config: by name, from a file (see
 * readExperimentJson), or given as an object by a program, whose `strategies` may then hold
 * strategies in memory (InMemoryStrategy: a defineStrategy descriptor, { name, factory }, or a
 * named factory), registered for this process and named in the config as { "name", "inMemory": true }.
 */
export function loadExperiment(
  nameOrFile: string | Record<string, unknown>,
  opts: { quick?: boolean; seeds?: number; overrides?: readonly string[] } = {},
  dir = CONFIG_DIR,
): ExperimentConfig {
  const read = typeof nameOrFile === 'string' ? readExperimentJson(nameOrFile, dir) : fromObject(nameOrFile);
  return resolveExperiment(read.raw, read.name, opts);
}

/** Resolves and validates a parsed config (`name`: its file's base name, unless it carries its own). */
export function resolveExperiment(
  raw: unknown,
  fileName: string,
  opts: { quick?: boolean; seeds?: number; overrides?: readonly string[] } = {},
): ExperimentConfig {
  let name = fileName;
  if (!isObj(raw)) throw new ExperimentConfigError(`${name}.json: expected a JSON object`);
  // a config may carry its own name (results/NAME/config.json does, so a rerun writes the same CSVs)
  if (raw.name !== undefined && (typeof raw.name !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,99}$/i.test(raw.name)))
    throw new ExperimentConfigError(`${name}.json: name: expected letters, digits, - and _ (at most 100)`);
  if (typeof raw.name === 'string') name = raw.name;
  const c = resolveBySchema(ExperimentSchema, raw, { name, ...opts, prefix: name }) as unknown as ExperimentConfig;
  moveStrategySpecs(c);
  return validate(c);
}

/** A config a program gives as an object: its in-memory strategies registered and named. */
function fromObject(given: Record<string, unknown>): { name: string; raw: unknown } {
  const name = typeof given.name === 'string' ? given.name : 'experiment';
  if (!Array.isArray(given.strategies)) return { name, raw: { ...given } };
  const strategies = given.strategies.map((s, i) => {
    const mem = typeof s === 'string' ? null : asInMemoryStrategy(s);
    if (!mem) return s;
    if (!/^[a-z0-9][a-z0-9_-]*$/i.test(mem.name) || mem.name === 'oracle')
      throw new ExperimentConfigError(
        `${name}: strategies[${i}]: an in-memory strategy needs a name of letters, digits, - and _ (not "oracle"), got ${JSON.stringify(mem.name)}`,
      );
    try {
      registerStrategy(mem.name, mem.factory, mem.style);
    } catch (e) {
      if (e instanceof StrategyError) throw new ExperimentConfigError(`${name}: strategies: ${e.message}`);
      throw e;
    }
    return { name: mem.name, inMemory: true, ...(mem.params ? { params: mem.params } : {}) };
  });
  return { name, raw: { ...given, strategies } };
}

/**
 * The config as a file that reruns it: strategies with a spec (module, in memory, parameters) as
 * { "name", ... } entries of `strategies`, so each entry says what it is and the published schema
 * can list the built-ins' names.
 */
export function configForFile(c: ExperimentConfig): Record<string, unknown> {
  const { quick: _quick, strategyParams, ...rest } = c;
  return {
    ...rest,
    strategies: c.strategies.map((n) => (strategyParams[n] ? { name: n, ...strategyParams[n] } : n)),
    strategyParams: {},
  };
}

/** Moves { name, module?, params? } entries of `strategies` to strategyParams, leaving names. */
function moveStrategySpecs(c: ExperimentConfig): void {
  c.strategyParams = { ...c.strategyParams };
  type Entry = string | { name: string; module?: string; inMemory?: boolean; params?: Record<string, unknown> };
  c.strategies = (c.strategies as Entry[]).map((s) => {
    if (typeof s === 'string') return s;
    c.strategyParams[s.name] = {
      ...(s.module !== undefined ? { module: s.module } : {}),
      ...(s.inMemory ? { inMemory: true } : {}),
      ...(s.params !== undefined ? { params: s.params } : {}),
    };
    return s.name;
  });
}

function validate(c: ExperimentConfig): ExperimentConfig {
  const bad = (m: string): never => {
    throw new ExperimentConfigError(`${c.name}: ${m}`);
  };
  checkStrategies(c, bad);
  const kinds = KIND_NAMES.map((k) => k.toLowerCase());
  for (const k of c.target.kinds)
    if (!kinds.includes(String(k).toLowerCase())) bad(`target.kinds: "${k}" is not one of ${kinds.join(', ')}`);
  c.target = { kinds: c.target.kinds.map((k) => k.toLowerCase()) };
  if (c.every > c.budget) bad(`every: expected a whole number from 1 to budget (${c.budget}), got ${c.every}`);
  // every file the config names: a regular file, before anything starts (a device would never end)
  const file = (field: string, path: string): void => {
    const why = fileProblem(resource(path));
    if (why) bad(`${field}: "${path}": ${why}`);
  };
  checkSource(c, bad, file);
  checkSweepAndSearch(c, bad);
  if (c.keywords !== null) file('keywords', c.keywords);
  return c;
}

type Bad = (m: string) => never;

/** Each strategy named once, built in or given by a module (a file, a name of its own) or in memory; parameters valid. */
function checkStrategies(c: ExperimentConfig, bad: Bad): void {
  if (new Set(c.strategies).size !== c.strategies.length) bad('strategies: a name appears twice');
  for (const [n, spec] of Object.entries(c.strategyParams)) {
    if (!c.strategies.includes(n)) bad(`strategyParams.${n}: not one of the strategies (${c.strategies.join(', ')})`);
    if (spec.module !== undefined) {
      const why = fileProblem(resource(spec.module));
      if (why) bad(`strategies: ${n}: module "${spec.module}": ${why} (paths are from the working directory)`);
      if (!/^[a-z0-9][a-z0-9_-]*$/i.test(n) || n === 'oracle')
        bad(`strategies: "${n}": a module's name must be letters, digits, - and _ (and not "oracle")`);
      if (strategyNames().includes(n))
        bad(`strategies: "${n}" is a built-in strategy; run the module under another name`);
    } else {
      try {
        resolveParams(n, spec.params);
      } catch (e) {
        if (e instanceof StrategyError) bad(`strategies: ${e.message}`);
        throw e;
      }
    }
  }
  for (const [n, spec] of Object.entries(c.strategyParams))
    if (spec.inMemory && !isInMemoryStrategy(n))
      bad(
        `strategies: "${n}" was given in memory by the program that ran this config: rerun it ` +
          `from that program (runExperiment), or give { "name": "${n}", "module": "path/to/strategy.ts" }`,
      );
  for (const s of c.strategies)
    if (!strategyNames().includes(s) && !c.strategyParams[s]?.module && !c.strategyParams[s]?.inMemory)
      bad(
        `strategies: "${s}" is not one of ${strategyNames().join(', ')}${didYouMean(s, strategyNames())} (or give { "name": "${s}", "module": ` +
          `"path/to/strategy.ts" })`,
      );
}

/** What the crawls run on: a web config that loads, or an archive whose files, labels and target are sound. */
function checkSource(c: ExperimentConfig, bad: Bad, file: (field: string, path: string) => void): void {
  if (c.archive === null) {
    file('web', c.web);
    try {
      loadConfig(c.web);
    } catch (e) {
      bad(`web: ${(e as Error).message}`);
    }
    return;
  }
  const a = c.archive;
  a.warc.forEach((f, i) => file(`archive.warc[${i}]`, f));
  file('archive.labels', a.labels);
  if (a.origin) {
    file('archive.origin.web', a.origin.web);
    try {
      loadConfig(a.origin.web);
    } catch (e) {
      bad(`archive.origin.web: ${(e as Error).message}`);
    }
  }
  try {
    readLabels(a.labels);
  } catch (e) {
    bad(`archive.labels: ${(e as Error).message}`);
  }
  if (!a.relevant.length && !a.relevantDocuments.length)
    bad('archive: name the target: relevant labels, relevantDocuments extensions, or both');
  for (const e of a.relevantDocuments)
    if (!a.documents.some((d) => d.toLowerCase() === e.toLowerCase()))
      bad(`archive.relevantDocuments: "${e}" is not one of archive.documents (${a.documents.join(', ')})`);
  c.seeds = [0];
}

/** A sweep's fields exist (and a web to sweep), a search's space and seeds are sound; not both. */
function checkSweepAndSearch(c: ExperimentConfig, bad: Bad): void {
  for (const k of Object.keys(c.sweep)) {
    if (!k.startsWith('web.') && !hasPath(DEFAULT_EXPERIMENT, k))
      bad(`sweep.${k}: not a field of the experiment config (web fields start with "web.")`);
    if (k.startsWith('web.') && c.archive) bad(`sweep.${k}: an archive has no web config to sweep`);
  }
  if (!c.search) return;
  if (Object.keys(c.sweep).length) bad('search: a config has a sweep grid or a search, not both');
  if (c.archive) bad('search: an archive has no web config to search');
  const { problem } = dimensionsOf(c.search.space, ExperimentSchema);
  if (problem) bad(`search.space${problem}`);
  const reused = c.search.confirm.find((s) => c.seeds.includes(s));
  if (reused !== undefined) bad(`search.confirm: seed ${reused} is one of the search's seeds; confirm on fresh ones`);
  if (c.search.compare !== null) {
    const cmp = c.search.compare;
    let archive = false;
    try {
      archive = loadExperiment(cmp).archive !== null;
    } catch (e) {
      bad(`search.compare: ${(e as Error).message}`);
    }
    if (!archive) bad(`search.compare: "${cmp}" is not an archive experiment (no "archive" section)`);
  }
}

/** Whether an experiment trains the page classifier of its target (learned relevance, the classifier strategy). */
export function needsPageClassifier(c: ExperimentConfig): boolean {
  return relevanceOf(c) === 'learned' || c.strategies.some((s) => strategyNeeds(s) === 'pages');
}

/** Whether an experiment trains on other sites (so needs at least two). */
export function trains(c: ExperimentConfig): boolean {
  return needsPageClassifier(c) || c.strategies.some((s) => strategyNeeds(s) !== null);
}

/** The relevance judgement an experiment uses: its own, else "paper" for research papers on a synthetic web, else "learned". */
export function relevanceOf(c: ExperimentConfig): RelevanceMode {
  if (c.relevance) return c.relevance;
  if (c.archive && !c.archive.relevant.length) return 'paper-url';
  return !c.archive && c.target.kinds.length === 1 && c.target.kinds[0] === 'paper' ? 'paper' : 'learned';
}

/** The target in words, for reports. */
export function targetOf(c: ExperimentConfig): string {
  const a = c.archive;
  if (a) {
    const parts = [
      ...(a.relevant.length ? [`pages labelled ${a.relevant.join(' or ')}`] : []),
      ...(a.relevantDocuments.length
        ? [
            `documents whose URL ends in ${a.relevantDocuments.join(', ')} (judged by URL: the collection kept the links, not the documents)`,
          ]
        : []),
    ];
    return parts.join(', and ');
  }
  return c.archive ? '' : `pages of kind ${c.target.kinds.join(' or ')} (generator ground truth)`;
}
