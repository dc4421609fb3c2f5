/**
 * Experiment configs (experiments/configs/NAME.json): declarative descriptions of a head-to-head
 * run, so a researcher adds an experiment without writing code. Validated here; every field
 * has a default.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  DEFAULT_FUTURE,
  type FutureConfig,
  DEFAULT_ADAPTIVE,
  RELEVANCE_MODES,
  type RelevanceMode,
  type AdaptiveSettings,
} from '../crawler/focused/index.ts';
import { KIND_NAMES } from '../sim/web.ts';
import { DEFAULT_DOCUMENT_EXTENSIONS, HOLE_POLICIES, type HolePolicy } from '../sim/archive-web.ts';
import { checkNumbers, numberDefaults, type NumberField } from '../lib/fields.ts';
import { resolveParams, StrategyError, strategyNames, strategyNeeds } from './strategies.ts';
import { resource, shipped } from '../lib/paths.ts';

/** The shipped experiment configs, found by name from any folder (a researcher's own config is given by its path). */
const CONFIG_DIR = shipped('experiments/configs');

export interface ExperimentConfig {
  name: string;
  description: string;
  /** Web config file and the seeds of the webs to run on (one web per seed). */
  web: string;
  seeds: number[];
  /** Department hosts to crawl (empty: every department of the web). */
  sites: string[];
  /**
   * Strategy names (built-in or plugin). In a config file an entry may also be an object
   * { "name", "module"?, "params"? }: a built-in with parameters, or a strategy module (a path
   * from the working directory) run under that name; it is moved to strategyParams on load.
   */
  strategies: string[];
  /** Per strategy name: its module (plugins) and parameters (built-ins: see strategyDefaults). */
  strategyParams: Record<string, { module?: string; params?: Record<string, unknown> }>;
  /**
   * What is relevant on a synthetic web: page kinds of the generator (sim/web.ts Kind, lower
   * case; default the paper's research papers). An archive's target is archive.relevant.
   */
  target: { kinds: string[] };
  /**
   * The crawler's relevance judgement (crawler/focused/relevance.ts): "paper" (hand-written, the
   * paper's setting), "keywords" (the topic alone) or "learned" (a page classifier trained on the
   * training sites); null: "paper" when the target is research papers, else "learned".
   */
  relevance: RelevanceMode | null;
  /** The strategy the difference figure subtracts (default immediate; the first strategy if absent). */
  reference: string;
  /** Fetches per run, counted as budgetCounts says. */
  budget: number;
  /**
   * What the budget (and the x axis, and precision's denominator) counts: "requests" (every fetch,
   * 3xx, 4xx and errors included: the paper's setting) or "pages" (2xx responses only; a run may
   * then send more requests, at most 20 x the budget).
   */
  budgetCounts: 'requests' | 'pages';
  /** Metrics are recorded every this many pages. */
  every: number;
  /** Share of the budget that counts as the early phase in the claims check. */
  earlyPhase: number;
  /** Serve transient errors, slow responses and 429s (off: the comparison is about ordering). */
  faults: boolean;
  crawl: { concurrency: number; perHostConcurrency: number; delayMs: number };
  future: FutureConfig;
  adaptive: AdaptiveSettings;
  immediate: { sourceWeight: number };
  /** Replay a web archive instead of generating a web (then `web` and `seeds` are not used). */
  archive: null | {
    warc: string[];
    /** CSV url,label[,...]: the evaluator's ground truth. */
    labels: string;
    /** Labels that count as relevant (may be empty when relevantDocuments names the target). */
    relevant: string[];
    /**
     * Holes (in-site links to URLs the collection lacks): "open" serves them as 404s charged to the
     * budget; "closed" (default: labels from a sample) crawls the collection's induced graph, links
     * to holes not offered and a hole fetched anyway not charged (sim/archive-web.ts).
     */
    holes: HolePolicy;
    /** Extensions of known documents: linked, not archived, served as placeholders (empty: none). */
    documents: string[];
    /** Documents (archived or known) whose URL ends in one of these are relevant: [".pdf", ".ps", ...] is the paper's target. */
    relevantDocuments: string[];
    /** What the collection is, for the report (source, date, citation). */
    source: string;
    /** Sites (hosts) to crawl, each one held out in turn; empty: every host with a relevant label. */
    sites: string[];
    /** Start URL per site (default http://HOST/, the group's first host). */
    starts: Record<string, string>;
    /** Sites made of several hosts: site name -> hosts (crawled together, held out together). */
    groups: Record<string, string[]>;
  };
  /** Topic keyword file (one term per line, optional tab and sub-topic); default data/vocab/computing.txt. */
  keywords: string | null;
  /**
   * A grid of parameter values (experiments/sweep.ts): "web.PATH" sets a field of the web
   * config (e.g. "web.structure.conventions"), any other key a field of this config (e.g.
   * "adaptive.r1"). Every point runs the whole experiment; empty: no sweep.
   */
  sweep: Record<string, (number | boolean | string)[]>;
  /** Overrides applied by --quick (a small web, one seed, a small budget). */
  quick: Partial<Omit<ExperimentConfig, 'quick' | 'name'>>;
}

/**
 * Every numeric field of an experiment config, once: default, range and help. DEFAULT_EXPERIMENT's
 * numbers, validate()'s ranges and `npm run experiment -- --help` derive from this table.
 */
export const EXPERIMENT_NUMBERS: readonly NumberField[] = [
  { path: 'budget', default: 2000, min: 10, max: Infinity, integer: true, help: 'fetches per run (budgetCounts)' },
  { path: 'every', default: 50, min: 1, max: Infinity, integer: true, help: 'pages between metric rows (<= budget)' },
  {
    path: 'earlyPhase',
    default: 0.15,
    min: 0,
    max: 1,
    open: true,
    help: "share of the budget that is the claims' early phase",
  },
  { path: 'crawl.concurrency', default: 8, min: 1, max: 1000, integer: true, help: 'requests in flight per run' },
  { path: 'crawl.perHostConcurrency', default: 8, min: 1, max: 1000, integer: true, help: 'requests per host' },
  { path: 'crawl.delayMs', default: 0, min: 0, max: 60_000, help: 'gap between requests to a host, ms' },
  {
    path: 'future.gamma',
    default: DEFAULT_FUTURE.gamma,
    min: 0,
    max: 1,
    open: true,
    help: 'discount of Q (Rennie & McCallum: 0.5)',
  },
  {
    path: 'future.horizon',
    default: DEFAULT_FUTURE.horizon,
    min: 0,
    max: 10,
    integer: true,
    help: 'hops Q looks ahead',
  },
  { path: 'future.bins', default: DEFAULT_FUTURE.bins, min: 2, max: 10, integer: true, help: 'Q-value classes' },
  {
    path: 'future.maxRows',
    default: DEFAULT_FUTURE.maxRows,
    min: 1,
    max: 10_000_000,
    integer: true,
    help: 'training rows sampled (stratified) per model',
  },
  { path: 'future.seed', default: DEFAULT_FUTURE.seed, min: 0, max: 2 ** 31, integer: true, help: 'sampling seed' },
  {
    path: 'adaptive.retrainEvery',
    default: DEFAULT_ADAPTIVE.retrainEvery,
    min: 1,
    max: 1_000_000,
    integer: true,
    help: 'pages between retrainings (T)',
  },
  {
    path: 'adaptive.topK',
    default: DEFAULT_ADAPTIVE.topK,
    min: 1,
    max: 1_000_000,
    integer: true,
    help: 'most relevant pages a retraining learns from (the paper: 100)',
  },
  {
    path: 'adaptive.offlineSample',
    default: DEFAULT_ADAPTIVE.offlineSample,
    min: 0,
    max: 10_000_000,
    integer: true,
    help: 'offline training links mixed into each retraining',
  },
  {
    path: 'adaptive.sourceWeight',
    default: DEFAULT_ADAPTIVE.sourceWeight,
    min: 0,
    max: 1,
    help: "weight of the source page's relevance in a link's immediate value",
  },
  {
    path: 'adaptive.r1',
    default: null,
    min: 0,
    max: 1,
    nullable: true,
    help: 'immediate-value threshold (null: calibrated on the training sites)',
  },
  {
    path: 'adaptive.r2',
    default: null,
    min: 0,
    max: Infinity,
    nullable: true,
    help: 'future-value threshold (null: calibrated on the training sites)',
  },
  {
    path: 'immediate.sourceWeight',
    default: 0.3,
    min: 0,
    max: 1,
    help: "weight of the source page's relevance in a link's immediate value",
  },
];

const NUMBERS = numberDefaults(EXPERIMENT_NUMBERS) as Pick<
  ExperimentConfig,
  'budget' | 'every' | 'earlyPhase' | 'crawl' | 'adaptive' | 'immediate'
> & { future: Omit<FutureConfig, 'aggregate'> };

export const DEFAULT_EXPERIMENT: Omit<ExperimentConfig, 'name'> = {
  description: '',
  web: 'data/webs/paper.json',
  seeds: [1, 2, 3, 4, 5],
  sites: [],
  strategies: ['bfs', 'random', 'immediate', 'future', 'adaptive'],
  strategyParams: {},
  target: { kinds: ['paper'] },
  relevance: null,
  reference: 'immediate',
  budgetCounts: 'requests',
  faults: false,
  ...NUMBERS,
  future: { ...NUMBERS.future, aggregate: DEFAULT_FUTURE.aggregate },
  archive: null,
  keywords: null,
  sweep: {},
  quick: { web: 'data/webs/small.json', seeds: [1], budget: 600, every: 25 },
};

/** Defaults of an archive section's optional fields. */
export const ARCHIVE_DEFAULTS = {
  sites: [] as string[],
  starts: {} as Record<string, string>,
  groups: {} as Record<string, string[]>,
  relevant: [] as string[],
  holes: 'closed' as HolePolicy,
  documents: [...DEFAULT_DOCUMENT_EXTENSIONS],
  relevantDocuments: [] as string[],
  source: '',
};

/**
 * Every field that is not a number (EXPERIMENT_NUMBERS has those), once, with its help; the
 * defaults shown by --help are read from DEFAULT_EXPERIMENT and ARCHIVE_DEFAULTS, not restated.
 */
export const EXPERIMENT_FIELDS: readonly { path: string; help: string }[] = [
  { path: 'description', help: 'one line for the report and the page' },
  { path: 'web', help: 'web config file (a generated web; not used with archive)' },
  { path: 'seeds', help: 'web seeds, one generated web each' },
  { path: 'sites', help: 'department hosts to crawl (empty: every department)' },
  { path: 'strategies', help: 'names, or { "name", "module"?, "params"? } (npm run crawl -- --help lists them)' },
  { path: 'strategyParams', help: 'per strategy: { "module"?, "params"? }' },
  { path: 'target.kinds', help: 'page kinds that are relevant on a generated web (sim/web.ts)' },
  { path: 'relevance', help: "the crawler's judgement: paper, paper-url, keywords, learned (null: from the target)" },
  { path: 'reference', help: 'strategy the difference figure subtracts' },
  { path: 'budgetCounts', help: '"requests" (every fetch, the paper) or "pages" (2xx only)' },
  { path: 'faults', help: 'serve transient errors, slow responses and 429s' },
  { path: 'future.aggregate', help: 'Q over relevant documents within the horizon: "sum" or "nearest"' },
  { path: 'keywords', help: 'topic keyword file (null: data/vocab/computing.txt)' },
  { path: 'sweep', help: 'parameter -> values ("web.PATH" for the web config)' },
  { path: 'quick', help: 'fields --quick overrides' },
  { path: 'archive', help: 'replay a web archive instead (null: a generated web); its fields:' },
  { path: 'archive.warc', help: 'WARC files' },
  { path: 'archive.labels', help: 'labels CSV url,label' },
  { path: 'archive.relevant', help: 'labels that count as relevant' },
  { path: 'archive.relevantDocuments', help: 'documents whose URL ends so are relevant (the paper: .pdf, .ps ...)' },
  { path: 'archive.documents', help: 'extensions of known documents, served as placeholders' },
  { path: 'archive.holes', help: '"closed" (the induced graph, holes cost nothing) or "open" (404s charged)' },
  { path: 'archive.sites', help: 'hosts to crawl (empty: the groups, else every relevant host)' },
  { path: 'archive.groups', help: 'site name -> hosts crawled and held out together' },
  { path: 'archive.starts', help: 'site -> start URL (default http://HOST/)' },
  { path: 'archive.source', help: 'what the collection is (source, date, citation), for the report' },
];

/** One line per non-numeric field for --help: path, default (from the defaults objects), help. */
export function otherFieldsHelp(indent = '  '): string {
  const width = Math.max(...EXPERIMENT_FIELDS.map((f) => f.path.length)) + 2;
  const defaults: Record<string, unknown> = { ...DEFAULT_EXPERIMENT, archive: null };
  const value = (path: string): unknown => {
    if (path.startsWith('archive.')) {
      const k = path.slice(8);
      return k in ARCHIVE_DEFAULTS ? ARCHIVE_DEFAULTS[k as keyof typeof ARCHIVE_DEFAULTS] : '(required)';
    }
    let o: unknown = defaults;
    for (const part of path.split('.')) o = (o as Record<string, unknown>)[part];
    return o;
  };
  return EXPERIMENT_FIELDS.map((f) => {
    const v = value(f.path);
    const text = typeof v === 'string' && v.startsWith('(') ? v : JSON.stringify(v);
    return `${indent}${f.path.padEnd(width)}${(text.length > 40 ? `${text.slice(0, 37)}...` : text).padEnd(42)}${f.help}\n`;
  }).join('');
}

export class ExperimentConfigError extends Error {
  readonly code = 'EXP_ERR_CONFIG';
}

export function listExperiments(dir = CONFIG_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** Whether a dotted path names a field of obj. */
function hasPath(obj: unknown, path: string): boolean {
  let o: unknown = obj;
  for (const part of path.split('.')) {
    if (!isObj(o) || !(part in o)) return false;
    o = o[part];
  }
  return true;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads experiments/configs/NAME.json, or a config file given by its path (ending in .json), unvalidated. */
export function readExperimentJson(nameOrFile: string, dir = CONFIG_DIR): { name: string; raw: unknown } {
  const isFile = nameOrFile.endsWith('.json');
  const name = isFile ? basename(nameOrFile, '.json') : nameOrFile;
  if (isFile ? !existsSync(nameOrFile) : !/^[a-z0-9][a-z0-9_-]*$/i.test(name) || !listExperiments(dir).includes(name)) {
    throw new ExperimentConfigError(
      isFile
        ? `${nameOrFile}: no such file`
        : `unknown experiment "${name}"; known: ${listExperiments(dir).join(', ')}`,
    );
  }
  try {
    return { name, raw: JSON.parse(readFileSync(isFile ? nameOrFile : join(dir, `${name}.json`), 'utf8')) };
  } catch (e) {
    throw new ExperimentConfigError(`${name}.json: ${(e as Error).message}`);
  }
}

/** Loads and validates a focused-crawling experiment config (see readExperimentJson). */
export function loadExperiment(
  nameOrFile: string,
  opts: { quick?: boolean; seeds?: number } = {},
  dir = CONFIG_DIR,
): ExperimentConfig {
  const read = readExperimentJson(nameOrFile, dir);
  const raw = read.raw;
  let name = read.name;
  if (!isObj(raw)) throw new ExperimentConfigError(`${name}.json: expected a JSON object`);
  for (const k of Object.keys(raw))
    if (!(k in DEFAULT_EXPERIMENT) && k !== 'name' && !k.startsWith('_'))
      throw new ExperimentConfigError(`${name}.json: ${k}: unknown field`);
  // a config may carry its own name (results/NAME/config.json does, so a rerun writes the same CSVs)
  if (raw.name !== undefined && (typeof raw.name !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/i.test(raw.name)))
    throw new ExperimentConfigError(`${name}.json: name: expected letters, digits, - and _`);
  if (typeof raw.name === 'string') name = raw.name;
  const merged = { ...structuredClone(DEFAULT_EXPERIMENT), ...raw, name } as ExperimentConfig;
  for (const k of ['crawl', 'future', 'adaptive', 'immediate', 'target'] as const)
    merged[k] = { ...DEFAULT_EXPERIMENT[k], ...(isObj(raw[k]) ? raw[k] : {}) } as never;
  if (isObj(raw.archive))
    merged.archive = { ...ARCHIVE_DEFAULTS, ...raw.archive } as unknown as ExperimentConfig['archive'];
  let c = merged;
  if (opts.quick) c = { ...c, ...c.quick, name } as ExperimentConfig;
  moveStrategySpecs(c, name);
  if (opts.seeds !== undefined) c = { ...c, seeds: Array.from({ length: opts.seeds }, (_, i) => i + 1) };
  return validate(c);
}

/** Moves { name, module?, params? } entries of `strategies` to strategyParams, leaving names. */
function moveStrategySpecs(c: ExperimentConfig, file: string): void {
  if (!Array.isArray(c.strategies)) return;
  if (!isObj(c.strategyParams))
    throw new ExperimentConfigError(
      `${file}.json: strategyParams: expected an object of strategy name -> { module?, params? }`,
    );
  c.strategyParams = { ...c.strategyParams };
  c.strategies = (c.strategies as unknown[]).map((s) => {
    if (typeof s === 'string') return s;
    if (!isObj(s) || typeof s.name !== 'string')
      throw new ExperimentConfigError(
        `${file}.json: strategies: expected names or { "name", "module"?, "params"? }, got ${JSON.stringify(s)}`,
      );
    for (const k of Object.keys(s))
      if (!['name', 'module', 'params'].includes(k))
        throw new ExperimentConfigError(
          `${file}.json: strategies: ${s.name}: unknown field ${k} (expected name, module, params)`,
        );
    c.strategyParams[s.name] = {
      ...(s.module !== undefined ? { module: s.module as string } : {}),
      ...(s.params !== undefined ? { params: s.params as Record<string, unknown> } : {}),
    };
    return s.name;
  });
}

function validate(c: ExperimentConfig): ExperimentConfig {
  const bad = (m: string): never => {
    throw new ExperimentConfigError(`${c.name}: ${m}`);
  };
  if (!Array.isArray(c.seeds) || !c.seeds.length || c.seeds.some((s) => !Number.isInteger(s) || s < 0))
    bad('seeds: expected a list of whole numbers');
  if (!Array.isArray(c.strategies) || !c.strategies.length) bad('strategies: expected a non-empty list');
  if (new Set(c.strategies).size !== c.strategies.length) bad('strategies: a name appears twice');
  for (const [n, spec] of Object.entries(c.strategyParams)) {
    if (!c.strategies.includes(n)) bad(`strategyParams.${n}: not one of the strategies (${c.strategies.join(', ')})`);
    if (!isObj(spec)) bad(`strategyParams.${n}: expected { "module"?, "params"? }`);
    if (spec.params !== undefined && !isObj(spec.params)) bad(`strategyParams.${n}.params: expected an object`);
    if (spec.module !== undefined) {
      if (typeof spec.module !== 'string' || !existsSync(resource(spec.module)))
        bad(`strategies: ${n}: module "${spec.module}" is not a readable file (paths are from the working directory)`);
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
  for (const s of c.strategies)
    if (!strategyNames().includes(s) && !c.strategyParams[s]?.module)
      bad(
        `strategies: "${s}" is not one of ${strategyNames().join(', ')} (or give { "name": "${s}", "module": "path/to/strategy.ts" })`,
      );
  if (typeof c.reference !== 'string') bad('reference: expected a strategy name');
  const kinds = KIND_NAMES.map((k) => k.toLowerCase());
  if (!Array.isArray(c.target.kinds) || !c.target.kinds.length)
    bad('target.kinds: expected a non-empty list of page kinds');
  for (const k of c.target.kinds)
    if (!kinds.includes(String(k).toLowerCase())) bad(`target.kinds: "${k}" is not one of ${kinds.join(', ')}`);
  c.target = { kinds: c.target.kinds.map((k) => k.toLowerCase()) };
  if (c.relevance !== null && !RELEVANCE_MODES.includes(c.relevance))
    bad(`relevance: expected one of ${RELEVANCE_MODES.join(', ')} (or null)`);
  if (c.budgetCounts !== 'requests' && c.budgetCounts !== 'pages') bad('budgetCounts: expected "requests" or "pages"');
  const numbers = checkNumbers(EXPERIMENT_NUMBERS, c);
  if (numbers) bad(numbers);
  if (c.every > c.budget) bad(`every: expected a whole number from 1 to budget (${c.budget}), got ${c.every}`);
  if (typeof c.web !== 'string') bad('web: expected a path');
  if (!Array.isArray(c.sites)) bad('sites: expected a list of hosts');
  if (c.future.aggregate !== 'sum' && c.future.aggregate !== 'nearest')
    bad('future.aggregate: expected "sum" or "nearest"');
  if (c.archive !== null) {
    const a = c.archive;
    if (!isObj(a)) bad('archive: expected an object');
    if (
      !Array.isArray(a.warc) ||
      !a.warc.length ||
      a.warc.some((f) => typeof f !== 'string' || !existsSync(resource(f)))
    )
      bad(`archive.warc: expected a list of existing WARC files, got ${JSON.stringify(a.warc)}`);
    if (typeof a.labels !== 'string' || !existsSync(resource(a.labels)))
      bad(`archive.labels: "${a.labels}" is not a readable CSV file`);
    for (const [k, v] of Object.entries(ARCHIVE_DEFAULTS)) (a as Record<string, unknown>)[k] ??= structuredClone(v);
    const strings = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string' && x !== '');
    if (!strings(a.relevant)) bad('archive.relevant: expected the list of labels that count as relevant');
    if (!strings(a.relevantDocuments))
      bad('archive.relevantDocuments: expected a list of extensions (e.g. [".pdf", ".ps"])');
    if (!a.relevant.length && !a.relevantDocuments.length)
      bad('archive: name the target: relevant labels, relevantDocuments extensions, or both');
    if (!strings(a.documents) || a.documents.some((e) => !e.startsWith('.')))
      bad('archive.documents: expected a list of extensions starting with "." (e.g. [".pdf", ".ps.gz"])');
    for (const e of a.relevantDocuments)
      if (!a.documents.some((d) => d.toLowerCase() === e.toLowerCase()))
        bad(`archive.relevantDocuments: "${e}" is not one of archive.documents (${a.documents.join(', ')})`);
    if (!HOLE_POLICIES.includes(a.holes))
      bad(`archive.holes: expected one of ${HOLE_POLICIES.join(', ')}, got ${JSON.stringify(a.holes)}`);
    if (typeof a.source !== 'string') bad('archive.source: expected a description of the collection');
    for (const k of Object.keys(a))
      if (!['warc', 'labels', ...Object.keys(ARCHIVE_DEFAULTS)].includes(k)) bad(`archive.${k}: unknown field`);
    for (const [g, hosts] of Object.entries(a.groups))
      if (!Array.isArray(hosts) || !hosts.length) bad(`archive.groups.${g}: expected a list of hosts`);
    c.seeds = [0];
  }
  if (!isObj(c.sweep)) bad('sweep: expected an object of parameter -> list of values');
  for (const [k, vals] of Object.entries(c.sweep)) {
    if (!Array.isArray(vals) || !vals.length || vals.some((x) => !['number', 'boolean', 'string'].includes(typeof x)))
      bad(`sweep.${k}: expected a non-empty list of numbers, booleans or strings`);
    if (!k.startsWith('web.') && !hasPath(DEFAULT_EXPERIMENT, k))
      bad(`sweep.${k}: not a field of the experiment config (web fields start with "web.")`);
    if (k.startsWith('web.') && c.archive) bad(`sweep.${k}: an archive has no web config to sweep`);
  }
  if (c.keywords !== null && (typeof c.keywords !== 'string' || !existsSync(resource(c.keywords))))
    bad(`keywords: "${c.keywords}" is not a readable file`);
  return c;
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
