/**
 * A queue worker (`npm run worker -- --queue URL`): takes the jobs experiments/queue/queue.ts
 * enqueues, one at a time, runs each in a child process of its own (job-process.ts), stores the
 * result under the job's key before the job is marked done, and refuses, putting back for another
 * worker, a job it must not run (other code, data changed after submission, a file outside its
 * checkout).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { currentGitCommit, currentTreeHash, gitCommit, NODE_MAJOR, refusal, treeHash } from './code.ts';
import { announce, isWanted, ORPHANED, WORKER_RENEW_MS, type WorkerPresence, withdraw } from './presence.ts';
import { JobProcess } from './job-process.ts';
import { jobIdOf, type QueueJobData, refusedKey, resultKey } from './job.ts';
import {
  connectRedis,
  fatalRedisError,
  REDIS_TIMEOUT_MS,
  type RedisTarget,
  redisProblem,
  redisTarget,
  retrying,
  within,
} from './redis-connection.ts';

/** A job whose worker died this many times (lock expired) fails instead of running again. */
const MAX_STALLS = 2;

/** How long a refused job waits before a worker may take it again (ms). */
const REFUSED_DELAY_MS = 1000;

export interface QueueWorkerOptions {
  cacheDir: string | null;
  /** A job whose worker stops renewing its lock this long (killed, cut off) runs again elsewhere. */
  lockMs: number;
  /** A job's events; 'refused' and 'dropped' once per reason (a poisoned sweep's jobs bounce). */
  onJob?: (
    event: 'start' | 'done' | 'cached' | 'failed' | 'refused' | 'dropped',
    data: QueueJobData,
    message?: string,
  ) => void;
  /** A problem worth a line that does not stop the worker (Redis not answering, a lost lock). */
  onWarning?: (line: string) => void;
  /** How long Redis may not answer while the worker is idle before it gives up (ms). */
  timeoutMs?: number;
  /**
   * The checkout changed since the worker started (its code is not the code on disk): called once,
   * with the line that says so, after the job that found it was put back. The CLI stops the worker
   * then when it runs under --restart-on-change (and starts it again on the new code).
   */
  onCheckoutChange?: (line: string) => void;
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

/**
 * Puts a refused job back on the queue for a worker that can run it, the reason kept under this
 * worker's name (refusedKey) for the submitter to say if no worker takes it.
 */
async function putBack(
  client: Redis,
  queue: string,
  job: Job<QueueJobData>,
  token: string | undefined,
  why: string,
): Promise<never> {
  const key = refusedKey(queue, job.id!);
  await client.hset(key, `${hostname()}:${process.pid}`, why);
  await client.expire(key, Math.max(60, job.data.keepS));
  await job.moveToDelayed(Date.now() + REFUSED_DELAY_MS, token);
  throw new DelayedError();
}

/** The code this worker started with, and why no job may run while the checkout holds other code. */
function checkoutWatch(): { started: { tree: string; commit: string | null }; changed: () => string | null } {
  const started = { tree: treeHash(), commit: gitCommit() };
  return {
    started,
    changed() {
      const now = currentTreeHash();
      if (now === started.tree) return null;
      return (
        `refused: this worker's checkout changed since it started (then ${started.commit ?? 'no commit'}, tree ` +
        `${started.tree}; now ${currentGitCommit() ?? 'no commit'}, tree ${now}): restart the worker on the new ` +
        'code (npm run worker -- --restart-on-change does it by itself)'
      );
    },
  };
}

/** What the processor of a worker's jobs works with. */
interface JobContext {
  client: Redis;
  target: RedisTarget;
  timeoutMs: number;
  proc: JobProcess;
  webs: string;
  opts: QueueWorkerOptions;
  checkout: ReturnType<typeof checkoutWatch>;
  /** Reasons already logged: a poisoned sweep's jobs bounce, one line per reason is enough. */
  said: Set<string>;
  /** A job runs in the job process. */
  busy: boolean;
}

/** What this worker announces while connected (presence.ts). */
const presenceOf = (ctx: JobContext, id: string): WorkerPresence => ({
  id,
  tree: ctx.checkout.started.tree,
  node: NODE_MAJOR,
  commit: ctx.checkout.started.commit,
  changed: ctx.checkout.changed() !== null,
  busy: ctx.busy,
});

/** One line per reason a job is refused (or dropped) for, not one per bounce. */
function sayOnce(ctx: JobContext, event: 'refused' | 'dropped', d: QueueJobData, why: string): void {
  if (ctx.said.has(why)) return;
  ctx.said.add(why);
  ctx.opts.onJob?.(event, d, `${why} (not logged again for other jobs)`);
}

/** Takes one job: refused, dropped (nobody waits for it), reused or run in the job process, and its result stored. */
async function processJob(
  ctx: JobContext,
  job: Job<QueueJobData>,
  token: string | undefined,
): Promise<{ stored: string }> {
  const { client, target, timeoutMs, opts } = ctx;
  const d = job.data;
  const why = (d?.cfg && ctx.checkout.changed()) || (await refusalOf(job.id, d));
  if (why && !d?.cfg) throw new UnrecoverableError(why);
  // a job whose submitters all stopped (gave up, finished, killed): dropped, not run nor bounced
  if (!(await retrying(() => isWanted(client, target.queue, job.id!), Date.now() + timeoutMs))) {
    sayOnce(ctx, 'dropped', d, ORPHANED);
    throw new UnrecoverableError(ORPHANED);
  }
  if (why) {
    sayOnce(ctx, 'refused', d, why);
    if (why.startsWith("refused: this worker's checkout changed"))
      // after the job is back on the queue: a worker that stops now loses nothing
      setImmediate(() => opts.onCheckoutChange?.(why));
    return putBack(client, target.queue, job, token, why);
  }
  // taken: the refusals of other workers no longer stop the submission
  await retrying(() => client.del(refusedKey(target.queue, job.id!)), Date.now() + timeoutMs);
  const key = resultKey(target.queue, job.id!);
  // a result stored by a worker that then lost the job is not computed again
  if (await retrying(() => client.exists(key), Date.now() + timeoutMs)) {
    opts.onJob?.('cached', d);
    return { stored: key };
  }
  opts.onJob?.('start', d);
  const cfg = d.webJson === null ? d.cfg : { ...d.cfg, web: webFile(ctx.webs, d.webJson) };
  ctx.busy = true;
  try {
    const r = await ctx.proc.run(
      { cfg, seed: d.seed, site: d.site, cacheDir: opts.cacheDir, record: d.record },
      { tree: d.code.tree, files: d.code.files },
    );
    if (r.kind !== 'result') {
      sayOnce(ctx, 'refused', d, r.why);
      return putBack(client, target.queue, job, token, r.why);
    }
    const result = { ...r.result, madeBy: { ...r.result.madeBy!, workerPid: process.pid } };
    // a result finished while Redis restarts is written once it is back (within the wait)
    await retrying(() => client.set(key, JSON.stringify(result), 'EX', Math.max(1, d.keepS)), Date.now() + timeoutMs);
  } finally {
    ctx.busy = false;
  }
  return { stored: key };
}

/** A worker: connects (one line within timeoutMs if it cannot), then takes one job at a time until stopped. */
export async function startQueueWorker(url: string, opts: QueueWorkerOptions): Promise<QueueWorker> {
  const target: RedisTarget = redisTarget(url);
  const timeoutMs = opts.timeoutMs ?? REDIS_TIMEOUT_MS;
  const client = await connectRedis(target, timeoutMs);
  const webs = join(tmpdir(), 'crawler-harness-webs');
  mkdirSync(webs, { recursive: true });
  // the code this worker runs (checkoutWatch): its own, hashed now; a job process it forks must load the same
  const id = `${hostname()}:${process.pid}`;
  const ctx: JobContext = {
    client,
    target,
    timeoutMs,
    proc: new JobProcess(),
    webs,
    opts,
    checkout: checkoutWatch(),
    said: new Set(),
    busy: false,
  };
  await announce(client, target.queue, presenceOf(ctx, id));
  const running = new RunningWorker(ctx, bullWorker(ctx), id);
  return { done: running.done, stop: (graceMs) => running.stop(graceMs) };
}

/** The BullMQ worker that takes this worker's jobs, one at a time, and says what became of each. */
function bullWorker(ctx: JobContext): Worker<QueueJobData, { stored: string }> {
  const { target, opts } = ctx;
  const worker = new Worker<QueueJobData, { stored: string }>(
    target.queue,
    (job, token) => processJob(ctx, job, token),
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
    if (job && e.message === ORPHANED) void job.remove().catch(() => {});
    else if (job && !e.message.startsWith('refused:')) opts.onJob?.('failed', job.data, e.message);
  });
  worker.on('error', warnings(target.shown, opts.onWarning));
  return worker;
}

/**
 * A started worker: it announces itself while connected, watches Redis from its own connection
 * (lost for timeoutMs while no job runs, the worker ends), and stops on request.
 */
class RunningWorker {
  readonly done: Promise<boolean>;
  private stopping = false;
  private finish!: (clean: boolean) => void;
  private fail!: (e: Error) => void;
  private lastOk = Date.now();
  private announced = Date.now();
  private readonly watch: NodeJS.Timeout;

  constructor(
    private readonly ctx: JobContext,
    private readonly worker: Worker<QueueJobData, { stored: string }>,
    private readonly id: string,
  ) {
    this.done = new Promise<boolean>((resolve, reject) => {
      this.finish = resolve;
      this.fail = reject;
    });
    this.watch = setInterval(() => this.check(), 2000);
  }

  /** Every 2 s: announce again when due (the submitter reads who can run what), and ping Redis. */
  private check(): void {
    const { client, target, timeoutMs } = this.ctx;
    if (Date.now() - this.announced >= WORKER_RENEW_MS) {
      this.announced = Date.now();
      announce(client, target.queue, presenceOf(this.ctx, this.id)).catch(() => {});
    }
    within(client.ping(), 5000, () => 'timed out').then(
      () => {
        this.lastOk = Date.now();
      },
      (e: unknown) => {
        if (this.stopping) return;
        if (fatalRedisError(e)) void this.shutdown(0).then(() => this.fail(new Error(redisProblem(e, target.shown))));
        else if (!this.ctx.busy && Date.now() - this.lastOk >= timeoutMs)
          void this.shutdown(0).then(() =>
            this.fail(new Error(`${redisProblem(e, target.shown)}; gave up after ${Math.round(timeoutMs / 1000)} s`)),
          );
      },
    );
  }

  private async shutdown(graceMs: number): Promise<boolean> {
    const { client, target, proc } = this.ctx;
    this.stopping = true;
    clearInterval(this.watch);
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      this.worker.close().then(() => true),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (closed) proc.close();
    else {
      proc.kill();
      void this.worker.close(true).catch(() => {});
    }
    await within(withdraw(client, target.queue, this.id), 1000, () => 'timed out').catch(() => {});
    client.disconnect();
    return closed;
  }

  async stop(graceMs: number): Promise<boolean> {
    const wasBusy = this.ctx.busy;
    if (this.stopping) {
      // asked again: stop now (a job running is cut)
      this.ctx.proc.kill();
      this.finish(!wasBusy);
      return !wasBusy;
    }
    // idle, nothing is lost by not waiting for BullMQ's close (it waits on a Redis that may be gone)
    const clean = (await this.shutdown(wasBusy ? graceMs : Math.min(graceMs, 5000))) || !wasBusy;
    // the outcome travels with done: a caller reading it after done settles must not miss a cut
    this.finish(clean);
    return clean;
  }
}
