/**
 * More than 200,000 curve rows through run-one (issue #84): one department crawled by bfs with a
 * row every page of a 130,000-request budget (the crawl ends with the department; its rows go on
 * to the budget, as every run's do), and the oracle's as many: 260,000 rows gathered by one job.
 * A push(...rows) of one run's 130,000 rows overflows the stack (V8 takes about 120,000
 * arguments); the rows must all arrive, each run's in order.
 */
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../experiments/focused/config.ts';
import { runJob } from '../experiments/focused/run-one.ts';
import { scaled } from './speed.ts';

const BUDGET = 130_000;
const SITE = 'cs.alpha-university.test';

describe('run-one at scale', () => {
  it('gathers 260,000 curve rows of one job, 130,000 a run, every run whole and in order', {
    timeout: scaled(120_000),
  }, async () => {
    const cfg = {
      ...loadExperiment('focused', { quick: true }),
      budget: BUDGET,
      every: 1,
      strategies: ['bfs'],
      sites: [SITE],
      diagnostics: false,
    };
    const result = await runJob(cfg, 1, SITE, null);
    expect(result.curves).toHaveLength(2 * BUDGET);
    const next = new Map<string, number>();
    for (const row of result.curves) {
      const want = (next.get(row.strategy) ?? 0) + 1;
      if (row.pages !== want) throw new Error(`${row.strategy} at page ${row.pages}, expected ${want}`);
      next.set(row.strategy, want);
    }
    expect(Object.fromEntries(next)).toEqual({ bfs: BUDGET, oracle: BUDGET });
    expect(result.summaries).toHaveLength(2);
  });
});
