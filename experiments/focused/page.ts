/**
 * The interactive results page, results/<experiment>/index.html: one self-contained file that
 * works offline from file:// (vega, vega-lite and vega-embed inlined from node_modules, the data
 * inlined as JSON). Curves with CI bands or per run, hover values, strategies hidden from the
 * legend; the claims coloured by verdict, each linked to the chart it is about; the summary
 * sortable by column; and a crawl replay: the first run's site laid out once, each strategy's
 * fetched pages drawn up to a slider's page count. The browser code is page-client.js, beside.
 */
import { append } from '../../lib/arrays.ts';
import { FIGURE_METRICS } from './metrics.ts';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { seriesColours, seriesOrder } from '../figures.ts';
import { curvesBands } from './analysis.ts';
import { shipped } from '../../lib/paths.ts';
import type { ReplayView } from './page-replay.ts';

const require = createRequire(import.meta.url);
/** The page's stylesheet and script, shipped as they are (not compiled). */
const here = shipped('experiments/focused');

/** Rows as the CSVs have them (numbers parsed). */
type Row = Record<string, string | number | null>;

export interface PageInput {
  name: string;
  description: string;
  /** Lines that say what the result rests on: the web, the target, the runs. */
  setup: string[];
  strategies: string[];
  every: number;
  budget: number;
  /** aggregates.csv: strategy, pages, recall, recall_lo, recall_hi, ... */
  aggregates: Row[];
  /** curves.csv: strategy, site, seed, pages and the curve metrics. */
  curves: Row[];
  /** summary.csv, one row per run. */
  summaries: Row[];
  claims: { id: string; claim: string; source: string; measured: string; verdict: string }[];
  replay: ReplayView | null;
}

/** Columns of the summary table (per strategy, means over its runs). */
const SUMMARY_COLUMNS = [
  'recall',
  'recall_reachable',
  'recall_auc',
  'precision',
  'pages_per_relevant',
  'requests',
  'fetch_errors',
  'links_scored',
  'discarded',
];
/** The charts: every curve metric that has a figure (experiments/focused/metrics.ts). */
const METRICS = FIGURE_METRICS.map((m) => ({ metric: m.key, title: m.figure.chart }));

/** A package's folder (vega's exports hide package.json): up from its entry point to its package.json. */
function packageDir(pkg: string): string {
  let d = dirname(require.resolve(pkg));
  while (!existsSync(join(d, 'package.json')) || !d.endsWith(pkg)) {
    const up = dirname(d);
    if (up === d) throw new Error(`cannot find the folder of ${pkg}`);
    d = up;
  }
  return d;
}

function libraries(): string {
  const file = (pkg: string, path: string): string => readFileSync(join(packageDir(pkg), path), 'utf8');
  return [
    file('vega', 'build/vega.min.js'),
    file('vega-lite', 'build/vega-lite.min.js'),
    file('vega-embed', 'build/vega-embed.min.js'),
  ]
    .map((js) => `<script>${js.replace(/<\/script/gi, '<\\/script')}</script>`)
    .join('\n');
}

/** JSON safe inside a <script> element. */
const inlineJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');
const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function meanRow(rows: Row[], col: string): number | null {
  const xs = rows.map((r) => r[col]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  return xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000 : null;
}

/**
 * Per-run curve points the page carries at most: the page inlines them for its "every run" view,
 * and a browser draws some 10^5 points at ease; a run of 10^6 rows would make a page of 100 MB
 * (and a string V8 may refuse). Above it every run keeps every k-th point, and the page says so.
 */
export const PAGE_CURVE_POINTS = 200_000;

/** The per-run rows the page draws: every k-th point of each run when there are too many. */
function thinned(curves: readonly Row[], every: number): { rows: Row[]; step: number } {
  const step = Math.ceil(curves.length / PAGE_CURVE_POINTS);
  if (step <= 1) return { rows: [...curves], step: 1 };
  return { rows: curves.filter((r) => Math.round(Number(r.pages) / every) % step === 0), step };
}

export function buildPage(p: PageInput): string {
  const series = seriesOrder(['oracle', ...p.strategies]);
  // bands only over 3 or more units, as in the report's figures (intervals.ts MIN_BAND_UNITS)
  const bands = curvesBands(p.curves.map((r) => ({ seed: Number(r.seed), site: String(r.site) })));
  const keep = (r: Row): boolean => series.includes(String(r.strategy));
  const runs = thinned(p.curves.filter(keep), p.every);
  const L: string[] = [];
  L.push('<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">', `<title>${esc(p.name)}: results</title>`);
  L.push(`<style>${readFileSync(join(here, 'page.css'), 'utf8')}</style>`, '</head><body>');
  L.push(`<h1>${esc(p.name)}</h1>`, `<p class="lead">${esc(p.description)}</p>`);
  L.push(
    '<details open><summary>What this rests on</summary><ul>',
    ...p.setup.map((s) => `<li>${esc(s)}</li>`),
    '</ul></details>',
  );
  append(L, curvesSection(p, bands, runs.step));
  append(L, claimsSection(p.claims));
  append(L, summarySection(p, series));
  if (p.replay) append(L, replaySection(p.replay));
  const data = pageData(p, series, bands.draw, runs.rows, keep);
  L.push(`<script type="application/json" id="data">${inlineJson(data)}</script>`, libraries());
  L.push(`<script>${readFileSync(join(here, 'page-client.js'), 'utf8')}</script>`, '</body></html>');
  return `${L.join('\n')}\n`;
}

/** What the page's script draws from: the series and their colours, the metrics, aggregates, thinned runs, replay. */
function pageData(p: PageInput, series: string[], bands: boolean, rows: Row[], keep: (r: Row) => boolean): unknown {
  const colours = Object.fromEntries(series.map((s, i) => [s, seriesColours(series)[i]]));
  return {
    name: p.name,
    strategies: series,
    colours,
    metrics: METRICS,
    every: p.every,
    budget: p.budget,
    bands,
    aggregates: p.aggregates
      .filter(keep)
      .map((r) =>
        pick(r, ['strategy', 'pages', ...METRICS.flatMap((m) => [m.metric, `${m.metric}_lo`, `${m.metric}_hi`])]),
      ),
    curves: rows.map((r) => ({
      ...pick(r, ['strategy', 'pages', ...METRICS.map((m) => m.metric)]),
      run: `${r.site} seed ${r.seed}`,
    })),
    replay: p.replay,
  };
}

function curvesSection(p: PageInput, bands: { draw: boolean; text: string }, step: number): string[] {
  const L = ['<section><h2>Curves</h2>', '<div class="controls"><span id="legend"></span>'];
  L.push(
    `<label><input type="radio" name="view" value="mean" checked> ${bands.draw ? 'mean with 95% CI' : 'mean'}</label>`,
  );
  L.push('<label><input type="radio" name="view" value="runs"> every run (site x seed)</label></div>');
  if (step > 1)
    L.push(
      `<p class="note">Every run: each ${step}th point (${(step * p.every).toLocaleString('en')} pages ` +
        `apart) of ${p.curves.length.toLocaleString('en')} rows, so that the page stays small; the means use every row ` +
        '(curves.csv has them all).</p>',
    );
  for (const m of METRICS) L.push(`<div class="chart" id="chart-${m.metric}" data-metric="${m.metric}"></div>`);
  if (!bands.draw) L.push(`<p class="note">Bands: ${esc(bands.text)}.</p>`);
  L.push('</section>');
  return L;
}

function claimsSection(claims: PageInput['claims']): string[] {
  const chartOf = (claim: string): string => (/precision/i.test(claim) ? 'precision' : 'recall');
  const L = [
    '<section><h2>Claims</h2><table ' +
      'id="claims"><thead><tr><th></th><th>claim</th><th>source</th><th>measured (paired ' +
      'difference, mean [95% CI])</th><th>verdict</th></tr></thead><tbody>',
  ];
  for (const c of claims) {
    L.push(
      `<tr class="verdict-${esc(c.verdict.replace(/\s+/g, '-'))}"><td><a ` +
        `href="#chart-${chartOf(c.claim)}">${esc(c.id)}</a></td><td>${esc(c.claim)}</td><td>${esc(c.source)}</td><td>${esc(c.measured)}</td><td ` +
        `class="verdict">${esc(c.verdict)}</td></tr>`,
    );
  }
  L.push('</tbody></table></section>');
  return L;
}

/** Each strategy's means over its runs, a sortable table. */
function summarySection(p: PageInput, series: string[]): string[] {
  const summary = series
    .filter((s) => p.summaries.some((r) => r.strategy === s))
    .map((s) => {
      const rows = p.summaries.filter((r) => r.strategy === s);
      return [s, rows.length, ...SUMMARY_COLUMNS.map((c) => meanRow(rows, c))];
    });
  const L = [
    '<section><h2>Summary</h2><p class="note">Means over each strategy\'s runs; click a column to sort.</p><table id="summary" class="sortable"><thead><tr>',
    ['strategy', 'runs', ...SUMMARY_COLUMNS].map((c) => `<th data-col="${c}">${c.replace(/_/g, ' ')}</th>`).join(''),
    '</tr></thead><tbody>',
  ];
  for (const r of summary) L.push(`<tr>${r.map((v) => `<td>${v === null ? '' : esc(String(v))}</td>`).join('')}</tr>`);
  L.push('</tbody></table></section>');
  return L;
}

function replaySection(replay: NonNullable<PageInput['replay']>): string[] {
  return [
    `<section><h2>Crawl replay</h2><p class="note">${esc(replay.site)}, ` +
      `seed ${replay.seed}: ${replay.n} pages laid out by their links (ForceAtlas2), ` +
      `coloured by community; rings are the relevant documents; each panel shows the pages a ` +
      `strategy fetched, in order, up to the slider.</p>`,
    '<div class="controls"><button id="play" type="button">play</button> <input id="slider" ' +
      'type="range" min="0" value="0"> <span id="slider-label"></span></div>',
    '<div id="replay"></div></section>',
  ];
}

function pick(r: Row, cols: string[]): Row {
  const out: Row = {};
  for (const c of cols) if (r[c] !== undefined) out[c] = r[c];
  return out;
}
