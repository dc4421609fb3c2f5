/**
 * Sweeps: every grid point runs the experiment on its own web, a killed sweep resumes where it
 * stopped (finished points are not run again) and gives the same tables as an uninterrupted one.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment, type ExperimentConfig } from '../experiments/focused/config.ts';
import { gridPoints, RunReuse, runSweep, type SweepData, writeSweepOutputs } from '../experiments/sweep/sweep.ts';
import type { CurveRow } from '../experiments/focused/rows.ts';
import { scaledWeb } from './helpers.ts';
import { scaled } from './speed.ts';

/** small.json's departments at a quarter of their size: what a sweep does with a web, not its results. */
const WEB = scaledWeb('data/webs/small.json', 0.25);

function cfg(): ExperimentConfig {
  const base = loadExperiment('focused', { quick: true });
  return {
    ...base,
    name: 'sweep-test',
    web: WEB,
    strategies: ['bfs', 'immediate'],
    budget: 100,
    every: 25,
    sites: ['cs.alpha-university.test', 'cs.beta-university.test'],
    sweep: { 'web.structure.conventions': [0, 1], 'web.structure.gapMin': [1] },
  };
}

describe('sweeps', () => {
  it("judges the paper's claims at every point of readings (a multiverse), with a share and its interval", async () => {
    // two readings' curves, made by hand: at the first adaptive overtakes both after the early
    // phase, at the second it does not (four sites, checkpoints every 25 pages to 200)
    const curve = (point: number, strategy: string, site: string, pages: number): CurveRow => {
      const late = pages > 50;
      const jitter = (site.length % 4) * 0.001;
      const recall =
        strategy === 'oracle'
          ? Math.min(1, pages / 100)
          : strategy === 'immediate'
            ? (late ? 0.3 : 0.2) + jitter
            : strategy === 'future'
              ? (late ? 0.35 : 0.05) + jitter
              : point === 0
                ? (late ? 0.6 : 0.15) + jitter
                : (late ? 0.1 : 0.15) + jitter;
      return {
        experiment: 'm',
        strategy,
        site,
        seed: 1,
        order: 1,
        pages,
        recall,
        recall_reachable: recall,
        precision: recall / 2,
        harvest: recall / 2,
      };
    };
    const sites = ['a.test', 'bb.test', 'ccc.test', 'dddd.test'];
    const d = {
      config: {
        ...cfg(),
        name: 'readings-test',
        strategies: ['immediate', 'future', 'adaptive'],
        budget: 200,
        every: 25,
        earlyPhase: 0.25,
        sweep: { 'adaptive.retrainUpdates': ['new-links', 'frontier'] },
      },
      points: [0, 1].map((index) => ({
        index,
        values: { 'adaptive.retrainUpdates': index ? 'frontier' : 'new-links' },
        curves: ['oracle', 'immediate', 'future', 'adaptive'].flatMap((st) =>
          sites.flatMap((site) => [25, 50, 75, 100, 125, 150, 175, 200].map((p) => curve(index, st, site, p))),
        ),
        // what the phase table ranks by: a run's recall AUC (here its mean recall)
        summaries: ['immediate', 'future', 'adaptive', 'oracle'].flatMap((strategy) =>
          sites.map((site) => ({
            experiment: 'm',
            strategy,
            site,
            seed: 1,
            recall_auc: curve(index, strategy, site, 200).recall,
          })),
        ),
      })),
      computed: 2,
      wallMs: 1,
    } as unknown as SweepData;
    const dir = mkdtempSync(join(tmpdir(), 'sweep-m-'));
    const w = await writeSweepOutputs(d, dir);
    expect(w.files).toContain('claims.csv');
    const rows = readFileSync(join(dir, 'claims.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).toBe('point,adaptive.retrainUpdates,claim,verdict,margin');
    // C1-C5 at each of the two readings (C6 needs bfs and random)
    expect(rows).toHaveLength(1 + 2 * 5);
    const row = (point: string, claim: string): string[] =>
      rows.find((r) => r.startsWith(`${point},`) && r.includes(`,${claim},`))!.split(',');
    expect(row('0', 'C4')[3]).toBe('PASS');
    expect(row('1', 'C4')[3]).toBe('FAIL');
    // a margin above 0 where the claim holds, below where it fails: how far the runs were from it
    expect(Number(row('0', 'C4')[4])).toBeGreaterThan(0);
    expect(Number(row('1', 'C4')[4])).toBeLessThan(0);
    for (const r of rows.slice(1).map((x) => x.split(',')))
      if (r[3] === 'PASS') expect(Number(r[4])).toBeGreaterThan(0);
      else if (r[3] === 'FAIL' || r[3] === 'TIE') expect(Number(r[4])).toBeLessThanOrEqual(0);
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    // C4 holds under one reading of two: share 0.50, Wilson [0.09, 0.91]
    expect(report).toMatch(
      /^\| C4 Adaptive overtakes both[^|]*\| 1 \| 1 \| 0 \| 0 \| 0 \| 0\.50 \[0\.09, 0\.91\] \|$/m,
    );
  });

  it('resumes a killed sweep without rerunning finished points, with the same results', async () => {
    const clean = mkdtempSync(join(tmpdir(), 'sweep-a-'));
    const a = await runSweep(cfg(), clean, { workers: 0, cacheDir: null });
    expect(a.computed).toBe(2);
    const wa = await writeSweepOutputs(a, clean);
    expect(wa.files).toEqual(
      expect.arrayContaining([
        'sweep.csv',
        'phase.csv',
        'fig-phase.svg',
        'fig-phase.png',
        'fig-phase.pdf',
        'report.md',
      ]),
    );
    // each point's web is written, with gapMax following the swept gapMin
    const web1 = JSON.parse(readFileSync(join(clean, 'webs', 'p1.json'), 'utf8')) as {
      structure: Record<string, unknown>;
    };
    expect(web1.structure).toMatchObject({ conventions: 1, gapMin: 1, gapMax: 1 });

    const killed = mkdtempSync(join(tmpdir(), 'sweep-b-'));
    await expect(
      runSweep(cfg(), killed, {
        workers: 0,
        cacheDir: null,
        onPoint: () => {
          throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    expect(existsSync(join(killed, 'points', 'p0.json'))).toBe(true);
    expect(existsSync(join(killed, 'points', 'p1.json'))).toBe(false);
    const resumed: boolean[] = [];
    const b = await runSweep(cfg(), killed, { workers: 0, cacheDir: null, onPoint: (_d, _t, r) => resumed.push(r) });
    expect(resumed).toEqual([true, false]);
    expect(b.computed).toBe(1);
    // a comment changed (the config's "_" keys): the same experiment, nothing runs again
    const reworded = { ...cfg(), _doc: 'reworded' } as ExperimentConfig;
    expect((await runSweep(reworded, killed, { workers: 0, cacheDir: null })).computed).toBe(0);
    await writeSweepOutputs(b, killed);
    for (const f of ['sweep.csv', 'phase.csv'])
      expect(readFileSync(join(killed, f), 'utf8'), f).toBe(readFileSync(join(clean, f), 'utf8'));
    // a file the config names changed (here its keyword list, as an archive rebuilt would): every
    // point runs again, none is resumed from the other data
    const kw = join(killed, 'keywords.txt');
    writeFileSync(kw, 'neural\nnetwork\n');
    const withKw = { ...cfg(), keywords: kw } as ExperimentConfig;
    expect((await runSweep(withKw, killed, { workers: 0, cacheDir: null })).computed).toBe(2);
    writeFileSync(kw, 'database\nquery\n');
    expect((await runSweep(withKw, killed, { workers: 0, cacheDir: null })).computed).toBe(2);
    expect((await runSweep(withKw, killed, { workers: 0, cacheDir: null })).computed).toBe(0);
    // points side by side in worker processes (one each): the same tables as one after another
    const side = mkdtempSync(join(tmpdir(), 'sweep-c-'));
    const c = await runSweep(cfg(), side, { workers: 2, cacheDir: null });
    expect(c.computed).toBe(2);
    await writeSweepOutputs(c, side);
    for (const f of ['sweep.csv', 'phase.csv'])
      expect(readFileSync(join(side, f), 'utf8'), f).toBe(readFileSync(join(clean, f), 'utf8'));
    const rows = readFileSync(join(clean, 'sweep.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).toContain('web.structure.conventions');
    expect(rows).toHaveLength(1 + 2 * 3); // header, two points x (oracle, bfs, immediate)
  });

  it("reuses a strategy's runs between readings that differ only in settings it does not read, with the same rows", {
    timeout: scaled(180_000),
  }, async () => {
    const readings: ExperimentConfig = {
      ...cfg(),
      strategies: ['bfs', 'immediate', 'future', 'adaptive'],
      budget: 60,
      every: 20,
      sites: ['cs.alpha-university.test'],
      sweep: { 'adaptive.startPage': ['tunnel', 'exploit'], 'future.horizon': [1, 2] },
    };
    // what each point runs: the strategies whose runs no earlier point made
    const ran: string[][] = [];
    const reuse = new RunReuse(true);
    const fake = (pc: ExperimentConfig) => {
      ran.push(pc.strategies);
      const row = (strategy: string) => ({ strategy, site: 'a', seed: 1, pages: 10 }) as never;
      return Promise.resolve({ curves: [...pc.strategies, 'oracle'].map(row), summaries: [] });
    };
    for (const p of gridPoints(readings.sweep))
      await reuse.point(p, { ...readings, sweep: {} }, fake).then((r) => expect(r.curves).toHaveLength(5));
    // immediate and bfs once; future once per horizon; adaptive at every point
    expect(ran).toEqual([
      ['bfs', 'immediate', 'future', 'adaptive'],
      ['future', 'adaptive'],
      ['adaptive'],
      ['adaptive'],
    ]);
    // and the rows are those of every point run in full
    const full = await runSweep(readings, mkdtempSync(join(tmpdir(), 'sweep-full-')), {
      workers: 0,
      cacheDir: null,
      reuse: false,
    });
    const reused = await runSweep(readings, mkdtempSync(join(tmpdir(), 'sweep-reuse-')), {
      workers: 2,
      cacheDir: null,
    });
    expect(reused.points.map((p) => p.curves)).toEqual(full.points.map((p) => p.curves));
    expect(reused.points.map((p) => p.summaries)).toEqual(full.points.map((p) => p.summaries));
  });
});
