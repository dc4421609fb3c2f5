/**
 * npm run experiment [-- NAME] [--list] [--quick] [--seeds K] [--out DIR] [--workers N]
 * Runs an experiment config from experiments/configs/ and writes results/<NAME>/.
 */
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fail, parseOrFail } from './args.ts';
import {
  EXPERIMENT_NUMBERS,
  otherFieldsHelp,
  ExperimentConfigError,
  listExperiments,
  loadExperiment,
  readExperimentJson,
} from '../config.ts';
import { DEEPWEB_NUMBERS, isDeepwebConfig, resolveDeepweb, type DeepwebConfig } from '../deepweb/config.ts';
import { fieldsHelp } from '../../lib/fields.ts';
import {
  DISTRIBUTED_NUMBERS,
  isDistributedConfig,
  resolveDistributed,
  type DistributedConfig,
} from '../distributed/config.ts';
import { progress } from './progress.ts';

// The runs, figures and reports are imported once the arguments and the config are checked: they
// take seconds to load (vega, resvg, pdfkit), and a mistyped flag should not wait for them.

const USAGE = `Usage: npm run experiment [-- NAME] [options]

Runs experiments/configs/NAME.json (default: focused), or a config file given by its path,
and writes CSVs, figures (SVG and PNG) and report.md to results/NAME/. Focused-crawling
configs (focused, future-horizon) write curves, summary, aggregates, differences, and
fig-recall, fig-precision, fig-harvest and fig-difference (SVG, PNG, PDF); results/NAME/config.json
is itself a config that reruns the experiment; deep-web configs ("kind": "deepweb": deepweb) write coverage curves, template
diagnostics, the tau and database-size sweeps and the politeness audit.

Or: npm run experiment -- twin-validation CONFIG [--quick] [--seeds K] [--out DIR]
fits a synthetic twin to an archive experiment's sites (each held out in turn), crawls archive
and twins with the same experiment, and compares their rankings (results/NAME-twin/).

Options:
  --list          list the experiments
  --quick         the config's quick variant (small web, one seed, small budget)
  --seeds K       use seeds 1..K instead of the config's
  --out DIR       output directory (default results/NAME, or results/NAME-quick with --quick)
  --workers N     worker processes (default: one per core; 0 = in this process)
  --no-cache      retrain models instead of using .cache/models
  --queue URL     run the jobs on a BullMQ queue at redis://HOST:PORT: start workers with
                  npm run worker -- --queue URL (on any machine with this checkout); a rerun
                  enqueues nothing already done (experiments/queue.ts)

Numeric fields of a focused-crawling config (experiments/config.ts EXPERIMENT_NUMBERS), default, range:
${fieldsHelp(EXPERIMENT_NUMBERS)}Its other fields (experiments/config.ts EXPERIMENT_FIELDS), default:
${otherFieldsHelp()}
Numeric fields of a deep-web config (experiments/deepweb/config.ts DEEPWEB_NUMBERS), default, range:
${fieldsHelp(DEEPWEB_NUMBERS)}
Numeric fields of a distributed config (experiments/distributed/config.ts DISTRIBUTED_NUMBERS), default, range:
${fieldsHelp(DISTRIBUTED_NUMBERS)}
The web a config names has its own fields: npm run sim -- --help.
`;

const parsed = parseOrFail({
  allowPositionals: true,
  options: {
    list: { type: 'boolean' },
    quick: { type: 'boolean' },
    seeds: { type: 'string' },
    out: { type: 'string' },
    workers: { type: 'string' },
    'no-cache': { type: 'boolean' },
    queue: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const v = parsed.values as Record<string, string | boolean | undefined>;
if (v.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (v.list) {
  for (const n of listExperiments()) {
    try {
      const { raw } = readExperimentJson(n);
      const r = raw as Record<string, unknown>;
      process.stdout.write(
        `${n.padEnd(18)} ${isDeepwebConfig(raw) ? resolveDeepweb(r, n).description : isDistributedConfig(raw) ? resolveDistributed(r, n).description : loadExperiment(n).description}\n`,
      );
    } catch (e) {
      process.stdout.write(`${n.padEnd(18)} (invalid: ${(e as Error).message})\n`);
    }
  }
  process.exit(0);
}
const twin = parsed.positionals[0] === 'twin-validation';
if (twin) parsed.positionals.shift();
if (twin && parsed.positionals.length !== 1) fail('twin-validation: name one archive experiment config');
if (parsed.positionals.length > 1) fail(`one experiment at a time, got ${parsed.positionals.join(' ')}`);
const name = parsed.positionals[0] ?? 'focused';
const seeds = v.seeds === undefined ? undefined : Number(v.seeds);
if (seeds !== undefined && (!Number.isInteger(seeds) || seeds < 1 || seeds > 100))
  fail(`--seeds: "${v.seeds}" must be a whole number from 1 to 100`);
const workers = v.workers === undefined ? undefined : Number(v.workers);
const queue = v.queue as string | undefined;
if (queue !== undefined) {
  const { connectionOf } = await import('../queue.ts');
  try {
    connectionOf(queue);
  } catch (e) {
    fail((e as Error).message);
  }
}
/** Queue progress on stderr, one line rewritten: jobs done / running / waiting / failed across workers. */
const queueProgress = (p: { done: number; running: number; waiting: number; failed: number; total: number }): void => {
  process.stderr.write(
    `\rqueue: ${p.done}/${p.total} done, ${p.running} running, ${p.waiting} waiting, ${p.failed} failed   `,
  );
};
if (workers !== undefined && (!Number.isInteger(workers) || workers < 0 || workers > 64))
  fail(`--workers: "${v.workers}" must be a whole number from 0 to 64`);
let deep: DeepwebConfig | null = null;
let dist: DistributedConfig | null = null;
try {
  const { name: base, raw } = readExperimentJson(name);
  if (isDeepwebConfig(raw)) deep = resolveDeepweb(raw as Record<string, unknown>, base, { quick: !!v.quick, seeds });
  if (isDistributedConfig(raw))
    dist = resolveDistributed(raw as Record<string, unknown>, base, { quick: !!v.quick, seeds });
} catch (e) {
  if (e instanceof ExperimentConfigError) fail(e.message);
  throw e;
}
if (dist) {
  const cfg = dist;
  const out = (v.out as string | undefined) ?? `results/${cfg.name}${v.quick ? '-quick' : ''}`;
  process.stderr.write(
    `experiment ${cfg.name}: assignments ${cfg.assignments.join(', ')} and ${cfg.scaling.join(', ')} processes x ${cfg.seeds.length} seeds, ${cfg.budget} pages per run\n`,
  );
  const { runDistributedExperiment, writeDistributedOutputs } = await import('../distributed/experiment.ts');
  const runs = cfg.seeds.length * (cfg.assignments.length + cfg.scaling.length);
  const bar = progress(runs, 'runs', '{bar} {value}/{total} {label}');
  const data = await runDistributedExperiment(cfg, (d, _t, label) => bar.update(d, { label })).catch((e: Error) => {
    bar.stop();
    fail(e.message.split('\n')[0]);
  });
  bar.stop();
  const w = await writeDistributedOutputs(data, out);
  process.stdout.write(
    `\n${cfg.name}: ${data.runs.length} runs, wall time ${(data.wallMs / 1000).toFixed(1)} s\n${w.lines.map((l) => `  ${l}`).join('\n')}\nwrote ${w.files.map((f) => `${out}/${f}`).join(', ')}\n`,
  );
  process.exit(0);
}
if (deep) {
  const out = (v.out as string | undefined) ?? `results/${deep.name}${v.quick ? '-quick' : ''}`;
  process.stderr.write(
    `experiment ${deep.name}: ${deep.methods.length} methods x ${deep.seeds.length} seeds x search sites, ${deep.budget} submissions per run, ${deep.records} records per site\n`,
  );
  const { runDeepweb } = await import('../deepweb/run.ts');
  const { writeDeepOutputs } = await import('../deepweb/report.ts');
  const bar = progress(deep.seeds.length, 'steps (seed, then database sizes)', '{bar} {value}/{total} {label}');
  // the run knows how many steps it takes (seeds, then sizes x sweep seeds)
  const onProgress = (d: number, t: number, label: string): void => {
    bar.setTotal(t);
    bar.update(d, { label });
  };
  const data = await runDeepweb(deep, { onProgress }).catch((e: Error) => {
    bar.stop();
    fail(e.message.split('\n')[0]);
  });
  bar.stop();
  const written = await writeDeepOutputs(data, out);
  process.stdout.write(
    `\n${deep.name}: ${data.summaries.length} runs, wall time ${(data.wallMs / 1000).toFixed(1)} s\n`,
  );
  for (const c of written.claims)
    process.stdout.write(`  ${c.verdict.padEnd(4)} ${c.id} ${c.claim}\n       ${c.measured}\n`);
  process.stdout.write(`wrote ${written.files.map((f) => `${out}/${f}`).join(', ')}\n`);
  process.exit(0);
}
let cfg: ReturnType<typeof loadExperiment>;
try {
  cfg = loadExperiment(name, { quick: !!v.quick, seeds });
} catch (e) {
  if (e instanceof ExperimentConfigError) fail(e.message);
  throw e;
}
if (twin) {
  if (!cfg.archive) fail(`twin-validation: ${cfg.name} is not an archive experiment (no "archive" section)`);
  const out = (v.out as string | undefined) ?? `results/${cfg.name}-twin${v.quick ? '-quick' : ''}`;
  const twinSeeds = Array.from({ length: seeds ?? (v.quick ? 1 : 3) }, (_, i) => i + 1);
  const fitBudget = v.quick ? 32 : 96;
  process.stderr.write(
    `twin validation of ${cfg.name}: ${cfg.strategies.length} strategies, every site held out in turn, twins fitted with ${fitBudget} evaluations, web seeds ${twinSeeds.join(', ')}, ${cfg.budget} ${cfg.budgetCounts} per run\n`,
  );
  const { runTwinValidation } = await import('../twin/validate.ts');
  const { writeTwinOutputs } = await import('../twin/report.ts');
  const data = await runTwinValidation(cfg, {
    fitBudget,
    seeds: twinSeeds,
    dir: join(out, 'twins'),
    workers,
    cacheDir: v['no-cache'] ? null : '.cache/models',
    onProgress: (step) => process.stderr.write(`  ${step}\n`),
  }).catch((e: Error) => fail(e.message.split('\n')[0]));
  const w = await writeTwinOutputs(data, out);
  process.stdout.write(
    `\n${cfg.name} twin validation: wall time ${(data.wallMs / 1000).toFixed(1)} s\n${w.lines.map((l) => `  ${l}`).join('\n')}\nwrote ${w.files.map((f) => `${out}/${f}`).join(', ')}\n`,
  );
  process.exit(0);
}
// results/X/config.json reruns into results/X (identical CSVs), never over another experiment's results
const out =
  (v.out as string | undefined) ??
  (basename(name) === 'config.json' ? dirname(name) : `results/${cfg.name}${v.quick ? '-quick' : ''}`);
if (Object.keys(cfg.sweep).length) {
  const { gridPoints, runSweep, writeSweepOutputs } = await import('../sweep.ts');
  const points = gridPoints(cfg.sweep).length;
  process.stderr.write(
    `sweep ${cfg.name}: ${points} points x ${cfg.strategies.length} strategies x ${cfg.seeds.length} seeds x departments, ${cfg.budget} pages per run (resumable: ${out}/points/)\n`,
  );
  const bar = progress(points, 'sweep points', '{bar} {value}/{total} {label} {last}');
  const data = await runSweep(cfg, out, {
    workers,
    queue,
    onQueueProgress: queue ? queueProgress : undefined,
    cacheDir: v['no-cache'] ? null : '.cache/models',
    onPoint: (d, _t, resumed) => bar.update(d, { last: resumed ? '(last one resumed)' : '' }),
  }).catch((e: Error) => {
    bar.stop();
    fail(e.message.split('\n')[0]);
  });
  bar.stop();
  const { quick: _quick, ...rest } = cfg;
  writeFileSync(
    join(out, 'config.json'),
    `${JSON.stringify({ _rerun: `npm run experiment -- ${name}${v.quick ? ' --quick' : ''}`, ...rest, quick: {} }, null, 2)}\n`,
  );
  const w = await writeSweepOutputs(data, out);
  process.stdout.write(
    `\n${cfg.name}: ${data.points.length} points (${data.computed} computed), wall time ${(data.wallMs / 1000).toFixed(1)} s\n`,
  );
  for (const p of w.phase)
    process.stdout.write(
      `  point ${p.point} ${JSON.stringify(data.points[p.point].values)}: ${p.winner}${p.tie ? ' (tie)' : ''} over ${p.runner_up} by ${p.margin.toFixed(3)} [${p.margin_lo.toFixed(3)}, ${p.margin_hi.toFixed(3)}]\n`,
    );
  process.stdout.write(`wrote ${['config.json', ...w.files].map((f) => `${out}/${f}`).join(', ')}\n`);
  process.exit(0);
}
const { archiveSites } = await import('../env.ts');
const { runExperiment } = await import('../runner.ts');
const { writeOutputs } = await import('../report.ts');
const jobs = cfg.archive ? archiveSites(cfg).length : cfg.seeds.length * (cfg.sites.length || 4);
const unit = cfg.budgetCounts === 'pages' ? '2xx pages' : 'requests';
process.stderr.write(
  cfg.archive
    ? `experiment ${cfg.name}: ${cfg.strategies.length} strategies x ${jobs} sites of the archive (${archiveSites(cfg).join(', ')}), ${cfg.budget} ${unit} per run, holes ${cfg.archive.holes}\n`
    : `experiment ${cfg.name}: ${cfg.strategies.length} strategies x ${cfg.seeds.length} seeds x ${cfg.sites.length ? `${cfg.sites.length} department${cfg.sites.length === 1 ? '' : 's'}` : 'every department'}, ${cfg.budget} ${unit} per run\n`,
);
const bar = progress(jobs, cfg.archive ? 'jobs (site)' : 'jobs (seed x department)', '{bar} {value}/{total} {label}');
const data = await runExperiment(cfg, {
  workers,
  queue,
  onQueueProgress: queue ? queueProgress : undefined,
  cacheDir: v['no-cache'] ? null : '.cache/models',
  onJobDone: (d) => bar.update(d, {}),
}).catch((e: Error) => {
  bar.stop();
  fail(e.message.split('\n')[0]);
});
bar.stop();
// an experiment whose runs fetched nothing has nothing to judge: no verdicts
if (!data.summaries.some((x) => x.strategy !== 'oracle' && x.status_2xx > 0))
  fail(`${cfg.name}: no run fetched a page (start URLs: ${data.sites.join(', ')}); no verdicts`);
const rerun = ['npm run experiment --', name, v.quick ? '--quick' : '', seeds !== undefined ? `--seeds ${seeds}` : '']
  .filter(Boolean)
  .join(' ');
const written = await writeOutputs(data, out, { rerun });
process.stdout.write(
  `\n${cfg.name}: ${data.curves.length} curve points, wall time ${(data.wallMs / 1000).toFixed(1)} s\n`,
);
for (const c of written.claims)
  process.stdout.write(`  ${c.verdict.padEnd(4)} ${c.id} ${c.claim}\n       ${c.measured}\n`);
process.stdout.write(`wrote ${written.files.map((f) => `${out}/${f}`).join(', ')}\n`);
