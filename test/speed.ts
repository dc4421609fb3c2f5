/**
 * The machine's speed, for test time limits. A test's time limit was set on this project's 2-core
 * machine, idle; a slower or busier machine (a CI runner, a laptop on battery, the suite's own
 * other workers) would fail a CPU-bound test that is merely slow. So limits are written as
 * scaled(ms): ms times the factor by which a fixed piece of work here takes longer than it took on
 * the reference machine (never below 1, at most 10). vitest.config.ts measures it once per run and
 * hands it to the workers in TEST_SPEED_FACTOR; the deadlines a timing test asserts (a worker
 * exits within 30 s) are behaviour, not limits, and stay as they are.
 */
import { createHash } from 'node:crypto';

/** Milliseconds of work() on the reference machine (the least of five runs, 2026-12-06, idle). */
export const REFERENCE_MS = 125;

/** The work: seeded numbers sorted, hashed and serialised, as the suite's own code does all day. */
function work(): number {
  let x = 12345;
  const xs = new Float64Array(200_000);
  for (let i = 0; i < xs.length; i++) xs[i] = (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 4294967296;
  const sorted = Array.from(xs).sort((a, b) => a - b);
  const text = JSON.stringify(sorted.slice(0, 50_000));
  const h = createHash('sha256');
  for (let i = 0; i < 20; i++) h.update(text);
  const words = new Map<string, number>();
  for (const w of text.split(/[,.]/)) words.set(w, (words.get(w) ?? 0) + 1);
  return words.size + h.digest()[0];
}

/**
 * The least wall time of five runs of work(), in ms: wall, not CPU, time, since the limits are wall
 * times and a machine busy with other work before the suite starts gives each test less of a core.
 */
export function workMs(): number {
  let least = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    work();
    least = Math.min(least, performance.now() - t);
  }
  return least;
}

/** How much slower than the reference this machine is now (1: as fast or faster; at most 10). */
export function measureSpeedFactor(): number {
  return Math.min(10, Math.max(1, workMs() / REFERENCE_MS));
}

/** The factor this run measured (1 outside a vitest run). */
export const SPEED_FACTOR = Number(process.env.TEST_SPEED_FACTOR) || 1;

/** A time limit set on the reference machine, for this one. */
export const scaled = (ms: number): number => Math.round(ms * SPEED_FACTOR);

/**
 * The fixed time limits in a test file's text, as "line: text": a number written as a test's or a
 * hook's limit rather than scaled(ms): an option (`{ timeout: 60_000 }`, `testTimeout: 5000`), or
 * 1000 ms or more after a test's or a hook's function (`}, 60_000);`, `afterAll(() => x(), 180_000);`).
 * Such a limit failed under load on a slower or busier machine (issue #86).
 */
export function fixedTimeLimits(text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/^\s*(\*|\/\/)/.test(l)) continue;
    const option = /\b\w*[tT]imeout\s*:\s*\d/.test(l);
    const afterFunction = /^\s*\}\s*,\s*\d[\d_]{3,}\s*\);?\s*$/.test(l);
    const oneLine = /\b(it|test|beforeAll|afterAll|beforeEach|afterEach)\(.*,\s*\d[\d_]{3,}\s*\);?\s*$/.test(l);
    if (option || afterFunction || oneLine) found.push(`${i + 1}: ${l.trim()}`);
  }
  return found;
}
