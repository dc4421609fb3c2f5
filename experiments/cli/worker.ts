/**
 * npm run worker -- --queue redis://HOST:PORT [--no-cache] [--lock-ms N] [--grace-s N]
 * Runs experiment jobs from the queue (experiments/queue/queue.ts) until stopped (Ctrl-C, SIGTERM).
 */
import { type CliIo, failed, intFlag, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';

const USAGE = `Usage: npm run worker -- --queue redis://[:PASSWORD@]HOST:PORT [options]

Takes the jobs that npm run experiment -- CONFIG --queue URL enqueues, one at a time, and runs
them (in a child process) until stopped. Start one per core, on as many machines as you like:
each needs a checkout of the same commit, unchanged, and the files the configs name by path
(archives, labels, keyword files, strategy modules) inside it; the web config travels in the job.
A job from other code, or naming a file outside this checkout, is refused (docs/experiments.md:
who may write to the queue). A worker that dies loses nothing: its job runs again on another
worker once its lock expires.

Options:
  --queue URL     the Redis the submitter uses (required; TLS: rediss://HOST:PORT?ca=CA_FILE)
  --no-cache      retrain models instead of using .cache/models (shared by the workers of a machine)
  --lock-ms N     a job whose worker stops renewing its lock this long runs again elsewhere
                  (default 60000, from 1000)
  --grace-s N     on SIGTERM/SIGINT the running job may finish for this long, then it is cut and
                  runs again elsewhere (default 600; a second signal stops at once)
  --wait-redis-s S  how long Redis may not answer before the worker stops (default 30; 0 waits for
                  ever, for an unattended lab; a result finished meanwhile is written once it is back)
  --restart-on-change  when the checkout changes under the worker (git pull), put the job back and
                  start again on the new code, saying so (without it the worker refuses every job
                  until restarted: it never computes with code it did not start with)

Exit codes: 0 stopped by a signal after its job; 1 Redis unreachable (--wait-redis-s), refused the
password, evicts keys, or the job was cut; 2 a bad flag or URL.
`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(
    argv,
    io,
    USAGE,
    {
      queue: { type: 'string' },
      'no-cache': { type: 'boolean' },
      'lock-ms': { type: 'string' },
      'grace-s': { type: 'string' },
      'wait-redis-s': { type: 'string' },
      'restart-on-change': { type: 'boolean' },
    },
    false,
  );
  if (!parsed) return 0;
  const v = parsed.values;
  if (!v.queue) usage('--queue: give the Redis URL the submitter uses (redis://HOST:PORT)');
  if (v['restart-on-change'] && !process.env[SUPERVISED]) return supervise(io);
  const lockMs = intFlag('lock-ms', v['lock-ms'], 1000, 3_600_000) ?? 60_000;
  const graceS = intFlag('grace-s', v['grace-s'], 0, 86_400) ?? 600;
  const waitS = intFlag('wait-redis-s', v['wait-redis-s'], 0, 31_536_000);
  const { redisTarget, waitRedisMs } = await import('../queue/redis-connection.ts');
  const { startQueueWorker } = await import('../queue/worker.ts');
  let shown = '';
  try {
    shown = redisTarget(v.queue).shown;
  } catch (e) {
    usage((e as Error).message);
  }
  const stamp = (): string => new Date().toISOString();
  let restart = false;
  const worker = await startQueueWorker(v.queue, {
    cacheDir: v['no-cache'] ? null : '.cache/models',
    lockMs,
    timeoutMs: waitRedisMs(waitS),
    onJob: (event, d, message) =>
      io.err(
        `${stamp()} ${event} ${d.cfg.name} seed ${d.seed} site ${d.site}${message ? `: ${message.split('\n')[0]}` : ''}\n`,
      ),
    onWarning: (line) => io.err(`${stamp()} warning: ${line}\n`),
    // under --restart-on-change's supervisor: end, to be started again on the new code
    onCheckoutChange: process.env[SUPERVISED]
      ? () => {
          restart = true;
          void worker.stop(graceS * 1000);
        }
      : undefined,
  }).catch((e: Error) => failed(e.message));
  // the stop handler before the line that says the worker is ready: a SIGTERM sent on seeing that
  // line (a supervisor, a test) once met the default handler and ended the process by signal
  io.onStop?.(() => {
    io.err(`worker ${process.pid}: stopping after the current job (at most ${graceS} s; signal again to stop now)\n`);
    void worker.stop(graceS * 1000);
  });
  // supervised, the supervisor killed: stop (the job is put back once its lock expires)
  if (process.env[SUPERVISED] && process.send) process.once('disconnect', () => void worker.stop(0));
  io.err(`worker ${process.pid}: waiting for jobs on ${shown}\n`);
  let clean: boolean;
  try {
    clean = await worker.done;
  } catch (e) {
    failed((e as Error).message);
  }
  // a job cut by --grace-s or a second signal: exit 1, as docs/experiments.md says (it once exited 0)
  if (!clean) failed('stopped before the running job finished: it runs again on another worker once its lock expires');
  return restart ? EXIT_RESTART : 0;
}

/** Set in the worker that --restart-on-change's supervisor starts. */
const SUPERVISED = 'CRAWLER_HARNESS_SUPERVISED_WORKER';
/** The supervised worker's exit code when its checkout changed: start it again. */
const EXIT_RESTART = 75;

/**
 * --restart-on-change: this process only starts the worker (this same command, as a child) and
 * starts it again, on the code the checkout now holds, each time it ends because the checkout
 * changed; signals go to the child. Its own code computes nothing, so it may be older.
 */
async function supervise(io: CliIo): Promise<number> {
  const { spawn } = await import('node:child_process');
  const args = [
    ...process.execArgv,
    process.argv[1],
    ...process.argv.slice(2).filter((a) => a !== '--restart-on-change'),
  ];
  let child: import('node:child_process').ChildProcess | null = null;
  io.onStop?.((signal) => child?.kill(signal ?? 'SIGTERM'));
  for (;;) {
    // an IPC channel only so that the worker knows when this process is gone (killed): it stops then
    child = spawn(process.execPath, args, {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, [SUPERVISED]: '1' },
    });
    const code = await new Promise<number>((resolve) =>
      child!.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))),
    );
    if (code !== EXIT_RESTART) return code;
    io.err(`worker supervisor ${process.pid}: the checkout changed; starting the worker again on the new code\n`);
  }
}

await runAsProcess(main, import.meta);
