/**
 * An experiment's runs as jobs on a distributed queue (issue #40, made exact by #50): BullMQ on
 * Redis, the Redis the distributed crawler already uses. The runner's unit of work
 * (experiments/focused/runner.ts: one web seed x one site, every strategy of the experiment on it,
 * with the models trained for that held-out site) becomes a job; any number of worker processes
 * on any number of machines run them (`npm run worker -- --queue redis://HOST:PORT`), and the
 * submitting command merges their results into the same CSVs, figures and report as a local run.
 *
 * - Exact: a job's result is stored under its own key (RESULT_KEY) before the job is marked done,
 *   and the submitter reads a job's state first and its result after, so a job that finishes
 *   between the two reads is never taken for one without a result. A worker that lost its lock
 *   (frozen, cut off) still stores what it finished; a worker that picks up a job whose result is
 *   stored returns it without running it again.
 * - Idempotent and versioned: a job's id is a hash of everything its result depends on (the
 *   resolved config, the web config's text, the seed, the site, the harness's code and the files
 *   the config names: experiments/queue/code.ts), so submitting again enqueues nothing
 *   queued or done, a kept result is reused, and a result of other code never is. A worker whose
 *   checkout differs refuses the job, and the submitter stops with that line.
 * - Responsive: a worker runs its job in a child process (experiments/pool.ts), so its own event
 *   loop keeps renewing the job's lock however long a crawl blocks; a job's lock expires only when
 *   its worker is gone. A job whose workers die more than MAX_STALLS times fails.
 * - No hangs: every Redis wait has a deadline (REDIS_TIMEOUT_MS) and ends in one line; jobs gone
 *   from Redis (restarted empty) are enqueued again.
 * - Kept for `keepDays`: finished and failed jobs and stored results expire (default KEEP_DAYS);
 *   `experiment --queue URL --clean` removes them at once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import type { ExperimentConfig } from '../focused/config.ts';
import type { JobResult } from '../focused/rows.ts';
import { type CodeVersion, refusal } from './code.ts';
import {
  connectRedis,
  fatalRedisError,
  REDIS_TIMEOUT_MS,
  type RedisTarget,
  redisProblem,
  redisTarget,
  retrying,
  within,
} from './redis.ts';
import { sleep } from '../../lib/time.ts';
import { resource } from '../../lib/paths.ts';
import { JobProcess } from './job-process.ts';
import type { QueueProgress } from '../family.ts';

export type { QueueProgress };
export { QueueUrlError, redactUrl, redisTarget, waitRedisMs } from './redis.ts';

/** How long finished and failed jobs and their results are kept (days), unless the submitter says otherwise. */
export const KEEP_DAYS = 7;
/** A job whose worker died this many times (lock expired) fails instead of running again. */
export const MAX_STALLS = 2;
/**
 * How often the submitter reads the jobs' states (ms): soon after a round that brought a result,
 * twice as long after each round that brought none, up to the most. A short job's result is seen
 * within tens of milliseconds; a long run's wait costs Redis one round every half second.
 */
const POLL_MS = { least: 25, most: 500 };

export interface QueueJobData {
  cfg: ExperimentConfig;
  /** The web config's text (null for an archive experiment), written to a file by the worker. */
  webJson: string | null;
  seed: number;
  site: string;
  record: boolean;
  /** The code and files the job was submitted with: a worker with others refuses it. */
  code: CodeVersion;
  /** How long the worker keeps the result (seconds). */
  keepS: number;
}

/** Where a job's result is kept: beside BullMQ's keys, under the queue's name. */
const resultKey = (queue: string, jobId: string): string => `crawler-harness:${queue}:result:${jobId}`;

/** The job id: a hash of everything the result depends on (the commit's name is not: equal trees, equal results). */
export function jobIdOf(d: QueueJobData): string {
  const { web: _path, ...cfg } = d.cfg;
  return createHash('sha256')
    .update(
      JSON.stringify({
        cfg,
        webJson: d.webJson,
        seed: d.seed,
        site: d.site,
        record: d.record,
        code: { tree: d.code.tree, node: d.code.node, files: d.code.files },
      }),
    )
    .digest('hex')
    .slice(0, 40);
}

/** A job's data; `code` is computed once per experiment (await codeVersionOf(cfg)) and shared by its jobs. */
export function jobData(
  cfg: ExperimentConfig,
  seed: number,
  site: string,
  record: boolean,
  code: CodeVersion,
  keepDays = KEEP_DAYS,
): QueueJobData {
  return {
    cfg,
    webJson: cfg.archive ? null : readFileSync(resource(cfg.web), 'utf8'),
    seed,
    site,
    record,
    code,
    keepS: Math.round(keepDays * 86_400),
  };
}

export interface SubmitOptions {
  onProgress?: (p: QueueProgress) => void;
  /** A line for the user (jobs enqueued again, Redis not answering). */
  say?: (line: string) => void;
  /** How long Redis may not answer before the submitter gives up (ms). */
  timeoutMs?: number;
}

/**
 * Enqueues the jobs (those queued or done already are not added again) and waits for every one;
 * onResult gets each result as it is known. A job refused by a worker rejects at once; a failed
 * job rejects with its error once every other job has finished; Redis unreachable for timeoutMs
 * rejects with one line.
 */
export async function runInQueue(
  url: string,
  jobs: readonly { id: number; data: QueueJobData }[],
  onResult: (id: number, r: JobResult) => void,
  opts: SubmitOptions = {},
): Promise<void> {
  const target = redisTarget(url);
  const timeoutMs = opts.timeoutMs ?? REDIS_TIMEOUT_MS;
  const client = await connectRedis(target, timeoutMs);
  const queue = new Queue<QueueJobData, unknown, string>(target.queue, { connection: target.connection });
  let lastError: unknown = null;
  queue.on('error', (e) => {
    lastError = e;
  });
  const run = jobs.length ? jobIdOf(jobs[0].data).slice(0, 12) : '';
  try {
    const pending = new Map(jobs.map((j) => [jobIdOf(j.data), j]));
    const failures: string[] = [];
    let firstRound = true;
    let lastOk = Date.now();
    let warned = false;
    let pollMs = POLL_MS.least;
    const enqueue = (jobId: string, data: QueueJobData): Promise<unknown> =>
      queue.add('run', data, {
        jobId,
        attempts: 1,
        removeOnComplete: { age: data.keepS, count: 100_000 },
        removeOnFail: { age: data.keepS },
      });
    while (pending.size) {
      let round: { running: number; waiting: number };
      const before = pending.size;
      try {
        // each round within half the wait (10 s at most): a stalled network is said before the run stops
        round = await within(
          poll(),
          Math.min(timeoutMs / 2, 10_000),
          () => `no answer from Redis at ${target.shown} (timed out)`,
        );
        lastOk = Date.now();
        warned = false;
      } catch (e) {
        const err = lastError ?? e;
        if (fatalRedisError(err)) throw new Error(redisProblem(err, target.shown));
        if (e instanceof RefusedError) throw e;
        if (Date.now() - lastOk >= timeoutMs)
          throw new Error(`${redisProblem(err, target.shown)}; gave up after ${Math.round(timeoutMs / 1000)} s`);
        if (!warned)
          opts.say?.(
            `queue: ${redisProblem(err, target.shown)}; waiting for it${Number.isFinite(timeoutMs) ? ` (${Math.round(timeoutMs / 1000)} s at most)` : ''}`,
          );
        warned = true;
        await sleep(1000);
        continue;
      }
      firstRound = false;
      opts.onProgress?.({
        run,
        done: jobs.length - pending.size - failures.length,
        running: round.running,
        waiting: round.waiting,
        failed: failures.length,
        total: jobs.length,
      });
      pollMs = pending.size < before ? POLL_MS.least : Math.min(POLL_MS.most, 2 * pollMs);
      if (pending.size) await sleep(pollMs);
    }
    if (failures.length) throw new Error(`${failures.length} of ${jobs.length} jobs failed; ${failures[0]}`);

    /** One round: every pending job's state first, then its stored result (see the header). */
    async function poll(): Promise<{ running: number; waiting: number }> {
      const ids = [...pending.keys()];
      const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
      const stored = ids.length ? await client.mget(ids.map((id) => resultKey(target.queue, id))) : [];
      let running = 0;
      let waiting = 0;
      let vanished = 0;
      for (let i = 0; i < ids.length; i++) {
        const jobId = ids[i];
        const j = pending.get(jobId)!;
        const state = states[i];
        if (stored[i] !== null) {
          onResult(j.id, JSON.parse(stored[i]!) as JobResult);
          pending.delete(jobId);
        } else if (state === 'failed') {
          const job = await queue.getJob(jobId);
          const reason = job?.failedReason ?? 'unknown reason';
          if (firstRound) {
            // submitted again: a failed job is retried
            await job?.remove();
            await enqueue(jobId, j.data);
            waiting++;
          } else if (reason.startsWith('refused:')) {
            throw new RefusedError(`job ${j.id} (seed ${j.data.seed}, site ${j.data.site}) ${reason}`);
          } else {
            failures.push(`job ${j.id} (seed ${j.data.seed}, site ${j.data.site}): ${reason.split('\n')[0]}`);
            pending.delete(jobId);
          }
        } else if (state === 'unknown' || state === 'completed') {
          // never added, gone with a Redis that restarted empty, or done with its result expired
          if (state === 'completed') await queue.remove(jobId);
          if (!firstRound) vanished++;
          await enqueue(jobId, j.data);
          waiting++;
        } else if (state === 'active') running++;
        else waiting++;
      }
      if (vanished) {
        opts.say?.(`queue: ${vanished} jobs were gone from Redis (restarted empty?): enqueued again`);
      }
      return { running, waiting };
    }
  } finally {
    // close has a deadline too: on a stalled network it would wait for Redis until it came back
    await within(queue.close(), 5000, () => 'timed out').catch(() => queue.disconnect().catch(() => {}));
    client.disconnect();
  }
}

/** A job a worker refused (other code, a path outside its checkout): the submission stops at once. */
class RefusedError extends Error {}

/** Removes every job and kept result of the queue at `url`; refused while jobs run. */
export async function cleanQueue(url: string): Promise<{ jobs: number; results: number }> {
  const target = redisTarget(url);
  const client = await connectRedis(target);
  const queue = new Queue(target.queue, { connection: target.connection });
  queue.on('error', () => {});
  try {
    const counts = await queue.getJobCounts();
    if (counts.active)
      throw new Error(`queue ${target.queue}: ${counts.active} jobs are running; stop the workers first`);
    // an idle worker's BullMQ writes the queue's keys again (its stalled-jobs check): a clean with
    // one attached would not leave the queue empty (seen in the suite under load)
    const workers = await queue.getWorkersCount();
    const connected = workers === 1 ? '1 worker is connected; stop it' : `${workers} workers are connected; stop them`;
    if (workers) throw new Error(`queue ${target.queue}: ${connected} first`);
    const jobs = Object.values(counts).reduce((a, b) => a + b, 0);
    await queue.obliterate({ force: false });
    let results = 0;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', resultKey(target.queue, '*'), 'COUNT', 500);
      cursor = next;
      if (keys.length) results += await client.del(...keys);
    } while (cursor !== '0');
    return { jobs, results };
  } finally {
    await queue.close().catch(() => {});
    client.disconnect();
  }
}

export interface QueueWorkerOptions {
  cacheDir: string | null;
  /** A job whose worker stops renewing its lock this long (killed, cut off) runs again elsewhere. */
  lockMs: number;
  onJob?: (event: 'start' | 'done' | 'cached' | 'failed', data: QueueJobData, message?: string) => void;
  /** A problem worth a line that does not stop the worker (Redis not answering, a lost lock). */
  onWarning?: (line: string) => void;
  /** How long Redis may not answer while the worker is idle before it gives up (ms). */
  timeoutMs?: number;
}

export interface QueueWorker {
  /**
   * Settles when the worker has stopped: true when no job was cut; rejects with one line when Redis
   * is lost for good.
   */
  readonly done: Promise<boolean>;
  /**
   * Stops taking jobs; the running job finishes, for at most graceMs (then its process is killed
   * and the job runs again elsewhere once its lock expires). Resolves true when nothing was cut.
   */
  stop(graceMs: number): Promise<boolean>;
}

/**
 * The web config a job carries, as a file in `dir` named by its hash: the same text wherever the
 * submitter kept it. Written whole, then renamed: the workers of a machine share the folder.
 */
function webFile(dir: string, json: string): string {
  const file = join(dir, `${createHash('sha256').update(json).digest('hex').slice(0, 16)}.json`);
  if (!existsSync(file)) {
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, json);
    renameSync(part, file);
  }
  return file;
}

/** Why a worker must not run the job `id` with data `d` (one line, "refused: ..."), or null. */
async function refusalOf(id: string | undefined, d: QueueJobData | undefined): Promise<string | null> {
  if (!d?.cfg || !d.code) return 'refused: the job was not submitted by this harness version';
  // the id is the hash of the data: data edited in Redis after submission is not run under it
  if (id !== jobIdOf(d)) return "refused: the job's data do not hash to its id (changed after it was submitted)";
  return refusal(d.code, d.cfg);
}

/** BullMQ reports each failed reconnection: one line per distinct problem, at most every 10 s. */
function warnings(shown: string, say: ((line: string) => void) | undefined): (e: Error) => void {
  let said = '';
  let saidAt = 0;
  return (e) => {
    const line = /lock/i.test(e.message) ? e.message.split('\n')[0] : redisProblem(e, shown);
    if (line === said && Date.now() - saidAt < 10_000) return;
    said = line;
    saidAt = Date.now();
    say?.(line);
  };
}

/** A worker: connects (one line within timeoutMs if it cannot), then takes one job at a time until stopped. */
export async function startQueueWorker(url: string, opts: QueueWorkerOptions): Promise<QueueWorker> {
  const target: RedisTarget = redisTarget(url);
  const timeoutMs = opts.timeoutMs ?? REDIS_TIMEOUT_MS;
  const client = await connectRedis(target, timeoutMs);
  const webs = join(tmpdir(), 'crawler-harness-webs');
  mkdirSync(webs, { recursive: true });
  const proc = new JobProcess();
  let busy = false;
  const worker = new Worker<QueueJobData, { stored: string }>(
    target.queue,
    async (job) => {
      const d = job.data;
      const why = await refusalOf(job.id, d);
      if (why) {
        if (d?.cfg) opts.onJob?.('failed', d, why);
        throw new UnrecoverableError(why);
      }
      const key = resultKey(target.queue, job.id!);
      // a result stored by a worker that then lost the job is not computed again
      if (await retrying(() => client.exists(key), Date.now() + timeoutMs)) {
        opts.onJob?.('cached', d);
        return { stored: key };
      }
      opts.onJob?.('start', d);
      const cfg = d.webJson === null ? d.cfg : { ...d.cfg, web: webFile(webs, d.webJson) };
      busy = true;
      try {
        const r = await proc.run({ cfg, seed: d.seed, site: d.site, cacheDir: opts.cacheDir, record: d.record });
        // a result finished while Redis restarts is written once it is back (within the wait)
        await retrying(() => client.set(key, JSON.stringify(r), 'EX', Math.max(1, d.keepS)), Date.now() + timeoutMs);
      } finally {
        busy = false;
      }
      return { stored: key };
    },
    {
      connection: target.connection,
      concurrency: 1,
      lockDuration: opts.lockMs,
      stalledInterval: Math.max(1000, Math.floor(opts.lockMs / 2)),
      maxStalledCount: MAX_STALLS,
    },
  );
  worker.on('completed', (job) => opts.onJob?.('done', job.data));
  worker.on('failed', (job, e) => {
    if (job && !e.message.startsWith('refused:')) opts.onJob?.('failed', job.data, e.message);
  });
  worker.on('error', warnings(target.shown, opts.onWarning));

  let stopping = false;
  let finish!: (clean: boolean) => void;
  let fail!: (e: Error) => void;
  const done = new Promise<boolean>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  // Redis watched from our own connection: lost for timeoutMs while no job runs, the worker ends
  let lastOk = Date.now();
  const watch = setInterval(() => {
    within(client.ping(), 5000, () => 'timed out').then(
      () => {
        lastOk = Date.now();
      },
      (e: unknown) => {
        if (stopping) return;
        if (fatalRedisError(e)) void shutdown(0).then(() => fail(new Error(redisProblem(e, target.shown))));
        else if (!busy && Date.now() - lastOk >= timeoutMs)
          void shutdown(0).then(() =>
            fail(new Error(`${redisProblem(e, target.shown)}; gave up after ${Math.round(timeoutMs / 1000)} s`)),
          );
      },
    );
  }, 2000);

  async function shutdown(graceMs: number): Promise<boolean> {
    stopping = true;
    clearInterval(watch);
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      worker.close().then(() => true),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (closed) proc.close();
    else {
      proc.kill();
      void worker.close(true).catch(() => {});
    }
    client.disconnect();
    return closed;
  }

  return {
    done,
    async stop(graceMs) {
      if (stopping) {
        // asked again: stop now (a job running is cut)
        const wasBusy = busy;
        proc.kill();
        finish(!wasBusy);
        return !wasBusy;
      }
      // idle, nothing is lost by not waiting for BullMQ's close (it waits on a Redis that may be gone)
      const wasBusy = busy;
      const clean = (await shutdown(wasBusy ? graceMs : Math.min(graceMs, 5000))) || !wasBusy;
      // the outcome travels with done: a caller reading it after done settles must not miss a cut
      finish(clean);
      return clean;
    },
  };
}
