/**
 * One experiment job: on the web of one seed (or the replayed archive), crawl one site with every
 * strategy of the config (deterministic mode, same budget) and measure recall and precision
 * against ground truth every `every` pages. Runs inside a worker process (see runner.ts); the
 * environment (server, ground truth, training data) is reused across the jobs of one seed.
 */
import { hostname } from 'node:os';
import { CrawlEngine, type CrawlSummary, type Strategy } from '../../crawler/index.ts';
import { AdaptiveStrategy, loadKeywords, RelevanceJudge } from '../../crawler/focused/index.ts';
import { loadConfig } from '../../sim/config.ts';
import { loadStrategyModule, makeStrategy } from '../strategy-registry.ts';
import type { TrainedModels } from '../web-training.ts';
import { needsPageClassifier, relevanceOf, type ExperimentConfig } from './config.ts';
import { type Caches, cachesFor, type Env } from './env.ts';
import { withEnv } from './env-slots.ts';
import { judgementQuality } from './judgement.ts';
import { siteLeak } from '../env-leak.ts';
import { ownCounters, RunMeter } from './meter.ts';
import { CrawlLedger } from './crawl-ledger.ts';
import { reachable } from '../../lib/site-graph.ts';
import { itemHops, itemsByHops } from './density.ts';
import { oracleOrder } from './oracle.ts';
import { layoutIterations, layoutXY, replayRun, type ReplayRun } from './page-replay.ts';
import {
  type CurveRow,
  type JobResult,
  type JobTask,
  ORACLE,
  type PhaseTime,
  type SiteFacts,
  stopwatch,
  type SummaryRow,
} from './rows.ts';
import { append } from '../../lib/arrays.ts';
import { gitCommit, treeHash } from '../queue/code.ts';

/** Loads the experiment's strategy modules (in this process: each worker loads its own). */
export async function loadPlugins(cfg: ExperimentConfig): Promise<void> {
  for (const [name, spec] of Object.entries(cfg.strategyParams))
    if (spec.module) await loadStrategyModule(name, spec.module);
}

/** The pool's clean-up call by this module's name (runner.ts, queue.ts): the environments closed. */
export { closeSeedState } from './env-slots.ts';

/** The first site an experiment crawls: its configured sites', else its web's first department. */
function firstSite(cfg: ExperimentConfig): string {
  return cfg.sites[0] ?? loadConfig(cfg.web).departments[0].host;
}

/** runJob for experiments/pool.ts (one argument). */
export function runJobTask(t: JobTask): Promise<JobResult> {
  return runJob(t.cfg, t.seed, t.site, t.cacheDir, t.record);
}

export async function runJob(
  cfg: ExperimentConfig,
  seed: number,
  site: string,
  cacheDir: string | null,
  record = false,
  caches: Caches = cachesFor(cfg),
): Promise<JobResult> {
  return withEnv(cfg, seed, (env, made) => runJobOn(new Job(env, made, cfg, seed, site, cacheDir), record), caches);
}

type Time = { ms: number; cpuMs: number };

/**
 * What the steps of one job share: its environment, site and keywords, the phases timed so far,
 * and the models and judgement, made when first asked for. Training runs inside another phase
 * (the facts', or a strategy's construction): its time is taken out of that one.
 */
class Job {
  readonly keywords: string[];
  readonly phases: PhaseTime[];
  readonly mode: ReturnType<typeof relevanceOf>;
  private models: TrainedModels | null = null;
  private judge: RelevanceJudge | null = null;
  /** Training's time, once it ran. */
  trained: Time = { ms: 0, cpuMs: 0 };

  constructor(
    readonly env: Env,
    made: PhaseTime | null,
    readonly cfg: ExperimentConfig,
    readonly seed: number,
    readonly site: string,
    private readonly cacheDir: string | null,
  ) {
    // read for each job (a few milliseconds): a file rewritten in place between two runs of one
    // process is the new list, and what is trained on it is cached by its words, not by the file
    this.keywords = cfg.keywords ? loadKeywords(cfg.keywords) : loadKeywords();
    this.mode = relevanceOf(cfg);
    this.phases = made ? [made] : [];
  }

  readonly getModels = (): TrainedModels => {
    if (this.models) return this.models;
    const t = stopwatch();
    const { env, cfg } = this;
    this.models = env.training.models(
      this.site,
      this.keywords,
      this.cacheDir,
      env.cacheKey,
      cfg.adaptive.offlineSample,
      needsPageClassifier(cfg),
      cfg.adaptive.sourceWeight,
    );
    this.trained = t();
    this.phases.push({ phase: 'training', strategy: '', ...this.trained, pages: 0 });
    return this.models;
  };

  readonly getJudge = (): RelevanceJudge =>
    (this.judge ??= new RelevanceJudge(this.mode, this.mode === 'learned' ? this.getModels().pages : null));

  /** Whether the models came from the cache, once trained (null before). */
  get modelCached(): boolean | null {
    return this.models ? this.models.cached : null;
  }

  /** A phase's time without the training that ran inside it (`before`: training's time when it began). */
  without(t: Time, before: Time): Time {
    return { ms: t.ms - (this.trained.ms - before.ms), cpuMs: t.cpuMs - (this.trained.cpuMs - before.cpuMs) };
  }
}

/** The crawled site as the evaluator sees it: ground truth, the target, and how fetches are drawn. */
interface SiteTruth {
  graph: ReturnType<Env['graphOf']>['graph'];
  keys: readonly string[];
  nodeOf: ReadonlyMap<string, number>;
  relevant: Set<string>;
  /** Relevant items reachable from the start page. */
  reach: Set<string>;
  replay: ReplayRun | null;
  /** A node's index in the replay's drawing (-1: not drawn). */
  drawnAs: (node: number) => number;
}

async function runJobOn(job: Job, record: boolean): Promise<JobResult> {
  const { env, cfg, site, phases } = job;
  const facts = stopwatch();
  const result: JobResult = {
    curves: [],
    summaries: [],
    timings: [],
    phases,
    modelCached: null,
    // the web's structure is the same for every site of a seed, and costly: measured by the job of
    // the seed's first crawled site only, which the runner reads it from
    structure: cfg.archive || !cfg.diagnostics || site !== firstSite(cfg) ? null : env.structure(),
    replay: null,
    // the code this process loaded (its first hash; a pool process makes it at its first job)
    madeBy: { host: hostname(), pid: process.pid, tree: treeHash(), commit: gitCommit() },
    facts: {
      site,
      seed: job.seed,
      nodes: 0,
      relevant: 0,
      reachable: 0,
      depths: [],
      archive: null,
      judgement: null,
      leak: null,
    },
  };
  const truth = siteTruth(job, record);
  result.replay = truth.replay;
  result.facts = siteFacts(job, truth);
  phases.push({ phase: 'facts', strategy: '', ...job.without(facts(), { ms: 0, cpuMs: 0 }), pages: 0 });
  await loadPlugins(cfg);
  for (let order = cfg.firstOrder; order < cfg.firstOrder + cfg.orderSeeds; order++)
    for (const name of cfg.strategies) {
      const run = await crawlOne(job, truth, name, order);
      result.timings.push(run.timing);
      append(result.curves, run.curves);
      result.summaries.push(run.summary);
      if (job.modelCached !== null) result.modelCached = job.modelCached;
    }
  // the oracle's order is ground truth's: computed once, its rows repeated for each link order
  // so that every run has its partner
  const oracle = runOracle(job, truth);
  for (let order = cfg.firstOrder; order < cfg.firstOrder + cfg.orderSeeds; order++) {
    append(
      result.curves,
      oracle.curves.map((c) => ({ ...c, order })),
    );
    result.summaries.push({ ...oracle.summary, order });
  }
  return result;
}

/** The site's ground truth, and its replay drawn and laid out when the job records one. */
function siteTruth(job: Job, record: boolean): SiteTruth {
  const { env, site } = job;
  const relevant = env.relevant(site);
  const { graph, keys } = env.graphOf(site);
  const nodeOf = new Map(keys.map((k, i) => [k, i] as const));
  const drawn = record ? replayRun(site, job.seed, graph, env.groupsOf(site)) : null;
  // a large site is drawn by a sample of its pages (page-replay.ts REPLAY_PAGES): a fetch is drawn by its index in it
  const drawnIndex = drawn?.indexOf ?? null;
  const drawnAs = (node: number): number => (drawnIndex ? drawnIndex[node] : node);
  let replay: ReplayRun | null = null;
  if (drawn) {
    const { indexOf: _, ...run } = drawn;
    replay = run;
    const { cfg } = job;
    replay.xy = layoutXY(replay, layoutIterations(replay.n, cfg.strategies.length * cfg.orderSeeds * cfg.budget));
  }
  const seen = reachable(graph);
  const reach = new Set(keys.filter((_, i) => seen[i] && graph.relevant[i]).map(env.itemOf));
  return { graph, keys, nodeOf, relevant, reach, replay, drawnAs };
}

/** What the site rests on: its graph, its target's depths, the judgement's quality where it matters. */
function siteFacts(job: Job, t: SiteTruth): SiteFacts {
  const { env, site } = job;
  // each relevant item at the fewest hops of any of its nodes (a paper in two formats is one item)
  const byDepth = itemsByHops(itemHops(t.graph, t.keys, env.itemOf));
  return {
    site,
    seed: job.seed,
    nodes: t.graph.n,
    relevant: t.relevant.size,
    reachable: t.reach.size,
    depths: byDepth,
    archive: env.archiveShape(site),
    // the judgement scored on the held-out site: where it is learned or stands in for bodies not kept
    judgement:
      env.holes !== null || job.mode === 'learned' ? judgementQuality(env, site, job.keywords, job.getJudge()) : null,
    leak: siteLeak(env.training, job.keywords, site),
    traps: env.traps(site),
  };
}

/**
 * The thresholds r1/r2 a run of the adaptive crawler (or a variant or named reading of it) starts
 * from, as the strategy itself took them (the config's, else its scope's and rule's on the training
 * sites); null for every other strategy, and for a threshold nothing reaches.
 */
function startingThresholds(strategy: Strategy): { r1: number | null; r2: number | null } {
  if (!(strategy instanceof AdaptiveStrategy)) return { r1: null, r2: null };
  const { r1, r2 } = strategy.thresholds;
  const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
  return { r1: finite(r1), r2: finite(r2) };
}

/**
 * A run's strategy seed: the web seed at link order 1 (the default crawl, as the golden logs pin
 * it), and another draw at every other order, so that random and the seeded agents vary with the
 * order as much as BFS does (issue #85: random was one draw whatever the order).
 */
export function runSeed(seed: number, linkOrder: number): number {
  return linkOrder === 1 ? seed : seed * 100_003 + linkOrder;
}

/** A run's summary.csv row: the meter's measures, then the crawl's, the server's and the strategy's counts, in column order. */
function summaryRow(
  base: ReturnType<RunMeter['summary']>,
  ledger: CrawlLedger,
  audit: ReturnType<typeof auditOf>,
  s: CrawlSummary,
  start: ReturnType<typeof startingThresholds>,
): SummaryRow {
  const ss = s.strategy;
  return {
    ...base,
    ...ledger.outcomes,
    requests: audit?.requests ?? 0,
    past_budget: ledger.pastBudget,
    ...ledger.holes,
    audit_disallowed: audit?.disallowed ?? 0,
    audit_max_concurrent: audit?.maxConcurrent ?? 0,
    links_scored: ss.linksScored ?? 0,
    discarded: s.discarded,
    retrainings: ss.retrainings ?? 0,
    exploit_pages: ss.exploitPages ?? 0,
    tunnel_pages: ss.tunnelPages ?? 0,
    discard_pages: ss.discardPages ?? 0,
    rescued_links: ss.rescuedLinks ?? 0,
    readmitted: s.readmitted,
    frontier_left: s.frontierLeft,
    ...start,
    ...ownCounters(ss),
  };
}

/** What the server saw of a site's hosts during a run (requests, disallowed paths, concurrency). */
function auditOf(
  env: Job['env'],
  site: string,
): { requests: number; disallowed: number; maxConcurrent: number } | undefined {
  const hosts = env.scopeOf(site).length ? env.scopeOf(site) : [new URL(env.startUrl(site)).host];
  const audits = hosts.map((h) => env.audit()[h]).filter((x) => x !== undefined);
  return audits.length
    ? {
        requests: audits.reduce((n, x) => n + x.requests, 0),
        disallowed: audits.reduce((n, x) => n + x.disallowed, 0),
        maxConcurrent: Math.max(...audits.map((x) => x.maxConcurrent)),
      }
    : undefined;
}

/** One strategy's crawl of the site, counted against ground truth. */
async function crawlOne(
  job: Job,
  t: SiteTruth,
  name: string,
  /** The link order (1: the page's own; k > 1: linkOrderSeed k). */
  linkOrder = 1,
): Promise<{ curves: CurveRow[]; summary: SummaryRow; timing: { strategy: string; ms: number } }> {
  const { env, cfg, site, seed } = job;
  const byPages = cfg.budgetCounts === 'pages';
  // closed holes: the budget pays for no hole, so the engine may send more requests than the budget
  const freeHoles = env.holes === 'closed';
  const strategy = makeStrategy(name, {
    seed: runSeed(seed, linkOrder),
    keywords: job.keywords,
    models: job.getModels,
    judge: job.getJudge,
    immediate: cfg.immediate,
    adaptive: cfg.adaptive,
    future: cfg.future,
    params: cfg.strategyParams[name]?.params,
  });
  const start = startingThresholds(strategy);
  env.reset();
  const run = new RunMeter(cfg, name, site, seed, t.relevant, t.reach, linkOrder);
  // the replay shows the crawls in the run's first link order (the page's own, by default)
  const order: number[] | null = t.replay && linkOrder === cfg.firstOrder ? (t.replay.orders[name] = []) : null;
  const ledger = new CrawlLedger(env, t, run, cfg.budget, byPages, freeHoles, order);
  const engine = CrawlEngine.create({
    // the strategies crawl the same site with the same settings, and training read the same pages:
    // each page is parsed once per environment (env.parses)
    parseCache: env.parses,
    settings: {
      startUrls: [env.startUrl(site)],
      scope: env.scopeOf(site),
      resolve: [`${cfg.archive ? '*' : '*.test'}=127.0.0.1:${env.port}`],
      maxPages: byPages || freeHoles ? cfg.budget * 20 : cfg.budget,
      deterministic: true,
      concurrency: cfg.crawl.concurrency,
      perHostConcurrency: cfg.crawl.perHostConcurrency,
      delayMs: cfg.crawl.delayMs,
      autoThrottle: false,
      retryBaseMs: 5,
      seed,
      linkOrderSeed: linkOrder === 1 ? 0 : linkOrder,
    },
    strategy,
    onLog: (e) => ledger.log(e, () => engine.stop()),
  });
  const t0 = performance.now();
  const before = job.trained;
  const parsed = env.parses.misses;
  const crawl = stopwatch();
  const s = await engine.run();
  const timing = { strategy: name, ms: performance.now() - t0 };
  job.phases.push({
    phase: 'crawl',
    strategy: name,
    ...job.without(crawl(), before),
    pages: s.pages,
    parsedAnew: env.parses.misses - parsed,
  });
  const curves = run.finish();
  const base = run.summary(byPages || freeHoles ? run.count : s.pages, curves);
  const summary = summaryRow(base, ledger, auditOf(env, site), s, start);
  return { curves, summary, timing };
}

/**
 * The oracle (ground truth, evaluator only). It is billed as the crawlers are (budgetRule()): where
 * every request counts, on the graph a crawler is billed for, so a link the server redirects costs
 * it the 3xx too; where only 2xx pages count, on the pages' graph. It keeps spending the budget
 * after the last reachable document, so its precision at p pages is found / p.
 */
function runOracle(job: Job, t: SiteTruth): { curves: CurveRow[]; summary: SummaryRow } {
  const { cfg, env } = job;
  const oracleTime = stopwatch();
  const oracle = new RunMeter(cfg, ORACLE, job.site, job.seed, t.relevant, t.reach);
  const billed = cfg.budgetCounts === 'requests' ? env.billedGraphOf(job.site) : null;
  const graph = billed?.graph ?? t.graph;
  const keys: readonly (string | null)[] = billed?.keys ?? t.keys;
  // the target counts items (a paper in two formats is one): the oracle fetches one file of each
  const itemIds = new Map<string, number>();
  const items = Int32Array.from(keys, (k, i) => {
    if (k === null || !graph.relevant[i]) return -1;
    const item = env.itemOf(k);
    let id = itemIds.get(item);
    if (id === undefined) itemIds.set(item, (id = itemIds.size));
    return id;
  });
  const order = oracleOrder(graph, cfg.budget, undefined, items);
  let redirects = 0;
  for (let p = 0; p < cfg.budget; p++) {
    const key = p < order.length ? keys[order[p]] : null;
    if (p < order.length && key === null) redirects++;
    oracle.fetched(key === null ? null : env.itemOf(key));
  }
  // the replay draws pages: a redirect's node is not one
  if (t.replay)
    t.replay.orders[ORACLE] = order
      .filter((i) => i < t.graph.n)
      .map(t.drawnAs)
      .filter((i) => i >= 0);
  const curves = oracle.finish();
  job.phases.push({ phase: 'oracle', strategy: ORACLE, ...oracleTime(), pages: cfg.budget });
  const summary: SummaryRow = {
    ...oracle.summary(cfg.budget, curves),
    status_2xx: cfg.budget - redirects,
    status_3xx: redirects,
    status_4xx: 0,
    status_5xx: 0,
    fetch_errors: 0,
    requests: 0,
    past_budget: 0,
    hole_fetches: 0,
    hole_charged: 0,
    audit_disallowed: 0,
    audit_max_concurrent: 0,
    links_scored: 0,
    discarded: 0,
    retrainings: 0,
    readmitted: 0,
    exploit_pages: 0,
    tunnel_pages: 0,
    discard_pages: 0,
    rescued_links: 0,
    frontier_left: 0,
    r1: null,
    r2: null,
  };
  return { curves, summary };
}
