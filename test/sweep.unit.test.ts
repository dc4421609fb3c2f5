/**
 * A sweep's arithmetic: the grid and the interval of a share (the sweeps themselves, run, killed
 * and resumed, are test/sweep.full.test.ts, in the full tier).
 */
import { describe, expect, it } from 'vitest';
import { gridPoints, wilson } from '../experiments/sweep/sweep.ts';

describe('sweep arithmetic', () => {
  it("gives Wilson's interval for a share", () => {
    const [lo, hi] = wilson(3, 6);
    expect(lo).toBeCloseTo(0.188, 3);
    expect(hi).toBeCloseTo(0.812, 3);
    expect(wilson(0, 3)[0]).toBe(0);
    expect(wilson(0, 3)[1]).toBeCloseTo(0.5615, 4);
  });

  it('enumerates the grid, first parameter slowest', () => {
    expect(gridPoints({ a: [1, 2], b: [true, false] }).map((p) => p.values)).toEqual([
      { a: 1, b: true },
      { a: 1, b: false },
      { a: 2, b: true },
      { a: 2, b: false },
    ]);
  });
});
