/**
 * The child process that runs a queue worker's jobs (experiments/queue/queue.ts): one job at a time,
 * forked again if it dies. The child (experiments/pool-worker.ts) ends by itself when the worker
 * does, even inside a long synchronous step.
 */
import type { ChildProcess } from 'node:child_process';
import { moduleUrl } from '../../lib/paths.ts';
import type { JobTask } from '../focused/rows.ts';
import type { QueuedJob, QueuedOutcome } from './job-entry.ts';
import { jobHeapMb } from '../heap-budget.ts';
import { forkPoolProcess } from '../pool.ts';

/** The child process that runs a worker's jobs, one at a time (forked again if it dies). */
export class JobProcess {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  /** The heap the process was started with (MB). */
  private heapMb = 0;

  private start(heapMb: number): Promise<void> {
    const child = forkPoolProcess(true, heapMb);
    this.heapMb = heapMb;
    this.child = child;
    child.on('exit', () => {
      if (this.child === child) {
        this.child = null;
        this.ready = null;
      }
    });
    return new Promise((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the job's process exited with code ${code} before it started`)));
    });
  }

  /**
   * Runs the job in this worker's job process, checked against the code that process loaded
   * (job-entry.ts): a process whose checkout changed since it loaded its code is replaced by a
   * fresh one, once, which then runs the job or refuses it.
   */
  async run(task: JobTask, code: { tree: string; files: Record<string, string> }): Promise<QueuedOutcome> {
    const first = await this.once(task, code);
    if (first.kind !== 'stale') return first;
    this.kill();
    const again = await this.once(task, code);
    return again.kind === 'stale' ? { kind: 'refused', why: `refused: ${again.why}` } : again;
  }

  private async once(task: JobTask, code: { tree: string; files: Record<string, string> }): Promise<QueuedOutcome> {
    // the heap this job's web needs (experiments/heap-budget.ts): a process started for a smaller web is
    // replaced; a web this machine cannot hold fails the job with the number it would need
    const heap = jobHeapMb(task.cfg, 1);
    if (this.child && heap > this.heapMb) this.kill();
    this.ready ??= this.start(heap);
    await this.ready;
    const child = this.child!;
    return new Promise<QueuedOutcome>((resolve, reject) => {
      const onExit = (code: number | null, signal: string | null): void =>
        reject(new Error(`the job's process ended (${signal ?? `exit code ${code}`})`));
      child.once('exit', onExit);
      child.once('message', (m: { type: string; result?: QueuedOutcome; message?: string }) => {
        child.off('exit', onExit);
        if (m.type === 'result') resolve(m.result!);
        else reject(new Error(m.message ?? 'the job failed'));
      });
      const job: QueuedJob = { task, ...code };
      child.send({
        type: 'task',
        id: 0,
        module: moduleUrl(import.meta.url, './job-entry').href,
        fn: 'runQueuedJob',
        arg: job,
      });
    });
  }

  kill(): void {
    this.child?.kill('SIGKILL');
    this.child = null;
    this.ready = null;
  }

  /** Lets the process close what its jobs kept open (servers, webs), then ends it. */
  close(): void {
    const child = this.child;
    if (!child) return;
    child.send({
      type: 'exit',
      cleanup: { module: moduleUrl(import.meta.url, '../focused/run-one').href, fn: 'closeSeedState' },
    });
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  }
}
