/**
 * The sweep family (experiments/family-contract.ts): a focused-crawling config with a "sweep" grid runs
 * the whole experiment at every point (experiments/sweep/sweep.ts) and writes the sweep's tables.
 */
import { type ExperimentFamily, type FamilyContext, runOptionsOf, withBar } from '../family-contract.ts';
import { configForFile, type ExperimentConfig, resolveExperiment } from '../focused/config.ts';
import { focused, focusedOut } from '../focused/family.ts';

/** A non-empty "sweep" grid, or a "search", in an object. */
const grid = (o: unknown): boolean => {
  const s = (o as { sweep?: unknown } | null)?.sweep;
  const search = (o as { search?: unknown } | null)?.search;
  return (
    (typeof s === 'object' && s !== null && Object.keys(s).length > 0) ||
    (typeof search === 'object' && search !== null)
  );
};

/**
 * A focused config (no "kind") with a grid, in itself or in its "quick" fields. Whether it sweeps
 * is decided on the resolved config (--quick may add or empty the grid); without one it runs as
 * the focused family does.
 */
const mentionsSweep = (raw: unknown): boolean =>
  typeof raw === 'object' &&
  raw !== null &&
  !('kind' in raw) &&
  (grid(raw) || grid((raw as { quick?: unknown }).quick));

export const sweep: ExperimentFamily<ExperimentConfig> = {
  id: 'sweep',
  help: `Configs with a "sweep" grid or a "search" (sweep-structure, adaptive-readings, claims-search: a
focused config's fields) run every point on its own web and write sweep.csv, phase.csv, claims.csv
and report.md (a search: search.csv, claims.csv, report.md); a killed one resumes.`,
  // an empty grid is one focused run, which judges them
  judgesClaims: (cfg) => !cfg.search && !Object.keys(cfg.sweep).length,
  // a sweep's points draw no replay (runSweep turns it off); diagnostics they measure
  flags: ['workers', 'queue', 'no-cache', 'no-diagnostics', 'cpu-prof'],
  claims: mentionsSweep,
  resolve: (raw, base, ctx) =>
    resolveExperiment(raw, base, { quick: ctx.quick, seeds: ctx.seeds, overrides: ctx.overrides }),
  configFile: configForFile,
  outDir: focusedOut,
  description: (cfg) => cfg.description,
  run: (cfg, ctx) =>
    cfg.search
      ? runSearchFamily(cfg, focusedOut(cfg, ctx), ctx)
      : Object.keys(cfg.sweep).length
        ? runSweepFamily(cfg, focusedOut(cfg, ctx), ctx)
        : focused.run(cfg, ctx),
};

async function runSearchFamily(cfg: ExperimentConfig, out: string, ctx: FamilyContext): Promise<string> {
  const { runSearch, writeSearchOutputs } = await import('./search.ts');
  const n = cfg.search!.evaluations;
  ctx.say(
    `search ${cfg.name}: ${n} points x ${cfg.strategies.length} strategies ` +
      `x ${cfg.seeds.length} seeds x departments, ${cfg.budget} pages per run (resumable: ${out}/points/)`,
  );
  const bar = ctx.progress(n, 'search points', '{bar} {value}/{total} {label} {last}');
  const data = await withBar(bar, () =>
    runSearch(cfg, out, {
      ...runOptionsOf(ctx),
      onPoint: (d, _t, resumed) => bar.update(d, { last: resumed ? '(last one resumed)' : '' }),
    }),
  );
  const w = await writeSearchOutputs(data, out);
  const b = data.points.find((p) => p.index === w.best.index)!;
  return [
    `\n${cfg.name}: ${data.points.length} points (${data.computed} ` +
      `computed${data.confirmed ? ', and the confirmation' : ''}), wall time ` +
      `${(data.wallMs / 1000).toFixed(1)} s\n`,
    `closest: point ${b.index} ${JSON.stringify(b.values)}: ${b.held} of ${b.claims.length} claims hold, shortfall ${b.shortfall}\n`,
    ...b.claims.map((c) => `  ${c.verdict.padEnd(4)} ${c.id} ${c.claim}\n       ${c.measured}\n`),
    ...(data.confirmed
      ? [
          `confirmed at fresh web seeds ${cfg.search!.confirm.join(', ')}: ${data.confirmed.held} of ${data.confirmed.claims.length} claims hold, ` +
            `shortfall ${data.confirmed.shortfall}\n`,
          ...data.confirmed.claims.map((c) => `  ${c.verdict.padEnd(4)} ${c.id} ${c.claim}\n`),
        ]
      : []),
    `wrote ${['config.json', ...w.files].map((f) => `${out}/${f}`).join(', ')}\n`,
  ].join('');
}

async function runSweepFamily(cfg: ExperimentConfig, out: string, ctx: FamilyContext): Promise<string> {
  const { gridPoints, runSweep, writeSweepOutputs } = await import('./sweep.ts');
  const points = gridPoints(cfg.sweep).length;
  ctx.say(
    `sweep ${cfg.name}: ${points} points x ${cfg.strategies.length} strategies ` +
      `x ${cfg.seeds.length} seeds x departments, ${cfg.budget} pages per run (resumable: ${out}/points/)`,
  );
  const bar = ctx.progress(points, 'sweep points', '{bar} {value}/{total} {label} {last}');
  const data = await withBar(bar, () =>
    runSweep(cfg, out, {
      ...runOptionsOf(ctx),
      onPoint: (d, _t, resumed) => bar.update(d, { last: resumed ? '(last one resumed)' : '' }),
    }),
  );
  const w = await writeSweepOutputs(data, out);
  return [
    `\n${cfg.name}: ${data.points.length} points (${data.computed} computed), wall time ${(data.wallMs / 1000).toFixed(1)} s\n`,
    ...w.phase.map(
      (p) =>
        `  point ${p.point} ${JSON.stringify(data.points[p.point].values)}: ` +
        `${p.winner}${p.tie ? ' (tie)' : ''} over ${p.runner_up} by ${p.margin.toFixed(3)} ` +
        `[${p.margin_lo.toFixed(3)}, ${p.margin_hi.toFixed(3)}]\n`,
    ),
    `wrote ${['config.json', ...w.files].map((f) => `${out}/${f}`).join(', ')}\n`,
  ].join('');
}
