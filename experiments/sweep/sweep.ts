/**
 * Sweeps: an experiment config with a "sweep" grid runs the whole experiment (seeds x sites x
 * strategies, in worker processes) at every point of the grid and says, point by point, which
 * strategy wins and by how much, so a reader sees how the ranking moves with the web's structure.
 *
 * - "web.PATH" keys set a field of the web config: each point's web is written to
 *   OUT/webs/pK.json (the base web file with the point's values), so it can be served and
 *   inspected on its own. A swept web.structure.gapMin also sets gapMax to the same value unless
 *   gapMax is swept too (a gap of exactly that length). Other keys set a field of the experiment.
 * - Resumable: each finished point is kept in OUT/points/pK.json with a hash of its config; a
 *   killed sweep run again skips the points it finished.
 * - Outputs: sweep.csv (point x strategy: recall AUC, recall at a quarter, half and all of the
 *   budget, precision at the budget, each with its CI at the seed level), phase.csv (winner,
 *   runner-up, the paired margin in recall AUC and its CI; a CI containing 0 is a tie), and
 *   fig-phase (.svg, .png, .pdf): the grid of the first two parameters (panels for the others,
 *   wrapped into rows), each cell coloured by the winner, lighter the smaller the margin, with the
 *   margin and the runner-up written in it ("=" on ties).
 */
import { CURVE_METRICS, type MetricKey } from '../focused/metrics.ts';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ResultsFolder, WORD_BOOLEANS } from '../results-folder.ts';
import type { ExperimentConfig } from '../focused/config.ts';
import { seriesOrder } from '../figures.ts';
import { label, phaseSpec } from './phase.ts';
import { ORACLE, type CurveRow, type SummaryRow } from '../focused/rows.ts';
import { codeVersionOf } from '../queue/code.ts';
import { byKeys, runExperiment, type RunOptions } from '../focused/runner.ts';
import { strategySettings } from '../strategy-registry.ts';
import { STRATEGY_SETTINGS_SECTIONS } from '../../crawler/index.ts';
import { claimsAcrossPoints } from './claims.ts';
import { ciMethod, pairedCi, unitCi, unitOf } from '../intervals.ts';
import { setPath } from '../../lib/fields.ts';
import { resource } from '../../lib/paths.ts';

export type { Value } from '../search-space.ts';
import type { Value } from '../search-space.ts';
import type { PhaseRow, Point, PointData, SweepData } from './sweep-data.ts';
export type { PhaseRow, Point, PointData, SweepData } from './sweep-data.ts';
interface PointResult {
  key: string;
  values: Record<string, Value>;
  curves: CurveRow[];
  summaries: SummaryRow[];
}

/** Every combination of the grid, the first parameter varying slowest. */
export function gridPoints(sweep: Record<string, Value[]>): Point[] {
  let combos: Record<string, Value>[] = [{}];
  for (const [k, vals] of Object.entries(sweep)) combos = combos.flatMap((c) => vals.map((v) => ({ ...c, [k]: v })));
  return combos.map((values, index) => ({ index, values }));
}

/** The experiment config of one point; its web file is written under dir when web fields are swept. */
function pointConfig(cfg: ExperimentConfig, point: Point, dir: string): ExperimentConfig {
  const c = structuredClone(cfg);
  c.sweep = {};
  const web = Object.entries(point.values).filter(([k]) => k.startsWith('web.'));
  for (const [k, v] of Object.entries(point.values))
    if (!k.startsWith('web.')) setPath(c as unknown as Record<string, unknown>, k, v);
  if (web.length) {
    const raw = JSON.parse(readFileSync(resource(cfg.web), 'utf8')) as Record<string, unknown>;
    for (const [k, v] of web) setPath(raw, k.slice(4), v);
    if ('web.structure.gapMin' in point.values && !('web.structure.gapMax' in point.values))
      setPath(raw, 'structure.gapMax', point.values['web.structure.gapMin']);
    raw.name = `${String(raw.name ?? 'web')}-p${point.index}`;
    raw._doc = `${cfg.web} at sweep point ${point.index} of ${cfg.name}: ${JSON.stringify(point.values)}`;
    mkdirSync(join(dir, 'webs'), { recursive: true });
    c.web = join(dir, 'webs', `p${point.index}.json`);
    writeFileSync(c.web, `${JSON.stringify(raw, null, 2)}\n`);
  }
  return c;
}

export interface SweepRow {
  point: number;
  [param: string]: Value;
}

type Rows = { curves: CurveRow[]; summaries: SummaryRow[] };

/**
 * A strategy's runs at a sweep point are those of any other point whose values differ only in
 * settings sections the strategy does not read (experiments/strategy-registry.ts strategySettings): the
 * readings of the adaptive crawler change none of immediate's runs, so a multiverse of 48 readings
 * runs immediate once. The first point to need a strategy's runs computes them; a point that needs
 * runs another point is computing waits for them after computing its own. The oracle reads no
 * strategy's settings. With reuse off, every point runs every strategy (the test compares both).
 */
export class RunReuse {
  private readonly memo = new Map<string, Promise<Rows>>();
  constructor(private readonly on: boolean) {}

  /** The key of a strategy's runs at a point: the point's values it can depend on. */
  private keyOf(p: Point, strategy: string): string {
    const reads = strategy === ORACLE ? [] : strategySettings(strategy);
    const values = Object.entries(p.values).filter(([k]) => {
      const section = k.split('.')[0];
      return (
        reads === null ||
        !(STRATEGY_SETTINGS_SECTIONS as readonly string[]).includes(section) ||
        reads.includes(section)
      );
    });
    return JSON.stringify([strategy, values]);
  }

  /** A finished point's rows (found on disk), offered to the points still to run. */
  offer(p: Point, strategies: readonly string[], rows: Rows): void {
    if (!this.on) return;
    for (const s of strategies) {
      const k = this.keyOf(p, s);
      if (!this.memo.has(k)) this.memo.set(k, Promise.resolve(only(rows, s)));
    }
  }

  /** A point's rows: its own strategies' runs computed by `run`, the others' taken from the points that computed them. */
  async point(p: Point, pc: ExperimentConfig, run: (c: ExperimentConfig) => Promise<Rows>): Promise<Rows> {
    if (!this.on) return run(pc);
    const all = [...pc.strategies, ORACLE];
    const mine: string[] = [];
    const theirs: Promise<Rows>[] = [];
    const settle = new Map<string, { resolve: (r: Rows) => void; reject: (e: unknown) => void }>();
    for (const s of all) {
      const k = this.keyOf(p, s);
      const known = this.memo.get(k);
      if (known) theirs.push(known);
      else {
        mine.push(s);
        const promise = new Promise<Rows>((resolve, reject) => settle.set(s, { resolve, reject }));
        // a point that fails fails its own run; a point waiting on it fails with it, not unhandled
        promise.catch(() => {});
        this.memo.set(k, promise);
      }
    }
    const strategies = mine.filter((s) => s !== ORACLE);
    let own: Rows = { curves: [], summaries: [] };
    if (mine.length) {
      try {
        // the oracle comes with any run; a point whose strategies were all computed elsewhere but
        // not its oracle (impossible: the oracle reads what every strategy reads) runs the first
        own = await run({ ...pc, strategies: strategies.length ? strategies : [pc.strategies[0]] });
      } catch (e) {
        for (const s of mine) settle.get(s)!.reject(e);
        throw e;
      }
      for (const s of mine) settle.get(s)!.resolve(only(own, s));
    }
    const parts = [...mine.map((s) => only(own, s)), ...(await Promise.all(theirs))];
    return {
      curves: parts.flatMap((x) => x.curves).sort(byKeys),
      summaries: parts.flatMap((x) => x.summaries).sort(byKeys),
    };
  }
}

/** The rows of one strategy. */
const only = (r: Rows, strategy: string): Rows => ({
  curves: r.curves.filter((x) => x.strategy === strategy),
  summaries: r.summaries.filter((x) => x.strategy === strategy),
});

export type SweepOptions = RunOptions & {
  onPoint?: (done: number, total: number, resumed: boolean) => void;
  /** Reuse a strategy's runs between points that differ only in settings it does not read (default true). */
  reuse?: boolean;
};

/**
 * Runs points of one config, each once: a point finished before (OUT/points/pK.json with the same
 * key) is read back. The grid sweep and the search (experiments/sweep/search.ts) both run their
 * points through it, so both resume the same way.
 */
export class PointRunner {
  computed = 0;
  private readonly runs: RunReuse;
  constructor(
    private readonly cfg: ExperimentConfig,
    private readonly dir: string,
    reuse: boolean,
  ) {
    this.runs = new RunReuse(reuse);
    mkdirSync(join(dir, 'points'), { recursive: true });
  }

  /** A point's runs, computed with runOpts or found done; `resumed` says which. */
  async run(p: Point, runOpts: RunOptions): Promise<{ data: PointData; resumed: boolean }> {
    const pc = pointConfig(this.cfg, p, this.dir);
    // what the point computes from: its config without comments ("_" keys: a reworded _doc would
    // run a finished multiverse of 48 points again), its web's file when the point has one, and the
    // harness's code and the files the config names (an archive rebuilt, a crawler changed: a
    // folder's finished points from other code were once resumed as if they were this code's)
    const uncommented = Object.fromEntries(Object.entries(pc).filter(([k]) => !k.startsWith('_')));
    const { tree, files } = await codeVersionOf(pc);
    const key = createHash('sha256')
      .update(
        JSON.stringify({
          ...uncommented,
          web: pc.web === this.cfg.web ? pc.web : readFileSync(resource(pc.web), 'utf8'),
          code: { tree, files },
        }),
      )
      .digest('hex')
      .slice(0, 16);
    const file = join(this.dir, 'points', `p${p.index}.json`);
    let r: PointResult | null = null;
    if (existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as PointResult;
      if (saved.key === key) r = saved;
    }
    const resumed = r !== null;
    if (r) this.runs.offer(p, [...pc.strategies, ORACLE], r);
    else {
      const rows = await this.runs.point(p, pc, (c) => runExperiment(c, { ...runOpts, replay: false }));
      r = { key, values: p.values, ...rows };
      writeFileSync(file, JSON.stringify(r));
      this.computed++;
    }
    return { data: { ...p, curves: r.curves, summaries: r.summaries }, resumed };
  }
}

/**
 * Runs points side by side: on a queue every point's jobs are enqueued at once, so the workers
 * never wait for a point to be merged. Locally, as many points as there are worker processes, each
 * on its share of them: one point on every core left a core idle while each point's last jobs ran
 * and its workers started. Results come back in the points' order, so the CSVs are the same.
 */
export async function runPoints(
  runner: PointRunner,
  points: readonly Point[],
  opts: SweepOptions,
  onDone?: (resumed: boolean) => void,
): Promise<PointData[]> {
  const out: PointData[] = new Array(points.length);
  const one = async (i: number, runOpts: RunOptions): Promise<void> => {
    const r = await runner.run(points[i], runOpts);
    out[i] = r.data;
    onDone?.(r.resumed);
  };
  if (opts.queue) await Promise.all(points.map((_, i) => one(i, opts)));
  else {
    const workers = opts.workers ?? availableParallelism();
    if (workers <= 0) for (let i = 0; i < points.length; i++) await one(i, opts);
    else {
      const side = Math.min(workers, points.length);
      const each = { ...opts, workers: Math.max(1, Math.floor(workers / side)) };
      let next = 0;
      await Promise.all(
        Array.from({ length: side }, async () => {
          for (let i = next++; i < points.length; i = next++) await one(i, each);
        }),
      );
    }
  }
  return out;
}

export { wilson } from '../intervals.ts';

/** Runs (or resumes) a sweep; onPoint is called after each point is computed or found done. */
export async function runSweep(cfg: ExperimentConfig, dir: string, opts: SweepOptions = {}): Promise<SweepData> {
  const t0 = performance.now();
  const points = gridPoints(cfg.sweep);
  const runner = new PointRunner(cfg, dir, opts.reuse ?? true);
  let finished = 0;
  const out = await runPoints(runner, points, opts, (resumed) => opts.onPoint?.(++finished, points.length, resumed));
  return { config: cfg, points: out, computed: runner.computed, wallMs: Math.round(performance.now() - t0) };
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** sweep.csv rows and phase.csv rows from a sweep's runs. */
function sweepTables(d: SweepData): { rows: SweepRow[]; phase: PhaseRow[] } {
  const cfg = d.config;
  const rows: SweepRow[] = [];
  const phase: PhaseRow[] = [];
  const at = (p: SweepData['points'][number], s: string, pages: number): CurveRow[] =>
    p.curves.filter((c) => c.strategy === s && c.pages === pages);
  const near = (frac: number): number => Math.max(cfg.every, Math.round((frac * cfg.budget) / cfg.every) * cfg.every);
  for (const p of d.points) {
    const unit = unitOf(p.summaries);
    const strategies = seriesOrder(p.summaries.map((s) => s.strategy));
    const ranked: { s: string; auc: number }[] = [];
    for (const s of strategies) {
      const runs = p.summaries.filter((x) => x.strategy === s);
      const auc = unitCi(runs, (r) => r.recall_auc, unit);
      const ci = (xs: CurveRow[], k: MetricKey): [number, number, number] => {
        const m = unitCi(xs, (r) => r[k], unit);
        return [r4(m.mean), r4(m.lo), r4(m.hi)];
      };
      const [q, ql, qh] = ci(at(p, s, near(0.25)), 'recall');
      const [h, hl, hh] = ci(at(p, s, near(0.5)), 'recall');
      const [e, el, eh] = ci(at(p, s, cfg.budget), 'recall');
      rows.push({
        point: p.index,
        ...p.values,
        strategy: s,
        units: auc.n,
        recall_auc: r4(auc.mean),
        recall_auc_lo: r4(auc.lo),
        recall_auc_hi: r4(auc.hi),
        recall_quarter: q,
        recall_quarter_lo: ql,
        recall_quarter_hi: qh,
        recall_half: h,
        recall_half_lo: hl,
        recall_half_hi: hh,
        recall_end: e,
        recall_end_lo: el,
        recall_end_hi: eh,
        // every curve metric the sweep reports at the budget (experiments/focused/metrics.ts)
        ...Object.fromEntries(
          CURVE_METRICS.filter((m) => m.sweepEnd).flatMap((m) => {
            const [v, lo, hi] = ci(at(p, s, cfg.budget), m.key);
            return [
              [`${m.key}_end`, v],
              [`${m.key}_end_lo`, lo],
              [`${m.key}_end_hi`, hi],
            ];
          }),
        ),
      });
      if (s !== ORACLE) ranked.push({ s, auc: auc.mean });
    }
    ranked.sort((a, b) => b.auc - a.auc || a.s.localeCompare(b.s));
    const [w, r] = ranked;
    const m = r
      ? pairedCi(
          p.summaries.filter((x) => x.strategy === w.s),
          p.summaries.filter((x) => x.strategy === r.s),
          (x) => x.recall_auc,
          unit,
        )
      : { mean: 0, lo: 0, hi: 0, n: 0 };
    phase.push({
      point: p.index,
      ...p.values,
      winner: w.s,
      runner_up: r?.s ?? '',
      margin: r4(m.mean),
      margin_lo: r4(m.lo),
      margin_hi: r4(m.hi),
      tie: !(m.lo > 0),
    });
  }
  return { rows, phase };
}

/** Writes sweep.csv, phase.csv, fig-phase and report.md. */
export async function writeSweepOutputs(d: SweepData, dir: string): Promise<{ files: string[]; phase: PhaseRow[] }> {
  const out = new ResultsFolder(dir);
  const { rows, phase } = sweepTables(d);
  const params = Object.keys(d.config.sweep);
  out.csv('sweep.csv', rows);
  out.csv('phase.csv', phase, {
    columns: ['point', ...params, 'winner', 'runner_up', 'margin', 'margin_lo', 'margin_hi', 'tie'],
    cast: WORD_BOOLEANS,
  });
  await out.figure('fig-phase', phaseSpec(phase, params), params.length > 2 ? 2 : 1);
  const cfg = d.config;
  const runs = d.points[0]?.summaries ?? [];
  const method = ciMethod(
    unitOf(runs),
    new Set(runs.map((r) => (unitOf(runs) === 'seed' ? String(r.seed) : r.site))).size,
  );
  const L = [
    `# ${cfg.name}: ${cfg.description || 'sweep'}`,
    '',
    `Base web \`${cfg.web}\`, seeds ${cfg.seeds.join(', ')}, strategies ` +
      `${cfg.strategies.join(', ')}, ${cfg.budget} pages per run; ${d.points.length} points ` +
      `(${params.map((k) => `${label(k)} in ${cfg.sweep[k].join(', ')}`).join('; ')}). Winner: ` +
      `the highest mean recall AUC; margin: its paired difference to the ` +
      `runner-up (${method}); a margin whose CI contains 0 is a tie (=).`,
    '',
    '![phase](fig-phase.png)',
    '',
    `*Which strategy wins where: cells by ` +
      `${params.slice(0, 2).map(label).join(' and ')}${params.length > 2 ? `, panels by ${params.slice(2).map(label).join(', ')}` : ''}; ` +
      `colour = winner, lighter = smaller margin; in each cell the margin in recall AUC ` +
      `over the runner-up, named below it ("=": a tie). Also .svg and .pdf.*`,
    '',
    `| point | ${params.map(label).join(' | ')} | winner | runner-up | margin in recall AUC [95% CI] |`,
    `|${'---|'.repeat(params.length + 4)}`,
    ...phase.map(
      (p) =>
        `| ${p.point} | ${params.map((k) => String(p[k])).join(' | ')} | ` +
        `${p.tie ? `${p.winner} (tie)` : `**${p.winner}**`} | ${p.runner_up} | ${p.margin.toFixed(3)} ` +
        `[${p.margin_lo.toFixed(3)}, ${p.margin_hi.toFixed(3)}] |`,
    ),
    '',
    `Points computed in this run: ${d.computed} of ${d.points.length} (the rest resumed from points/). Wall time ${(d.wallMs / 1000).toFixed(1)} s.`,
    '',
    ...tunnelling(d.points),
  ];
  // the paper's claims at every point: a multiverse when the points are readings of the paper
  const claims = claimsAcrossPoints(d);
  if (claims.rows.length) {
    out.csv('claims.csv', claims.rows, { columns: ['point', ...params, 'claim', 'verdict', 'margin'] });
    L.push(
      "## The paper's claims at every point",
      '',
      `Each claim judged at each of the ${d.points.length} points as a focused experiment ` +
        `judges it (paired CIs over ${unitOf(runs) === 'seed' ? 'seeds' : 'sites'}); the share of ` +
        `points where it holds (PASS), with a Wilson 95% interval over the ` +
        `points (claims.csv has every verdict). When the points are readings of what the paper ` +
        `leaves open, the share is how much the claim depends on the reading.`,
      '',
      '| claim | PASS | FAIL | TIE | NO DATA | INFEASIBLE | holds at (share [95% CI]) |',
      '|---|---|---|---|---|---|---|',
      ...claims.table.map(
        (c) =>
          `| ${c.id} ${c.claim} | ${c.counts.PASS} | ${c.counts.FAIL} | ${c.counts.TIE} | ` +
          `${c.counts['NO DATA']} | ${c.counts.INFEASIBLE} | ${c.share.toFixed(2)} ` +
          `[${c.lo.toFixed(2)}, ${c.hi.toFixed(2)}] |`,
      ),
      '',
    );
  }
  out.report(L.join('\n'));
  return { files: out.files, phase };
}

/**
 * What the adaptive crawler's tunnelling did across the points (its counters, when it ran): pages
 * fetched through a tunnelling link per run, and the runs whose r2 was above every Q they could
 * reach (there it could not tunnel, and what the point shows of tunnelling is the threshold).
 */
function tunnelling(points: readonly { index: number; summaries: readonly SummaryRow[] }[]): string[] {
  const per = points
    .map((p) => ({ p: p.index, runs: p.summaries.filter((x) => x.counter_tunnelFetched !== undefined) }))
    .filter((x) => x.runs.length);
  if (!per.length) return [];
  const means = per.map((x) => x.runs.reduce((t, r) => t + (r.counter_tunnelFetched ?? 0), 0) / x.runs.length);
  const stuck = per
    .map((x) => ({ p: x.p, n: x.runs.filter((r) => (r.counter_r2AboveReach ?? 0) > 0).length, of: x.runs.length }))
    .filter((x) => x.n > 0);
  return [
    `Adaptive's tunnelling: ${Math.min(...means).toFixed(1)} to ${Math.max(...means).toFixed(1)} pages per run ` +
      'fetched through a tunnelling link (mean per point). ' +
      (stuck.length
        ? `Warning: r2 was above every Q the run could reach in ${stuck.map((x) => `${x.n} of ${x.of} runs at point ${x.p}`).join(', ')}: ` +
          'there it could not tunnel but from the start page, and what those points show of tunnelling is the threshold.'
        : 'In no run was r2 above every Q it could reach.'),
    '',
  ];
}
