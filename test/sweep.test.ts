/**
 * Sweeps: every grid point runs the experiment on its own web, a killed sweep resumes where it
 * stopped (finished points are not run again) and gives the same tables as an uninterrupted one.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment, type ExperimentConfig } from '../experiments/focused/config.ts';
import { gridPoints, runSweep, writeSweepOutputs } from '../experiments/sweep/sweep.ts';

function cfg(): ExperimentConfig {
  const base = loadExperiment('focused', { quick: true });
  return {
    ...base,
    name: 'sweep-test',
    strategies: ['bfs', 'immediate'],
    budget: 100,
    every: 25,
    sites: ['cs.alpha-university.test', 'cs.beta-university.test'],
    sweep: { 'web.structure.conventions': [0, 1], 'web.structure.gapMin': [1] },
  };
}

describe('sweeps', () => {
  it('enumerates the grid, first parameter slowest', () => {
    expect(gridPoints({ a: [1, 2], b: [true, false] }).map((p) => p.values)).toEqual([
      { a: 1, b: true },
      { a: 1, b: false },
      { a: 2, b: true },
      { a: 2, b: false },
    ]);
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
    await writeSweepOutputs(b, killed);
    for (const f of ['sweep.csv', 'phase.csv'])
      expect(readFileSync(join(killed, f), 'utf8'), f).toBe(readFileSync(join(clean, f), 'utf8'));
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
});
