import { describe, expect, it } from 'vitest';
import { type Point, type Profile, reoptimise, ridgeOrder, tradesOf } from './profile.ts';
import type { KnobValues, TwinKnob } from './terms.ts';

// two knobs that make one quantity together (faculty x papers each = the papers), and one that
// matters on its own: the shape of the trade the blind fits missed (issue #72)
const faculty: TwinKnob = { path: 'f', min: 2, max: 60, help: '' };
const papers: TwinKnob = { path: 'p', min: 1, max: 120, help: '' };
const links: TwinKnob = { path: 'l', min: 0, max: 10, integer: true, help: '' };
const free = [faculty, papers, links];
const lossOf = (v: KnobValues): number => ((v.f * v.p - 600) / 100) ** 2 + (v.l - 3) ** 2 / 4;

function evaluator(): { evaluate: (v: KnobValues) => number; evaluations: number; visited: Point[] } {
  const f = {
    evaluations: 0,
    visited: [] as Point[],
    evaluate(v: KnobValues): number {
      f.evaluations++;
      const loss = lossOf(v);
      f.visited.push({ values: v, loss });
      return loss;
    },
  };
  return f;
}

describe('the profile likelihood (issue #72)', () => {
  const fit: Point = { values: { f: 10, p: 60, l: 3 }, loss: 0 };

  it('re-optimising the other knobs finds the trade a slice misses', () => {
    const e = evaluator();
    // faculty at 40: held at the fit, papers 60 make 2,400 papers (loss 324); re-optimised, papers move toward 15
    const slice = reoptimise(e, faculty, 40, [papers, links], [fit], 0);
    expect(slice.loss).toBeCloseTo(324, 6);
    const profiled = reoptimise(e, faculty, 40, [papers, links], [fit], 12);
    expect(profiled.loss).toBeLessThan(slice.loss / 10);
    expect(profiled.values.p).toBeLessThan(40);
    expect(profiled.values.f).toBe(40);
    // the stated budget: the start and at most 12 more
    expect(e.evaluations).toBeLessThanOrEqual(1 + 1 + 12);
  });

  it('orders the others by how they moved with the knob among the best points', () => {
    // points along the ridge f x p = 600, and some off it
    const visited: Point[] = [];
    for (const f of [5, 10, 20, 30, 40, 50])
      for (const l of [1, 3, 5]) visited.push({ values: { f, p: 600 / f, l }, loss: lossOf({ f, p: 600 / f, l }) });
    expect(ridgeOrder(faculty, free, visited).map((k) => k.path)).toEqual(['p', 'l']);
  });

  it('names the knobs that trade along a profile, and not knobs that merely moved where all fits', () => {
    // faculty 10 at the fit; at 20-40 the slice (papers held at 60) is far off, papers re-optimised make up for it
    const fitted = { f: 10, p: 60, l: 3 };
    const profile: Profile = [10, 20, 30, 40].map((f) => ({
      value: f,
      loss: 0.1,
      values: { f, p: 600 / f, l: 3 },
      slice: lossOf({ ...fitted, f }),
    }));
    const trades = tradesOf(free, new Map([['f', profile]]), 1, fitted);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ along: 'f', with: 'p' });
    expect(trades[0].r).toBeLessThan(-0.7);
    // above the threshold nothing fits as well as the fit: no trade is read from it
    expect(tradesOf(free, new Map([['f', profile]]), 0.05, fitted)).toEqual([]);
    // a flat profile (the slice fits too): papers wandered, but nothing had to make up for anything
    const flat = profile.map((p) => ({ ...p, slice: 0.2 }));
    expect(tradesOf(free, new Map([['f', flat]]), 1, fitted)).toEqual([]);
  });
});
