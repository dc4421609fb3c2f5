import { describe, expect, it } from 'vitest';
import { layoutIterations, layoutXY } from './page-replay.ts';

describe('the replay layout beside its crawls (issue #70)', () => {
  it('spends at most 200 units of layout work per fetch, between 10 and 100 iterations', () => {
    for (const n of [50, 2_000, 6_000, 10_000])
      for (const fetches of [700, 3_500, 14_000, 400_000]) {
        const it = layoutIterations(n, fetches);
        expect(it).toBeGreaterThanOrEqual(10);
        expect(it).toBeLessThanOrEqual(100);
        if (it > 10) expect(it * n * Math.log2(n)).toBeLessThanOrEqual(200 * fetches);
      }
    // the default experiment's first job: a 6,000-page department, 7 strategies x 2,000 requests
    expect(layoutIterations(6_000, 14_000)).toBe(37);
    expect(layoutIterations(500, 14_000)).toBe(100);
  });

  it('lays the same graph out the same way, and the iterations matter', () => {
    // a ring of 40 pages with a chord every fifth page
    const n = 40;
    const out: number[][] = Array.from({ length: n }, (_, i) => [(i + 1) % n, ...(i % 5 ? [] : [(i + 20) % n])]);
    const outStart = [0];
    for (const t of out) outStart.push(outStart[outStart.length - 1] + t.length);
    const r = { n, outStart, outTarget: out.flat() };
    expect(layoutXY(r, 30)).toEqual(layoutXY(r, 30));
    expect(layoutXY(r, 10)).not.toEqual(layoutXY(r, 100));
    for (const v of layoutXY(r, 10)) expect(v >= 0 && v <= 999).toBe(true);
  });
});
