/**
 * Golden logs, every code path of the engine (test/golden.ts): plain order, frontier updates,
 * Best-N-First batches, rescued links, the adaptive crawler's retraining, its threads' re-admitted
 * links; adaptive-page, the former default adaptive, keeps the former adaptive's hashes. 600 pages
 * each; the hashes were taken at 976c255, before the engine was split by responsibility (#18 item
 * 2). The default tier runs a smaller case (test/crawler.golden.test.ts).
 */
import { describe, it } from 'vitest';
import { expectGoldenLogs } from './golden.ts';
import { scaled } from './speed.ts';

describe('deterministic crawl logs stay byte-identical', () => {
  it('for every code path of the engine, the logs hash as the fixture says', { timeout: scaled(180_000) }, () =>
    expectGoldenLogs(
      'test/fixtures/golden-logs.json',
      ['bfs', 'opic', 'best-n-first', 'shark-search', 'adaptive', 'adaptive-page'],
      600,
    ),
  );
});
