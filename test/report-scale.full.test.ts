/**
 * The outputs of a large run (issue #70): a real small run's rows multiplied into 264,000 curve
 * rows (six series, four sites, eleven seeds, 1,000 points each: a 10^6-page web at budget 25,000,
 * every 25) go through writeOutputs whole, CSVs, figures, report.md and the page. The page keeps a
 * bounded share of the per-run points and says so; a figure that cannot be made costs the run its
 * report no more: report.md says which and why.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadExperiment } from '../experiments/focused/config.ts';
import { writeOutputs } from '../experiments/focused/report.ts';
import type { SummaryRow } from '../experiments/focused/rows.ts';
import { type ExperimentData, runExperiment } from '../experiments/focused/runner.ts';
import { ResultsFolder } from '../experiments/results-folder.ts';
import { scaledWeb, syntheticCurves } from './helpers.ts';
import { scaled } from './speed.ts';

const STRATEGIES = ['bfs', 'random', 'immediate', 'future', 'adaptive'];
const SITES = [
  'cs.alpha-university.test',
  'cs.beta-university.test',
  'cs.gamma-university.test',
  'cs.delta-university.test',
];
const SEEDS = Array.from({ length: 11 }, (_, i) => i + 1);
const BUDGET = 25_000;
const EVERY = 25;

/** A real run of bfs on one small site, its rows repeated for every series, site and seed of a big run. */
async function bigRun(): Promise<ExperimentData> {
  const small = {
    ...loadExperiment('focused', { quick: true }),
    web: scaledWeb('data/webs/small.json', 0.25),
    strategies: ['bfs'],
    sites: [SITES[0]],
    budget: 100,
    every: 50,
  };
  const d = await runExperiment(small, { workers: 0, cacheDir: null, replay: false });
  const summary = d.summaries.find((s) => s.strategy === 'bfs')!;
  const series = ['oracle', ...STRATEGIES];
  const curves = syntheticCurves(series, SITES, SEEDS.length, BUDGET, EVERY);
  const summaries: SummaryRow[] = series.flatMap((strategy) =>
    SITES.flatMap((site) =>
      SEEDS.map((seed) => ({ ...summary, strategy, site, seed, pages: BUDGET, requests: BUDGET })),
    ),
  );
  return {
    ...d,
    config: { ...small, name: 'big', strategies: STRATEGIES, sites: SITES, seeds: SEEDS, budget: BUDGET, every: EVERY },
    sites: SITES,
    curves,
    summaries,
    structure: [],
  };
}

describe('the outputs of a run of 264,000 curve rows', () => {
  it('writes every CSV, figure, report.md and a page of bounded size; a figure that fails is named in the report', {
    timeout: scaled(300_000),
  }, async () => {
    const d = await bigRun();
    expect(d.curves.length).toBe(264_000);
    const out = mkdtempSync(join(tmpdir(), 'big-'));
    const written = await writeOutputs(d, out);
    for (const f of ['curves.csv', 'aggregates.csv', 'differences.csv', 'report.md', 'index.html', 'fig-recall.png'])
      expect(written.files, f).toContain(f);
    expect(readFileSync(join(out, 'curves.csv'), 'utf8').split('\n').length).toBe(264_000 + 2);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toMatch(/Every run: each 2th point \(50 pages apart\) of 264,000 rows/);
    // about 132,000 points inlined, not 264,000
    expect(statSync(join(out, 'index.html')).size).toBeLessThan(40 << 20);
    expect(written.claims.find((c) => c.id === 'C6')?.verdict).toBe('PASS');

    // a figure that cannot be made: the rest is written and the report says which and why
    const again = mkdtempSync(join(tmpdir(), 'big-'));
    const real = ResultsFolder.prototype.figure;
    const spy = vi.spyOn(ResultsFolder.prototype, 'figure').mockImplementation(function (
      this: ResultsFolder,
      name,
      ...rest
    ) {
      if (name === 'fig-precision') throw new Error('Invalid string length');
      return real.call(this, name, ...rest);
    });
    try {
      const w = await writeOutputs(d, again);
      expect(w.files).not.toContain('fig-precision.png');
      expect(w.files).toContain('fig-recall.png');
      expect(w.files).toContain('index.html');
      expect(readFileSync(join(again, 'report.md'), 'utf8')).toContain(
        '**fig-precision not written**: Invalid string length',
      );
    } finally {
      spy.mockRestore();
    }
  });
});
