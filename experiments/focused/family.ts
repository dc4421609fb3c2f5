/** The focused-crawling family (experiments/family-contract.ts): the paper's head-to-head comparison. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  defaultOut,
  type ExperimentFamily,
  type FamilyContext,
  rerunCommand,
  runOptionsOf,
  withBar,
} from '../family-contract.ts';
import { configForFile, type ExperimentConfig, ExperimentSchema, resolveExperiment, slowRunWarning } from './config.ts';

/** What a focused experiment writes that its page is made from (replay.json too, when recorded). */
export const FOCUSED_OUTPUTS = ['config.json', 'curves.csv', 'aggregates.csv', 'summary.csv'];

/** Where a focused run writes: results/X/config.json reruns into results/X (identical CSVs), never over another experiment's results. */
export function focusedOut(cfg: ExperimentConfig, ctx: Pick<FamilyContext, 'out' | 'asked' | 'quick'>): string {
  return defaultOut(cfg.name, ctx);
}

/** Focused crawling head to head (the default family: any config no other family claims). */
export const focused: ExperimentFamily<ExperimentConfig> = {
  id: 'focused',
  fallback: true,
  help: `Focused-crawling configs (focused, future-horizon, the webkb-* archive experiments) write
curves, summary, aggregates, differences, and fig-recall, fig-precision, fig-harvest and
fig-difference (SVG, PNG, PDF), report.md and the results page index.html; results/NAME/config.json
is itself a config that reruns the experiment.`,
  judgesClaims: () => true,
  flags: ['workers', 'queue', 'no-cache', 'no-replay', 'no-diagnostics', 'cpu-prof'],
  schema: {
    name: 'experiment',
    schema: ExperimentSchema,
    title: 'Focused-crawling experiment config',
    description:
      'experiments/configs/*.json without "kind": strategies, target, budget, web or archive (experiments/focused/config.ts).',
  },
  rereport: {
    claims: (dir) => FOCUSED_OUTPUTS.every((f) => existsSync(join(dir, f))),
    write: async (dir) => [await (await import('./report.ts')).rewritePage(dir)],
    help: `a focused experiment: its results page index.html, from ${FOCUSED_OUTPUTS.join(', ')} (and replay.json when present)`,
  },
  claims: () => true,
  resolve: (raw, base, ctx) =>
    resolveExperiment(raw, base, { quick: ctx.quick, seeds: ctx.seeds, overrides: ctx.overrides }),
  configFile: configForFile,
  outDir: focusedOut,
  description: (cfg) => cfg.description,
  async run(cfg, ctx) {
    const out = focusedOut(cfg, ctx);
    return single(cfg, out, ctx);
  },
};

async function single(cfg: ExperimentConfig, out: string, ctx: FamilyContext): Promise<string> {
  const { archiveSites } = await import('./env.ts');
  const { runExperiment } = await import('./runner.ts');
  const { writeOutputs } = await import('./report.ts');
  const jobs = cfg.archive ? archiveSites(cfg).length : cfg.seeds.length * (cfg.sites.length || 4);
  const unit = cfg.budgetCounts === 'pages' ? '2xx pages' : 'requests';
  ctx.say(
    cfg.archive
      ? `experiment ${cfg.name}: ${cfg.strategies.length} strategies x ${jobs} sites of the ` +
          `archive (${archiveSites(cfg).join(', ')}), ${cfg.budget} ${unit} per run, holes ${cfg.archive.holes}`
      : `experiment ${cfg.name}: ${cfg.strategies.length} strategies x ${cfg.seeds.length} seeds ` +
          `x ${cfg.sites.length ? `${cfg.sites.length} department${cfg.sites.length === 1 ? '' : 's'}` : 'every department'}, ` +
          `${cfg.budget} ${unit} per run`,
  );
  const slow = slowRunWarning(cfg);
  if (slow) ctx.say(slow);
  const bar = ctx.progress(
    jobs,
    cfg.archive ? 'jobs (site)' : 'jobs (seed x department)',
    '{bar} {value}/{total} {label} | eta {eta_formatted}',
  );
  const data = await withBar(bar, () =>
    runExperiment(cfg, {
      ...runOptionsOf(ctx),
      // a line per run as its job ends (a job runs every strategy on one seed's site), then the bar
      onJobDone: (d, _total, job) => {
        for (const r of job.runs)
          bar.log(
            `  seed ${job.seed} ${job.site} ${r.strategy}: ${r.requests} requests, recall AUC ${r.recallAuc.toFixed(3)}, ${(r.ms / 1000).toFixed(1)} s`,
          );
        bar.update(d, {});
      },
    }),
  );
  // an experiment whose runs fetched nothing has nothing to judge: no verdicts
  if (!data.summaries.some((x) => x.strategy !== 'oracle' && x.status_2xx > 0))
    throw new Error(`${cfg.name}: no run fetched a page (start URLs: ${data.sites.join(', ')}); no verdicts`);
  const written = await writeOutputs(data, out, { rerun: rerunCommand(ctx) });
  ctx.onClaims?.(written.claims);
  return [
    `\n${cfg.name}: ${data.curves.length} curve points, wall time ${(data.wallMs / 1000).toFixed(1)} s\n`,
    ...written.claims.map((c) => `  ${c.verdict.padEnd(4)} ${c.id} ${c.claim}\n       ${c.measured}\n`),
    `wrote ${written.files.map((f) => `${out}/${f}`).join(', ')}\n`,
  ].join('');
}
