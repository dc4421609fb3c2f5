/**
 * Golden logs in the default tier (test/golden.ts): breadth-first (the plain order, retries and
 * faults) and the adaptive crawler (frontier updates, retraining) at 150 pages, a quarter of the
 * full tier's case (test/crawler.golden.full.test.ts, every code path at 600 pages), so that the
 * loop while working catches a change of the engine's behaviour too. Hashes taken at d57df55,
 * whose 600-page logs are the full tier's fixture unchanged.
 */
import { describe, it } from 'vitest';
import { expectGoldenLogs } from './golden.ts';
import { scaled } from './speed.ts';

describe('deterministic crawl logs stay byte-identical, a smaller case', () => {
  it('breadth-first and adaptive at 150 pages hash as the fixture says', { timeout: scaled(60_000) }, () =>
    expectGoldenLogs('test/fixtures/golden-logs-small.json', ['bfs', 'adaptive'], 150),
  );
});
