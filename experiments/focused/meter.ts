/**
 * One run counted against ground truth: its checkpoints (curves.csv), its summary's measures, its
 * recall AUC, and the strategy's own counters as summary.csv columns.
 */
import type { ExperimentConfig } from './config.ts';
import type { CurveRow, SummaryRow } from './rows.ts';

/** Six decimals: the precision of every measure in the CSVs. */
export const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

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
export class RunMeter {
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
    private readonly order = 1,
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
      order: this.order,
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
    | 'order'
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
      order: this.order,
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
