/**
 * Two experiments in one process at once (issue #53 item 4: a library may call runExperiment twice
 * concurrently): each gives the rows it gives alone. The shared environment cache used to close
 * or reset one run's web under the other's crawl.
 */
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../experiments/focused/config.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { scaledWeb } from './helpers.ts';
import { scaled } from './speed.ts';

/** small.json's departments at a quarter of their size: the runs' rows matter, not their recall. */
const WEB = scaledWeb('data/webs/small.json', 0.25);

const cfg = (seed: number, strategies: string[]) => ({
  ...loadExperiment('focused', { quick: true }),
  name: `concurrent-${seed}`,
  web: WEB,
  seeds: [seed],
  budget: 80,
  every: 20,
  sites: ['cs.alpha-university.test', 'cs.beta-university.test'],
  strategies,
});

const rows = async (c: ReturnType<typeof cfg>): Promise<string> => {
  const d = await runExperiment(c, { workers: 0, cacheDir: null });
  return JSON.stringify([d.curves, d.summaries, d.facts]);
};

describe('concurrent experiments in one process', () => {
  it('two at once, on two webs and on one, give the rows each gives alone', { timeout: scaled(120_000) }, async () => {
    const a = cfg(1, ['bfs', 'immediate']);
    const b = cfg(2, ['bfs', 'random']);
    const c = cfg(1, ['random', 'immediate']);
    const alone = [await rows(a), await rows(b), await rows(c)];
    expect(await Promise.all([rows(a), rows(b)])).toEqual([alone[0], alone[1]]);
    // the same web: the jobs take turns on it
    expect(await Promise.all([rows(a), rows(c)])).toEqual([alone[0], alone[2]]);
  });
});
