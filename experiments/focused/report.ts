/**
 * Writes a focused experiment's outputs to results/<experiment>/: curves.csv, summary.csv,
 * aggregates.csv, differences.csv, config.json (itself a valid config that reruns the experiment),
 * fig-recall, fig-precision, fig-harvest and fig-difference (.svg, .png, .pdf), report.md, and the
 * interactive index.html (with replay.json, the first run's crawl order and layout).
 * Everything except report.md's timing line is a pure function of the config, so two runs give
 * byte-identical CSVs.
 */
import { readTextFile } from '../../lib/input.ts';
import { type Provenance, provenanceLine, readProvenance } from '../provenance.ts';
import { moduleHashes } from '../queue/code.ts';
import { CURVE_METRICS, FIGURE_METRICS } from './metrics.ts';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { aggregate, checkClaims, type Claim, curvesBands, differences } from './analysis.ts';
import { configForFile, type ExperimentConfig, loadExperiment, relevanceOf, targetOf } from './config.ts';
import { curveSpec } from '../figures.ts';
import { JSON_OBJECTS, ResultsFolder } from '../results-folder.ts';
import { buildPage, type PageInput } from './page.ts';
import { layoutReplay, type ReplayView } from './page-replay.ts';
import { reportMarkdown } from './report-md.ts';
import { factRow } from './report-setup.ts';
import type { CurveRow } from './rows.ts';
import type { ExperimentData, WriteOptions, Written } from './experiment-data.ts';

const CURVE_COLUMNS = ['experiment', 'strategy', 'site', 'seed', 'order', 'pages', ...CURVE_METRICS.map((m) => m.key)];

/** The strategy every other is compared with in the difference figure. */
function referenceOf(cfg: ExperimentConfig): string {
  return cfg.strategies.includes(cfg.reference) ? cfg.reference : cfg.strategies[0];
}

export async function writeOutputs(d: ExperimentData, dir: string, opts: WriteOptions = {}): Promise<Written> {
  const out = new ResultsFolder(dir);
  const { put } = out;
  const csv = (name: string, rows: readonly object[], columns?: readonly string[]): void =>
    out.csv(name, rows, { columns, cast: JSON_OBJECTS });
  const cfg = d.config;
  csv('curves.csv', d.curves, CURVE_COLUMNS);
  csv('summary.csv', d.summaries);
  if (d.facts.length) csv('sites.csv', d.facts.map(factRow));
  const aggs = aggregate(d.curves);
  csv('aggregates.csv', aggs);
  const reference = referenceOf(cfg);
  const diffs = differences(d.curves, reference);
  csv('differences.csv', diffs);
  const rerun = opts.rerun ?? `npm run experiment -- ${cfg.name}`;
  out.config({ ...configForFile(cfg), sites: cfg.archive ? cfg.sites : d.sites }, rerun);
  out.recordRun({ modules: await moduleHashes(cfg), jobs: d.jobs });
  const bands = curvesBands(d.curves).draw;
  // a figure or the page that cannot be made costs the run its report no more: the report says
  // which was not written and why (an hour's crawl once ended with none)
  const missing = new Map<string, string>();
  const attempt = async (name: string, make: () => Promise<unknown> | unknown): Promise<void> => {
    try {
      await make();
    } catch (e) {
      missing.set(name, (e as Error).message.split('\n')[0]);
    }
  };
  for (const m of FIGURE_METRICS)
    await attempt(`fig-${m.key}`, () =>
      out.figure(`fig-${m.key}`, curveSpec(aggs, m.key, { y: m.figure.axis(cfg.every), bands })),
    );
  if (diffs.length) {
    const spec = curveSpec(diffs, 'diff', { y: `recall minus ${reference}`, yDomain: null, zero: true, bands });
    await attempt('fig-difference', () => out.figure('fig-difference', spec));
  }
  const claims = checkClaims(d.curves, cfg.budget, cfg.every, cfg.earlyPhase);
  let replay: ReplayView | null = null;
  await attempt('replay.json', () => {
    replay = d.replay ? layoutReplay(d.replay) : null;
    if (replay) put('replay.json', `${JSON.stringify(replay)}\n`);
  });
  let page: string | null = null;
  await attempt('index.html', () => {
    page = buildPage(pageInput(cfg, d.sites, aggs, d.curves, d.summaries, claims, replay, readProvenance(dir)));
  });
  out.report(reportMarkdown(d, aggs, claims, reference, rerun, dir, missing));
  if (page !== null) put('index.html', page);
  return { dir, files: out.files, claims, aggregates: aggs };
}

/** What the results page shows, from the experiment's rows (also rebuilt from the CSVs: npm run report). */
export function pageInput(
  cfg: ExperimentConfig,
  sites: readonly string[],
  aggregates: readonly object[],
  curves: readonly object[],
  summaries: readonly object[],
  claims: Claim[],
  replay: ReplayView | null,
  made: Provenance | null = null,
): PageInput {
  const web = cfg.archive
    ? `archive ${cfg.archive.warc.join(', ')} (labels ${cfg.archive.labels})`
    : `${cfg.web}, seeds ${cfg.seeds.join(', ')}`;
  const setup = [
    `Web: ${web}; sites crawled: ${sites.join(', ')}. ` +
      (cfg.archive || cfg.diagnostics
        ? `Its structure: the "web's structure" table of report.md.`
        : 'Its structure: not measured (diagnostics off: --no-diagnostics).'),
    `Target: ${targetOf(cfg)}; the crawler's relevance judgement: ${relevanceOf(cfg)}.`,
    `Budget: ${cfg.budget} ${cfg.budgetCounts === 'pages' ? '2xx pages' : 'requests'} per ` +
      `run, measured every ${cfg.every}; deterministic crawls; the oracle is ` +
      `ground truth's greedy order (evaluator only).`,
    ...(cfg.replay ? [] : ['No crawl replay: replay off (--no-replay).']),
    ...(made ? [`Made by: ${provenanceLine(made)}.`] : []),
  ];
  return {
    name: cfg.name,
    description: cfg.description,
    setup,
    strategies: cfg.strategies,
    every: cfg.every,
    budget: cfg.budget,
    aggregates: aggregates as PageInput['aggregates'],
    curves: curves as PageInput['curves'],
    summaries: summaries as PageInput['summaries'],
    claims,
    replay,
  };
}

/**
 * Writes DIR/index.html again from a focused experiment's outputs (config.json, curves.csv,
 * aggregates.csv, summary.csv, replay.json when recorded), e.g. after a change to the page; the
 * claims are decided again from the curves, as the experiment decided them. Returns the file.
 */
export async function rewritePage(dir: string): Promise<string> {
  const cfg = loadExperiment(join(dir, 'config.json'));
  /** CSV rows with numbers as numbers and empty cells as null. */
  const rows = (file: string): Record<string, string | number | null>[] =>
    (parseCsv(readTextFile(join(dir, file)), { columns: true }) as Record<string, string>[]).map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : v]),
      ),
    );
  const curves = rows('curves.csv');
  const claims = checkClaims(curves as unknown as CurveRow[], cfg.budget, cfg.every, cfg.earlyPhase);
  const replay = existsSync(join(dir, 'replay.json'))
    ? (JSON.parse(readTextFile(join(dir, 'replay.json'))) as ReplayView)
    : null;
  const sites = [...new Set(curves.map((c) => String(c.site)))];
  writeFileSync(
    join(dir, 'index.html'),
    buildPage(
      pageInput(cfg, sites, rows('aggregates.csv'), curves, rows('summary.csv'), claims, replay, readProvenance(dir)),
    ),
  );
  return 'index.html';
}
