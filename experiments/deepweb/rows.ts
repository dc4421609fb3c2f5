/**
 * What a deep-web experiment's steps return and its CSVs hold: coverage curves and summaries,
 * ISIT's templates and the tau sweep, the database-size sweep, each site's shape, ISIT's ranges
 * and input types, the politeness audit and the forms skipped.
 */
import type { TemplateReport } from '../../crawler/deepweb/index.ts';
import type { DeepwebConfig } from './config.ts';

export interface DeepCurveRow {
  site: string;
  method: string;
  seed: number;
  submissions: number;
  coverage: number;
}
export interface DeepSummaryRow {
  site: string;
  method: string;
  seed: number;
  records: number;
  submissions: number;
  surfaced: number;
  coverage: number;
  useful: number;
  empty: number;
  error: number;
  duplicate: number;
  wasted_share: number;
  /** Queries (first result pages) submitted, and how many it took to reach 90% coverage (null: never). */
  queries: number;
  queries_to_90: number | null;
  submissions_to_90: number | null;
  stopped: string;
  detail: string;
}
export interface TemplateRow extends Omit<TemplateReport, 'inputs'> {
  site: string;
  seed: number;
  template: string;
}
export interface TauRow {
  site: string;
  tau: number;
  templates_tested: number;
  templates_chosen: number;
  queries: number;
  submissions: number;
  coverage: number;
}
export interface ScalingRow {
  site: string;
  seed: number;
  records: number;
  method: string;
  generated: number;
  submissions_to_target: number | null;
  coverage_at_budget: number;
  submissions: number;
}
/** What a site is, as the run saw it (first seed): its cap, its page size and its vocabulary (Heaps' law fit). */
export interface SiteRow {
  site: string;
  host: string;
  records: number;
  top_k: number;
  page_size: number;
  distinct_words: number;
  heaps_k: number | null;
  heaps_beta: number | null;
}
/** Range pairs ISIT probed (first seed). */
export interface RangeRow {
  site: string;
  seed: number;
  lo: string;
  hi: string;
  evidence: string;
  values: number;
  confirmed: boolean;
  probe: string;
}
/** Candidate types tried on text inputs without keywords (first seed). */
export interface TypedRow {
  site: string;
  seed: number;
  input: string;
  type: string;
  tested: number;
  distinct: number;
  ratio: number;
  informative: boolean;
  chosen: boolean;
}
export interface AuditRow {
  seed: number;
  host: string;
  requests: number;
  max_concurrent: number;
  min_gap_ms: number;
  disallowed: number;
  sent429: number;
  violations: number;
}
export interface SkippedFormRow {
  seed: number;
  site: string;
  page: string;
  form: number;
  reason: string;
}

export interface DeepwebData {
  config: DeepwebConfig;
  curves: DeepCurveRow[];
  summaries: DeepSummaryRow[];
  templates: TemplateRow[];
  tau: TauRow[];
  scaling: ScalingRow[];
  sites: SiteRow[];
  ranges: RangeRow[];
  typed: TypedRow[];
  audit: AuditRow[];
  skippedForms: SkippedFormRow[];
  wallMs: number;
  /** The command that made the run, as its config.json names it (read back: experiments/deepweb/load.ts). */
  made?: string;
}
