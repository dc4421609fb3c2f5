import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Two projects, run side by side on three worker processes. "timing": the files named
 * *.timing.test.ts, whose servers measure gaps, delays and deadlines (politeness, Crawl-delay, slow
 * responses, audits under load, Redis heartbeats), at the default CPU priority. "main": the rest, CPU-bound, at nice 10
 * (test/lower-priority.ts), so that a timing file gets a core whenever it needs one and main's
 * files use what it leaves; most timing files mostly wait on timers. Run after main, two at a time
 * (groupOrder 1), the warm suite took 92.4 and 82.7 s against 74.3 and 74.1 s this way, alternated
 * (2026-12-03): a slow hour on this machine (up to half slower) would take that past 120 s. Beside two
 * busy processes at their own priority (a worse case than niced ones) they passed 3 runs of 3, and
 * 10 full runs of 10 passed this way.
 * Files share their worker process (isolate: false): one fresh process per file loaded undici,
 * fastify, vega and the crawler again each time (22 s of imports in a run, 9 s shared). A file
 * must therefore leave no state behind that another could see: no global dispatcher, no env
 * changes, module caches keyed by what they depend on (test/experiment.inprocess.test.ts).
 */
const TIMING = ['**/*.timing.test.ts'];

/**
 * The files that take longest (seconds in a clean-clone suite, at the commit that last listed them),
 * longest first. Vitest orders by the durations it cached from an earlier run, and without a cache
 * (a clean clone: CI) by file size, which started the deep-web regression and the Redis file late
 * and left a core idle at the end while one long file finished.
 */
const LONGEST = [
  'test/experiment.regression.test.ts', // 32 (60 in a clean clone on 2026-12-03)
  'test/package.test.ts', // npm pack, install, a small experiment twice (installed and from sources), two programs
  'test/twin.test.ts', // a blind round trip: two fits of 30-48 evaluations, a WARC written and read
  'test/scale.test.ts', // the focused comparison at 10^3 and 10^4 pages
  'test/deepweb.regression.test.ts', // 28
  'test/distributed.timing.test.ts', // 18
  'test/webkb.test.ts', // 16
  'test/crawler.golden.test.ts', // 15
  'test/distributed.threads.test.ts', // 12
  'test/warc.test.ts', // 12
  'test/archive.test.ts', // 10
  'test/page.test.ts', // 10
  'test/experiment.cli.test.ts', // 10
  'test/hostile.timing.test.ts', // 9
  'test/crawler.engine.test.ts', // 9
  'test/deepweb.timing.test.ts', // 7
];

/** How many of main's longest files start before the timing files (one worker each). */
const MAIN_FIRST = 2;

/**
 * The queue the three workers take files from, in order: main's MAIN_FIRST longest files, then the
 * timing files, then main's others; within each part LONGEST first, then vitest's order (cached
 * durations or size). So the two long CPU-bound files start at once, beside one timing file at a
 * time, and no long file starts last.
 */
class TimingBesideMain extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST.findIndex((l) => f.moduleId.endsWith(`/${l}`));
      return i < 0 ? LONGEST.length : i;
    };
    const at = new Map(base.map((f, i) => [f, i]));
    const order = (a: TestSpecification, b: TestSpecification): number => rank(a) - rank(b) || at.get(a)! - at.get(b)!;
    const main = base.filter((f) => f.project.name === 'main').sort(order);
    const timing = base.filter((f) => f.project.name !== 'main').sort(order);
    return [...main.slice(0, MAIN_FIRST), ...timing, ...main.slice(MAIN_FIRST)];
  }
}

/** Worker processes for both projects together (vitest runs projects of one groupOrder in one pool). */
const WORKERS = 3;

const shared = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  isolate: false,
  maxWorkers: WORKERS,
  sequence: { groupOrder: 0 },
};

export default defineConfig({
  test: {
    sequence: { sequencer: TimingBesideMain },
    // one line at the end naming the tests skipped for a missing tool, and how to install it; and one
    // scratch directory for the whole run, removed at its end
    globalSetup: ['test/missing-tools.ts', 'test/scratch-dir.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'main',
          // a test may sit beside its module anywhere in the tree (node_modules and results/ aside)
          include: ['**/*.test.ts'],
          exclude: [...TIMING, 'node_modules/**', 'results/**', 'dist/**'],
          setupFiles: ['test/lower-priority.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'timing',
          include: TIMING,
        },
      },
    ],
  },
});
