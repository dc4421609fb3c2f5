/**
 * An experiment's runs as jobs on a distributed queue (issue #40): BullMQ on Redis, the Redis the
 * distributed crawler already uses. The runner's unit of work (experiments/focused/runner.ts: one web
 * seed x one site, every strategy of the experiment on it, with the models trained for that held-out
 * site) becomes a job; any number of worker processes on any number of machines run them
 * (`npm run worker -- --queue redis://HOST:PORT`), and the submitting command merges their results
 * into the same CSVs, figures and report as a local run.
 *
 * - Idempotent: a job's id is a hash of everything its result depends on (the resolved config,
 *   the web config's text, the seed, the site), so submitting again enqueues nothing that is
 *   queued or done, and a finished job's result (kept in Redis) is reused. A job that failed is
 *   retried when submitted again.
 * - Results travel back as the job's return value (JSON: numbers round-trip exactly), so merged
 *   CSVs are byte-identical to a local run's.
 * - Faults: a worker killed mid-job stops renewing its lock; after lockMs the job is stalled and
 *   another worker runs it from the start (a job writes nothing shared, so nothing partial is
 *   kept). A job that throws (a reason in its input) fails once, with its error, not forever.
 * - What a worker needs on its machine: a checkout of the same commit (the code) and the files a
 *   config names by path other than the web config (archives, labels, keyword files, strategy
 *   modules), at the same relative paths; the web config's text travels in the job.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue, Worker } from 'bullmq';
import type { ExperimentConfig } from './config.ts';
import { closeSeedState, type JobResult, runJob } from './run-one.ts';
import { resource } from '../../lib/paths.ts';

export const QUEUE_NAME = 'crawler-harness-runs';

export interface QueueJobData {
  cfg: ExperimentConfig;
  /** The web config's text (null for an archive experiment), written to a file by the worker. */
  webJson: string | null;
  seed: number;
  site: string;
  record: boolean;
}

import type { QueueProgress } from '../family.ts';

export type { QueueProgress };

/** The queue's name: the URL's ?queue= parameter (several harnesses, or tests, on one Redis), else QUEUE_NAME. */
export function queueNameOf(url: string): string {
  try {
    return new URL(url).searchParams.get('queue') || QUEUE_NAME;
  } catch {
    return QUEUE_NAME;
  }
}

/** A Redis URL (redis://[:PASSWORD@]HOST:PORT[/DB][?queue=NAME]) as BullMQ's connection options; one line of error for a bad one. */
export function connectionOf(url: string): { host: string; port: number; password?: string; db?: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`--queue: "${url}" is not a URL (redis://HOST:PORT)`);
  }
  if (u.protocol !== 'redis:') throw new Error(`--queue: "${url}" is not a redis:// URL`);
  return {
    host: u.hostname || '127.0.0.1',
    port: Number(u.port || 6379),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) } : {}),
  };
}

/** The job id: a hash of everything the result depends on. */
export function jobIdOf(d: QueueJobData): string {
  const { web: _path, ...cfg } = d.cfg;
  return createHash('sha256')
    .update(JSON.stringify({ cfg, webJson: d.webJson, seed: d.seed, site: d.site, record: d.record }))
    .digest('hex')
    .slice(0, 40);
}

export function jobData(cfg: ExperimentConfig, seed: number, site: string, record: boolean): QueueJobData {
  return { cfg, webJson: cfg.archive ? null : readFileSync(resource(cfg.web), 'utf8'), seed, site, record };
}

/**
 * Enqueues the jobs (those already queued or done are not added again) and waits for every one;
 * onResult gets each result as it is known, onProgress the counts every poll. A failed job rejects
 * with its error once every other job has finished.
 */
export async function runInQueue(
  url: string,
  jobs: readonly { id: number; data: QueueJobData }[],
  onResult: (id: number, r: JobResult) => void,
  onProgress?: (p: QueueProgress) => void,
): Promise<void> {
  const queue = new Queue(queueNameOf(url), { connection: connectionOf(url) });
  try {
    const pending = new Map<string, number>();
    for (const j of jobs) {
      const jobId = jobIdOf(j.data);
      const existing = await Job.fromId(queue, jobId);
      if (existing && (await existing.getState()) === 'failed') await existing.remove();
      // an id that is queued or done already is not added again (BullMQ keeps ids unique)
      await queue.add('run', j.data, { jobId, attempts: 1, removeOnComplete: false, removeOnFail: false });
      pending.set(jobId, j.id);
    }
    const failures: string[] = [];
    let running = 0;
    while (pending.size) {
      running = 0;
      let waiting = 0;
      for (const [jobId, id] of [...pending]) {
        const job = await Job.fromId(queue, jobId);
        const state = job ? await job.getState() : 'unknown';
        if (state === 'completed' && job) {
          onResult(id, job.returnvalue as JobResult);
          pending.delete(jobId);
        } else if (state === 'failed' && job) {
          failures.push(`job ${id} (seed ${job.data.seed}, site ${job.data.site}): ${job.failedReason}`);
          pending.delete(jobId);
        } else if (state === 'active') running++;
        else waiting++;
      }
      onProgress?.({
        done: jobs.length - pending.size - failures.length,
        running,
        waiting,
        failed: failures.length,
        total: jobs.length,
      });
      if (pending.size) await new Promise((r) => setTimeout(r, 300));
    }
    if (failures.length) throw new Error(`${failures.length} of ${jobs.length} jobs failed; ${failures[0]}`);
  } finally {
    await queue.close();
  }
}

export interface QueueWorkerOptions {
  cacheDir: string | null;
  /** A job whose worker stops renewing its lock this long (killed, hung) runs again elsewhere. */
  lockMs: number;
  onJob?: (event: 'start' | 'done' | 'failed', data: QueueJobData, message?: string) => void;
}

/** A worker: takes one job at a time until closed. */
export function startQueueWorker(url: string, opts: QueueWorkerOptions): Worker<QueueJobData, JobResult> {
  const webs = join(tmpdir(), 'crawler-harness-webs');
  mkdirSync(webs, { recursive: true });
  const worker = new Worker<QueueJobData, JobResult>(
    queueNameOf(url),
    async (job) => {
      const d = job.data;
      opts.onJob?.('start', d);
      let cfg = d.cfg;
      if (d.webJson !== null) {
        // the web config travels in the job: the same text, wherever the submitter kept it
        const file = join(webs, `${createHash('sha256').update(d.webJson).digest('hex').slice(0, 16)}.json`);
        writeFileSync(file, d.webJson);
        cfg = { ...cfg, web: file };
      }
      return runJob(cfg, d.seed, d.site, opts.cacheDir, d.record);
    },
    {
      connection: connectionOf(url),
      concurrency: 1,
      lockDuration: opts.lockMs,
      stalledInterval: Math.max(1000, Math.floor(opts.lockMs / 2)),
      // a job stalls when its worker dies; it runs again from the start, however often that happens
      maxStalledCount: 100,
    },
  );
  worker.on('completed', (job) => opts.onJob?.('done', job.data));
  worker.on('failed', (job, e) => job && opts.onJob?.('failed', job.data, e.message));
  worker.on('closed', () => void closeSeedState());
  return worker;
}
