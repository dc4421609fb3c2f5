/**
 * vitest globalSetup: the harness built once per run (tsc -p tsconfig.build.json, ~2 s) into
 * node_modules/.cache/harness-test-dist, for the programs tests start as processes
 * (test/helpers.ts program()). A program started from the sources pays tsx's loader hooks for
 * every module it loads, about 0.5 CPU-s a start more than the JavaScript (crawl --web: 1.6
 * against 1.1 CPU-s), and the default tier starts about twenty. From the package root the built
 * modules find the shipped files (lib/paths.ts looks upward) and the dependencies (node_modules).
 * HARNESS_TEST_SOURCES=1 starts them from the sources instead.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export default function setup(): void {
  if (process.env.HARNESS_TEST_SOURCES) return;
  const out = join(import.meta.dirname, '..', 'node_modules', '.cache', 'harness-test-dist');
  rmSync(out, { recursive: true, force: true });
  const tsc = join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsc');
  execFileSync(tsc, ['-p', 'tsconfig.build.json', '--outDir', out, '--declaration', 'false', '--sourceMap', 'false'], {
    cwd: join(import.meta.dirname, '..'),
    stdio: 'inherit',
  });
  process.env.HARNESS_TEST_DIST = out;
}
