/**
 * Experiment families, one contract (issue #37 item 2): a family recognises its configs,
 * resolves and validates them, and runs one (the runs, the outputs, the lines printed).
 * `npm run experiment` dispatches by this registry (experiments/cli/experiment.ts), so a new
 * family is its module and one entry in FAMILIES; the first family whose claims() accepts a
 * config takes it, the focused family (the default) last.
 */
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type ExperimentConfig, loadExperiment } from './config.ts';
import { type DeepwebConfig, isDeepwebConfig, resolveDeepweb } from './deepweb/config.ts';
import { type DistributedConfig, isDistributedConfig, resolveDistributed } from './distributed/config.ts';
import type { QueueProgress } from './queue.ts';

export interface ProgressBar {
  update(done: number, payload?: Record<string, unknown>): void;
  setTotal(total: number): void;
  stop(): void;
}

export interface FamilyContext {
  /** The name the experiment was asked by (a config name or path). */
  asked: string;
  out: string | undefined;
  quick: boolean;
  seeds: number | undefined;
  workers: number | undefined;
  queue: string | undefined;
  cacheDir: string | null;
  progress(total: number, unit: string, format: string): ProgressBar;
  onQueueProgress?: (p: QueueProgress) => void;
  /** Where the family tells what it is about to do (stderr). */
  say(line: string): void;
}

export interface ExperimentFamily<C = unknown> {
  id: string;
  claims(raw: unknown): boolean;
  /** The resolved config; an ExperimentConfigError names what is wrong. */
  resolve(raw: Record<string, unknown>, base: string, ctx: Pick<FamilyContext, 'asked' | 'quick' | 'seeds'>): C;
  description(cfg: C): string;
  /** Runs it and writes its outputs; returns what `npm run experiment` prints. Throws on failure. */
  run(cfg: C, ctx: FamilyContext): Promise<string>;
}

const defaultOut = (name: string, ctx: Pick<FamilyContext, 'out' | 'quick'>): string =>
  ctx.out ?? `results/${name}${ctx.quick ? '-quick' : ''}`;

/** Runs `work` with a progress bar that is stopped whatever happens. */
async function withBar<T>(bar: ProgressBar, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    bar.stop();
  }
}

const distributed: ExperimentFamily<DistributedConfig> = {
  id: 'distributed',
  claims: (raw) => isDistributedConfig(raw),
  resolve: (raw, base, ctx) => resolveDistributed(raw, base, { quick: ctx.quick, seeds: ctx.seeds }),
  description: (cfg) => cfg.description,
  async run(cfg, ctx) {
    const out = defaultOut(cfg.name, ctx);
    ctx.say(
      `experiment ${cfg.name}: assignments ${cfg.assignments.join(', ')} and ${cfg.scaling.join(', ')} processes x ${cfg.seeds.length} seeds, ${cfg.budget} pages per run`,
    );
    const { runDistributedExperiment, writeDistributedOutputs } = await import('./distributed/experiment.ts');
    const runs = cfg.seeds.length * (cfg.assignments.length + cfg.scaling.length);
    const bar = ctx.progress(runs, 'runs', '{bar} {value}/{total} {label}');
    const data = await withBar(bar, () => runDistributedExperiment(cfg, (d, _t, label) => bar.update(d, { label })));
    const w = await writeDistributedOutputs(data, out);
    return `\n${cfg.name}: ${data.runs.length} runs, wall time ${(data.wallMs / 1000).toFixed(1)} s\n${w.lines.map((l) => `  ${l}`).join('\n')}\nwrote ${w.files.map((f) => `${out}/${f}`).join(', ')}\n`;
  },
};

const deepweb: ExperimentFamily<DeepwebConfig> = {
  id: 'deepweb',
  claims: (raw) => isDeepwebConfig(raw),
  resolve: (raw, base, ctx) => resolveDeepweb(raw, base, { quick: ctx.quick, seeds: ctx.seeds }),
  description: (cfg) => cfg.description,
  async run(cfg, ctx) {
    const out = defaultOut(cfg.name, ctx);
    ctx.say(
      `experiment ${cfg.name}: ${cfg.methods.length} methods x ${cfg.seeds.length} seeds x search sites, ${cfg.budget} submissions per run, ${cfg.records} records per site`,
    );
    const { runDeepweb } = await import('./deepweb/run.ts');
    const { writeDeepOutputs } = await import('./deepweb/report.ts');
    const bar = ctx.progress(cfg.seeds.length, 'steps (seed, then database sizes)', '{bar} {value}/{total} {label}');
    // the run knows how many steps it takes (seeds, then sizes x sweep seeds)
    const data = await withBar(bar, () =>
      runDeepweb(cfg, {
        workers: ctx.workers,
        onProgress: (d, t, label) => {
          bar.setTotal(t);
          bar.update(d, { label });
        },
      }),
    );
    const written = await writeDeepOutputs(data, out);
    return [
      `\n${cfg.name}: ${data.summaries.length} runs, wall time ${(data.wallMs / 1000).toFixed(1)} s\n`,
      ...written.claims.map((c) => `  ${c.verdict.padEnd(4)} ${c.id} ${c.claim}\n       ${c.measured}\n`),
      `wrote ${written.files.map((f) => `${out}/${f}`).join(', ')}\n`,
    ].join('');
  },
};

/** Focused crawling head to head, a sweep of it when the config has "sweep" (the default family). */
const focused: ExperimentFamily<ExperimentConfig> = {
  id: 'focused',
  claims: () => true,
  resolve: (_raw, _base, ctx) => loadExperiment(ctx.asked, { quick: ctx.quick, seeds: ctx.seeds }),
  description: (cfg) => cfg.description,
  async run(cfg, ctx) {
    // results/X/config.json reruns into results/X (identical CSVs), never over another experiment's results
    const out =
      ctx.out ??
      (basename(ctx.asked) === 'config.json' ? dirname(ctx.asked) : `results/${cfg.name}${ctx.quick ? '-quick' : ''}`);
    return Object.keys(cfg.sweep).length ? sweep(cfg, out, ctx) : single(cfg, out, ctx);
  },
};

async function sweep(cfg: ExperimentConfig, out: string, ctx: FamilyContext): Promise<string> {
  const { gridPoints, runSweep, writeSweepOutputs } = await import('./sweep.ts');
  const points = gridPoints(cfg.sweep).length;
  ctx.say(
    `sweep ${cfg.name}: ${points} points x ${cfg.strategies.length} strategies x ${cfg.seeds.length} seeds x departments, ${cfg.budget} pages per run (resumable: ${out}/points/)`,
  );
  const bar = ctx.progress(points, 'sweep points', '{bar} {value}/{total} {label} {last}');
  const data = await withBar(bar, () =>
    runSweep(cfg, out, {
      workers: ctx.workers,
      queue: ctx.queue,
      onQueueProgress: ctx.onQueueProgress,
      cacheDir: ctx.cacheDir,
      onPoint: (d, _t, resumed) => bar.update(d, { last: resumed ? '(last one resumed)' : '' }),
    }),
  );
  const { quick: _quick, ...rest } = cfg;
  writeFileSync(
    join(out, 'config.json'),
    `${JSON.stringify({ _rerun: `npm run experiment -- ${ctx.asked}${ctx.quick ? ' --quick' : ''}`, ...rest, quick: {} }, null, 2)}\n`,
  );
  const w = await writeSweepOutputs(data, out);
  return [
    `\n${cfg.name}: ${data.points.length} points (${data.computed} computed), wall time ${(data.wallMs / 1000).toFixed(1)} s\n`,
    ...w.phase.map(
      (p) =>
        `  point ${p.point} ${JSON.stringify(data.points[p.point].values)}: ${p.winner}${p.tie ? ' (tie)' : ''} over ${p.runner_up} by ${p.margin.toFixed(3)} [${p.margin_lo.toFixed(3)}, ${p.margin_hi.toFixed(3)}]\n`,
    ),
    `wrote ${['config.json', ...w.files].map((f) => `${out}/${f}`).join(', ')}\n`,
  ].join('');
}

async function single(cfg: ExperimentConfig, out: string, ctx: FamilyContext): Promise<string> {
  const { archiveSites } = await import('./env.ts');
  const { runExperiment } = await import('./runner.ts');
  const { writeOutputs } = await import('./report.ts');
  const jobs = cfg.archive ? archiveSites(cfg).length : cfg.seeds.length * (cfg.sites.length || 4);
  const unit = cfg.budgetCounts === 'pages' ? '2xx pages' : 'requests';
  ctx.say(
    cfg.archive
      ? `experiment ${cfg.name}: ${cfg.strategies.length} strategies x ${jobs} sites of the archive (${archiveSites(cfg).join(', ')}), ${cfg.budget} ${unit} per run, holes ${cfg.archive.holes}`
      : `experiment ${cfg.name}: ${cfg.strategies.length} strategies x ${cfg.seeds.length} seeds x ${cfg.sites.length ? `${cfg.sites.length} department${cfg.sites.length === 1 ? '' : 's'}` : 'every department'}, ${cfg.budget} ${unit} per run`,
  );
  const bar = ctx.progress(
    jobs,
    cfg.archive ? 'jobs (site)' : 'jobs (seed x department)',
    '{bar} {value}/{total} {label}',
  );
  const data = await withBar(bar, () =>
    runExperiment(cfg, {
      workers: ctx.workers,
      queue: ctx.queue,
      onQueueProgress: ctx.onQueueProgress,
      cacheDir: ctx.cacheDir,
      onJobDone: (d) => bar.update(d, {}),
    }),
  );
  // an experiment whose runs fetched nothing has nothing to judge: no verdicts
  if (!data.summaries.some((x) => x.strategy !== 'oracle' && x.status_2xx > 0))
    throw new Error(`${cfg.name}: no run fetched a page (start URLs: ${data.sites.join(', ')}); no verdicts`);
  const rerun = [
    'npm run experiment --',
    ctx.asked,
    ctx.quick ? '--quick' : '',
    ctx.seeds !== undefined ? `--seeds ${ctx.seeds}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const written = await writeOutputs(data, out, { rerun });
  return [
    `\n${cfg.name}: ${data.curves.length} curve points, wall time ${(data.wallMs / 1000).toFixed(1)} s\n`,
    ...written.claims.map((c) => `  ${c.verdict.padEnd(4)} ${c.id} ${c.claim}\n       ${c.measured}\n`),
    `wrote ${written.files.map((f) => `${out}/${f}`).join(', ')}\n`,
  ].join('');
}

/** Every family, the default last. */
export const FAMILIES: readonly ExperimentFamily<never>[] = [
  distributed as ExperimentFamily<never>,
  deepweb as ExperimentFamily<never>,
  focused as ExperimentFamily<never>,
];

export function familyOf(raw: unknown): ExperimentFamily<unknown> {
  return FAMILIES.find((f) => f.claims(raw)) as unknown as ExperimentFamily<unknown>;
}
