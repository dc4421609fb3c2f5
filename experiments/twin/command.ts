/**
 * `npm run experiment -- twin-validation CONFIG`: a command of the registry (experiments/family-contract.ts
 * ExperimentCommand) that runs on a focused archive experiment's config. It fits a synthetic twin
 * to the archive's sites (each held out in turn), crawls archive and twins with the same
 * experiment, and compares their rankings (experiments/twin/validate.ts).
 */
import { join } from 'node:path';
import { ExperimentConfigError, readExperimentJson } from '../config-files.ts';
import { type ExperimentCommand, rerunCommand, writingInto } from '../family-contract.ts';
import { ResultsFolder } from '../results-folder.ts';
import { configForFile, type ExperimentConfig } from '../focused/config.ts';
import { focused } from '../focused/family.ts';

export const twinValidation: ExperimentCommand = {
  verb: 'twin-validation',
  help: `Or: npm run experiment -- twin-validation CONFIG [--quick] [--seeds K] [--out DIR] [--workers N]
fits a synthetic twin to an archive experiment's sites (each held out in turn), crawls archive
and twins with the same experiment, and compares their rankings (results/NAME-twin/).`,
  flags: ['workers', 'no-cache', 'cpu-prof'],
  async run(name, ctx) {
    const { name: base, raw } = readExperimentJson(name);
    // a focused config, or a sweep's (its grid left aside): no "kind" of another family
    if (typeof raw !== 'object' || raw === null || 'kind' in raw)
      throw new ExperimentConfigError(`twin-validation: ${name} is not a focused-crawling config`);
    const cfg: ExperimentConfig = focused.resolve(raw as Record<string, unknown>, base, ctx);
    if (!cfg.archive)
      throw new ExperimentConfigError(
        `twin-validation: ${cfg.name} is not an archive experiment (no "archive" section)`,
      );
    const out = ctx.out ?? `results/${cfg.name}-twin${ctx.quick ? '-quick' : ''}`;
    const twinSeeds = Array.from({ length: ctx.seeds ?? (ctx.quick ? 1 : 3) }, (_, i) => i + 1);
    const fitBudget = ctx.quick ? 32 : 96;
    ctx.say(
      `twin validation of ${cfg.name}: ${cfg.strategies.length} strategies, every site held out ` +
        `in turn, twins fitted with ${fitBudget} evaluations, web seeds ${twinSeeds.join(', ')}, ` +
        `${cfg.budget} ${cfg.budgetCounts} per run`,
    );
    const { runTwinValidation } = await import('./validate.ts');
    const { writeTwinOutputs } = await import('./report.ts');
    const { d: data, w } = await writingInto(out, () =>
      runTwinValidation(cfg, {
        fitBudget,
        seeds: twinSeeds,
        dir: join(out, 'twins'),
        workers: ctx.workers,
        cacheDir: ctx.cacheDir,
        onProgress: (step) => ctx.say(`  ${step}`),
      }).then(async (d) => {
        // the experiment it validated, as a file that reruns the validation
        new ResultsFolder(out).config(
          configForFile(cfg),
          rerunCommand({ ...ctx, asked: name }, 'twin-validation'),
          'twin-validation',
        );
        return { d, w: await writeTwinOutputs(d, out) };
      }),
    );
    return (
      `\n${cfg.name} twin validation: wall time ${(data.wallMs / 1000).toFixed(1)} ` +
      `s\n${w.lines.map((l) => `  ${l}`).join('\n')}\nwrote ` +
      `${w.files.map((f) => `${out}/${f}`).join(', ')}\n`
    );
  },
};
