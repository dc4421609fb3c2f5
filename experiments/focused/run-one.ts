/**
 * One experiment job: on the web of one seed (or the replayed archive), crawl one site with every
 * strategy of the config (deterministic mode, same budget) and measure recall and precision
 * against ground truth every `every` pages. Runs inside a worker process (see runner.ts); the
 * environment (server, ground truth, training data) is reused across the jobs of one seed.
 */
import type { MetricKey } from './metrics.ts';
import { loadConfig } from '../../sim/config.ts';
import { readFileSync } from 'node:fs';
import { CrawlEngine } from '../../crawler/index.ts';
import { judgedTokens, loadKeywords, RelevanceJudge, Topic } from '../../crawler/focused/index.ts';
import { needsPageClassifier, relevanceOf, type ExperimentConfig } from './config.ts';
import { archiveEnv, simEnv, type ArchiveShape, type Env } from './env.ts';
import { depths, oracleOrder, reachable } from './oracle.ts';
import type { StructureStats } from '../../sim/structure.ts';
import { loadStrategyModule, makeStrategy } from '../strategies.ts';
import type { TrainedModels } from '../training.ts';
import { layoutXY, replayRun, type ReplayRun } from './replay.ts';
import { resource } from '../../lib/paths.ts';

/** One checkpoint of one run: its metrics are experiments/focused/metrics.ts CURVE_METRICS. */
export type CurveRow = {
  experiment: string;
  strategy: string;
  site: string;
  seed: number;
  pages: number;
} & Record<MetricKey, number>;
export interface SummaryRow {
  experiment: string;
  strategy: string;
  site: string;
  seed: number;
  pages: number;
  relevant_found: number;
  relevant_total: number;
  relevant_reachable: number;
  recall: number;
  recall_reachable: number;
  recall_auc: number;
  precision: number;
  pages_per_relevant: number;
  status_2xx: number;
  status_3xx: number;
  status_4xx: number;
  status_5xx: number;
  fetch_errors: number;
  requests: number;
  /** Fetches that landed on an archive hole, and how many of them the budget paid for (0 under the closed policy). */
  hole_fetches: number;
  hole_charged: number;
  audit_disallowed: number;
  audit_max_concurrent: number;
  links_scored: number;
  discarded: number;
  retrainings: number;
  /** Adaptive's modes: pages whose links it exploited (>= r1), tunnelled (>= r2) or discarded; links rescued when the frontier ran dry. */
  exploit_pages: number;
  tunnel_pages: number;
  discard_pages: number;
  rescued_links: number;
  /** Discarded links the strategy re-admitted (PageDecision.readmit). */
  readmitted: number;
  /** A strategy's own counters (stats() beyond the columns above), by name: counter_NAME. */
  [counter: `counter_${string}`]: number;
  /** URLs still queued when the run ended (a run that ends before its budget with 0 here ran out of links). */
  frontier_left: number;
  r1: number | null;
  r2: number | null;
}
/** The paper's adaptive crawler and our variant of it (they report thresholds and modes). */
const isAdaptive = (name: string): boolean => name === 'adaptive' || name === 'adaptive-rescue';

/** Name under which the ground-truth oracle's curves are written (never a crawl strategy). */
export const ORACLE = 'oracle';

/** Loads the experiment's strategy modules (in this process: each worker loads its own). */
export async function loadPlugins(cfg: ExperimentConfig): Promise<void> {
  for (const [name, spec] of Object.entries(cfg.strategyParams))
    if (spec.module) await loadStrategyModule(name, spec.module);
}
/**
 * Where a job's time went (npm run bench:scale reads them): the environment (the web generated,
 * served and its ground truth built: reported by the first job on it), the site's facts (graph,
 * reachability, structure, the judgement's quality), training, each strategy's crawl and the
 * oracle; wall and CPU milliseconds of this process (in a worker process, one job at a time), and
 * the pages a crawl fetched. Not part of any CSV: timings differ from run to run.
 */
export interface PhaseTime {
  phase: 'environment' | 'facts' | 'training' | 'crawl' | 'oracle';
  /** The strategy of a crawl ('' for the other phases). */
  strategy: string;
  ms: number;
  cpuMs: number;
  pages: number;
}

/** Wall and CPU time since it was started. */
function stopwatch(): () => { ms: number; cpuMs: number } {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    return { ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
  };
}

export interface JobResult {
  curves: CurveRow[];
  summaries: SummaryRow[];
  timings: { strategy: string; ms: number }[];
  phases: PhaseTime[];
  modelCached: boolean | null;
  /** The web's structural diagnostics (synthetic webs), for the report. */
  structure: StructureStats | null;
  /** The fetch order of every strategy on the site's pages, when the job was asked to record it. */
  replay: ReplayRun | null;
  /** What this run's site rests on (ground truth, evaluator only). */
  facts: SiteFacts;
}

/** What one site of one web rests on: its graph, its target's depth, the crawler's judgement of it. */
export interface SiteFacts {
  site: string;
  seed: number;
  /** Nodes of the ground-truth graph (pages, and an archive's known documents). */
  nodes: number;
  relevant: number;
  reachable: number;
  /** Relevant items by hops from the start page: depths[d] items at d hops (unreachable ones left out). */
  depths: number[];
  archive: ArchiveShape | null;
  judgement: JudgementQuality | null;
}

/** The crawler's relevance judgement scored against ground truth on the held-out site's pages. */
export interface JudgementQuality {
  mode: string;
  pages: number;
  positives: number;
  /** Area under the ROC curve of the judgement's relevance score (Mann-Whitney, ties count half). */
  auc: number;
  precision: number;
  recall: number;
  accuracy: number;
  /** Accuracy of calling every page irrelevant: the bar accuracy must clear. */
  allNegative: number;
  /** The judgement's yes/no threshold on its score, when it has one. */
  threshold: number | null;
}

/** AUC of scores against labels (Mann-Whitney U with ties counted half); NaN without both classes. */
export function rocAuc(scores: readonly number[], labels: readonly boolean[]): number {
  const idx = scores.map((_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let rankSumPos = 0;
  let pos = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j < idx.length && scores[idx[j]] === scores[idx[i]]) j++;
    const rank = (i + 1 + j) / 2; // mean rank of the tie group (1-based)
    for (let k = i; k < j; k++)
      if (labels[idx[k]]) {
        rankSumPos += rank;
        pos++;
      }
    i = j;
  }
  const neg = labels.length - pos;
  return pos && neg ? (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg) : NaN;
}

/**
 * Environments by key (the seed's web, or the archive), shared by the jobs of a process. A job
 * holds its environment exclusively (its server is reset between strategies, its politeness audit
 * counts one crawl at a time), so jobs on one environment take turns, and an environment is closed
 * only when no job holds or waits for it: two experiments in one process (runExperiment called
 * twice at once, as a library may) no longer close or reset each other's web mid-crawl. Idle
 * environments other than the last one used are closed (a web is large).
 */
interface EnvSlot {
  env: Promise<Env>;
  /** How long the environment took to make, until the first job on it reports it. */
  made: PhaseTime | null;
  users: number;
  /** Settles when the job ahead of the next one has finished with the environment. */
  turn: Promise<void>;
}
const envs = new Map<string, EnvSlot>();
/** The topic keywords of the last config, by its keyword file ('' = the default list): loaded once per file. */
let topic: { file: string; words: string[] } | null = null;

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The environment of a job: the seed's synthetic web, or the archive; reused across jobs. */
async function withEnv<T>(
  cfg: ExperimentConfig,
  seed: number,
  job: (env: Env, made: PhaseTime | null) => Promise<T>,
): Promise<T> {
  // the web file's text is part of the key: a file rewritten in place (a sweep run again in its folder) is another web
  const key = cfg.archive
    ? `archive:${JSON.stringify(cfg.archive)}`
    : `sim:${cfg.web}:${seed}:${cfg.faults}:${readFileSync(resource(cfg.web), 'utf8')}`;
  let slot = envs.get(key);
  if (!slot) {
    const made = stopwatch();
    const fresh: EnvSlot = {
      env: cfg.archive ? archiveEnv(cfg) : simEnv(cfg, seed),
      made: null,
      users: 0,
      turn: Promise.resolve(),
    };
    fresh.env = fresh.env.then((e) => {
      fresh.made = { phase: 'environment', strategy: '', ...made(), pages: 0 };
      return e;
    });
    slot = fresh;
    envs.set(key, slot);
  }
  slot.users++;
  const ahead = slot.turn;
  let done!: () => void;
  slot.turn = new Promise((r) => {
    done = r;
  });
  try {
    await ahead;
    const env = await slot.env;
    const made = slot.made;
    slot.made = null;
    return await job(env, made);
  } finally {
    slot.users--;
    done();
    // the last one used stays open for the next job (one that failed to start is forgotten); other
    // idle ones close
    const failed = await slot.env.then(
      () => false,
      () => true,
    );
    if (envs.get(key) === slot) {
      envs.delete(key);
      if (!failed) envs.set(key, slot);
    }
    await closeIdle(key);
  }
}

/** Closes every environment no job holds or waits for, but `keep`. */
async function closeIdle(keep: string | null): Promise<void> {
  for (const [k, slot] of [...envs])
    if (k !== keep && slot.users === 0) {
      envs.delete(k);
      await (await slot.env.catch(() => null))?.close();
    }
}

export async function closeSeedState(): Promise<void> {
  await closeIdle(null);
}

/** The first site an experiment crawls: its configured sites', else its web's first department. */
function firstSite(cfg: ExperimentConfig): string {
  return cfg.sites[0] ?? loadConfig(cfg.web).departments[0].host;
}

/** A job as a worker process of experiments/pool.ts receives it. */
export interface JobTask {
  cfg: ExperimentConfig;
  seed: number;
  site: string;
  cacheDir: string | null;
  record: boolean;
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
): Promise<JobResult> {
  return withEnv(cfg, seed, (env, made) => runJobOn(env, made, cfg, seed, site, cacheDir, record));
}

async function runJobOn(
  env: Env,
  made: PhaseTime | null,
  cfg: ExperimentConfig,
  seed: number,
  site: string,
  cacheDir: string | null,
  record: boolean,
): Promise<JobResult> {
  // keyed by the file: one process may run experiments with other keyword files (in-process runs, sweeps, tests)
  if (topic?.file !== (cfg.keywords ?? ''))
    topic = { file: cfg.keywords ?? '', words: cfg.keywords ? loadKeywords(cfg.keywords) : loadKeywords() };
  const keywords = topic.words;
  const relevant = env.relevant(site);
  let models: TrainedModels | null = null;
  const mode = relevanceOf(cfg);
  const phases: PhaseTime[] = made ? [made] : [];
  const facts = stopwatch();
  // training runs when first asked for, inside another phase: its time is taken out of that one
  let trained = { ms: 0, cpuMs: 0 };
  const getModels = (): TrainedModels => {
    if (models) return models;
    const t = stopwatch();
    models = env.training.models(
      site,
      keywords,
      cacheDir,
      env.cacheKey,
      cfg.adaptive.offlineSample,
      needsPageClassifier(cfg),
    );
    trained = t();
    phases.push({ phase: 'training', strategy: '', ...trained, pages: 0 });
    return models;
  };
  /** A phase's time without the training that ran inside it. */
  const without = (t: { ms: number; cpuMs: number }, before: { ms: number; cpuMs: number }) => ({
    ms: t.ms - (trained.ms - before.ms),
    cpuMs: t.cpuMs - (trained.cpuMs - before.cpuMs),
  });
  let judge: RelevanceJudge | null = null;
  const getJudge = (): RelevanceJudge =>
    (judge ??= new RelevanceJudge(mode, mode === 'learned' ? getModels().pages : null));
  const result: JobResult = {
    curves: [],
    summaries: [],
    timings: [],
    phases,
    modelCached: null,
    // the web's structure is the same for every site of a seed: measured (about 2 s on paper.json)
    // by the job of the seed's first crawled site only, which the runner reads it from
    structure: cfg.archive || site !== firstSite(cfg) ? null : env.structure(),
    replay: null,
    facts: { site, seed, nodes: 0, relevant: 0, reachable: 0, depths: [], archive: null, judgement: null },
  };
  const { graph, keys } = env.graphOf(site);
  const nodeOf = new Map(keys.map((k, i) => [k, i] as const));
  const drawn = record ? replayRun(site, seed, graph, env.groupsOf(site)) : null;
  // a large site is drawn by a sample of its pages (replay.ts REPLAY_PAGES): a fetch is drawn by its index in it
  const drawnIndex = drawn?.indexOf ?? null;
  const drawnAs = (node: number): number => (drawnIndex ? drawnIndex[node] : node);
  let replay: ReplayRun | null = null;
  if (drawn) {
    const { indexOf: _, ...run } = drawn;
    replay = run;
    replay.xy = layoutXY(replay);
  }
  result.replay = replay;
  const seen = reachable(graph);
  const reach = new Set(keys.filter((_, i) => seen[i] && graph.relevant[i]));
  const hops = depths(graph);
  const byDepth: number[] = [];
  for (let i = 0; i < graph.n; i++)
    if (graph.relevant[i] && hops[i] >= 0) byDepth[hops[i]] = (byDepth[hops[i]] ?? 0) + 1;
  result.facts = {
    ...result.facts,
    nodes: graph.n,
    relevant: relevant.size,
    reachable: reach.size,
    depths: Array.from(byDepth, (x) => x ?? 0),
    archive: env.archiveShape(site),
    // the judgement scored on the held-out site: where it is learned or stands in for bodies not kept
    judgement: env.holes !== null || mode === 'learned' ? judgementQuality(env, site, keywords, getJudge()) : null,
  };
  const byPages = cfg.budgetCounts === 'pages';
  // closed holes: the budget pays for no hole, so the engine may send more requests than the budget
  const freeHoles = env.holes === 'closed';
  phases.push({ phase: 'facts', strategy: '', ...without(facts(), { ms: 0, cpuMs: 0 }), pages: 0 });
  await loadPlugins(cfg);
  // the strategies crawl the same site with the same settings, and training read the same pages:
  // each page is parsed once per environment (env.parses)
  const parseCache = env.parses;
  for (const name of cfg.strategies) {
    const strategy = makeStrategy(name, {
      seed,
      keywords,
      models: getModels,
      judge: getJudge,
      immediate: cfg.immediate,
      adaptive: cfg.adaptive,
      future: cfg.future,
      params: cfg.strategyParams[name]?.params,
    });
    env.reset();
    const run = new RunMeter(cfg, name, site, seed, relevant, reach);
    const outcomes = { status_2xx: 0, status_3xx: 0, status_4xx: 0, status_5xx: 0, fetch_errors: 0 };
    const holes = { hole_fetches: 0, hole_charged: 0 };
    const order: number[] | null = replay ? (replay.orders[name] = []) : null;
    const engine = CrawlEngine.create({
      parseCache,
      settings: {
        seeds: [env.startUrl(site)],
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
      },
      strategy,
      onLog: (e) => {
        const ok = e.status !== null && e.status >= 200 && e.status < 300;
        if (order && ok) {
          const key = env.keyOf(e.url);
          const node = key === null ? undefined : nodeOf.get(key);
          if (node !== undefined && drawnAs(node) >= 0) order.push(drawnAs(node));
        }
        const hole = e.status === 404 && env.isHole(e.url);
        if (hole) holes.hole_fetches++;
        if (hole && freeHoles) return;
        if (hole) holes.hole_charged++;
        if (e.status === null) outcomes.fetch_errors++;
        else outcomes[`status_${Math.min(5, Math.max(2, Math.floor(e.status / 100)))}xx` as 'status_2xx']++;
        // with budgetCounts "pages" only 2xx responses count; the run stops at the budget
        if (byPages ? !ok : false) return;
        if (run.count < cfg.budget && run.fetched(ok ? env.keyOf(e.url) : null) >= cfg.budget && (byPages || freeHoles))
          engine.stop();
      },
    });
    const t0 = performance.now();
    const before = trained;
    const crawl = stopwatch();
    const s = await engine.run();
    result.timings.push({ strategy: name, ms: performance.now() - t0 });
    phases.push({ phase: 'crawl', strategy: name, ...without(crawl(), before), pages: s.pages });
    const rows = run.finish();
    result.curves.push(...rows);
    const hosts = env.scopeOf(site).length ? env.scopeOf(site) : [new URL(env.startUrl(site)).host];
    const audits = hosts.map((h) => env.audit()[h]).filter((x) => x !== undefined);
    const audit = audits.length
      ? {
          requests: audits.reduce((n, x) => n + x.requests, 0),
          disallowed: audits.reduce((n, x) => n + x.disallowed, 0),
          maxConcurrent: Math.max(...audits.map((x) => x.maxConcurrent)),
        }
      : undefined;
    const ss = s.strategy;
    result.summaries.push({
      ...run.summary(byPages || freeHoles ? run.count : s.pages, rows),
      ...outcomes,
      requests: audit?.requests ?? 0,
      ...holes,
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
      r1: isAdaptive(name) ? (cfg.adaptive.r1 ?? getModels().calibration.r1) : null,
      r2: isAdaptive(name) ? (cfg.adaptive.r2 ?? getModels().calibration.r2) : null,
      ...ownCounters(ss),
    });
    if (models) result.modelCached = (models as TrainedModels).cached;
  }
  // the oracle (ground truth, evaluator only): its pages are all 2xx, and it keeps spending the
  // budget after the last reachable document, so its precision at p pages is found / p
  const oracleTime = stopwatch();
  const oracle = new RunMeter(cfg, ORACLE, site, seed, relevant, reach);
  const order = oracleOrder(graph, cfg.budget);
  for (let p = 0; p < cfg.budget; p++) oracle.fetched(p < order.length ? keys[order[p]] : null);
  if (replay) replay.orders[ORACLE] = order.map(drawnAs).filter((i) => i >= 0);
  const rows = oracle.finish();
  phases.push({ phase: 'oracle', strategy: ORACLE, ...oracleTime(), pages: cfg.budget });
  result.curves.push(...rows);
  result.summaries.push({
    ...oracle.summary(cfg.budget, rows),
    status_2xx: cfg.budget,
    status_3xx: 0,
    status_4xx: 0,
    status_5xx: 0,
    fetch_errors: 0,
    requests: 0,
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
  });
  return result;
}

/** The judgement's quality on a site's labelled pages (as a crawler reads them) against ground truth. */
function judgementQuality(
  env: Env,
  site: string,
  keywords: readonly string[],
  judge: RelevanceJudge,
): JudgementQuality {
  // a learned judgement is of HTML pages (its target); scored over documents too (placeholders on
  // an archive, which it never calls relevant) its AUC counted easy negatives (issue #51)
  const all = env.training.labelled(site);
  const pages = judge.mode === 'learned' ? all.filter((p) => p.page.kind === 'html') : all;
  const topic = new Topic(keywords);
  const tokens = pages.map((p) => judgedTokens(p.page));
  for (const t of tokens) topic.addDocument(t);
  const scores: number[] = [];
  const said: boolean[] = [];
  const truth = pages.map((p) => p.relevant);
  pages.forEach((p, i) => {
    const j = judge.judge(topic, { url: p.url, kind: p.page.kind, text: p.page.text }, tokens[i]);
    scores.push(j.score ?? j.relevance);
    said.push(j.relevant);
  });
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < pages.length; i++) {
    if (said[i] && truth[i]) tp++;
    else if (said[i]) fp++;
    else if (truth[i]) fn++;
  }
  const positives = tp + fn;
  const n = pages.length || 1;
  return {
    mode: judge.mode,
    pages: pages.length,
    positives,
    auc: r6(rocAuc(scores, truth)),
    precision: r6(tp + fp ? tp / (tp + fp) : 0),
    recall: r6(positives ? tp / positives : 0),
    accuracy: r6((pages.length - fp - fn) / n),
    allNegative: r6(1 - positives / n),
    threshold: judge.threshold,
  };
}

/** Recall AUC: area under the recall curve from 0 to the budget (trapezoids from (0, 0)), over the budget. */
export function recallAuc(rows: readonly { pages: number; recall: number }[], budget: number): number {
  let area = 0;
  let prev = { pages: 0, recall: 0 };
  for (const r of rows) {
    if (r.pages > budget) break;
    area += ((r.pages - prev.pages) * (r.recall + prev.recall)) / 2;
    prev = r;
  }
  area += (budget - prev.pages) * prev.recall;
  return area / budget;
}

/** Counts one run's fetches against ground truth and writes its checkpoints. */
class RunMeter {
  private readonly found = new Set<string>();
  private readonly foundReachable = new Set<string>();
  private pages = 0;
  private atLastPoint = 0;
  private readonly rows: CurveRow[] = [];
  constructor(
    private readonly cfg: ExperimentConfig,
    private readonly strategy: string,
    private readonly site: string,
    private readonly seed: number,
    private readonly relevant: Set<string>,
    private readonly reach: Set<string>,
  ) {}

  /** Fetches counted so far. */
  get count(): number {
    return this.pages;
  }

  /** One fetch; key: the page's key if it was a 2xx page, else null. Returns the count. */
  fetched(key: string | null): number {
    this.pages++;
    if (key !== null && this.relevant.has(key)) {
      this.found.add(key);
      if (this.reach.has(key)) this.foundReachable.add(key);
    }
    if (this.pages % this.cfg.every === 0) this.point(this.cfg.every);
    return this.pages;
  }

  private point(window: number): void {
    const { found, pages } = this;
    this.rows.push({
      experiment: this.cfg.name,
      strategy: this.strategy,
      site: this.site,
      seed: this.seed,
      pages,
      recall: r6(found.size / this.relevant.size),
      recall_reachable: r6(this.reach.size ? this.foundReachable.size / this.reach.size : 0),
      precision: r6(pages ? found.size / pages : 0),
      harvest: r6(window ? (found.size - this.atLastPoint) / window : 0),
    });
    this.atLastPoint = found.size;
  }

  /** Closes the curve; a crawl that ran out of links keeps its values up to the budget (harvest 0). */
  finish(): CurveRow[] {
    const { every, budget } = this.cfg;
    if (this.pages % every !== 0 || !this.rows.length) this.point(this.pages % every);
    const last = this.rows[this.rows.length - 1];
    for (let p = (Math.floor(this.pages / every) + 1) * every; p <= budget; p += every)
      this.rows.push({ ...last, pages: p, harvest: 0 });
    return this.rows;
  }

  summary(
    pages: number,
    rows: readonly CurveRow[],
  ): Pick<
    SummaryRow,
    | 'experiment'
    | 'strategy'
    | 'site'
    | 'seed'
    | 'pages'
    | 'relevant_found'
    | 'relevant_total'
    | 'relevant_reachable'
    | 'recall'
    | 'recall_reachable'
    | 'recall_auc'
    | 'precision'
    | 'pages_per_relevant'
  > {
    const found = this.found.size;
    return {
      experiment: this.cfg.name,
      strategy: this.strategy,
      site: this.site,
      seed: this.seed,
      pages,
      relevant_found: found,
      relevant_total: this.relevant.size,
      relevant_reachable: this.reach.size,
      recall: r6(found / this.relevant.size),
      recall_reachable: r6(this.reach.size ? this.foundReachable.size / this.reach.size : 0),
      recall_auc: r6(recallAuc(rows, this.cfg.budget)),
      precision: r6(pages ? found / pages : 0),
      pages_per_relevant: r6(found ? pages / found : 0),
    };
  }
}

/** The strategy counters summary.csv has a column of its own for (stats() names -> column). */
const KNOWN_COUNTERS: Record<string, string> = {
  linksScored: 'links_scored',
  retrainings: 'retrainings',
  exploitPages: 'exploit_pages',
  tunnelPages: 'tunnel_pages',
  discardPages: 'discard_pages',
  rescuedLinks: 'rescued_links',
};

/** A strategy's other counters (a plug-in's own), as summary.csv columns counter_NAME, in name order. */
export function ownCounters(stats: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.keys(stats)
      .filter((k) => !(k in KNOWN_COUNTERS) && Number.isFinite(stats[k]))
      .sort()
      .map((k) => [`counter_${k}`, stats[k]]),
  );
}
