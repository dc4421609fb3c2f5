/**
 * Jobs that workers refuse (another checkout, a path outside theirs): watched while the submitter
 * waits, and the line that stops the submission when no connected worker would run one.
 */
import type { Redis } from 'ioredis';
import type { QueueJobData } from './job.ts';
import { refusedKey } from './job.ts';
import { connectedWorkers, type WorkerPresence } from './presence.ts';

/**
 * How long the submitter waits, while workers refuse its jobs, for one that takes a job, before it
 * stops naming them (ms; SubmitOptions.refusedWaitMs). Workers on the right checkout may join late.
 */
export const REFUSED_WAIT_MS = 30_000;

/**
 * Watches the jobs workers refuse (refusedKey: worker -> reason; the worker that takes a job
 * removes it). While a connected worker runs a refused job's code (presence.ts: its tree and Node,
 * its checkout unchanged, and it has not refused the job itself), the submitter waits for it,
 * however busy it is. When none does for `waitMs` (workers may join late), the submission stops
 * with a line naming the job's code and what each connected worker runs.
 */
export class RefusalWatch {
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
