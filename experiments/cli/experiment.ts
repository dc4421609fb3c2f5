/**
 * npm run experiment [-- NAME] [--list] [--quick] [--seeds K] [--out DIR] [--workers N]
 * Runs an experiment config from experiments/configs/ and writes results/<NAME>/.
 */
import { type CliIo, failed, intFlag, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';
import { schemaHelp } from '../../lib/schema.ts';
import { listExperiments, parseOverride, readExperimentJson } from '../config-files.ts';
import { COMMANDS, FAMILIES, familyOf } from '../families.ts';
import { type FamilyContext, type QueueProgress, type RunFlag, rerunCommand, writingInto } from '../family-contract.ts';
import { ResultsFolder } from '../results-folder.ts';
import { progress } from './progress.ts';
import { append } from '../../lib/arrays.ts';

// The runs, figures and reports are imported once the arguments and the config are checked: they
// take seconds to load (vega, resvg, pdfkit), and a mistyped flag should not wait for them.

const USAGE = `Usage: npm run experiment [-- NAME] [options]

Runs experiments/configs/NAME.json (default: focused), or a config file given by its path, and
writes its results to results/NAME/ (CSVs, figures, report.md); results/NAME/config.json reruns it.
The family that runs a config (experiments/families.ts) decides what it writes:

${[...FAMILIES]
  .reverse()
  .map((f) => f.help)
  .join('\n\n')}

${COMMANDS.map((c) => c.help).join('\n\n')}

Options:
  --list          list the experiments
  --quick         the config's quick variant (small web, one seed, small budget)
  --seeds K       use seeds 1..K instead of the config's
  --out DIR       output directory (default results/NAME, or results/NAME-quick with --quick)
  --workers N     worker processes (default: one per core; 0 = in this process)
  --no-cache      retrain models instead of using .cache/models
  --no-replay     no crawl replay on the results page (its layout costs a third of a 10^5-page
                  run's CPU); the report says so. The same as --set replay=false
  --no-diagnostics  no structure diagnostics of the generated web (47 CPU-s and 1.5 GB at 10^6
                  pages); the report says so. The same as --set diagnostics=false
  --cpu-prof DIR  a V8 CPU profile of each job process into DIR (node --cpu-prof; open it in Chrome
                  DevTools or speedscope): where a run's time goes. This process is not in it:
                  node --cpu-prof --import tsx experiments/cli/experiment.ts ... profiles it
  --queue URL     run the jobs on a BullMQ queue at redis://[:PASSWORD@]HOST:PORT (TLS:
                  rediss://...?ca=CA_FILE): start workers with npm run worker -- --queue URL (on any
                  machine with this commit); a rerun enqueues nothing already done
                  (docs/experiments.md: trust, cleanup, recipe)
  --keep-days D   with --queue: how long finished jobs and their results are kept (default 7)
  --wait-redis-s S  with --queue: how long Redis may not answer before the run stops (default 30;
                  0 waits for ever, for an unattended lab)
  --clean         with --queue and no experiment: remove every job and kept result of the queue
  --fail-on-claims  exit 1 when a claim of the paper FAILs (the results are written first); for a
                  gate on recall itself, see npm run compare
  --set PATH=VALUE  override a field of the config, repeatable: --set budget=600 --set crawl.delayMs=0
                  --set 'strategies=["bfs","future"]' (VALUE as JSON, else a string; it wins over
                  "quick" fields; results/NAME/config.json records it)

Fields of a config, default, range and help, from each family's schema (editors check a config
that names its JSON Schema: "$schema": "../../schemas/experiment.schema.json"):
${[...FAMILIES]
  .reverse()
  .flatMap((f) =>
    f.schema ? [`\n${f.schema.title} (schemas/${f.schema.name}.schema.json):\n${schemaHelp(f.schema.schema)}`] : [],
  )
  .join('')}
The web a config names has its own fields: npm run sim -- --help.
`;

/** --list: every shipped experiment and what it is (or why its config is invalid). */
function listAll(io: CliIo): number {
  for (const n of listExperiments()) {
    try {
      const { name: base, raw } = readExperimentJson(n);
      const family = familyOf(raw);
      const cfg = family.resolve(raw as Record<string, unknown>, base, { asked: n, quick: false, seeds: undefined });
      io.out(`${n.padEnd(18)} ${family.description(cfg)}\n`);
    } catch (e) {
      io.out(`${n.padEnd(18)} (invalid: ${(e as Error).message})\n`);
    }
  }
  return 0;
}

const OPTIONS = {
  list: { type: 'boolean' },
  quick: { type: 'boolean' },
  seeds: { type: 'string' },
  out: { type: 'string' },
  workers: { type: 'string' },
  'no-cache': { type: 'boolean' },
  'no-replay': { type: 'boolean' },
  'no-diagnostics': { type: 'boolean' },
  queue: { type: 'string' },
  'keep-days': { type: 'string' },
  'wait-redis-s': { type: 'string' },
  clean: { type: 'boolean' },
  'fail-on-claims': { type: 'boolean' },
  'cpu-prof': { type: 'string' },
  set: { type: 'string', multiple: true },
} as const;

/**
 * --cpu-prof DIR, checked (exit 2); the returned function, called when the run starts, has the job
 * processes write their profiles into DIR and gives `after` what the command does when it ends,
 * run or failed: stop profiling (a test runs commands in one process) and say how many processes
 * wrote one (none: the jobs ran in this process, or the run stopped and its processes were killed).
 */
async function cpuProfFlag(
  dir: string | undefined,
  workers: number | undefined,
  queue: string | undefined,
): Promise<(after: (() => void)[], say: (line: string) => void) => Promise<void>> {
  if (dir === undefined) return async () => {};
  if (!dir) usage('--cpu-prof: give the directory the profiles go into');
  if (workers === 0)
    usage(
      '--cpu-prof profiles the job processes, and --workers 0 runs the jobs in this process: node --cpu-prof profiles it',
    );
  if (queue !== undefined)
    usage("--cpu-prof profiles this command's job processes; with --queue they are npm run worker's");
  const { existsSync, mkdirSync, readdirSync, statSync } = await import('node:fs');
  const { resolve } = await import('node:path');
  const abs = resolve(dir);
  if (existsSync(abs) && !statSync(abs).isDirectory()) usage(`--cpu-prof: ${dir} is a file, not a directory`);
  return async (after, say) => {
    mkdirSync(abs, { recursive: true });
    const profiles = (): Set<string> => new Set(readdirSync(abs).filter((f) => f.endsWith('.cpuprofile')));
    const before = profiles();
    const { profileJobsInto } = await import('../pool.ts');
    profileJobsInto(abs);
    after.push(() => {
      profileJobsInto(null);
      const made = [...profiles()].filter((f) => !before.has(f));
      // Node names a profile CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile; thread 0 is the main one
      const pids = new Set(made.map((f) => f.split('.')[3]));
      say(
        made.length
          ? `--cpu-prof: ${pids.size} job process${pids.size === 1 ? '' : 'es'} profiled in ${abs} ` +
              "(CPU.*.<pid>.0.*.cpuprofile: its main thread; the others: its threads, the module loader's among them)"
          : '--cpu-prof: no profile written (no job process ran to its end: the jobs ran in this process, or the run stopped)',
      );
    });
  };
}

/** A progress bar on a terminal; elsewhere lines through io (a test's capture, a CI log). */
function progressTo(io: CliIo): FamilyContext['progress'] {
  return (total, unit, format) =>
    progress(total, unit, format, {
      stream: process.stderr.isTTY
        ? process.stderr
        : ({
            write: (s: string) => {
              io.err(s);
              return true;
            },
          } as unknown as NodeJS.WritableStream),
    });
}

/** --queue, --wait-redis-s and --keep-days, checked (exit 2): the last two go with the first. */
async function queueFlags(
  v: Record<string, string | boolean | undefined>,
): Promise<{ queue: string | undefined; waitS: number | undefined; keepDays: number | undefined }> {
  const queue = v.queue as string | undefined;
  if (queue !== undefined) {
    const { redisTarget } = await import('../queue/queue.ts');
    try {
      redisTarget(queue);
    } catch (e) {
      usage((e as Error).message);
    }
  } else
    for (const f of ['clean', 'keep-days', 'wait-redis-s'])
      if (v[f] !== undefined && v[f] !== false) usage(`--${f} goes with --queue`);
  const waitS = intFlag('wait-redis-s', v['wait-redis-s'] as string | undefined, 0, 31_536_000);
  const keepDays = v['keep-days'] === undefined ? undefined : Number(v['keep-days']);
  if (keepDays !== undefined && !(keepDays > 0 && keepDays <= 365))
    usage(`--keep-days: "${v['keep-days']}" must be a number of days above 0 and at most 365`);
  return { queue, waitS, keepDays };
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const after: (() => void)[] = [];
  try {
    return await experiment(argv, io, after);
  } finally {
    for (const f of after) f();
  }
}

async function experiment(argv: string[], io: CliIo, after: (() => void)[]): Promise<number> {
  const parsed = parseCommand(argv, io, USAGE, OPTIONS, true);
  if (!parsed) return 0;
  const v = parsed.values as Record<string, string | boolean | undefined>;
  // --no-replay and --no-diagnostics are config fields set from the command line: config.json and
  // the rerun line record them as --set would
  const sets = [
    ...((parsed.values as { set?: string[] }).set ?? []),
    ...(v['no-replay'] ? ['replay=false'] : []),
    ...(v['no-diagnostics'] ? ['diagnostics=false'] : []),
  ];
  if (v.list) return listAll(io);
  const command = COMMANDS.find((c) => c.verb === parsed.positionals[0]);
  if (command) parsed.positionals.shift();
  if (command && parsed.positionals.length !== 1) usage(`${command.verb}: name one experiment config`);
  if (parsed.positionals.length > 1) usage(`one experiment at a time, got ${parsed.positionals.join(' ')}`);
  const name = parsed.positionals[0] ?? 'focused';
  const seeds = intFlag('seeds', v.seeds as string | undefined, 1, 100);
  const workers = intFlag('workers', v.workers as string | undefined, 0, 64);
  const { queue, waitS, keepDays } = await queueFlags(v);
  const profile = await cpuProfFlag(v['cpu-prof'] as string | undefined, workers, queue);
  const startProfile = (): Promise<void> => profile(after, (line) => io.err(`${line}\n`));
  if (v.clean) {
    if (parsed.positionals.length) usage('--clean empties the queue and runs nothing: give no experiment');
    const { cleanQueue, redactUrl } = await import('../queue/queue.ts');
    const r = await cleanQueue(queue!).catch((e: Error) => failed(e.message));
    io.out(`${redactUrl(queue!)}: removed ${r.jobs} jobs and ${r.results} kept results\n`);
    return 0;
  }
  const queueProgress = queueProgressLine(io);
  const given: [RunFlag, boolean][] = [
    ['workers', workers !== undefined],
    ['queue', queue !== undefined],
    ['no-cache', !!v['no-cache']],
    ['no-replay', !!v['no-replay']],
    ['no-diagnostics', !!v['no-diagnostics']],
    ['cpu-prof', v['cpu-prof'] !== undefined],
  ];
  const ctx = (out: string | undefined, onClaims?: FamilyContext['onClaims']): FamilyContext => ({
    asked: name,
    out,
    quick: !!v.quick,
    seeds,
    workers,
    queue,
    cacheDir: v['no-cache'] ? null : '.cache/models',
    progress: progressTo(io),
    onQueueProgress: queue ? queueProgress.update : undefined,
    queueKeepDays: keepDays,
    queueWaitS: waitS,
    say: (line) => io.err(`${line}\n`),
    onClaims,
    overrides: sets,
    outFlag: v.out as string | undefined,
  });
  if (command) {
    refuseUnused(given, command.verb, command.flags);
    if (v['fail-on-claims']) usage(`--fail-on-claims: ${command.verb} judges no claims (a focused experiment does)`);
    // a run that stops on a config it found wrong ends in 2, anything else in 1 (the table, lib/errors.ts)
    await startProfile();
    io.out(await command.run(name, ctx(v.out as string | undefined)));
    return 0;
  }
  const run = { name, v, sets, given, ctx, startProfile, stopProgress: queueProgress.stop };
  return runConfig(run, io, seeds);
}

/** Refuses a flag the family or command does not use (exit 2). */
function refuseUnused(given: [RunFlag, boolean][], what: string, flags: readonly RunFlag[]): void {
  for (const [flag, on] of given)
    if (on && !flags.includes(flag))
      usage(
        `--${flag}: ${what} does not use it ` +
          `(${flags.length ? `it takes ${flags.map((f) => `--${f}`).join(', ')}` : 'it runs in this process and trains nothing'})`,
      );
}

/** An experiment config's run: its family resolves it, config.json first, then the run and its claims. */
async function runConfig(
  r: {
    name: string;
    v: Record<string, string | boolean | undefined>;
    sets: string[];
    given: [RunFlag, boolean][];
    ctx: (out: string | undefined, onClaims?: FamilyContext['onClaims']) => FamilyContext;
    startProfile: () => Promise<void>;
    stopProgress: () => void;
  },
  io: CliIo,
  seeds: number | undefined,
): Promise<number> {
  const { name, v, sets } = r;
  // a config that cannot run is an ExperimentConfigError: exit 2 by the table (lib/errors.ts);
  // a malformed override is refused before the config is read
  for (const s of sets) parseOverride(s);
  const { name: base, raw } = readExperimentJson(name);
  const family = familyOf(raw);
  // before the config is resolved: --no-replay is a field only the families that honour it have
  refuseUnused(r.given, `a ${family.id} experiment`, family.flags);
  const resolved: unknown = family.resolve(raw as Record<string, unknown>, base, {
    asked: name,
    quick: !!v.quick,
    seeds,
    overrides: sets,
  });
  const judges = family.judgesClaims?.(resolved) ?? false;
  if (v['fail-on-claims'] && !judges) usage(`--fail-on-claims: ${name} judges no claims (a focused experiment does)`);
  const verdicts: { id: string; verdict: string }[] = [];
  const out = family.outDir(resolved, { asked: name, out: v.out as string | undefined, quick: !!v.quick });
  const runCtx = r.ctx(out, (claims) => append(verdicts, claims));
  await r.startProfile();
  const text = await writingInto(out, () => {
    // config.json through the family's contract, for every family, before the run: a family needs
    // no code of its own for it, and a run that stops still says what it was
    new ResultsFolder(out).config(family.configFile(resolved), rerunCommand(runCtx));
    return family.run(resolved, runCtx);
  }).finally(() => r.stopProgress());
  io.out(text);
  const failing = verdicts.filter((c) => c.verdict === 'FAIL').map((c) => c.id);
  if (v['fail-on-claims'] && failing.length)
    failed(
      `${failing.length} claim${failing.length === 1 ? '' : 's'} FAIL: ${failing.join(', ')} (--fail-on-claims; the results are written to ${out})`,
    );
  return 0;
}

/**
 * The queue's progress on stderr, summed over the submissions of a run (a sweep submits every
 * point at once): on a terminal one line rewritten at most once a second, else (a log file) a
 * line every 30 s and when the counts last changed.
 */
function queueProgressLine(io: CliIo): { update: (p: QueueProgress) => void; stop: () => void } {
  const runs = new Map<string, QueueProgress>();
  const tty = process.stderr.isTTY && !process.env.CI;
  let shownAt = 0;
  let shown = '';
  let last = '';
  const line = (): string => {
    const sum = { done: 0, running: 0, waiting: 0, failed: 0, total: 0 };
    for (const p of runs.values()) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += p[k];
    return `queue: ${sum.done}/${sum.total} done, ${sum.running} running, ${sum.waiting} waiting, ${sum.failed} failed`;
  };
  return {
    update(p) {
      runs.set(p.run, p);
      last = line();
      const now = Date.now();
      if (now - shownAt < (tty ? 1000 : 30_000) || last === shown) return;
      shownAt = now;
      shown = last;
      io.err(tty ? `\r${last}   ` : `${last}\n`);
    },
    stop() {
      if (last && last !== shown) io.err(tty ? `\r${last}   \n` : `${last}\n`);
      else if (tty && shown) io.err('\n');
    },
  };
}

await runAsProcess(main, import.meta);
