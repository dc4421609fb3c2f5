/**
 * Experiment configs (experiments/configs/NAME.json): declarative descriptions of a head-to-head
 * run, so a researcher adds an experiment without writing code. Validated here; every field
 * has a default.
 */
import { fileProblem } from '../../lib/input.ts';
import { didYouMean } from '../../lib/strings.ts';
import { loadConfig } from '../../sim/config.ts';
import { readLabels } from '../../sim/warc-convert.ts';
import {
  CONFIG_DIR,
  ExperimentConfigError,
  listExperiments,
  readExperimentJson,
  resolveBySchema,
  nameField,
} from '../config-files.ts';
import { DEFAULT_FUTURE, DEFAULT_ADAPTIVE, RELEVANCE_MODES, type RelevanceMode } from '../../crawler/focused/index.ts';
import { KIND_NAMES } from '../../sim/web.ts';
import { DEFAULT_DOCUMENT_EXTENSIONS, HOLE_POLICIES, type HolePolicy } from '../../sim/archive-web.ts';
import {
  any,
  bool,
  defaultsOf,
  list,
  map,
  num,
  numOrNull,
  obj,
  oneOf,
  optional,
  type Static,
  str,
  type TSchema,
  Type,
  withDefaults,
} from '../../lib/schema.ts';
import { CrawlSettingsSchema } from '../../crawler/index.ts';
import {
  asInMemoryStrategy,
  isInMemoryStrategy,
  registerStrategy,
  resolveParams,
  StrategyError,
  strategyNames,
  strategyNeeds,
} from '../strategies.ts';
import { resource } from '../../lib/paths.ts';
import { dimensionsOf } from '../search-space.ts';

export { ExperimentConfigError, listExperiments, readExperimentJson };

const SPEC = obj({
  module: optional(str({ help: 'a strategy module (path from the working directory), run under this name' })),
  inMemory: optional(
    Type.Boolean({
      description:
        'given in memory by the program that ran it (runExperiment); a rerun needs that program, or a "module"',
    }),
  ),
  params: optional(map(any({ help: 'a parameter' }), { help: "the strategy's parameters (see its descriptor)" })),
});

const LOOPBACK_DELAY_HELP =
  "minimum gap between requests to a host, ms: 0, since the experiment's web is served on loopback (the crawler's default, 1000, is for someone else's server)";

/** How long a run must take at the least under the config's politeness gap (ms), when it is long enough to say so. */
export function slowRunWarning(c: Pick<ExperimentConfig, 'budget' | 'crawl' | 'name'>, minutes = 2): string | null {
  const ms = c.budget * c.crawl.delayMs;
  if (ms < minutes * 60_000) return null;
  return `warning: ${c.name}: crawl.delayMs ${c.crawl.delayMs} makes every run of ${c.budget} requests take at least ${Math.round(ms / 60_000)} min (one site, one request per gap); the experiment serves its own web on loopback, where "crawl": { "delayMs": 0 } loses nothing`;
}

/**
 * A focused-crawling experiment config, declared once (lib/schema.ts): the ExperimentConfig type,
 * the defaults, the checks of each field, `npm run experiment -- --help` and
 * schemas/experiment.schema.json derive from it. Checks across fields (every <= budget, files
 * exist, strategies known) are in validate() below.
 */
export const ExperimentSchema = obj({
  name: nameField(),
  description: str({ default: '', help: 'one line for the report and the page' }),
  web: str({ default: 'data/webs/paper.json', help: 'web config file (a generated web; not used with archive)' }),
  seeds: list(Type.Integer({ minimum: 0, maximum: 4_294_967_295 }), {
    default: [1, 2, 3, 4, 5],
    minItems: 1,
    expected: 'a list of whole numbers',
    help: 'web seeds, one generated web each',
  }),
  sites: list(Type.String(), { default: [], help: 'department hosts to crawl (empty: every department)' }),
  /**
   * Strategy names (built-in or plugin). An entry may also be an object { "name", "module"?,
   * "params"? }: a built-in with parameters, or a strategy module run under that name; it is
   * moved to strategyParams on load. A program may also give a strategy in memory (loadExperiment
   * with an object: InMemoryStrategy); it is written as { "name", "inMemory": true }.
   */
  strategies: list(
    Type.Union([
      // the published JSON Schema lists the built-ins, so an editor flags "adaptiv"
      Type.String({ minLength: 1, published: { enum: strategyNames() } }),
      obj({ name: str({ help: 'the name it runs under' }), ...SPEC.properties }),
    ]),
    {
      default: ['bfs', 'random', 'immediate', 'future', 'adaptive'],
      minItems: 1,
      expected: 'a non-empty list',
      help: 'built-in names, or { "name", "module"?, "params"? } (npm run crawl -- --help lists them)',
    },
  ),
  strategyParams: map(SPEC, { default: {}, help: 'per strategy: { "module"?, "params"? }' }),
  target: obj({
    kinds: list(Type.String(), {
      default: ['paper'],
      minItems: 1,
      expected: 'a non-empty list of page kinds',
      help: 'page kinds that are relevant on a generated web (sim/web.ts; an archive: archive.relevant)',
    }),
  }),
  relevance: Type.Union([...RELEVANCE_MODES.map((m) => Type.Literal(m)), Type.Null()], {
    default: null,
    description: "the crawler's judgement: paper, paper-url, keywords, learned (null: from the target)",
  }) as unknown as ReturnType<typeof oneOf<typeof RELEVANCE_MODES>>,
  reference: str({ default: 'immediate', help: 'strategy the difference figure subtracts' }),
  budgetCounts: oneOf(['requests', 'pages'], {
    default: 'requests',
    help: '"requests" (every fetch, the paper) or "pages" (2xx only; at most 20 x the budget in requests)',
  }),
  faults: bool({ default: false, help: 'serve transient errors, slow responses and 429s' }),
  budget: num({ default: 2000, min: 10, max: 100_000_000, integer: true, help: 'fetches per run (budgetCounts)' }),
  every: num({ default: 50, min: 1, integer: true, help: 'pages between metric rows (<= budget)' }),
  earlyPhase: num({
    default: 0.15,
    min: 0,
    max: 1,
    open: true,
    help: "share of the budget that is the claims' early phase",
  }),
  /** The crawl settings an experiment sets: the crawler's own fields and defaults (crawler/settings.ts). */
  crawl: obj({
    concurrency: CrawlSettingsSchema.properties.concurrency,
    perHostConcurrency: CrawlSettingsSchema.properties.perHostConcurrency,
    // the harness serves its own web (generated, or an archive replayed) on loopback: a gap
    // protects no one there and a second per request made a quick run take 22 minutes (issue
    // #53); the crawler's own default (1,000 ms) is for someone else's server
    delayMs: num({ default: 0, min: 0, max: 3_600_000, help: LOOPBACK_DELAY_HELP }),
  }),
  future: obj({
    gamma: num({
      default: DEFAULT_FUTURE.gamma,
      min: 0,
      max: 1,
      open: true,
      help: 'discount of Q (Rennie & McCallum: 0.5)',
    }),
    horizon: num({ default: DEFAULT_FUTURE.horizon, min: 0, max: 10, integer: true, help: 'hops Q looks ahead' }),
    bins: num({ default: DEFAULT_FUTURE.bins, min: 2, max: 10, integer: true, help: 'Q-value classes' }),
    maxRows: num({
      default: DEFAULT_FUTURE.maxRows,
      min: 1,
      max: 10_000_000,
      integer: true,
      help: 'training rows sampled (stratified) per model',
    }),
    seed: num({ default: DEFAULT_FUTURE.seed, min: 0, max: 2 ** 31, integer: true, help: 'sampling seed' }),
    aggregate: oneOf(['sum', 'nearest'], {
      default: DEFAULT_FUTURE.aggregate,
      help: 'Q over relevant documents within the horizon: "sum" or "nearest"',
    }),
  }),
  adaptive: obj({
    retrainEvery: num({
      default: DEFAULT_ADAPTIVE.retrainEvery,
      min: 1,
      max: 1_000_000,
      integer: true,
      help: 'pages between retrainings (T)',
    }),
    topK: num({
      default: DEFAULT_ADAPTIVE.topK,
      min: 1,
      max: 1_000_000,
      integer: true,
      help: 'most relevant pages a retraining learns from (the paper: 100)',
    }),
    offlineSample: num({
      default: DEFAULT_ADAPTIVE.offlineSample,
      min: 0,
      max: 10_000_000,
      integer: true,
      help: 'offline training links mixed into each retraining',
    }),
    sourceWeight: num({
      default: DEFAULT_ADAPTIVE.sourceWeight,
      min: 0,
      max: 1,
      help: "weight of the source page's relevance in a link's immediate value",
    }),
    r1: numOrNull({
      default: null,
      min: 0,
      max: 1,
      help: 'immediate-value threshold (null: calibrated on the training sites)',
    }),
    r2: numOrNull({ default: null, min: 0, help: 'future-value threshold (null: calibrated on the training sites)' }),
    /**
     * A reading of a point the paper leaves open (crawler/focused/adaptive.ts RETRAIN_UPDATES, with
     * the paper's words): what a retraining updates. The default is the reading that scores a link
     * once, when it is found.
     */
    retrainUpdates: oneOf(['new-links', 'frontier', 'frontier-and-discarded'] as const, {
      default: DEFAULT_ADAPTIVE.retrainUpdates,
      help: 'what a retraining updates: links found after it ("new-links"), also the queued ones ("frontier"), also discarded ones whose new Q reaches r2 ("frontier-and-discarded")',
    }),
    /** A reading of "keep following from this node" (crawler/focused/adaptive.ts TUNNEL_MODES, with the paper's words). */
    tunnel: oneOf(['priority', 'thread'] as const, {
      default: DEFAULT_ADAPTIVE.tunnel,
      help: 'how a tunnelled page\'s links are followed: by Q below every exploiting link ("priority"), or next, for up to 3 tunnelling pages in a row ("thread")',
    }),
    /** A reading of how r1 and r2 are chosen (crawler/focused/adaptive.ts THRESHOLD_MODES, with the paper's words). */
    thresholds: oneOf(['calibrated', 'online'] as const, {
      default: DEFAULT_ADAPTIVE.thresholds,
      help: 'how r1 and r2 are chosen: once on the training sites ("calibrated"), or again at every retraining from the pages crawled so far ("online"); r1/r2 given here are the starting values',
    }),
    /** A reading of what happens at the start page (crawler/focused/adaptive.ts START_PAGE_MODES). */
    startPage: oneOf(['tunnel', 'exploit'] as const, {
      default: DEFAULT_ADAPTIVE.startPage,
      help: 'the start page\'s links below r1: queued by Q like a tunnelled page\'s ("tunnel"), or followed by immediate score as a community\'s entry ("exploit")',
    }),
  }),
  immediate: obj({
    sourceWeight: num({
      default: 0.3,
      min: 0,
      max: 1,
      help: "weight of the source page's relevance in a link's immediate value",
    }),
  }),
  /** Replay a web archive instead of generating a web (then `web` and `seeds` are not used). */
  archive: Type.Union(
    [
      Type.Null(),
      obj({
        warc: list(Type.String(), { minItems: 1, expected: 'a list of existing WARC files', help: 'WARC files' }),
        labels: str({ help: "labels CSV url,label[,...]: the evaluator's ground truth" }),
        relevant: list(Type.String({ minLength: 1 }), {
          default: [],
          expected: 'the list of labels that count as relevant',
          help: 'labels that count as relevant (may be empty when relevantDocuments names the target)',
        }),
        holes: oneOf(HOLE_POLICIES as readonly HolePolicy[], {
          default: 'closed',
          help: '"closed" (the induced graph, holes cost nothing) or "open" (404s charged) (sim/archive-web.ts)',
        }),
        documents: list(Type.String({ pattern: '^\\.' }), {
          default: [...DEFAULT_DOCUMENT_EXTENSIONS],
          expected: 'a list of extensions starting with "." (e.g. [".pdf", ".ps.gz"])',
          help: 'extensions of known documents: linked, not archived, served as placeholders',
        }),
        relevantDocuments: list(Type.String({ minLength: 1 }), {
          default: [],
          expected: 'a list of extensions (e.g. [".pdf", ".ps"])',
          help: 'documents whose URL ends so are relevant (the paper: .pdf, .ps ...)',
        }),
        source: str({ default: '', help: 'what the collection is (source, date, citation), for the report' }),
        sites: list(Type.String(), {
          default: [],
          help: 'hosts to crawl, each held out in turn (empty: the groups, else every relevant host)',
        }),
        starts: map(Type.String(), { default: {}, help: 'site -> start URL (default http://HOST/)' }),
        groups: map(list(Type.String(), { minItems: 1, expected: 'a list of hosts', help: 'hosts' }), {
          default: {},
          help: 'site name -> hosts crawled and held out together',
        }),
      }),
    ],
    { default: null, description: 'replay a web archive instead (null: a generated web); its fields:' },
  ),
  keywords: Type.Union([Type.String(), Type.Null()], {
    default: null,
    description: 'topic keyword file, one term per line (null: data/vocab/computing.txt)',
  }),
  /**
   * A grid of parameter values (experiments/sweep/sweep.ts): "web.PATH" sets a field of the web config
   * (e.g. "web.structure.conventions"), any other key a field of this config (e.g. "adaptive.r1").
   */
  sweep: map(
    list(Type.Union([Type.Number(), Type.Boolean(), Type.String()]), {
      minItems: 1,
      expected: 'a non-empty list of numbers, booleans or strings',
      help: 'values',
    }),
    { default: {}, help: 'parameter -> values ("web.PATH" for the web config)' },
  ),
  /**
   * A search over parameters instead of a grid (experiments/sweep/search.ts): seeded Latin-hypercube
   * points, then a coordinate search from the closest, for the point where the paper's claims come
   * closest to holding.
   */
  search: Type.Union(
    [
      Type.Null(),
      obj({
        evaluations: num({
          default: 24,
          min: 2,
          max: 1000,
          integer: true,
          help: 'points run in all (half sampled, half refining the closest)',
        }),
        seed: num({ default: 1, min: 0, max: 2 ** 31, integer: true, help: 'seed of the sampled points' }),
        space: map(
          list(Type.Union([Type.Number(), Type.Boolean(), Type.String()]), {
            minItems: 2,
            expected: 'a range [low, high] of numbers, or a list of two or more choices',
            help: 'range or choices',
          }),
          { default: {}, help: 'parameter -> [low, high] (whole numbers where the field is) or choices' },
        ),
        confirm: list(Type.Integer({ minimum: 0, maximum: 4_294_967_295 }), {
          default: [],
          expected: 'a list of whole numbers',
          help: 'web seeds the closest point runs again at (the search chose it on its own seeds; fresh ones confirm it)',
        }),
        compare: Type.Union([Type.String(), Type.Null()], {
          default: null,
          description: 'an archive experiment whose sites the closest web is measured against (null: none)',
        }),
      }),
    ],
    { default: null, description: 'search the parameters for where the claims hold (null: none); its fields:' },
  ),
  quick: Type.Unknown({
    default: { web: 'data/webs/small.json', seeds: [1], budget: 600, every: 25 },
    description: 'fields --quick overrides (a small web, one seed, a small budget)',
  }),
});

type Resolved = Static<typeof ExperimentSchema>;
export type ExperimentConfig = Omit<Resolved, 'name' | 'strategies' | 'quick' | 'relevance'> & {
  name: string;
  /** Names only: object entries were moved to strategyParams on load. */
  strategies: string[];
  relevance: RelevanceMode | null;
  quick: Partial<Omit<ExperimentConfig, 'quick' | 'name'>>;
};

export const DEFAULT_EXPERIMENT = defaultsOf(ExperimentSchema) as Omit<ExperimentConfig, 'name'>;

/** Defaults of an archive section's optional fields. */
export const ARCHIVE_DEFAULTS = withDefaults(
  (ExperimentSchema.properties.archive as unknown as { anyOf: TSchema[] }).anyOf[1]!,
  {},
) as Omit<NonNullable<ExperimentConfig['archive']>, 'warc' | 'labels'>;

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
      registerStrategy(mem.name, mem.factory);
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
        `strategies: "${n}" was given in memory by the program that ran this config: rerun it from that program (runExperiment), or give { "name": "${n}", "module": "path/to/strategy.ts" }`,
      );
  for (const s of c.strategies)
    if (!strategyNames().includes(s) && !c.strategyParams[s]?.module && !c.strategyParams[s]?.inMemory)
      bad(
        `strategies: "${s}" is not one of ${strategyNames().join(', ')}${didYouMean(s, strategyNames())} (or give { "name": "${s}", "module": "path/to/strategy.ts" })`,
      );
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
  if (c.archive === null) {
    file('web', c.web);
    try {
      loadConfig(c.web);
    } catch (e) {
      bad(`web: ${(e as Error).message}`);
    }
  }
  if (c.archive !== null) {
    const a = c.archive;
    a.warc.forEach((f, i) => file(`archive.warc[${i}]`, f));
    file('archive.labels', a.labels);
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
  for (const k of Object.keys(c.sweep)) {
    if (!k.startsWith('web.') && !hasPath(DEFAULT_EXPERIMENT, k))
      bad(`sweep.${k}: not a field of the experiment config (web fields start with "web.")`);
    if (k.startsWith('web.') && c.archive) bad(`sweep.${k}: an archive has no web config to sweep`);
  }
  if (c.search) {
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
  if (c.keywords !== null) file('keywords', c.keywords);
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
