/**
 * Earlier runs kept (issue #71): a run that writes into a results folder holding a finished run
 * first moves that run's files into `runs/STAMP/` (STAMP: when it was made and its commit, from its
 * provenance.json), so `results/NAME/` is always the latest run and every earlier one stays whole,
 * comparable by name (`npm run compare -- results/NAME/runs/STAMP results/NAME`). Only the folder's
 * own files move: its subfolders (a sweep's points/, a search's confirm/) stay, as a rerun reuses
 * them. A folder whose run did not end (INCOMPLETE) is not a run: nothing of it is kept aside.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { INCOMPLETE, LOCK_FILE } from '../lib/out-folder.ts';
import { PROVENANCE_FILE, provenanceLine, readProvenance } from './provenance.ts';

export const RUNS_DIR = 'runs';

/** Moves a finished run's files in `dir` into runs/STAMP/; returns that folder, or null when there was none. */
export function keepEarlierRun(dir: string): string | null {
  if (!existsSync(dir) || existsSync(join(dir, INCOMPLETE))) return null;
  const files = readdirSync(dir).filter((f) => f !== LOCK_FILE && statSync(join(dir, f)).isFile());
  if (!files.includes('config.json') && !files.includes(PROVENANCE_FILE)) return null;
  const made = readProvenance(dir);
  const when = (
    made?.date ?? statSync(join(dir, files.includes('config.json') ? 'config.json' : files[0])).mtime.toISOString()
  )
    .slice(0, 19)
    .replace(/:/g, '-');
  let stamp = `${when}${made?.commit ? `-${made.commit.replace(/[^0-9a-z]+/gi, '-')}` : ''}`;
  for (let i = 2; existsSync(join(dir, RUNS_DIR, stamp)); i++) stamp = `${stamp.replace(/~\d+$/, '')}~${i}`;
  const to = join(dir, RUNS_DIR, stamp);
  mkdirSync(to, { recursive: true });
  for (const f of files) renameSync(join(dir, f), join(to, f));
  return to;
}

/** Whether `dir` holds a finished run (its config or provenance, and no INCOMPLETE). */
const isRun = (dir: string): boolean =>
  !existsSync(join(dir, INCOMPLETE)) &&
  (existsSync(join(dir, 'config.json')) || existsSync(join(dir, PROVENANCE_FILE)));

/**
 * A results folder's runs, oldest first: each earlier one kept in runs/STAMP/, then the folder's
 * own (the latest), each with what made it (`npm run compare -- --list DIR`; issue #87).
 */
export function listRuns(dir: string): { path: string; made: string }[] {
  const kept = existsSync(join(dir, RUNS_DIR))
    ? readdirSync(join(dir, RUNS_DIR))
        .sort()
        .map((s) => join(dir, RUNS_DIR, s))
        .filter((p) => statSync(p).isDirectory() && isRun(p))
    : [];
  return [...kept, ...(isRun(dir) ? [dir] : [])].map((path) => {
    const p = readProvenance(path);
    return { path, made: p ? provenanceLine(p) : 'no provenance.json (made before it was recorded)' };
  });
}
