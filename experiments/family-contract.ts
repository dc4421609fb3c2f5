/**
 * The contract of an experiment family (issue #37 item 2): a family recognises its configs,
 * resolves and validates them, runs one (the runs, the outputs, the lines printed) and, from its
 * outputs, writes its report again. Each
 * family is one module in its own folder (experiments/focused/family.ts, sweep/, deepweb/,
 * distributed/); experiments/families.ts lists them and `npm run experiment` dispatches by it.
 */
import type { TSchema } from '@sinclair/typebox';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { INCOMPLETE, isWriteError, lockFolder, writeErrorText } from '../lib/out-folder.ts';
import { OutFolderError } from '../lib/errors.ts';
import { provenance } from './provenance.ts';
import { keepEarlierRun } from './run-history.ts';

/** Jobs of a run on the job queue (experiments/queue/queue.ts), as its progress reports them. */
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
  /** A line of its own: above the bar on a terminal, in sequence in a log. */
  log(line: string): void;
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
  /** How long Redis may not answer before a queued run stops (s; 0: for ever; default 30). */
  queueWaitS?: number;
  /** Where the family tells what it is about to do (stderr). */
  say(line: string): void;
  /** The command line's --set PATH=VALUE overrides, already applied to the config (for the rerun line). */
  overrides?: readonly string[];
  /** The command line's --out, if given (`out` is where the run writes either way; for the rerun line). */
  outFlag?: string;
  /** The verdicts of the paper's claims, for a family that judges them (experiment --fail-on-claims). */
  onClaims?: (claims: readonly { id: string; verdict: string }[]) => void;
}

/**
 * The command line that made a run, for its config.json's comment: the config as asked, and every
 * flag that changes what the run computes or where it writes (--quick, --seeds, --set, --out). A
 * command (twin-validation) is named by its verb.
 */
export function rerunCommand(
  ctx: Pick<FamilyContext, 'asked' | 'quick' | 'seeds' | 'overrides' | 'outFlag'>,
  verb?: string,
): string {
  // a word the shell reads as it is written (a --set value always quoted: it holds JSON)
  const quoted = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
  const word = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : quoted(s));
  return [
    'npm run experiment --',
    verb,
    word(ctx.asked),
    ctx.quick ? '--quick' : '',
    ctx.seeds !== undefined ? `--seeds ${ctx.seeds}` : '',
    ...(ctx.overrides ?? []).map((s) => `--set ${quoted(s)}`),
    ctx.outFlag !== undefined ? `--out ${word(ctx.outFlag)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Where a run's jobs go, from the command line: what runExperiment, runSweep and runSearch take. */
export function runOptionsOf(ctx: FamilyContext) {
  return {
    workers: ctx.workers,
    queue: ctx.queue,
    onQueueProgress: ctx.onQueueProgress,
    onQueueMessage: ctx.say,
    queueKeepDays: ctx.queueKeepDays,
    queueWaitS: ctx.queueWaitS,
    cacheDir: ctx.cacheDir,
  };
}

/** The run-time flags of `npm run experiment` a family may honour. */
export type RunFlag = 'workers' | 'queue' | 'no-cache' | 'no-replay' | 'no-diagnostics' | 'cpu-prof';

export interface ExperimentFamily<C = unknown> {
  id: string;
  /**
   * Whether it claims any config (the default family): asked after every other family, so at most
   * one may be (test/architecture.test.ts). The others' claims must not overlap.
   */
  fallback?: boolean;
  /**
   * What its configs are and what a run writes, for `npm run experiment -- --help` (a paragraph;
   * the help adds the fields of its schema).
   */
  help: string;
  /** Whether a run of cfg judges the paper's claims (what --fail-on-claims needs); none: never. */
  judgesClaims?(cfg: C): boolean;
  /**
   * The run-time flags its runs honour; the CLI refuses the others with exit 2 (a flag a family
   * ignored, as --queue on a deep-web config, ran the experiment somewhere the user did not ask).
   */
  flags: readonly RunFlag[];
  /**
   * Its config's published JSON Schema (`npm run schemas` writes schemas/NAME.schema.json; a
   * config names it as "$schema"). None: it shares another family's (the sweep, the focused one's).
   */
  schema?: { name: string; schema: TSchema; title: string; description: string };
  claims(raw: unknown): boolean;
  /** The resolved config; an ExperimentConfigError names what is wrong. */
  resolve(
    raw: Record<string, unknown>,
    base: string,
    ctx: Pick<FamilyContext, 'asked' | 'quick' | 'seeds' | 'overrides'>,
  ): C;
  description(cfg: C): string;
  /**
   * The config as its results' config.json holds it (configFileText adds the command that made
   * it): resolving that file gives this config again, so the folder's config reruns as is.
   */
  configFile(cfg: C): Record<string, unknown>;
  /** The folder a run writes its outputs to (the CLI marks it INCOMPLETE until the run ends). */
  outDir(cfg: C, ctx: Pick<FamilyContext, 'out' | 'asked' | 'quick'>): string;
  /** Runs it and writes its outputs; returns what `npm run experiment` prints. Throws on failure. */
  run(cfg: C, ctx: FamilyContext): Promise<string>;
  /**
   * `npm run report -- DIR` (experiments/cli/report.ts): whether DIR holds this family's outputs,
   * and writing its report (and page) again from them; returns the files written. A
   * ExperimentConfigError or a missing file is the user's (exit 2). None: the family has no report to redo.
   */
  rereport?: {
    claims(dir: string): boolean;
    write(dir: string): Promise<string[]>;
    /** What it writes again and from which files, for `npm run report -- --help` and its refusals. */
    help: string;
  };
}

/**
 * A command of `npm run experiment -- VERB CONFIG` that runs on another family's config (the twin
 * validation takes an archive experiment's): a line in experiments/registry.ts beside the families.
 */
export interface ExperimentCommand {
  verb: string;
  /** Its usage line and what it does, for `npm run experiment -- --help`. */
  help: string;
  flags: readonly RunFlag[];
  /** Runs it on the config named `name` (checked: one line and exit 2 when wrong); returns what to print. */
  run(name: string, ctx: FamilyContext): Promise<string>;
}

/**
 * Where a run writes by default: results/NAME (-quick), or, for a results folder's config.json, that
 * folder (a rerun replaces its outputs, never another experiment's).
 */
export const defaultOut = (name: string, ctx: Pick<FamilyContext, 'out' | 'quick'> & { asked?: string }): string =>
  ctx.out ??
  (ctx.asked && basename(ctx.asked) === 'config.json'
    ? dirname(ctx.asked)
    : `results/${name}${ctx.quick ? '-quick' : ''}`);

/** Whether `dir` holds the outputs of a run that did not end: nothing in it may be taken for a result. */
/**
 * The parts of a family whose configs say their "kind" and carry a name and a description (the
 * deep-web and distributed families): claimed by `is`, resolved by `resolve` with the command's
 * --quick, --seeds and --set, written back as they are, run into results/NAME.
 */
export function kindFamily<C extends { name: string; description: string }>(
  is: (raw: unknown) => boolean,
  resolve: (raw: Record<string, unknown>, base: string, ctx: Pick<FamilyContext, 'quick' | 'seeds' | 'overrides'>) => C,
): Pick<ExperimentFamily<C>, 'claims' | 'resolve' | 'configFile' | 'outDir' | 'description'> {
  return {
    claims: is,
    resolve: (raw, base, ctx) => resolve(raw, base, { quick: ctx.quick, seeds: ctx.seeds, overrides: ctx.overrides }),
    configFile: (cfg) => ({ ...cfg }),
    outDir: (cfg, ctx) => defaultOut(cfg.name, ctx),
    description: (cfg) => cfg.description,
  };
}

export const incomplete = (dir: string): boolean => existsSync(join(dir, INCOMPLETE));

/**
 * Runs `work`, which writes into `dir`, holding the folder's lock (lib/out-folder.ts: a second run
 * on it is refused, naming this process), with `dir/INCOMPLETE` present until it ends: a run killed
 * mid-output (or failed) leaves a folder that says so, never one that looks complete, and only the
 * run that wrote the marker removes it. A finished run found there is kept in runs/ first
 * (run-history.ts). A write error names the folder (ENOSPC and its kind name no path by themselves).
 */
export async function writingInto<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const release = lockFolder(
    dir,
    'experiment',
    (m) => new OutFolderError('OUT_ERR_IN_USE', m),
    // the folder cannot be made: bad input, as for a crawl (exit 2); a write that fails later is OUT_ERR_WRITE
    (why) => new OutFolderError('OUT_ERR_IN_USE', `cannot write the results under ${dir}: ${why}`),
  );
  try {
    try {
      // the checkout read before anything here moves: a committed reference's files moved to runs/
      // would make its own rerun read as made from changed code
      provenance();
      // a finished run already here is kept aside (runs/), not overwritten; a nested call finds
      // INCOMPLETE and keeps nothing
      keepEarlierRun(dir);
      writeFileSync(
        join(dir, INCOMPLETE),
        `A run writing into this folder started at ${new Date().toISOString()} ` +
          `(process ${process.pid}) and has not ended: its files may be partial or from an earlier ` +
          `run. The marker goes when the run ends.\n`,
      );
    } catch (e) {
      throw writeError(e, dir);
    }
    let r: T;
    try {
      r = await work();
    } catch (e) {
      throw writeError(e, dir);
    }
    rmSync(join(dir, INCOMPLETE), { force: true });
    return r;
  } finally {
    release();
  }
}

/** A file-system error while writing results, with the folder named; any other error as it was. */
function writeError(e: unknown, dir: string): unknown {
  if (!isWriteError(e)) return e;
  return new OutFolderError('OUT_ERR_WRITE', `cannot write the results under ${dir}: ${writeErrorText(e)}`, {
    cause: e,
  });
}

/** Runs `work` with a progress bar that is stopped whatever happens. */
export async function withBar<T>(bar: ProgressBar, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    bar.stop();
  }
}
