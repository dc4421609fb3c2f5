/** The deep-web family (experiments/family-contract.ts): configs with "kind": "deepweb". */
import { defaultOut, type ExperimentFamily, kindFamily, rerunCommand, withBar } from '../family-contract.ts';
import { type DeepwebConfig, DeepwebSchema, isDeepwebConfig, resolveDeepweb } from './config.ts';
import { isDeepOutputs } from './load.ts';

export const deepweb: ExperimentFamily<DeepwebConfig> = {
  id: 'deepweb',
  help: `Deep-web configs ("kind": "deepweb") write coverage curves, template diagnostics, the tau and
database-size sweeps and the politeness audit.`,
  flags: ['workers', 'cpu-prof'],
  schema: {
    name: 'deepweb',
    schema: DeepwebSchema,
    title: 'Deep-web experiment config',
    description: 'experiments/configs/*.json with "kind": "deepweb" (experiments/deepweb/config.ts).',
  },
  rereport: {
    claims: isDeepOutputs,
    // its report, figures and CSVs made again from its CSVs
    async write(dir) {
      const { readDeepOutputs } = await import('./load.ts');
      const { writeDeepOutputs } = await import('./report.ts');
      return (await writeDeepOutputs(readDeepOutputs(dir), dir)).files;
    },
    help: 'a deep-web experiment: its report.md, figures and CSVs, from its CSVs and a config.json of kind deepweb',
  },
  ...kindFamily(isDeepwebConfig, resolveDeepweb),
  async run(cfg, ctx) {
    const out = defaultOut(cfg.name, ctx);
    ctx.say(
      `experiment ${cfg.name}: ${cfg.methods.length} methods x ${cfg.seeds.length} seeds x ` +
        `search sites, ${cfg.budget} submissions per run, ${cfg.records} records per site`,
    );
    const { runDeepweb } = await import('./run.ts');
    const { writeDeepOutputs } = await import('./report.ts');
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
    const written = await writeDeepOutputs(data, out, rerunCommand(ctx));
    return [
      `\n${cfg.name}: ${data.summaries.length} runs, wall time ${(data.wallMs / 1000).toFixed(1)} s\n`,
      ...written.claims.map((c) => `  ${c.verdict.padEnd(4)} ${c.id} ${c.claim}\n       ${c.measured}\n`),
      `wrote ${written.files.map((f) => `${out}/${f}`).join(', ')}\n`,
    ].join('');
  },
};
