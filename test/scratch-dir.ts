/**
 * vitest globalSetup: every scratch directory the tests make (mkdtemp under os.tmpdir(), in the
 * test processes and the CLIs they spawn) goes into one directory per run, removed when the run
 * ends. Before, each run left 47 directories in /tmp (crawl outputs, configs, model caches).
 * Worker processes are forked after this runs, so they inherit TMPDIR; a run that is killed leaves
 * one directory, named vitest-scratch-*.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'vitest-scratch-'));
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
