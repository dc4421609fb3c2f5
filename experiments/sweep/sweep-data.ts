/**
 * What a sweep computes, as its parts pass it on: a point of the grid, its runs, the sweep's
 * points together, and a row of its phase table (sweep.ts runs them; claims.ts and phase.ts read
 * them). Types of their own, so that those three modules import them without importing each other.
 */
import type { ExperimentConfig } from '../focused/config.ts';
import type { CurveRow, SummaryRow } from '../focused/rows.ts';
import type { Value } from '../search-space.ts';

/** A point of a sweep's grid: its index and the value of each swept field. */
export interface Point {
  index: number;
  values: Record<string, Value>;
}

/** A point with its runs: the curve and summary rows of every strategy there. */
export type PointData = Point & { curves: CurveRow[]; summaries: SummaryRow[] };

/** A sweep's points with their runs, how many were computed (not resumed), and its wall time. */
export interface SweepData {
  config: ExperimentConfig;
  points: PointData[];
  computed: number;
  wallMs: number;
}

/** A row of phase.csv: a point's winner by recall AUC, the runner-up and the margin between them. */
export interface PhaseRow {
  point: number;
  winner: string;
  runner_up: string;
  margin: number;
  margin_lo: number;
  margin_hi: number;
  tie: boolean;
  [param: string]: Value;
}
