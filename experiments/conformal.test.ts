import { describe, expect, it } from 'vitest';
import { makeRng } from '../sim/web-rng.ts';
import { conformalBound, quantile } from './intervals.ts';

describe('conformalBound: what a fresh draw falls under, nine times in ten (issue #85)', () => {
  it('is the ceil((n + 1) q)-th smallest, by hand', () => {
    const xs = [5, 1, 4, 2, 3, 9, 8, 7, 6];
    // n 9, q 0.9: ceil(9) = 9th smallest, the largest
    expect(conformalBound(xs, 0.9)).toBe(9);
    // n 19: ceil(18) = 18th smallest
    expect(
      conformalBound(
        Array.from({ length: 19 }, (_, i) => 19 - i),
        0.9,
      ),
    ).toBe(18);
    // n 8 is too few for 90%: no finite bound holds
    expect(conformalBound([1, 2, 3, 4, 5, 6, 7, 8], 0.9)).toBe(Infinity);
    expect(conformalBound([3, 1, 2], 0.5)).toBe(2);
  });

  it('holds a fresh draw at least 90% of the time where the plug-in 90th percentile of 8 holds about 80%', () => {
    const rng = makeRng('conformal-check');
    const trials = 20000;
    let conformal = 0;
    let plugIn = 0;
    for (let t = 0; t < trials; t++) {
      const draw = (): number => -Math.log(1 - rng.next()); // exponential: skewed, as losses are
      const nineteen = Array.from({ length: 19 }, draw);
      const eight = nineteen.slice(0, 8);
      const fresh = draw();
      if (fresh <= conformalBound(nineteen, 0.9)) conformal++;
      if (fresh <= quantile(eight, 0.9)) plugIn++;
    }
    // exact: 18 / 20 = 0.9 and, for the plug-in, 7.3 / 9 = 0.811 (k / (n + 1) between order statistics)
    expect(conformal / trials).toBeGreaterThan(0.89);
    expect(conformal / trials).toBeLessThan(0.91);
    expect(plugIn / trials).toBeGreaterThan(0.79);
    expect(plugIn / trials).toBeLessThan(0.83);
  });
});
