/**
 * What a queue worker's job process runs (experiments/queue/job-process.ts): a job, checked
 * against the code this process actually loaded (issue #89). A worker's checkout can change while
 * it runs (git pull, a week under systemd); a job process forked after that (its predecessor
 * killed, or re-forked for a bigger heap) loads the new code from disk, and an ES module imported
 * once stays as it was loaded whatever the disk holds later. So the process hashes the checkout
 * before it imports the code it runs, and before and after every job checks that the checkout
 * still holds that code, that the job was submitted from it, and that every strategy module the
 * job names is the one it imported; otherwise it says why instead of computing.
 */
import { hostname } from 'node:os';
import type { JobResult, JobTask } from '../focused/rows.ts';
import { currentTreeHash, fileHash, gitCommit, treeHash } from './code.ts';

/** The tree this process loads its code from: hashed before the import below. */
const LOADED = treeHash();
const { runJobTask } = await import('../focused/run-one.ts');

/** Strategy module path -> the hash of its import closure when this process first ran a job naming it. */
const imported = new Map<string, string>();

export interface QueuedJob {
  task: JobTask;
  /** The tree and the named files' hashes the job was submitted with. */
  tree: string;
  files: Record<string, string>;
}

/**
 * What came of a job: its result (with the code identity of the process that computed it); a
 * refusal (the job is from other code than this process loaded); or a stale process (the checkout
 * changed since this process loaded its code: a fresh process must take the job, or refuse it).
 */
export type QueuedOutcome =
  | { kind: 'result'; result: JobResult }
  | { kind: 'refused'; why: string }
  | { kind: 'stale'; why: string };

/** What in the checkout differs from what this process loaded, or null. */
async function drift(modules: readonly string[]): Promise<string | null> {
  const now = currentTreeHash();
  if (now !== LOADED) return `the checkout now holds tree ${now}; this job process loaded tree ${LOADED}`;
  for (const m of modules) {
    const h = await fileHash(m);
    const was = imported.get(m);
    if (was !== undefined && was !== h) return `${m} (or a file it imports) changed since this job process imported it`;
  }
  return null;
}

export async function runQueuedJob(j: QueuedJob): Promise<QueuedOutcome> {
  const modules = Object.values(j.task.cfg.strategyParams).flatMap((s) => (s.module ? [s.module] : []));
  const before = await drift(modules);
  if (before) return { kind: 'stale', why: before };
  if (j.tree !== LOADED)
    return {
      kind: 'refused',
      why: `refused: the job was submitted from tree ${j.tree}; this worker's job process runs tree ${LOADED} (${gitCommit() ?? 'no commit'})`,
    };
  for (const m of modules) {
    const h = await fileHash(m);
    if (h !== j.files[m])
      return { kind: 'refused', why: `refused: ${m} differs between the submitter and this worker's job process` };
    if (!imported.has(m)) imported.set(m, h);
  }
  const result = await runJobTask(j.task);
  // a module imported lazily during the job came from the disk as it was then
  const after = await drift(modules);
  if (after) return { kind: 'stale', why: `${after} (while the job ran: its result is not kept)` };
  return {
    kind: 'result',
    result: { ...result, madeBy: { host: hostname(), pid: process.pid, tree: LOADED, commit: gitCommit() } },
  };
}
