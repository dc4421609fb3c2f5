/**
 * The contract of an experiment family (issue #37 item 2): a family recognises its configs,
 * resolves and validates them, runs one (the runs, the outputs, the lines printed) and, from its
 * outputs, writes its report again. Each
 * family is one module in its own folder (experiments/focused/family.ts, sweep/, deepweb/,
 * distributed/); experiments/families.ts lists them and `npm run experiment` dispatches by it.
 */
/** Jobs of a run on the job queue (experiments/focused/queue.ts), as its progress reports them. */
export interface QueueProgress {
  /** Which submission (a sweep submits one per point at once): the CLI sums the latest of each. */
  run: string;
  done: number;
  running: number;
  waiting: number;
  failed: number;
  total: number;
}

export interface ProgressBar {
  update(done: number, payload?: Record<string, unknown>): void;
  setTotal(total: number): void;
  stop(): void;
}

export interface FamilyContext {
  /** The name the experiment was asked by (a config name or path). */
  asked: string;
  out: string | undefined;
  quick: boolean;
  seeds: number | undefined;
  workers: number | undefined;
  queue: string | undefined;
  cacheDir: string | null;
  progress(total: number, unit: string, format: string): ProgressBar;
  onQueueProgress?: (p: QueueProgress) => void;
  /** How long the queue keeps finished jobs and their results (days). */
  queueKeepDays?: number;
  /** Where the family tells what it is about to do (stderr). */
  say(line: string): void;
}

export interface ExperimentFamily<C = unknown> {
  id: string;
  claims(raw: unknown): boolean;
  /** The resolved config; an ExperimentConfigError names what is wrong. */
  resolve(raw: Record<string, unknown>, base: string, ctx: Pick<FamilyContext, 'asked' | 'quick' | 'seeds'>): C;
  description(cfg: C): string;
  /** Runs it and writes its outputs; returns what `npm run experiment` prints. Throws on failure. */
  run(cfg: C, ctx: FamilyContext): Promise<string>;
  /**
   * `npm run report -- DIR` (experiments/cli/report.ts): whether DIR holds this family's outputs,
   * and writing its report (and page) again from them; returns the files written. A
   * ExperimentConfigError or a missing file is the user's (exit 2). None: the family has no report to redo.
   */
  rereport?: { claims(dir: string): boolean; write(dir: string): Promise<string[]> };
}

export const defaultOut = (name: string, ctx: Pick<FamilyContext, 'out' | 'quick'>): string =>
  ctx.out ?? `results/${name}${ctx.quick ? '-quick' : ''}`;

/** Runs `work` with a progress bar that is stopped whatever happens. */
export async function withBar<T>(bar: ProgressBar, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    bar.stop();
  }
}
