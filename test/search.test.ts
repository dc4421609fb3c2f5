/**
 * The search for a point where the claims hold (experiments/sweep/search.ts): its space is checked
 * against the schemas, its Latin hypercube uses every stratum once, and its optimiser spends
 * exactly its evaluations, never runs a point twice, is the same at the same seed and finds the
 * optimum of an objective it can reach.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resource } from '../lib/paths.ts';
import { ExperimentConfigError } from '../experiments/config-files.ts';
import { ExperimentSchema, loadExperiment } from '../experiments/focused/config.ts';
import { closer, optimise, type Scored } from '../experiments/sweep/search.ts';
import { type Dimension, dimensionsOf, latinHypercube, neighbours } from '../experiments/search-space.ts';
import type { Point } from '../experiments/sweep/sweep.ts';

const dims: Dimension[] = [
  { key: 'x', kind: 'range', lo: 0, hi: 1, integer: false },
  { key: 'k', kind: 'range', lo: 0, hi: 6, integer: true },
  { key: 'b', kind: 'choice', values: [true, false] },
];

/** A made-up objective: every claim held at x = 0.3, k = 4, b = false; the shortfall grows with the distance. */
const score = (v: Point['values']) => {
  const shortfall = Math.abs((v.x as number) - 0.3) + Math.abs((v.k as number) - 4) / 6 + (v.b ? 0.5 : 0);
  return { held: shortfall < 0.05 ? 5 : 0, shortfall: Math.round(shortfall * 1e4) / 1e4 };
};

describe('search', () => {
  it("checks the space against the web's and the experiment's schemas", () => {
    const problem = (space: Record<string, (number | boolean | string)[]>) =>
      dimensionsOf(space, ExperimentSchema).problem;
    expect(problem({ 'web.structure.gapMin': [0, 4], 'adaptive.tunnel': ['priority', 'thread'] })).toBeNull();
    expect(dimensionsOf({ 'web.structure.gapMin': [0, 4] }, ExperimentSchema).dimensions[0]).toMatchObject({
      kind: 'range',
      integer: true,
    });
    expect(problem({})).toMatch(/name one parameter/);
    expect(problem({ 'web.structure.nope': [0, 1] })).toMatch(/not a field of the web config/);
    expect(problem({ budgets: [1, 2] })).toMatch(/not a field of the experiment config/);
    // a name every object has is no field (it searched nothing, silently, before)
    expect(problem({ constructor: [1, 2] })).toMatch(/constructor: not a field of the experiment config/);
    expect(problem({ 'web.toString': [1, 2] })).toMatch(/not a field of the web config/);
    expect(problem({ 'web.links.mu': [0.5, 0.1] })).toMatch(/low < high/);
    expect(problem({ 'web.links.mu': [0, 2] })).toMatch(/leaves the field's range \[0, 1\]/);
    expect(problem({ 'web.structure.gapMin': [0, 2.5] })).toMatch(/whole bounds/);
    expect(problem({ 'web.structure.bypass.navBar': [true, 'no'] })).toMatch(/"no" is not a boolean/);
    expect(problem({ 'web.structure.bypass.navBar': [true, true] })).toMatch(/must differ/);
  });

  it('refuses a config with both a grid and a search, or confirming on its own seeds', () => {
    const raw = JSON.parse(readFileSync(resource('experiments/configs/claims-search.json'), 'utf8'));
    delete raw.quick;
    expect(() => loadExperiment({ ...raw, sweep: { 'web.links.mu': [0.1] } })).toThrow(
      /a sweep grid or a search, not both/,
    );
    // a grid over a name every object has sweeps nothing: refused (it ran, every point alike, before)
    const { search: _search, ...grid } = raw;
    expect(() => loadExperiment({ ...grid, sweep: { constructor: [1, 2] } })).toThrow(
      /sweep.constructor: not a field of the experiment config/,
    );
    expect(() => loadExperiment({ ...raw, search: { ...raw.search, confirm: [2, 7] } })).toThrow(
      /search.confirm: seed 2 is one of the search's seeds/,
    );
    expect(() => loadExperiment({ ...raw, search: { ...raw.search, compare: 'focused' } })).toThrow(
      /not an archive experiment/,
    );
    expect(() => loadExperiment(raw)).not.toThrow(ExperimentConfigError);
  });

  it('draws a Latin hypercube: every stratum of every range once, the same at the same seed', () => {
    const pts = latinHypercube([dims[0]], 8, 3);
    const strata = pts.map((p) => Math.floor((p.x as number) * 8)).sort();
    expect(strata).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(latinHypercube(dims, 8, 3)).toEqual(latinHypercube(dims, 8, 3));
    expect(latinHypercube(dims, 8, 4)).not.toEqual(latinHypercube(dims, 8, 3));
    // whole numbers: each of 0-6 drawn once in 7 points
    expect(
      latinHypercube([dims[1]], 7, 1)
        .map((p) => p.k)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("gives a point's neighbours within the range, never the point itself", () => {
    expect(neighbours(dims[0], 0.9, 0.5)).toEqual([0.65, 1]);
    expect(neighbours(dims[1], 0, 0.5)).toEqual([2]);
    expect(neighbours(dims[1], 3, 0.01)).toEqual([2, 4]);
    expect(neighbours(dims[2], true, 0.5)).toEqual([false]);
  });

  it('spends exactly its evaluations, never runs a point twice, and refines towards the optimum', async () => {
    const batches: number[] = [];
    const evaluate = async (points: Point[]) => {
      batches.push(points.length);
      return points.map((p) => score(p.values));
    };
    const all = await optimise(dims, { evaluations: 40, seed: 1 }, evaluate);
    expect(all).toHaveLength(40);
    expect(all.map((p) => p.index)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(new Set(all.map((p) => JSON.stringify(p.values))).size).toBe(40);
    expect(all.filter((p) => p.phase === 'sample')).toHaveLength(20);
    const best = (xs: Scored[]) => xs.reduce((b, x) => (closer(x, b) ? x : b));
    const sampled = best(all.filter((p) => p.phase === 'sample'));
    const found = best(all);
    expect(found.shortfall).toBeLessThan(sampled.shortfall);
    expect(found.values.b).toBe(false);
    expect(found.values.k).toBe(4);
    expect(Math.abs((found.values.x as number) - 0.3)).toBeLessThan(0.07);
    // the same seed and the same scores: the same points
    expect(await optimise(dims, { evaluations: 40, seed: 1 }, evaluate)).toEqual(all);
  });

  it('stops early when every neighbour of whole-number and choice dimensions has been run', async () => {
    const small: Dimension[] = [
      { key: 'k', kind: 'range', lo: 0, hi: 1, integer: true },
      { key: 'b', kind: 'choice', values: ['u', 'v'] },
    ];
    const all = await optimise(small, { evaluations: 50, seed: 2 }, async (ps) =>
      ps.map(() => ({ held: 0, shortfall: 1 })),
    );
    expect(all.length).toBeLessThanOrEqual(4);
    expect(new Set(all.map((p) => JSON.stringify(p.values))).size).toBe(all.length);
  });
});
