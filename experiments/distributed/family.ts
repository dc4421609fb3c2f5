/** The distributed-crawling family (experiments/family-contract.ts): configs with "kind": "distributed". */
import { defaultOut, type ExperimentFamily, kindFamily, rerunCommand, withBar } from '../family-contract.ts';
import { type DistributedConfig, DistributedSchema, isDistributedConfig, resolveDistributed } from './config.ts';

export const distributed: ExperimentFamily<DistributedConfig> = {
  id: 'distributed',
  help: `Distributed configs ("kind": "distributed") write runs.csv, processes.csv and report.md: each
assignment's and process count's pages, overlap and balance.`,
  flags: [],
  schema: {
    name: 'distributed',
    schema: DistributedSchema,
    title: 'Distributed-crawling experiment config',
    description: 'experiments/configs/*.json with "kind": "distributed" (experiments/distributed/config.ts).',
  },
  ...kindFamily(isDistributedConfig, resolveDistributed),
  async run(cfg, ctx) {
    const out = defaultOut(cfg.name, ctx);
    ctx.say(
      `experiment ${cfg.name}: assignments ${cfg.assignments.join(', ')} and ` +
        `${cfg.scaling.join(', ')} processes x ${cfg.seeds.length} seeds, ${cfg.budget} pages per run`,
    );
    const { runDistributedExperiment, writeDistributedOutputs } = await import('./run.ts');
    const runs = cfg.seeds.length * (cfg.assignments.length + cfg.scaling.length);
    const bar = ctx.progress(runs, 'runs', '{bar} {value}/{total} {label}');
    const data = await withBar(bar, () => runDistributedExperiment(cfg, (d, _t, label) => bar.update(d, { label })));
    const w = await writeDistributedOutputs(data, out, rerunCommand(ctx));
    return (
      `\n${cfg.name}: ${data.runs.length} runs, wall time ${(data.wallMs / 1000).toFixed(1)} ` +
      `s\n${w.lines.map((l) => `  ${l}`).join('\n')}\nwrote ` +
      `${w.files.map((f) => `${out}/${f}`).join(', ')}\n`
    );
  },
};
