/**
 * What one strategy's crawl events count toward its run (experiments/focused/run-one.ts): the
 * fetches the meter sees (until the budget), the response classes and holes summary.csv shows,
 * the fetches in flight when the budget ran out, the replay's order, and when a budget that
 * counts pages (or pays for no hole) stops the crawl.
 */
import type { LogEntry } from '../../crawler/index.ts';
import type { Env } from './env.ts';
import type { RunMeter } from './meter.ts';

/** What the ledger reads of the site's ground truth: its nodes, and where the replay draws each. */
export interface LedgerTruth {
  nodeOf: ReadonlyMap<string, number>;
  /** A node's index in the replay's drawing (-1: not drawn). */
  drawnAs: (node: number) => number;
}

export class CrawlLedger {
  readonly outcomes = { status_2xx: 0, status_3xx: 0, status_4xx: 0, status_5xx: 0, fetch_errors: 0 };
  readonly holes = { hole_fetches: 0, hole_charged: 0 };
  /** in flight when the budget ran out: the server saw them, the run's columns do not count them */
  pastBudget = 0;

  constructor(
    private readonly env: Pick<Env, 'keyOf' | 'itemOf' | 'isHole'>,
    private readonly truth: LedgerTruth,
    private readonly run: RunMeter,
    private readonly budget: number,
    /** with budgetCounts "pages" only 2xx responses count */
    private readonly byPages: boolean,
    /** closed holes: the budget pays for no hole */
    private readonly freeHoles: boolean,
    /** the replay's order of drawn nodes, or null when this run is not replayed */
    private readonly order: number[] | null,
  ) {}

  /** One log entry; `stop` ends the crawl once the budget is spent. */
  log(e: LogEntry, stop: () => void): void {
    const { env, truth, run, budget, byPages, freeHoles, order } = this;
    if (run.count >= budget) {
      this.pastBudget++;
      return;
    }
    const ok = e.status !== null && e.status >= 200 && e.status < 300;
    if (order && ok) {
      const key = env.keyOf(e.url);
      const node = key === null ? undefined : truth.nodeOf.get(key);
      if (node !== undefined && truth.drawnAs(node) >= 0) order.push(truth.drawnAs(node));
    }
    const hole = e.status === 404 && env.isHole(e.url);
    if (hole) this.holes.hole_fetches++;
    if (hole && freeHoles) return;
    if (hole) this.holes.hole_charged++;
    if (e.status === null) this.outcomes.fetch_errors++;
    else this.outcomes[`status_${Math.min(5, Math.max(2, Math.floor(e.status / 100)))}xx` as 'status_2xx']++;
    // with budgetCounts "pages" only 2xx responses count; the run stops at the budget
    if (byPages ? !ok : false) return;
    const key = ok ? env.keyOf(e.url) : null;
    if (run.count < budget && run.fetched(key === null ? null : env.itemOf(key)) >= budget && (byPages || freeHoles))
      stop();
  }
}
