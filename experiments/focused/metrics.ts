/**
 * The curve metrics of a focused run, declared once (issue #37 item 2). Each is a column of
 * curves.csv, computed at every checkpoint where meter.ts records a curve row (the one place a
 * new metric needs code besides its entry here); aggregates.csv gives its mean and CI per
 * strategy and checkpoint. A metric with a `figure` also gets fig-KEY (SVG, PNG, PDF), a section
 * of report.md and a chart on the results page; one with `sweepEnd` a KEY_end column (mean and
 * CI at the budget) in a sweep's sweep.csv.
 */
export interface CurveMetric {
  key: string;
  /** What it is, for report.md's list of metrics. */
  help: string;
  /** The figure's axis title and report caption (`every`: pages between checkpoints); null: no figure, no chart. */
  figure: null | { axis: (every: number) => string; caption: (every: number) => string; chart: string };
  /** The sweep reports its value at the budget. */
  sweepEnd: boolean;
}

export const CURVE_METRICS = [
  {
    key: 'recall',
    help: 'relevant fetched / all relevant documents of the site',
    figure: { axis: () => 'recall', caption: () => 'Recall against pages crawled', chart: 'recall' },
    // the sweep reports recall at a quarter, half and all of the budget, and its AUC (experiments/sweep/sweep.ts)
    sweepEnd: false,
  },
  {
    key: 'recall_reachable',
    help: 'relevant fetched / those reachable from the start page inside the scope (ground-truth graph)',
    figure: null,
    sweepEnd: false,
  },
  {
    key: 'precision',
    help: 'relevant / pages so far (the cumulative harvest rate)',
    figure: {
      axis: () => 'precision (cumulative)',
      caption: () => 'Precision (cumulative harvest rate) against pages crawled',
      chart: 'precision (cumulative)',
    },
    sweepEnd: true,
  },
  {
    key: 'harvest',
    help: 'relevant share of the last `every` pages (0 where the crawl had stopped)',
    figure: {
      axis: (every: number) => `harvest (last ${every} pages)`,
      caption: (every: number) => `Harvest rate of the last ${every} pages against pages crawled`,
      chart: 'harvest (last window)',
    },
    sweepEnd: false,
  },
] as const satisfies readonly CurveMetric[];

export type MetricKey = (typeof CURVE_METRICS)[number]['key'];

/** The metrics that have a figure, in order. */
export const FIGURE_METRICS = CURVE_METRICS.filter(
  (m): m is Extract<(typeof CURVE_METRICS)[number], { figure: object }> => m.figure !== null,
);
