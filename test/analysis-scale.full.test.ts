/**
 * The analysis of a large run (issue #70): a 10^6-page web at budget 100,000, every 25, six
 * series, four sites and eleven seeds is 1,056,000 curve rows. A spread over them once threw
 * "Maximum call stack size exceeded" after an hour's crawl, and no report was written. Here the
 * aggregates, the paired differences, the claims and the bands' rule take every row.
 */
import { describe, expect, it } from 'vitest';
import { aggregate, checkClaims, curvesBands, differences } from '../experiments/focused/analysis.ts';
import { syntheticCurves } from './helpers.ts';
import { scaled } from './speed.ts';

describe('the analysis of 10^6 curve rows', () => {
  it('aggregates, differences and claims over 1,056,000 rows without a spread or a stack overflow', {
    timeout: scaled(120_000),
  }, () => {
    const strategies = ['oracle', 'bfs', 'random', 'immediate', 'future', 'adaptive'];
    const sites = ['a', 'b', 'c', 'd'];
    const every = 25;
    const budget = 100_000;
    const rows = syntheticCurves(strategies, sites, 11, budget, every);
    expect(rows.length).toBe(1_056_000);
    const aggs = aggregate(rows);
    expect(aggs).toHaveLength(strategies.length * (budget / every));
    expect(differences(rows, 'immediate')).toHaveLength((strategies.length - 2) * (budget / every));
    const claims = checkClaims(rows, budget, every, 0.15);
    expect(claims.length).toBeGreaterThan(0);
    // adaptive (0.5 above the base) beats bfs (0.1) at every seed: a claim that holds is decided
    expect(claims.find((c) => c.id === 'C6')?.verdict).toBe('PASS');
    expect(curvesBands(rows).draw).toBe(true);
  });
});
