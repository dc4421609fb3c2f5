import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Two projects. "timing": files whose servers measure gaps, delays and deadlines (politeness,
 * Crawl-delay, slow responses, audits under load); they run after everything else, so no
 * CPU-heavy file distorts what their servers observe, two at a time: they mostly wait on timers,
 * and two of them side by side passed 8 runs of 8 (27-29 s instead of 42-44 s one at a time).
 * "main": the rest, in parallel.
 * Files share their worker process (isolate: false): one fresh process per file loaded undici,
 * fastify, vega and the crawler again each time (22 s of imports in a run, 9 s shared). A file
 * must therefore leave no state behind that another could see: no global dispatcher, no env
 * changes, module caches keyed by what they depend on (test/experiment.inprocess.test.ts).
 */
const TIMING = [
  'test/crawler.politeness.test.ts',
  'test/crawler.faults.test.ts',
  'test/crawler.robots.test.ts',
  'test/deepweb.test.ts',
  'test/distributed.test.ts', // Redis crawls (heartbeats), round-trip delays; distributed.threads.test.ts is main's
  'test/hostile.test.ts',
  'test/sim.server.test.ts',
];

/**
 * The files that take longest (seconds in a clean-clone suite, at the commit that last listed them), run
 * first in their project, longest first, so that no core idles at the end while one long file
 * finishes. Vitest orders by the durations it cached from an earlier run, and without a cache
 * (a clean clone: CI) by file size, which started the deep-web regression and the Redis file late
 * and left one core idle for 4-8 s at the end of each project.
 */
const LONGEST = [
  'test/experiment.regression.test.ts', // 32
  'test/deepweb.regression.test.ts', // 28
  'test/distributed.test.ts', // 18, timing
  'test/crawler.golden.test.ts', // 15
  'test/distributed.threads.test.ts', // 12
  'test/warc.test.ts', // 12
  'test/archive.test.ts', // 10
  'test/page.test.ts', // 10
  'test/experiment.cli.test.ts', // 10
  'test/hostile.test.ts', // 9, timing
  'test/crawler.engine.test.ts', // 9
  'test/deepweb.test.ts', // 7, timing
];

/** Vitest's order (projects by groupOrder, then cached durations or size), but LONGEST first within a project. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST.findIndex((l) => f.moduleId.endsWith(`/${l}`));
      return i < 0 ? LONGEST.length : i;
    };
    const at = new Map(base.map((f, i) => [f, i]));
    const group = (f: TestSpecification): number => f.project.config.sequence.groupOrder;
    return base.sort((a, b) => group(a) - group(b) || rank(a) - rank(b) || at.get(a)! - at.get(b)!);
  }
}

const shared = { testTimeout: 60_000, hookTimeout: 60_000, pool: 'forks' as const };

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          ...shared,
          name: 'main',
          include: ['test/**/*.test.ts', 'lib/**/*.test.ts'],
          exclude: TIMING,
          // one file per core: the default (cores - 1) is a single worker on this 2-core machine
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'timing',
          include: TIMING,
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
