/**
 * The experiment runner: every (seed, department) job runs every strategy of the config; jobs are
 * spread over worker processes (one per core) that pull the next job, preferring the seed whose
 * web they already hold. Results are merged and sorted, so the CSVs do not depend on which worker
 * ran what or when.
 */
import { availableParallelism } from 'node:os';
import { loadConfig } from '../../sim/config.ts';
import { ExperimentConfigError, trains, type ExperimentConfig } from './config.ts';
import { archiveSites, type Caches, checkArchive } from './env.ts';
import { closeSeedState, loadPlugins, runJob } from './run-one.ts';
import type { JobResult, JobTask } from './rows.ts';
import { probeStrategy, StrategyError } from '../strategy-registry.ts';
import { loadKeywords } from '../../crawler/focused/index.ts';
import type { QueueProgress } from '../queue/queue.ts';
import { runInProcesses } from '../pool.ts';
import { jobHeapMb } from '../heap-budget.ts';
import { moduleUrl } from '../../lib/paths.ts';
import { writingInto } from '../family-contract.ts';
import type { ExperimentData, WriteOptions, Written } from './experiment-data.ts';
export type { ExperimentData } from './experiment-data.ts';
import { gitCommit, treeHash } from '../queue/code.ts';
import type { JobMaker } from '../provenance.ts';

export interface RunOptions {
  /** Worker processes; 0 runs in this process. Default: the machine's cores (0 when a strategy is in memory). */
  workers?: number;
  /** Model cache directory (null: no cache). */
  cacheDir?: string | null;
  /** After each (seed, site) job: how many are done, and its runs (one per strategy, the oracle aside). */
  onJobDone?: (done: number, total: number, job: JobDone) => void;
  /** Run the jobs on a BullMQ queue at this Redis URL (experiments/queue/queue.ts) instead of local processes. */
  queue?: string;
  onQueueProgress?: (p: QueueProgress) => void;
  /** Lines for the user from the queue (jobs enqueued again, Redis not answering). */
  onQueueMessage?: (line: string) => void;
  /** How long the queue keeps finished jobs and their results (days; default KEEP_DAYS). */
  queueKeepDays?: number;
  /** How long Redis may not answer before the run stops (s; 0: for ever; default 30: queue/redis-connection.ts waitRedisMs). */
  queueWaitS?: number;
  /** How long no worker may take a job that workers refuse before the run stops (s; default 30). */
  queueRefusedWaitS?: number;
  /**
   * Record the first job's fetch orders and lay its site out for replay.json (the results page);
   * default: the config's `replay`. A sweep's or search's points write no page: the layout alone
   * cost a fifth of a small point's CPU.
   */
  replay?: boolean;
  /**
   * "none": the environments keep no parsed or generated pages between training and crawls, so
   * that each page costs its whole parse and render (npm run bench:scale -- --no-caches); "kept":
   * they keep them. In this process only (workers 0, no queue). Default: as cachesFor(cfg) says.
   */
  caches?: Caches;
}

/** A finished job, for progress lines: each strategy's run on one seed's site. */
export interface JobDone {
  seed: number;
  site: string;
  runs: { strategy: string; ms: number; requests: number; recallAuc: number }[];
}

function jobDone(j: Job, r: JobResult): JobDone {
  const ms = new Map(r.timings.map((t) => [t.strategy, t.ms]));
  return {
    seed: j.seed,
    site: j.site,
    runs: r.summaries
      .filter((s) => s.strategy !== 'oracle')
      .map((s) => ({
        strategy: s.strategy,
        ms: ms.get(s.strategy) ?? 0,
        requests: s.requests,
        recallAuc: s.recall_auc,
      })),
  };
}

interface Job {
  id: number;
  seed: number;
  site: string;
}

export async function runExperiment(cfg: ExperimentConfig, opts: RunOptions = {}): Promise<ExperimentData> {
  const t0 = performance.now();
  const sites = await checkPlan(cfg, opts);
  const jobs: Job[] = [];
  for (const seed of cfg.seeds) for (const site of sites) jobs.push({ id: jobs.length, seed, site });
  const results = await runJobs(cfg, jobs, opts);
  const g = gather(cfg, jobs, results);
  const wallMs = Math.round(performance.now() - t0);
  // the fields in the order they always had (a reader of the JSON sees the same file)
  const { config, curves, summaries, timings, phases, structure, facts, replay, jobs: made } = g;
  return { config, sites, curves, summaries, timings, phases, structure, facts, replay, wallMs, jobs: made };
}

/**
 * The sites the experiment crawls, once everything that would stop it has been checked: its sites
 * exist, its strategies load (a broken one fails before any crawl, exit 2), training has sites to
 * train on, and what runs in this process only is not sent to workers.
 */
async function checkPlan(cfg: ExperimentConfig, opts: RunOptions): Promise<string[]> {
  let sites: string[];
  // the sites a held-out one trains on: an archive's configured sites; a synthetic web's departments
  // (experiments/focused/env.ts), whichever of them the experiment crawls
  let trainingSites: string[];
  if (cfg.archive) {
    await checkArchive(cfg);
    sites = archiveSites(cfg);
    trainingSites = sites;
  } else {
    const web = loadConfig(cfg.web);
    trainingSites = web.departments.map((d) => d.host);
    sites = cfg.sites.length ? cfg.sites : trainingSites;
    for (const s of sites)
      if (!web.departments.some((d) => d.host === s))
        throw new Error(`${cfg.name}: site ${s} is not a department of ${cfg.web}`);
  }
  // strategy modules load here first, so that a broken one fails before any crawl (exit 2)
  try {
    await loadPlugins(cfg);
    const keywords = cfg.keywords ? loadKeywords(cfg.keywords) : loadKeywords();
    for (const name of Object.keys(cfg.strategyParams))
      probeStrategy(name, { seed: cfg.seeds[0], keywords, params: cfg.strategyParams[name].params });
  } catch (e) {
    if (e instanceof StrategyError) throw new ExperimentConfigError(`${cfg.name}: ${e.message}`);
    throw e;
  }
  if (trains(cfg) && trainingSites.length < 2)
    throw new ExperimentConfigError(
      `${cfg.name}: leave-one-site-out training needs at least two sites, got ${trainingSites.join(', ')}`,
    );
  // a strategy given in memory lives in this process: no worker process or queue can build it
  const inMemory = inMemoryStrategies(cfg);
  if (inMemory.length && (opts.queue || (opts.workers ?? 0) > 0))
    throw new ExperimentConfigError(
      `${cfg.name}: ${inMemory.join(', ')} ` +
        `${inMemory.length === 1 ? 'is a strategy' : 'are strategies'} in memory, which ` +
        `${opts.queue ? 'a queue worker' : 'a worker process'} cannot build: run with workers 0 ` +
        `(the default for it), or give it as ` +
        `{ "name", "module": "path/to/strategy.ts" }`,
    );
  return sites;
}

const inMemoryStrategies = (cfg: ExperimentConfig): string[] =>
  cfg.strategies.filter((s) => cfg.strategyParams[s]?.inMemory);

/** Runs every job where the options say (a queue, worker processes, or this process); results by job id. */
async function runJobs(cfg: ExperimentConfig, jobs: Job[], opts: RunOptions): Promise<JobResult[]> {
  const recorded = opts.replay === false || !cfg.replay ? -1 : 0;
  const cacheDir = opts.cacheDir === undefined ? '.cache/models' : opts.cacheDir;
  const inMemory = inMemoryStrategies(cfg).length > 0;
  const workers = inMemory ? 0 : Math.min(opts.workers ?? availableParallelism(), jobs.length);
  // the heap each job process needs for this web, or one line saying what it would need (exit 2);
  // queue workers size their own job processes by the same rule
  const heap = opts.queue ? 0 : jobHeapMb(cfg, workers);
  if (opts.caches !== undefined && (opts.queue || workers > 0))
    throw new ExperimentConfigError(
      `${cfg.name}: caches "${opts.caches}" is a measurement in this process: run with workers 0`,
    );
  const results: JobResult[] = new Array(jobs.length);
  let done = 0;
  const finished = (id: number, r: JobResult): void => {
    results[id] = r;
    opts.onJobDone?.(++done, jobs.length, jobDone(jobs[id], r));
  };
  if (opts.queue) {
    const { jobData, runInQueue, waitRedisMs } = await import('../queue/queue.ts');
    const { codeVersionOf } = await import('../queue/code.ts');
    const code = await codeVersionOf(cfg);
    await runInQueue(
      opts.queue,
      jobs.map((j) => ({ id: j.id, data: jobData(cfg, j.seed, j.site, j.id === recorded, code, opts.queueKeepDays) })),
      finished,
      {
        onProgress: opts.onQueueProgress,
        say: opts.onQueueMessage,
        timeoutMs: waitRedisMs(opts.queueWaitS),
        refusedWaitMs: opts.queueRefusedWaitS === undefined ? undefined : opts.queueRefusedWaitS * 1000,
      },
    );
  } else if (workers <= 0) {
    for (const j of jobs) finished(j.id, await runJob(cfg, j.seed, j.site, cacheDir, j.id === recorded, opts.caches));
    await closeSeedState();
  } else await runInWorkers(cfg, jobs, { n: workers, heapMb: heap }, cacheDir, recorded, finished);
  return results;
}

/** The jobs' results merged into the experiment's data, in an order that does not depend on which finished first. */
function gather(cfg: ExperimentConfig, jobs: Job[], results: JobResult[]): Omit<ExperimentData, 'sites' | 'wallMs'> {
  const sums: Record<string, [number, number]> = {};
  for (const r of results)
    for (const t of r.timings) {
      const s = (sums[t.strategy] ??= [0, 0]);
      s[0] += t.ms;
      s[1]++;
    }
  const timings = Object.fromEntries(Object.entries(sums).map(([k, [ms, n]]) => [k, Math.round(ms / n)]));
  const structure = cfg.seeds.flatMap((seed) => {
    const r = jobs.find((j) => j.seed === seed && results[j.id].structure);
    return r ? [{ seed, stats: results[r.id].structure! }] : [];
  });
  return {
    config: cfg,
    curves: results.flatMap((r) => r.curves).sort(byKeys),
    summaries: results.flatMap((r) => r.summaries).sort(byKeys),
    timings,
    phases: results.flatMap((r) => r.phases ?? []),
    structure,
    facts: results.map((r) => r.facts).sort((a, b) => a.seed - b.seed || a.site.localeCompare(b.site)),
    replay: results[0]?.replay ?? null,
    jobs: jobMakers(cfg, jobs, results),
  };
}

/**
 * Which process computed each job, from which code (provenance.json): a pool process forked after
 * the checkout changed loads the new code, and its numbers are not this run's, so a job whose
 * process loaded other code than this run started with fails the run (issue #89).
 */
function jobMakers(cfg: ExperimentConfig, jobs: readonly Job[], results: readonly JobResult[]): JobMaker[] {
  const other = results.find((r) => r.madeBy?.tree && r.madeBy.tree !== treeHash());
  if (other?.madeBy)
    throw new Error(
      `${cfg.name}: process ${other.madeBy.pid} on ${other.madeBy.host} computed a job with code ` +
        `${other.madeBy.tree} (${other.madeBy.commit ?? 'no commit'}), this run started with ${treeHash()} ` +
        `(${gitCommit() ?? 'no commit'}): the checkout changed while it ran; run it again`,
    );
  return jobs.flatMap((j) => {
    const m = results[j.id].madeBy;
    if (!m) return [];
    // a queue worker: its own pid (as its log and refusals name it) and its job process's
    const pids = m.workerPid === undefined ? { pid: m.pid } : { pid: m.workerPid, jobPid: m.pid };
    return [{ seed: j.seed, site: j.site, host: m.host, ...pids, commit: m.commit ?? null, code: m.tree ?? '' }];
  });
}

/** The order of curve and summary rows: strategy, site, seed, pages. */
export function byKeys(
  a: { strategy: string; site: string; seed: number; pages?: number },
  b: { strategy: string; site: string; seed: number; pages?: number },
): number {
  return (
    a.strategy.localeCompare(b.strategy) ||
    a.site.localeCompare(b.site) ||
    a.seed - b.seed ||
    (a.pages ?? 0) - (b.pages ?? 0)
  );
}

/**
 * The jobs on n worker processes (experiments/pool.ts). A process takes a job of the seed whose
 * web it already holds, else of a seed no process holds, else any: a seed's web is generated,
 * served and turned into training data once per process that needs it.
 */
async function runInWorkers(
  cfg: ExperimentConfig,
  jobs: Job[],
  { n, heapMb }: { n: number; heapMb: number },
  cacheDir: string | null,
  /** The job that records the replay (-1: none). */
  recorded: number,
  onResult: (id: number, r: JobResult) => void,
): Promise<void> {
  const module = moduleUrl(import.meta.url, './run-one').href;
  const seedOf = new Map<number, number>();
  await runInProcesses<JobResult>(
    jobs.map((j) => ({
      module,
      fn: 'runJobTask',
      arg: { cfg, seed: j.seed, site: j.site, cacheDir, record: j.id === recorded } satisfies JobTask,
    })),
    n,
    (i, r) => onResult(jobs[i].id, r),
    {
      choose: (worker, pending) => {
        const held = new Set(seedOf.values());
        let k = pending.findIndex((i) => jobs[i].seed === seedOf.get(worker));
        if (k < 0) k = pending.findIndex((i) => !held.has(jobs[i].seed));
        if (k < 0) k = 0;
        seedOf.set(worker, jobs[pending[k]].seed);
        return k;
      },
      cleanup: { module, fn: 'closeSeedState' },
      heapMb,
    },
  );
}

/**
 * Writes an experiment's results into `dir` as `npm run experiment` does (CSVs, config.json that
 * reruns it, figures, report.md, index.html); `dir/INCOMPLETE` marks the folder until the last file
 * is written, so a run killed midway never leaves a folder that looks complete. The figures' modules
 * load on the first call, not with the library.
 */
export async function writeResults(result: ExperimentData, dir: string, opts: WriteOptions = {}): Promise<Written> {
  const { writeOutputs } = await import('./report.ts');
  return writingInto(dir, () => writeOutputs(result, dir, opts));
}
