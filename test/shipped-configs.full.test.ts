/**
 * Every shipped config (experiments/configs/*.json) runs to its end (full tier): each as
 * `npm run experiment -- NAME --quick` with a small budget, in this process, so that a shipped
 * experiment that stops is a failing test. The baselines config once stopped at its first step
 * (InfoSpiders' NaN scores, refused by the strategy guard) and no test ran it. Results are not
 * checked here (the regressions compare the quick runs with their references); that the run ends,
 * exit 0, and writes its report is.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listExperiments, readExperimentJson } from '../experiments/config-files.ts';
import { familyOf } from '../experiments/families.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { scaled } from './speed.ts';

/**
 * Requests per run, and curve points every so many (families without curves take the budget only).
 * 200: InfoSpiders' NaN came at the 183rd page of the baselines run; at 100 that run ended cleanly.
 */
const BUDGET = 200;
const EVERY = 50;

describe('every shipped config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shipped-'));
  it('is found', () => {
    expect(listExperiments().length).toBeGreaterThanOrEqual(19);
  });
  for (const name of listExperiments())
    it(`${name} --quick runs to its end at a budget of ${BUDGET}`, { timeout: scaled(180_000) }, async () => {
      const family = familyOf(readExperimentJson(name).raw);
      const out = join(dir, name);
      const sets = ['--set', `budget=${BUDGET}`, ...(family.id === 'distributed' ? [] : ['--set', `every=${EVERY}`])];
      // in this process and without the model cache, where the family takes those flags
      const flags = [
        ...(family.flags.includes('workers') ? ['--workers', '0'] : []),
        ...(family.flags.includes('no-cache') ? ['--no-cache'] : []),
      ];
      const run = await runCliInProcess('experiments/cli/experiment.ts', [
        name,
        '--quick',
        ...sets,
        ...flags,
        '--out',
        out,
      ]);
      expect(run.stderr + run.stdout.slice(-2_000)).not.toMatch(/^error/m);
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(join(out, 'report.md')), `${out}/report.md`).toBe(true);
      expect(existsSync(join(out, 'INCOMPLETE'))).toBe(false);
    });
});
