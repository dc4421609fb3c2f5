/**
 * CI regression of the main experiment: the quick configuration (small web, seed 1, 600 pages)
 * against the reference committed in results/reference/focused-quick/ (regenerate with
 * `npm run experiment:reference` after an intended change, and say why in the commit).
 * Tolerance: 0.02 absolute on every recall and precision point. Also checks that runs are
 * deterministic whatever the scheduling (in-process vs two workers) and the claims the quick
 * configuration supports.
 */
import { readFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectCurvesNear } from './helpers.ts';
import { checkClaims } from '../experiments/analysis.ts';
import { loadExperiment } from '../experiments/config.ts';
import { writeOutputs } from '../experiments/report.ts';
import { runExperiment } from '../experiments/runner.ts';

const REF = 'results/reference/focused-quick';
const TOLERANCE = 0.02;
// Training, two quick runs and every output: about 60 s on this machine beside another test
// file, the whole of vitest's default timeout; a busy CI machine needs the margin.
const RUNS_MS = 180_000;

describe('experiment regression (quick configuration)', () => {
  it('matches the committed reference curves, deterministically, and writes every output', {
    timeout: RUNS_MS,
  }, async () => {
    const cfg = loadExperiment('focused', { quick: true });
    const cache = mkdtempSync(join(tmpdir(), 'models-'));
    const a = await runExperiment(cfg, { workers: 0, cacheDir: cache });
    const b = await runExperiment(cfg, { workers: 2, cacheDir: cache });
    const outA = mkdtempSync(join(tmpdir(), 'expA-'));
    const outB = mkdtempSync(join(tmpdir(), 'expB-'));
    await writeOutputs(a, outA);
    await writeOutputs(b, outB);
    for (const f of ['curves.csv', 'summary.csv', 'aggregates.csv', 'replay.json', 'index.html'])
      expect(readFileSync(join(outB, f), 'utf8'), f).toBe(readFileSync(join(outA, f), 'utf8'));
    const figures = ['recall', 'precision', 'harvest', 'difference'].flatMap((f) =>
      ['svg', 'png', 'pdf'].map((e) => `fig-${f}.${e}`),
    );
    expect(readdirSync(outA).sort()).toEqual(
      [
        'aggregates.csv',
        'config.json',
        'curves.csv',
        'differences.csv',
        'report.md',
        'summary.csv',
        'index.html',
        'replay.json',
        ...figures,
      ].sort(),
    );
    // the replay is the first run's: every strategy's fetch order on the first site, and the oracle's
    const replay = JSON.parse(readFileSync(join(outA, 'replay.json'), 'utf8')) as {
      site: string;
      n: number;
      xy: number[];
      orders: Record<string, number[]>;
    };
    expect(replay.site).toBe(a.sites[0]);
    expect(replay.xy.length).toBe(2 * replay.n);
    expect(Object.keys(replay.orders).sort()).toEqual([...cfg.strategies, 'oracle'].sort());
    expect(readFileSync(join(outA, 'fig-recall.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(readFileSync(join(outA, 'fig-recall.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    // the written config is itself a config, and it describes this run
    const again = loadExperiment(join(outA, 'config.json'));
    expect(again).toHaveProperty('_rerun');
    expect({ ...again, quick: {}, sites: [], _rerun: undefined }).toEqual({
      ...cfg,
      quick: {},
      sites: [],
      _rerun: undefined,
    });
    expect(again.sites).toEqual(a.sites);
    const report = readFileSync(join(outA, 'report.md'), 'utf8');
    for (const s of [
      '*oracle*',
      'reachable recall',
      'recall AUC',
      'Student t interval over 4 sites of one web',
      '| **INFEASIBLE** |',
    ])
      expect(report).toContain(s);

    expectCurvesNear(
      join(REF, 'curves.csv'),
      join(outA, 'curves.csv'),
      ['strategy', 'site', 'seed', 'pages'],
      ['recall', 'precision'],
      TOLERANCE,
      `curves moved beyond ${TOLERANCE}; if intended, run npm run experiment:reference`,
    );

    // the claim the quick configuration supports: every focused strategy beats both baselines
    const claims = checkClaims(a.curves, cfg.budget, cfg.every, cfg.earlyPhase);
    expect(claims.find((c) => c.id === 'C6')?.verdict).toBe('PASS');
  });

  it('crawls for an HTML target with a learned judgement: adaptive retrains and no run strands', {
    timeout: RUNS_MS,
  }, async () => {
    const cfg = loadExperiment('focused-html', { quick: true });
    const d = await runExperiment(cfg, { workers: 2, cacheDir: mkdtempSync(join(tmpdir(), 'models-')) });
    const runs = d.summaries.filter((s) => s.strategy !== 'oracle');
    expect(runs).toHaveLength(cfg.strategies.length * 4);
    for (const s of runs.filter((x) => x.strategy === 'adaptive')) expect(s.retrainings).toBeGreaterThan(0);
    for (const s of runs) expect(s.pages === cfg.budget || s.frontier_left === 0, `${s.strategy} ${s.site}`).toBe(true);
    expect(d.summaries.find((s) => s.strategy === 'oracle')?.relevant_total).toBeGreaterThan(0);
  });
});
