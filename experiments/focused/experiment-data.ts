/**
 * What a focused experiment's run gives (runner.ts runExperiment) and what writing it out gives
 * (report.ts writeOutputs): the types the runner and the report pass between them, in a module of
 * their own so that neither imports the other for them.
 */
import type { StructureStats } from '../../sim/structure.ts';
import type { JobMaker } from '../provenance.ts';
import type { Aggregate, Claim } from './analysis.ts';
import type { ExperimentConfig } from './config.ts';
import type { ReplayRun } from './page-replay.ts';
import type { CurveRow, PhaseTime, SiteFacts, SummaryRow } from './rows.ts';

/** A run's rows and what they rest on, before anything is written. */
export interface ExperimentData {
  config: ExperimentConfig;
  sites: string[];
  curves: CurveRow[];
  summaries: SummaryRow[];
  /** Mean wall ms per strategy run (for the report; never in the CSVs). */
  timings: Record<string, number>;
  /** Where every job's time went (rows.ts PhaseTime; npm run bench:scale; never in the CSVs). */
  phases?: PhaseTime[];
  /** Structural diagnostics of each seed's synthetic web (none for an archive). */
  structure: { seed: number; stats: StructureStats }[];
  /** What each (seed, site) rests on: graph, target depth, archive holes, the judgement's quality. */
  facts: SiteFacts[];
  /** The crawl order of every strategy in the first run (first seed, first site), for the results page. */
  replay: ReplayRun | null;
  wallMs: number;
  /** Which process computed each (seed, site) (provenance.json; never in the CSVs). */
  jobs?: JobMaker[];
}

export interface WriteOptions {
  /** The command that reruns this experiment (default: by name). */
  rerun?: string;
}

/** What writeOutputs wrote: the folder, its files, the claims' verdicts and the aggregates. */
export interface Written {
  dir: string;
  files: string[];
  claims: Claim[];
  aggregates: Aggregate[];
}
