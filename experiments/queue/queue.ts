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
 *   checkout differs refuses the job and puts it back for another (experiments/queue/worker.ts);
 *   the submitter stops, naming the refusals, only when no worker takes it (REFUSED_WAIT_MS).
 * - Responsive: a worker runs its job in a child process (experiments/pool.ts), so its own event
 *   loop keeps renewing the job's lock however long a crawl blocks; a job's lock expires only when
 *   its worker is gone. A job whose workers die more than MAX_STALLS (worker.ts) times fails.
 * - No hangs: every Redis wait has a deadline (REDIS_TIMEOUT_MS) and ends in one line; jobs gone
 *   from Redis (restarted empty) are enqueued again.
 * - Kept for `keepDays`: finished and failed jobs and stored results expire (default KEEP_DAYS);
 *   `experiment --queue URL --clean` removes them at once.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobResult } from '../focused/rows.ts';
import {
  connectRedis,
  fatalRedisError,
  REDIS_TIMEOUT_MS,
  type RedisTarget,
  redisProblem,
  redisTarget,
  within,
} from './redis-connection.ts';
import { sleep } from '../../lib/time.ts';
import type { QueueProgress } from '../family-contract.ts';
import { addJob, jobIdOf, type QueueJobData, refusedKey, resultKey } from './job.ts';
import { ORPHANED, WANTED_TTL_S, WantedJobs, wantedKey } from './presence.ts';
import { REFUSED_WAIT_MS, RefusalWatch } from './refusals.ts';

export type { QueueProgress };
export { QueueUrlError, redactUrl, redisTarget, waitRedisMs } from './redis-connection.ts';
export { jobData, jobIdOf, KEEP_DAYS, type QueueJobData, refusedKey, resultKey } from './job.ts';

/**
 * How often the submitter reads the jobs' states (ms): soon after a round that brought a result,
 * twice as long after each round that brought none, up to the most. A short job's result is seen
 * within tens of milliseconds; a long run's wait costs Redis one round every half second.
 */
const POLL_MS = { least: 25, most: 500 };

export interface SubmitOptions {
  onProgress?: (p: QueueProgress) => void;
  /** A line for the user (jobs enqueued again, Redis not answering). */
  say?: (line: string) => void;
  /** How long Redis may not answer before the submitter gives up (ms). */
  timeoutMs?: number;
  /**
   * How long a refused job may wait while no connected worker runs its code, before the submitter
   * stops (ms; default 30 s: workers on the right checkout may join late). While one does, however
   * busy, the submitter waits for it.
   */
  refusedWaitMs?: number;
  /** How long the jobs stay wanted after this submitter last renewed them (s; presence.ts WANTED_TTL_S). */
  wantedTtlS?: number;
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
  // the jobs are wanted while this submitter waits (presence.ts): once it stops, however it stops,
  // workers drop what is left instead of bouncing it between them
  const wanted = new WantedJobs(client, queue, opts.wantedTtlS ?? WANTED_TTL_S);
  try {
    const refused = new RefusalWatch(client, target.queue, opts.refusedWaitMs ?? REFUSED_WAIT_MS);
    const sub = new Submission({ client, queue, target, wanted, refused, onResult, say: opts.say }, jobs);
    let lastOk = Date.now();
    let warned = false;
    let pollMs = POLL_MS.least;
    while (sub.pending.size) {
      let round: { running: number; waiting: number };
      const before = sub.pending.size;
      try {
        // each round within half the wait (10 s at most): a stalled network is said before the run stops
        round = await within(
          sub.round(),
          Math.min(timeoutMs / 2, 10_000),
          () => `no answer from Redis at ${target.shown} (timed out)`,
        );
        lastOk = Date.now();
        warned = false;
      } catch (e) {
        waitingFor(lastError ?? e, e, target.shown, { lastOk, timeoutMs }, warned ? undefined : opts.say);
        warned = true;
        await sleep(1000);
        continue;
      }
      sub.firstRound = false;
      const failed = sub.failures.length;
      const done = jobs.length - sub.pending.size - failed;
      opts.onProgress?.({ run, done, running: round.running, waiting: round.waiting, failed, total: jobs.length });
      pollMs = sub.pending.size < before ? POLL_MS.least : Math.min(POLL_MS.most, 2 * pollMs);
      if (sub.pending.size) await sleep(pollMs);
    }
    if (sub.failures.length)
      throw new Error(`${sub.failures.length} of ${jobs.length} jobs failed; ${sub.failures[0]}`);
  } finally {
    // what is left (a refused job, a failure elsewhere, a stop): not wanted by this submitter any more
    await within(wanted.leave(jobs.map((j) => jobIdOf(j.data))), 5000, () => 'timed out').catch(() => {});
    // close has a deadline too: on a stalled network it would wait for Redis until it came back
    await within(queue.close(), 5000, () => 'timed out').catch(() => queue.disconnect().catch(() => {}));
    client.disconnect();
  }
}

/** Jobs the workers refused (other code, a path outside their checkout) and none took: the submission stops. */
class RefusedError extends Error {}

type PendingJob = { id: number; data: QueueJobData };

/** What a round makes of one pending job. */
type Settled = 'done' | 'failed' | 'running' | 'waiting' | 'vanished';

/** A submitter's jobs while it waits: those pending, those failed, and one round of reading their states. */
class Submission {
  readonly pending: Map<string, PendingJob>;
  readonly failures: string[] = [];
  /** the first round enqueues the jobs and retries failed ones kept from an earlier submission */
  firstRound = true;

  constructor(
    private readonly ctx: {
      client: Redis;
      queue: Queue<QueueJobData, unknown, string>;
      target: RedisTarget;
      wanted: WantedJobs;
      refused: RefusalWatch;
      onResult: (id: number, r: JobResult) => void;
      say: ((line: string) => void) | undefined;
    },
    jobs: readonly PendingJob[],
  ) {
    this.pending = new Map(jobs.map((j) => [jobIdOf(j.data), j]));
  }

  /** One round: every pending job's state first, then its stored result (see the header). */
  async round(): Promise<{ running: number; waiting: number }> {
    const { client, queue, target, wanted } = this.ctx;
    await wanted.renew([...this.pending.keys()]);
    const ids = [...this.pending.keys()];
    const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
    const stored = ids.length ? await client.mget(ids.map((id) => resultKey(target.queue, id))) : [];
    let running = 0;
    let waiting = 0;
    let vanished = 0;
    for (let i = 0; i < ids.length; i++) {
      const settled = await this.settle(ids[i], states[i], stored[i]);
      if (settled === 'running') running++;
      else if (settled === 'waiting') waiting++;
      else if (settled === 'vanished') {
        vanished++;
        waiting++;
      }
    }
    if (vanished) this.ctx.say?.(`queue: ${vanished} jobs were gone from Redis (restarted empty?): enqueued again`);
    const stuck = await this.ctx.refused.check(this.pending);
    if (stuck) throw new RefusedError(stuck);
    return { running, waiting };
  }

  /** What a job's state and stored result mean: its result, a failure, or enqueued again. */
  private async settle(jobId: string, state: string, stored: string | null): Promise<Settled> {
    const j = this.pending.get(jobId)!;
    if (stored !== null) {
      this.ctx.onResult(j.id, JSON.parse(stored) as JobResult);
      this.pending.delete(jobId);
      return 'done';
    }
    if (state === 'failed') {
      const job = await this.ctx.queue.getJob(jobId);
      const reason = job?.failedReason ?? 'unknown reason';
      if (this.firstRound || reason === ORPHANED) {
        // submitted again: a failed job is retried; one dropped as unwanted lost its mark
        await job?.remove();
        await this.enqueue(jobId, j.data);
        return 'waiting';
      }
      if (reason.startsWith('refused:'))
        throw new RefusedError(`job ${j.id} (seed ${j.data.seed}, site ${j.data.site}) ${reason}`);
      this.failures.push(`job ${j.id} (seed ${j.data.seed}, site ${j.data.site}): ${reason.split('\n')[0]}`);
      this.pending.delete(jobId);
      return 'failed';
    }
    if (state === 'unknown' || state === 'completed') {
      // never added, gone with a Redis that restarted empty, or done with its result expired
      if (state === 'completed') await this.ctx.queue.remove(jobId);
      await this.enqueue(jobId, j.data);
      return this.firstRound ? 'waiting' : 'vanished';
    }
    return state === 'active' ? 'running' : 'waiting';
  }

  /**
   * Adds a job. One enqueued again after the first round may have lost its wanted mark with a
   * Redis that restarted empty (a worker would drop it): it is marked first.
   */
  private async enqueue(jobId: string, data: QueueJobData): Promise<unknown> {
    if (!this.firstRound) await this.ctx.wanted.mark([jobId]);
    return addJob(this.ctx.queue, jobId, data);
  }
}

/**
 * A round the submitter could not make (`thrown`; `err` what Redis last said, if anything): Redis
 * said something that will not pass, a job was refused, or Redis has not answered for the whole
 * wait since `lastOk` (each thrown, one line); else `say`, when given, is told that it waits.
 */
function waitingFor(
  err: unknown,
  thrown: unknown,
  shown: string,
  { lastOk, timeoutMs }: { lastOk: number; timeoutMs: number },
  say: ((line: string) => void) | undefined,
): void {
  if (fatalRedisError(err)) throw new Error(redisProblem(err, shown));
  // a job no worker would run ends the run (RefusalWatch)
  if (thrown instanceof RefusedError) throw thrown;
  if (Date.now() - lastOk >= timeoutMs)
    throw new Error(`${redisProblem(err, shown)}; gave up after ${Math.round(timeoutMs / 1000)} s`);
  say?.(
    `queue: ${redisProblem(err, shown)}; waiting for it${Number.isFinite(timeoutMs) ? ` (${Math.round(timeoutMs / 1000)} s at most)` : ''}`,
  );
}

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
    // the results counted; the refusals and wanted marks (presence.ts) of the jobs go with them
    for (const [pattern, count] of [
      [resultKey(target.queue, '*'), true],
      [refusedKey(target.queue, '*'), false],
      [wantedKey(target.queue, '*'), false],
    ] as const) {
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        cursor = next;
        const gone = keys.length ? await client.del(...keys) : 0;
        if (count) results += gone;
      } while (cursor !== '0');
    }
    return { jobs, results };
  } finally {
    await within(queue.close(), 5000, () => 'timed out').catch(() => queue.disconnect().catch(() => {}));
    client.disconnect();
  }
}
