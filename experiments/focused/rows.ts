/**
 * What a focused experiment's jobs return: the rows of curves.csv and summary.csv, where a job's
 * time went, what a site rests on (ground truth, evaluator only), and a job as a worker process
 * receives it. Types only, but for the oracle's name and the stopwatch the phases are timed with.
 */
import type { StructureStats } from '../../sim/structure.ts';
import type { ExperimentConfig } from './config.ts';
import type { ArchiveShape } from './env.ts';
import type { MetricKey } from './metrics.ts';
import type { ReplayRun } from './page-replay.ts';
import type { LeakScores } from '../env-leak.ts';

/** One checkpoint of one run: its metrics are experiments/focused/metrics.ts CURVE_METRICS. */
export type CurveRow = {
  experiment: string;
  strategy: string;
  site: string;
  seed: number;
  /** The link order (1: the page's own; k > 1: crawl setting linkOrderSeed k). */
  order: number;
  pages: number;
} & Record<MetricKey, number>;
export interface SummaryRow {
  experiment: string;
  strategy: string;
  site: string;
  seed: number;
  order: number;
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
  /** Requests the server saw (its audit), in-flight ones past the budget included. */
  requests: number;
  /**
   * Requests sent after the run's budget was spent (in flight when it ran out): counted here and
   * in `requests` only, so the status columns, like the curves, end at the budget (issue #85).
   */
  past_budget: number;
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
/** Name under which the ground-truth oracle's curves are written (never a crawl strategy). */
export const ORACLE = 'oracle';

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
  /** A crawl's responses not found in the environment's parse cache (parsed by this crawl). */
  parsedAnew?: number;
}

/** Wall and CPU time since it was started. */
export function stopwatch(): () => { ms: number; cpuMs: number } {
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
  /**
   * The process that computed it (provenance; never in a CSV): a local pool's, or a queue worker's
   * job process (`pid`) with its worker's pid, and the tree and commit that process loaded its code from.
   */
  madeBy?: { host: string; pid: number; workerPid?: number; tree?: string; commit?: string | null };
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
  /**
   * The learnt leak probe at this site, trained on the others (experiments/env-leak.ts): how well a
   * learner with no topic finds the target's links from what a crawler sees before fetching them;
   * null with one site.
   */
  leak: LeakScores | null;
  /** The site's spider traps in words, "" for none (env.ts traps; an older result: absent). */
  traps?: string;
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

/** A job as a worker process of experiments/pool.ts receives it. */
export interface JobTask {
  cfg: ExperimentConfig;
  seed: number;
  site: string;
  cacheDir: string | null;
  record: boolean;
}
