/**
 * npm run worker -- --queue redis://HOST:PORT [--no-cache] [--lock-ms N]
 * Runs experiment jobs from the queue (experiments/focused/queue.ts) until stopped (Ctrl-C, SIGTERM).
 */
import { parseOrFail } from './args.ts';
import { type CliIo, runAsProcess, usage } from '../../lib/cli.ts';

const USAGE = `Usage: npm run worker -- --queue redis://HOST:PORT [options]

Takes the jobs that npm run experiment -- CONFIG --queue URL enqueues, one at a time, and runs
them until stopped. Start one per core, on as many machines as you like: each needs a checkout of
the same commit and the files the configs name by path (archives, labels, keyword files, strategy
modules); the web config travels in the job. A worker that dies loses nothing: its job runs again
on another worker once its lock expires.

Options:
  --queue URL     the Redis the submitter uses (required)
  --no-cache      retrain models instead of using .cache/models (shared by the workers of a machine)
  --lock-ms N     a job whose worker stops renewing its lock this long runs again elsewhere
                  (default 60000; a job renews it every N/2 ms while it runs)
`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseOrFail(argv, {
    options: {
      queue: { type: 'string' },
      'no-cache': { type: 'boolean' },
      'lock-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const v = parsed.values;
  if (v.help) {
    io.out(USAGE);
    return 0;
  }
  if (!v.queue) usage('--queue: give the Redis URL the submitter uses (redis://HOST:PORT)');
  const lockMs = v['lock-ms'] === undefined ? 60_000 : Number(v['lock-ms']);
  if (!Number.isInteger(lockMs) || lockMs < 1000 || lockMs > 3_600_000)
    usage(`--lock-ms: "${v['lock-ms']}" must be a whole number from 1000 to 3600000`);
  const { connectionOf, startQueueWorker } = await import('../focused/queue.ts');
  try {
    connectionOf(v.queue);
  } catch (e) {
    usage((e as Error).message);
  }
  const worker = startQueueWorker(v.queue, {
    cacheDir: v['no-cache'] ? null : '.cache/models',
    lockMs,
    onJob: (event, d, message) =>
      io.err(
        `${new Date().toISOString()} ${event} ${d.cfg.name} seed ${d.seed} site ${d.site}${message ? `: ${message.split('\n')[0]}` : ''}\n`,
      ),
  });
  worker.on('error', (e) => io.err(`worker: ${e.message}\n`));
  io.err(`worker ${process.pid}: waiting for jobs on ${v.queue}\n`);
  // runs until stopped (SIGINT, SIGTERM), then finishes the current job
  await new Promise<void>((resolve) =>
    io.onStop?.(() => {
      io.err(`worker ${process.pid}: stopping after the current job\n`);
      void worker.close().then(resolve);
    }),
  );
  return 0;
}

await runAsProcess(main, import.meta);
