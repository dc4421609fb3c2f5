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
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ExperimentConfig } from '../focused/config.ts';
import type { JobResult } from '../focused/rows.ts';
import type { CodeVersion } from './code.ts';
import {
  connectRedis,
  fatalRedisError,
  REDIS_TIMEOUT_MS,
  redisProblem,
  redisTarget,
  within,
} from './redis-connection.ts';
import { sleep } from '../../lib/time.ts';
import { resource } from '../../lib/paths.ts';
import type { QueueProgress } from '../family.ts';
import { connectedWorkers, ORPHANED, WANTED_TTL_S, WantedJobs, wantedKey, type WorkerPresence } from './presence.ts';

export type { QueueProgress };
export { QueueUrlError, redactUrl, redisTarget, waitRedisMs } from './redis-connection.ts';

/** How long finished and failed jobs and their results are kept (days), unless the submitter says otherwise. */
export const KEEP_DAYS = 7;
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
export const resultKey = (queue: string, jobId: string): string => `crawler-harness:${queue}:result:${jobId}`;

/** Where the workers that refused a job say why (a hash: worker -> reason), for the submitter to name them. */
export const refusedKey = (queue: string, jobId: string): string => `crawler-harness:${queue}:refused:${jobId}`;

/**
 * How long the submitter waits, while workers refuse its jobs, for one that takes a job, before it
 * stops naming them (ms; SubmitOptions.refusedWaitMs). Workers on the right checkout may join late.
 */
const REFUSED_WAIT_MS = 30_000;

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
  const pending = new Map(jobs.map((j) => [jobIdOf(j.data), j]));
  // the jobs are wanted while this submitter waits (presence.ts): once it stops, however it stops,
  // workers drop what is left instead of bouncing it between them
  const wanted = new WantedJobs(client, queue, opts.wantedTtlS ?? WANTED_TTL_S);
  try {
    const refused = new RefusalWatch(client, target.queue, opts.refusedWaitMs ?? REFUSED_WAIT_MS);
    const failures: string[] = [];
    let firstRound = true;
    let lastOk = Date.now();
    let warned = false;
    let pollMs = POLL_MS.least;
    // a job enqueued again after the first round may have lost its wanted mark with a Redis that
    // restarted empty (a worker would drop it): `mark` sets it first
    const enqueue = async (jobId: string, data: QueueJobData, mark: boolean): Promise<unknown> => {
      if (mark) await wanted.mark([jobId]);
      return addJob(queue, jobId, data);
    };
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
        waitingFor(lastError ?? e, e, target.shown, { lastOk, timeoutMs }, warned ? undefined : opts.say);
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
      await wanted.renew([...pending.keys()]);
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
          if (firstRound || reason === ORPHANED) {
            // submitted again: a failed job is retried; one dropped as unwanted lost its mark
            await job?.remove();
            await enqueue(jobId, j.data, !firstRound);
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
          await enqueue(jobId, j.data, !firstRound);
          waiting++;
        } else if (state === 'active') running++;
        else waiting++;
      }
      if (vanished) {
        opts.say?.(`queue: ${vanished} jobs were gone from Redis (restarted empty?): enqueued again`);
      }
      const stuck = await refused.check(pending);
      if (stuck) throw new RefusedError(stuck);
      return { running, waiting };
    }
  } finally {
    // what is left (a refused job, a failure elsewhere, a stop): not wanted by this submitter any more
    await within(wanted.leave(jobs.map((j) => jobIdOf(j.data))), 5000, () => 'timed out').catch(() => {});
    // close has a deadline too: on a stalled network it would wait for Redis until it came back
    await within(queue.close(), 5000, () => 'timed out').catch(() => queue.disconnect().catch(() => {}));
    client.disconnect();
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

/** A job added once (its id is its data's hash), kept for its keepS once finished or failed. */
const addJob = (queue: Queue<QueueJobData, unknown, string>, jobId: string, data: QueueJobData): Promise<unknown> =>
  queue.add('run', data, {
    jobId,
    attempts: 1,
    removeOnComplete: { age: data.keepS, count: 100_000 },
    removeOnFail: { age: data.keepS },
  });

/** Jobs the workers refused (other code, a path outside their checkout) and none took: the submission stops. */
class RefusedError extends Error {}

/**
 * Watches the jobs workers refuse (refusedKey: worker -> reason; the worker that takes a job
 * removes it). While a connected worker runs a refused job's code (presence.ts: its tree and Node,
 * its checkout unchanged, and it has not refused the job itself), the submitter waits for it,
 * however busy it is. When none does for `waitMs` (workers may join late), the submission stops
 * with a line naming the job's code and what each connected worker runs.
 */
class RefusalWatch {
  private readonly since = new Map<string, number>();
  private checked = 0;
  constructor(
    private readonly client: Redis,
    private readonly queue: string,
    private readonly waitMs: number,
  ) {}

  /** The line that stops the submission, or null (checked at most once a second). */
  async check(pending: ReadonlyMap<string, { id: number; data: QueueJobData }>): Promise<string | null> {
    if (!pending.size || Date.now() - this.checked < 1000) return null;
    this.checked = Date.now();
    const ids = [...pending.keys()];
    const got = (await this.client.pipeline(ids.map((id) => ['hgetall', refusedKey(this.queue, id)])).exec()) ?? [];
    let workers: WorkerPresence[] | null = null;
    for (let i = 0; i < ids.length; i++) {
      const who = (got[i]?.[1] ?? {}) as Record<string, string>;
      if (!Object.keys(who).length) {
        this.since.delete(ids[i]);
        continue;
      }
      const { code } = pending.get(ids[i])!.data;
      workers ??= await connectedWorkers(this.client, this.queue);
      const capable = workers.some(
        (w) => w.tree === code.tree && w.node === (code.node ?? w.node) && !w.changed && !(w.id in who),
      );
      if (capable) {
        this.since.delete(ids[i]);
        continue;
      }
      const since = this.since.get(ids[i]) ?? Date.now();
      this.since.set(ids[i], since);
      if (Date.now() - since < this.waitMs) continue;
      return refusalLine(pending.get(ids[i])!, who, workers, this.waitMs);
    }
    return null;
  }
}

/** Why a refused job stops the submission: its code, each connected worker's, and each refusal. */
function refusalLine(
  j: { id: number; data: QueueJobData },
  who: Record<string, string>,
  workers: readonly WorkerPresence[],
  waitMs: number,
): string {
  const { code } = j.data;
  const runs = (w: WorkerPresence): string =>
    `worker ${w.id} runs ${w.commit ?? 'no commit'}, tree ${w.tree}, Node ${w.node}` +
    (w.changed ? ' (its checkout changed since it started)' : '') +
    (w.busy ? ', busy' : '') +
    (who[w.id] ? ` and ${who[w.id]}` : '');
  const gone = Object.entries(who).filter(([id]) => !workers.some((w) => w.id === id));
  return (
    `job ${j.id} (seed ${j.data.seed}, site ${j.data.site}): no connected worker runs its code ` +
    `(${code.commit ?? 'no commit'}, tree ${code.tree}, Node ${code.node ?? '?'}) for ${Math.round(waitMs / 1000)} s; ` +
    [...workers.map(runs), ...gone.map(([id, why]) => `worker ${id} (gone) ${why}`)].join('; ')
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
