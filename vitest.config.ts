import { defineConfig } from 'vitest/config';

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
  'test/distributed.test.ts', // the Redis crawls (heartbeats) and round-trip delays; distributed.threads.test.ts runs in main
  'test/hostile.test.ts',
  'test/sim.server.test.ts',
];

const shared = { testTimeout: 60_000, hookTimeout: 60_000, pool: 'forks' as const };

export default defineConfig({
  test: {
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
