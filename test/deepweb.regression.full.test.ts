/**
 * CI regression of the deep-web experiment: the quick configuration (1,000 records per site,
 * seed 1, 400 submissions per run) against results/reference/deepweb-quick/ (regenerate with
 * `npm run experiment:reference:deepweb` after an intended change, and say why in the commit).
 * The run must be deterministic and polite. Determinism is checked against the reference
 * itself, which another process wrote at an earlier commit: the tables must be byte-identical
 * to it (a second run in this process proved less and cost a minute). Where they differ, the
 * coverage points further apart than 0.02 are named first. The same for deepweb-conditions
 * --quick against results/reference/deepweb-conditions-quick/. The first runs its steps on a worker
 * process (experiments/pool.ts; one: a second built the same sites and cost 10 CPU-s), the second in
 * this process: both give the references' tables.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectCurvesNear } from './helpers.ts';
import { readExperimentJson } from '../experiments/focused/config.ts';
import { resolveDeepweb } from '../experiments/deepweb/config.ts';
import { writeDeepOutputs } from '../experiments/deepweb/report.ts';
import { runDeepweb } from '../experiments/deepweb/run.ts';
import { readDeepOutputs } from '../experiments/deepweb/load.ts';
import { scaled } from './speed.ts';

const REF = 'results/reference/deepweb-quick';
const REF_CONDITIONS = 'results/reference/deepweb-conditions-quick';
const TOLERANCE = 0.02;

// A full quick run takes about 50 s on this machine alone, more in the full suite: the default
// 60 s per test leaves no margin.
const RUN_MS = scaled(240_000);

/** The quick configuration of a deep-web experiment: its data, and its outputs written to a fresh folder. */
async function quick(name: string, workers?: number) {
  const { raw } = readExperimentJson(name);
  const cfg = resolveDeepweb(raw as Record<string, unknown>, name, { quick: true });
  const data = await runDeepweb(cfg, { workers });
  const out = mkdtempSync(join(tmpdir(), `${name}-`));
  return { cfg, data, out, written: await writeDeepOutputs(data, out) };
}

/** Coverage within TOLERANCE of the reference (the readable failure), then the tables byte for byte. */
function sameAsReference(ref: string, out: string, tables: string[]): void {
  const keys = ['site', 'method', 'seed', 'submissions'];
  const msg = `coverage moved by more than ${TOLERANCE}`;
  expectCurvesNear(join(ref, 'curves.csv'), join(out, 'curves.csv'), keys, ['coverage'], TOLERANCE, msg);
  for (const f of tables)
    expect(readFileSync(join(out, f), 'utf8'), `${f} differs from ${ref}/${f}`).toBe(
      readFileSync(join(ref, f), 'utf8'),
    );
}

describe('deepweb experiment regression (quick configuration)', () => {
  it(
    'matches the committed reference, deterministically, with zero politeness violations',
    async () => {
      const a = await quick('deepweb', 1);
      expect(readdirSync(a.out)).toEqual(
        expect.arrayContaining(['report.md', 'fig-coverage-jobs.png', 'fig-scaling.svg', 'audit.csv']),
      );
      expect(a.written.claims.find((c) => c.id === 'D5')!.verdict).toBe('PASS');
      expect(a.data.audit.every((r) => r.violations === 0 && r.max_concurrent === 1)).toBe(true);
      sameAsReference(REF, a.out, ['curves.csv', 'summary.csv', 'templates.csv', 'tau.csv', 'scaling.csv']);
    },
    RUN_MS,
  );

  it(
    'runs under the published conditions (deepweb-conditions --quick), matches its reference, and its report can be made again from its CSVs',
    async () => {
      // in this process (the other test runs its steps on worker processes): both match the references
      const { data: d, out, written } = await quick('deepweb-conditions', 0);
      expect(written.claims.map((c) => c.id)).toEqual(['D1', 'D2', 'D3', 'D4', 'D5']);
      expect(written.claims.find((c) => c.id === 'D5')!.verdict).toBe('PASS');
      // the conditions hold: an uncapped catalogue, a confirmed year range, the flights date typed
      expect(d.sites.find((s) => s.site === 'catalogue')!.top_k).toBe(0);
      expect(d.ranges.filter((r) => r.confirmed).map((r) => `${r.site}:${r.lo}`)).toEqual(['catalogue:year_from']);
      expect(d.typed.filter((t) => t.chosen).map((t) => `${t.site}:${t.input}:${t.type}`)).toEqual([
        'flights:date:date',
      ]);
      sameAsReference(REF_CONDITIONS, out, ['curves.csv', 'summary.csv', 'scaling.csv', 'ranges.csv', 'typed.csv']);
      // npm run report -- DIR: the same report and tables from the CSVs alone
      const again = mkdtempSync(join(tmpdir(), 'deepC-again-'));
      const back = readDeepOutputs(out);
      expect(back.made).toBe('npm run experiment -- deepweb-conditions');
      await writeDeepOutputs(back, again);
      // the rewritten config names the command that made the run, and itself
      expect(JSON.parse(readFileSync(join(again, 'config.json'), 'utf8'))._rerun).toBe(
        `npm run experiment -- deepweb-conditions (or: npm run experiment -- ${join(again, 'config.json')})`,
      );
      for (const f of ['report.md', 'summary.csv', 'scaling.csv', 'ranges.csv', 'typed.csv', 'sites.csv'])
        expect(readFileSync(join(again, f), 'utf8'), f).toBe(readFileSync(join(out, f), 'utf8'));
    },
    RUN_MS,
  );
});
