/**
 * A focused-crawling experiment config, declared once (lib/schema.ts): the schema, the
 * ExperimentConfig type and the defaults. Loading, checks across fields and what a config
 * implies (training, the target) are config.ts's.
 */
import { DEFAULT_ADAPTIVE, DEFAULT_FUTURE, RELEVANCE_MODES, type RelevanceMode } from '../../crawler/focused/index.ts';
import { CrawlSettingsSchema } from '../../crawler/index.ts';
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
import { DEFAULT_DOCUMENT_EXTENSIONS, HOLE_POLICIES, type HolePolicy } from '../../sim/archive-web.ts';
import { COLLECTIONS, type Collection } from '../../sim/site-stats.ts';
import { nameField } from '../config-files.ts';
import { strategyNames } from '../strategy-registry.ts';

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

/**
 * A focused-crawling experiment config, declared once (lib/schema.ts): the ExperimentConfig type,
 * the defaults, the checks of each field, `npm run experiment -- --help` and
 * schemas/experiment.schema.json derive from it. Checks across fields (every <= budget, files
 * exist, strategies known) are config.ts validate()'s.
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
   * Link orders each strategy crawls each site at (the `order` column of the CSVs): order 1 is the
   * page's own order, order k > 1 the crawl setting linkOrderSeed k (each page's new links in a
   * seeded permutation, which ties in the frontier follow). Intervals and paired differences then
   * include a strategy's noise from the order of ties (runs paired on seed, site and order).
   */
  orderSeeds: num({
    default: 1,
    min: 1,
    max: 100,
    integer: true,
    help: "link orders each strategy crawls each site at (1: the page's order only)",
  }),
  /**
   * The first link order of the run (issue #85): orders firstOrder .. firstOrder + orderSeeds - 1.
   * An order k > 1 is also the draw of a strategy's own randomness (random's hash, a seeded
   * agent's choices: the strategy's seed is the web seed and k together), so a run from another
   * firstOrder is a disjoint set of draws of every baseline's noise: a verdict that flips between
   * two such sets rests on the draws, not on the strategies.
   */
  firstOrder: num({
    default: 1,
    min: 1,
    max: 100_000,
    integer: true,
    help: 'the first link order (a run from another one draws every order and random seed anew)',
  }),
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
  // the two costs a large web pays that serve no crawl (issue #70): both on for a figure of the
  // paper's size, off with --no-replay / --no-diagnostics, and the report says which is off
  replay: bool({
    default: true,
    help: "record the first run's fetch order and lay its site out (ForceAtlas2) for the results page's replay",
  }),
  diagnostics: bool({
    default: true,
    help: "measure the generated web's structure for the report (sim/structure.ts); off: the report says so",
  }),
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
    features: oneOf(['all', 'link'], {
      default: DEFAULT_FUTURE.features,
      help:
        'what the link classifier reads: anchor, words around, URL path, source title and heading ("all"), ' +
        'or the first three ("link": an ablation of the page-level cues)',
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
      help:
        'what a retraining updates: links found after it ("new-links"), also the queued ones ' +
        '("frontier"), also discarded ones whose new Q reaches r2 ("frontier-and-discarded")',
    }),
    /** A reading of "keep following from this node" (crawler/focused/adaptive.ts TUNNEL_MODES, with the paper's words). */
    tunnel: oneOf(['priority', 'thread', 'subcrawl'] as const, {
      default: DEFAULT_ADAPTIVE.tunnel,
      help:
        'how tunnelling links are followed: each by a thread of its own beside the main crawl, sharing its budget ' +
        'and slots, for up to threadPages pages, at most 7 at a time ("subcrawl", the paper\'s thread); by Q below ' +
        'every exploiting link ("priority"); or next, for up to 3 tunnelling pages in a row ("thread")',
    }),
    threadPages: num({
      default: DEFAULT_ADAPTIVE.threadPages,
      min: 1,
      max: 1_000_000,
      integer: true,
      help: 'pages a thread may fetch (tunnel "subcrawl"; ours: the paper gives no number)',
    }),
    /** A reading of how r1 and r2 are chosen (crawler/focused/adaptive.ts THRESHOLD_MODES, with the paper's words). */
    thresholds: oneOf(['calibrated', 'online'] as const, {
      default: DEFAULT_ADAPTIVE.thresholds,
      help:
        'how r1 and r2 are chosen: once on the training sites ("calibrated"), or again at every ' +
        'retraining from the pages crawled so far ("online"); r1/r2 given here are the starting values',
    }),
    /** A reading of how r1 and r2 are chosen (crawler/focused/calibrate.ts THRESHOLD_RULES, with the paper's words). */
    thresholdRule: oneOf(['f1', 'quantile', 'precision'] as const, {
      default: DEFAULT_ADAPTIVE.thresholdRule,
      help:
        'the rule that chooses r1 and r2 on the training values: best F1 ("f1"), the quantile at the ' +
        'positives\' share ("quantile"), or the lowest threshold with 50% training precision ("precision")',
    }),
    /** A reading of the paper's steps (2)-(5) (crawler/focused/adaptive.ts SCOPES, with the paper's words). */
    scope: oneOf(['page', 'link'] as const, {
      default: DEFAULT_ADAPTIVE.scope,
      help:
        'what r1 and r2 are compared with: each link\'s own immediate value, then its own Q ("link", the paper\'s ' +
        'steps (2)-(4)), or the page\'s cosine and its links\' largest Q, all links one way ("page")',
    }),
    /** A reading of what happens at the start page (crawler/focused/adaptive.ts START_PAGE_MODES). */
    startPage: oneOf(['tunnel', 'exploit'] as const, {
      default: DEFAULT_ADAPTIVE.startPage,
      help:
        'the start page\'s links below r1: queued by Q like a tunnelled page\'s ("tunnel"), or ' +
        'followed by immediate score as a community\'s entry ("exploit")',
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
        collection: oneOf(COLLECTIONS as readonly Collection[], {
          default: 'pages',
          help: 'how it was made: "pages" (HTML pages, as WebKB) or "crawl" (a crawler\'s WARC) (sim/site-stats.ts)',
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
        /**
         * The generated web the archive was written from, where it is known (a blind web, a crawl
         * of `npm run serve`): twin-validation then takes its same-web control from this web at
         * other seeds, not from the twin (issue #85).
         */
        origin: Type.Union(
          [
            Type.Null(),
            obj({
              web: str({ help: 'the web config file the archive was written from' }),
              seed: num({ default: 1, min: 0, max: 4_294_967_295, integer: true, help: 'its web seed' }),
              sample: num({
                default: 1,
                min: 0.01,
                max: 1,
                help: "the share of the web's pages the collection kept (1: all)",
              }),
            }),
          ],
          {
            default: null,
            description:
              'the generated web the archive came from, where known (null: unknown); twin-validation ' +
              "then judges the twin against that web's own ranking at other seeds",
          },
        ),
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
