import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { WORKER_FLAGS } from './experiments/pool.ts';
import { SOURCE_ENTRIES } from './lib/self-import.ts';
import { measureSpeedFactor } from './test/speed.ts';

/**
 * Two projects, run side by side on four worker processes. "timing": the files named
 * *.timing.test.ts, whose servers measure gaps, delays and deadlines (politeness, Crawl-delay, slow
 * responses, audits under load, Redis heartbeats), at the default CPU priority. "main": the rest, CPU-bound, at nice 10
 * (test/lower-priority.ts), so that a timing file gets a core whenever it needs one and main's
 * files use what it leaves; most timing files mostly wait on timers (run after main instead, the
 * suite took longer, and the timing files passed beside busy processes either way).
 * Files share their worker process (isolate: false): a fresh process per file would load undici,
 * fastify, vega and the crawler again for each. A file must therefore leave no state behind that
 * another could see: no global dispatcher, no env changes, module caches keyed by what they depend
 * on (test/experiment.inprocess.test.ts).
 */
const TIMING = ['**/*.timing.test.ts', '**/*.timing.full.test.ts'];

/**
 * The full tier: files named *.full.test.ts (`*.timing.full.test.ts` for timing ones), that check
 * results end to end (`npm run test:full`, `vitest run --mode full`; what CI runs). `npm test` leaves
 * them out, for a loop within 150 CPU-s on this project's 2-core machine (issue #86); every unit of
 * behaviour they hold that is not end to end has its test in the default tier (docs/testing.md "Two
 * tiers" lists what only these check). The name is the mark: a file moves tier by its name, and no
 * list can fall out of step with the files. A full-tier file named on the command line runs in the
 * default tier too (`npx vitest run test/twin.full.test.ts`).
 */
export const FULL = '**/*.full.test.ts';
const namesFull = process.argv.some((a) => a.includes('.full.'));

/**
 * The files that take longest, longest first, as the latest clean-clone run lists them
 * (docs/testing.md "How long it takes"; re-order when it changes). Vitest orders by the durations
 * it cached from an earlier run, and without a cache (a clean clone: CI) by file size, which
 * started long files late and left a core idle at the end while one long file finished.
 */
const LONGEST = [
  'test/shipped-configs.full.test.ts', // every shipped config run (full tier: about five minutes)
  'test/twin.full.test.ts', // a blind round trip: two fits, a WARC written and read
  'test/package.full.test.ts', // npm pack and install, the bin, the shipped programs, a crawl from both
  'test/sweep.full.test.ts', // sweeps run, killed, resumed and side by side, and the readings' reuse
  'test/twin-validation.full.test.ts', // a twin validation against the archive's own web (about 80 s)
  'test/experiment.regression.full.test.ts', // the quick experiment against its reference
  'test/twin-writer.full.test.ts', // every shipped web written as an archive and read back
  'test/deepweb.regression.full.test.ts', // two deep-web quick runs against their references
  'test/scale.full.test.ts', // the focused comparison at 10^3 and 10^4 pages
  'test/sim.web-stats.full.test.ts', // paper.json's statistics at two seeds
  'test/sim.structure.test.ts',
  'test/twin-user-path.full.test.ts', // crawl to a WARC, label, fit
  'test/distributed.timing.test.ts',
  'test/webkb.full.test.ts',
  'test/crawler.golden.full.test.ts',
  'test/distributed.threads.test.ts',
  'test/warc.test.ts',
  'test/archive.test.ts',
  'test/page.full.test.ts',
  'test/experiment.cli.test.ts',
  'test/hostile.timing.test.ts',
  'test/crawler.engine.test.ts',
  'test/deepweb.timing.test.ts',
];

/** How many of main's longest files start before the timing files (one worker each). */
const MAIN_FIRST = 2;

/**
 * The queue the four workers take files from, in order: main's MAIN_FIRST longest files, then the
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

/**
 * A strategy module imports the harness by its package name (examples/strategies/); a process on
 * the sources resolves it to them by a Node resolve hook (lib/self-import.ts), which the test
 * runner's own module loader does not consult: the same map here. Without it the name resolved
 * through package.json to dist/, which only the package test's `npm pack` builds, so a test that
 * loads such a module passed only after that test had run.
 */
const SELF = Object.entries(SOURCE_ENTRIES).map(([name, file]) => ({
  find: new RegExp(`^${name.replaceAll('/', '\\/')}$`),
  replacement: join(import.meta.dirname, file),
}));

/** The files a tier leaves out: none in the full tier, the full tier's in the default (unless one is named). */
const skipped = (mode: string): string[] => (mode === 'full' || namesFull ? [] : [FULL]);

/**
 * How much slower this machine is now than the one the time limits were set on (test/speed.ts),
 * measured once here and handed to the workers: every limit is scaled by it, none is a fixed wall time.
 */
process.env.TEST_SPEED_FACTOR ??= measureSpeedFactor().toFixed(2);
const SPEED = Number(process.env.TEST_SPEED_FACTOR);

/** Worker processes for both projects together (vitest runs projects of one groupOrder in one pool). */
const WORKERS = 4;

const shared = {
  // the experiment pool's V8 flags (experiments/pool.ts WORKER_FLAGS: a larger young generation),
  // for the same reason: the files build webs, parse pages and fit twins in their worker, and with
  // V8's default a sixth of the twin round trip's CPU was scavenges
  execArgv: [...WORKER_FLAGS],
  testTimeout: Math.round(60_000 * SPEED),
  hookTimeout: Math.round(60_000 * SPEED),
  pool: 'forks' as const,
  isolate: false,
  maxWorkers: WORKERS,
  sequence: { groupOrder: 0 },
  alias: SELF,
};

export default defineConfig(({ mode }) => ({
  test: {
    sequence: { sequencer: TimingBesideMain },
    // one line at the end naming the tests skipped for a missing tool, and how to install it; one
    // scratch directory for the whole run, removed at its end; the harness built once, for the
    // programs tests start as processes
    globalSetup: ['test/missing-tools.ts', 'test/scratch-dir.ts', 'test/build-dist.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'main',
          // a test may sit beside its module anywhere in the tree (node_modules and results/ aside)
          include: ['**/*.test.ts'],
          exclude: [...TIMING, 'node_modules/**', 'results/**', 'dist/**', ...skipped(mode)],
          setupFiles: ['test/lower-priority.ts', 'test/cpu-meter.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'timing',
          include: TIMING,
          exclude: ['node_modules/**', 'results/**', 'dist/**', ...skipped(mode)],
          setupFiles: ['test/cpu-meter.ts'],
        },
      },
    ],
  },
}));
