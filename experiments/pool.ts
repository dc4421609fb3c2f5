/**
 * A pool of worker processes for experiment steps that are independent and CPU-bound (the
 * deep-web benches' seeds and database sizes): each step is a call of an exported function of a
 * module with one structured-clonable argument, run in a forked process; results come back by
 * index, so the caller merges them in its own order and the outputs never depend on which
 * process ran what. The focused runner (experiments/focused/runner.ts) chooses which job a process takes
 * next, so that a seed's web stays in the process that built it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { moduleUrl, RUNS_SOURCES } from '../lib/paths.ts';

/**
 * From the sources, workers load tsx (by its resolved URL, so from any working directory): the
 * worker and its tasks are TypeScript. Built, they are JavaScript, and a researcher's TypeScript
 * strategy module registers tsx when it loads (lib/self-import.ts prepareModuleLoad).
 */
const LOADER = RUNS_SOURCES ? ['--import', import.meta.resolve('tsx')] : [];

/**
 * V8 flags of the workers. A young generation of up to 64 MB a semi-space (V8's default is 16 on
 * 64-bit): an experiment job keeps tens of thousands of parsed pages and their features, and with
 * more room fewer of the objects in flight survive a scavenge to be copied or promoted. Measured
 * on the default experiment and deepweb, with the same CSVs: about 7% less wall time, each worker
 * about 150 MB more resident (docs/benchmarks.md).
 */
export const WORKER_FLAGS = ['--max-semi-space-size=64'];

/**
 * The least heap a job process is given, about Node's own default on a 64-bit machine (MB); a
 * larger web gets what experiments/heap-budget.ts says it needs, through heapFlag.
 */
export const MIN_HEAP_MB = 4096;
/** The V8 flag that gives a process a heap of `mb` MB. */
export const heapFlag = (mb: number): string => `--max-old-space-size=${mb}`;

/** Where each job process writes a V8 CPU profile as it exits (experiment --cpu-prof DIR); null: none. */
let profileDir: string | null = null;

/**
 * Job processes started from now on write a CPU profile each into `dir` as they exit (node
 * --cpu-prof, which NODE_OPTIONS refuses and which on the parent profiles the parent only); null
 * stops it.
 */
export function profileJobsInto(dir: string | null): void {
  profileDir = dir;
}

/**
 * One process of the pool (experiments/pool-worker.ts), ready for 'task' messages. `detached`
 * puts it in a process group of its own: a terminal's Ctrl-C then reaches only the parent, which
 * decides when its job may stop (the queue worker, experiments/queue/queue.ts).
 */
export function forkPoolProcess(detached = false, heapMb: number = MIN_HEAP_MB): ChildProcess {
  return fork(fileURLToPath(moduleUrl(import.meta.url, './pool-worker')), [], {
    execArgv: [
      ...WORKER_FLAGS,
      heapFlag(heapMb),
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...LOADER,
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached,
  });
}

export interface PoolTask {
  /** Absolute file URL of the module (import.meta.url of the caller's module, typically). */
  module: string;
  /** Name of the exported async function to call. */
  fn: string;
  arg: unknown;
}

interface TaskMsg extends PoolTask {
  type: 'task';
  id: number;
}

export interface PoolOptions {
  /**
   * Which of the pending tasks (indices into the task list, in order) process `worker` takes
   * next: a position in `pending`. Default: the first.
   */
  choose?: (worker: number, pending: readonly number[]) => number;
  /** A function each process calls before it exits (closing what its tasks kept open). */
  cleanup?: Omit<PoolTask, 'arg'>;
  /** Each process's heap, MB (experiments/heap-budget.ts; default MIN_HEAP_MB). */
  heapMb?: number;
}

/**
 * Runs the tasks on n processes (at most one per task), calling onResult(index, result) as each
 * finishes; rejects on the first failure, after killing the other processes.
 */
export function runInProcesses<R>(
  tasks: readonly PoolTask[],
  n: number,
  onResult: (index: number, result: R) => void,
  opts: PoolOptions = {},
): Promise<void> {
  const queue = tasks.map((t, id) => ({ ...t, id }));
  const size = Math.max(1, Math.min(n, tasks.length));
  return new Promise<void>((resolve, reject) => {
    if (!tasks.length) {
      resolve();
      return;
    }
    const children: ChildProcess[] = [];
    let running = 0;
    let failed = false;
    const fail = (e: Error): void => {
      if (failed) return;
      failed = true;
      for (const c of children) c.kill();
      reject(e);
    };
    const next = (child: ChildProcess, worker: number): void => {
      if (!queue.length) {
        child.send({ type: 'exit', cleanup: opts.cleanup });
        return;
      }
      const k =
        opts.choose?.(
          worker,
          queue.map((t) => t.id),
        ) ?? 0;
      const t = queue.splice(k >= 0 && k < queue.length ? k : 0, 1)[0];
      child.send({ type: 'task', ...t } satisfies TaskMsg);
    };
    for (let k = 0; k < size; k++) {
      const child = forkPoolProcess(false, opts.heapMb);
      children.push(child);
      running++;
      child.on('message', (m: { type: string; id: number; result?: R; message?: string }) => {
        if (m.type === 'ready') next(child, k);
        else if (m.type === 'result') {
          try {
            onResult(m.id, m.result as R);
          } catch (e) {
            fail(e as Error);
            return;
          }
          next(child, k);
        } else if (m.type === 'error') fail(new Error(`step ${m.id} failed: ${m.message}`));
      });
      child.on('exit', (code) => {
        running--;
        if (code !== 0 && code !== null) fail(new Error(`a worker process exited with code ${code}`));
        else if (running === 0 && !failed) resolve();
      });
    }
  });
}
