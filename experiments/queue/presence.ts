/**
 * Who is on the queue, kept in Redis with expiries (issue #89), so that nothing waits on a process
 * that is gone and nothing stays for one:
 * - a worker announces, while it is connected, the code it runs (WORKER_TTL_S, renewed every few
 *   seconds): the submitter stops on a refused job only when no connected worker runs its code,
 *   and names what each runs;
 * - a submitter marks every job it waits for as wanted (WANTED_TTL_S, renewed while it waits): a
 *   job nobody wants any more (its submitter gave up, finished or was killed) is dropped by the
 *   next worker that takes it instead of bouncing between workers for ever.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { append } from '../../lib/arrays.ts';

/** How long a worker's announcement outlives its last renewal (s): it renews every WORKER_RENEW_MS. */
export const WORKER_TTL_S = 15;
export const WORKER_RENEW_MS = 5000;
/**
 * How long a job stays wanted after its submitter last said so (s; SubmitOptions.wantedTtlS): a
 * killed submitter's jobs are dropped this long after it died, at the next take by a worker. A
 * submitter that stops by itself drops its jobs at once.
 */
export const WANTED_TTL_S = 60;
/**
 * The failure a worker marks a job with when no submitter wants it (then removes it). A submitter
 * still waiting that meets it lost its mark (Redis restarted empty): it marks the job again and
 * enqueues it again, as it does a job gone from Redis.
 */
export const ORPHANED = 'dropped: no submitter waits for it any more';
/** How long a leaving submitter looks again at a job a worker holds (ms): a refusal returns it within this. */
const LEAVE_WAIT_MS = 3000;

/** What a connected worker runs. */
export interface WorkerPresence {
  /** host:pid, as its refusals and log name it. */
  id: string;
  tree: string;
  node: string;
  commit: string | null;
  /** Its checkout changed since it started: it runs nothing until restarted. */
  changed: boolean;
  busy: boolean;
}

export const workerKey = (queue: string, id: string): string => `crawler-harness:${queue}:worker:${id}`;
export const wantedKey = (queue: string, jobId: string): string => `crawler-harness:${queue}:wanted:${jobId}`;

export async function announce(client: Redis, queue: string, p: WorkerPresence): Promise<void> {
  await client.set(workerKey(queue, p.id), JSON.stringify(p), 'EX', WORKER_TTL_S);
}

export async function withdraw(client: Redis, queue: string, id: string): Promise<void> {
  await client.del(workerKey(queue, id));
}

/** The workers connected now (announced within WORKER_TTL_S). */
export async function connectedWorkers(client: Redis, queue: string): Promise<WorkerPresence[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', workerKey(queue, '*'), 'COUNT', 500);
    cursor = next;
    append(keys, found);
  } while (cursor !== '0');
  if (!keys.length) return [];
  const values = await client.mget(keys);
  return values.flatMap((v) => (v ? [JSON.parse(v) as WorkerPresence] : [])).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * Marks jobs as wanted by `submitter` until ttlS from now (a sorted set per job: submitter ->
 * until when, the key expiring with its last member), before they are enqueued and again while
 * the submitter waits.
 */
export async function want(
  client: Redis,
  queue: string,
  submitter: string,
  jobIds: readonly string[],
  ttlS: number,
): Promise<void> {
  const until = Date.now() + ttlS * 1000;
  for (let i = 0; i < jobIds.length; i += 1000) {
    const p = client.pipeline();
    for (const id of jobIds.slice(i, i + 1000)) {
      p.zadd(wantedKey(queue, id), until, submitter);
      p.expire(wantedKey(queue, id), Math.ceil(ttlS) + 1);
    }
    await p.exec();
  }
}

/** The submitter no longer waits for these jobs; returns those nobody else wants. */
export async function unwant(
  client: Redis,
  queue: string,
  submitter: string,
  jobIds: readonly string[],
): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < jobIds.length; i += 1000) {
    const ids = jobIds.slice(i, i + 1000);
    const p = client.pipeline();
    for (const id of ids) {
      p.zrem(wantedKey(queue, id), submitter);
      p.zremrangebyscore(wantedKey(queue, id), '-inf', Date.now());
      p.zcard(wantedKey(queue, id));
    }
    const r = (await p.exec()) ?? [];
    ids.forEach((id, j) => {
      if (r[3 * j + 2]?.[1] === 0) out.push(id);
    });
  }
  return out;
}

/** Whether a submitter still waits for the job. */
export async function isWanted(client: Redis, queue: string, jobId: string): Promise<boolean> {
  const key = wantedKey(queue, jobId);
  await client.zremrangebyscore(key, '-inf', Date.now());
  return (await client.zcard(key)) > 0;
}

/** A submitter's jobs, marked wanted while it waits, and dropped when it leaves. */
export class WantedJobs {
  private readonly submitter = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private at = 0;
  constructor(
    private readonly client: Redis,
    private readonly queue: Queue,
    private readonly ttlS: number,
  ) {}

  /** Marks the jobs wanted again once a quarter of the time has passed (before they are enqueued, too). */
  async renew(jobIds: readonly string[]): Promise<void> {
    if (Date.now() - this.at < (this.ttlS * 1000) / 4) return;
    await want(this.client, this.queue.name, this.submitter, jobIds, this.ttlS);
    this.at = Date.now();
  }

  /** Marks jobs wanted at once, whenever the last renewal was: before a job lost from Redis is enqueued again. */
  async mark(jobIds: readonly string[]): Promise<void> {
    await want(this.client, this.queue.name, this.submitter, jobIds, this.ttlS);
  }

  /** The submitter leaves: its jobs unmarked, and those nobody else wants and none runs removed. */
  async leave(jobIds: readonly string[]): Promise<void> {
    if (!jobIds.length) return;
    // a worker that took a job just before it was unmarked may be refusing it: a refusal puts it back
    // within milliseconds, so active jobs are looked at again, all together, until LEAVE_WAIT_MS has
    // passed before they are left to run (a running job finishes; its result expires with the others)
    const until = Date.now() + LEAVE_WAIT_MS;
    let left = (
      await Promise.all(
        (await unwant(this.client, this.queue.name, this.submitter, jobIds)).map((id) => this.queue.getJob(id)),
      )
    ).filter((j) => j !== undefined);
    for (;;) {
      const active: typeof left = [];
      for (const job of left) {
        const state = await job.getState();
        if (state === 'active') active.push(job);
        else if (state === 'waiting' || state === 'delayed' || state === 'prioritized')
          await job.remove().catch(() => {});
      }
      if (!active.length || Date.now() >= until) return;
      left = active;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
