/**
 * A command-line script run inside the test's process: its module evaluated afresh (a query on
 * its URL makes a new module instance; what it imports stays loaded) with process.argv set, its
 * process.stdout/stderr writes captured and process.exit turned into a return. A usage error
 * costs 15-70 ms this way instead of 0.6-1.1 s for a child process (node, tsx and the imports
 * again each time).
 *
 * For usage errors and --help (every CLI checks its flags and config before it starts a server
 * or a crawl), and for whole runs that end by themselves, as the golden crawls do: the run's
 * SIGINT/SIGTERM listeners and process.exitCode are put back afterwards. One run at a time (argv
 * and the writes are the process's). What this cannot show, that fail() really ends the process
 * with exit code 2 and nothing else on stderr, each CLI test file shows with one real child
 * process; a CLI stopped by a signal needs one too (crawler.engine, hostile).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface CliRun {
  /** The code given to process.exit, or null if the script ended without calling it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

class Exit extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

let runs = 0;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export async function runCliInProcess(file: string, args: string[]): Promise<CliRun> {
  const saved = { argv: process.argv, exit: process.exit, out: process.stdout.write, err: process.stderr.write };
  const exitCode = process.exitCode;
  const listeners = SIGNALS.map((s) => process.listeners(s));
  const run: CliRun = { code: null, stdout: '', stderr: '' };
  const capture =
    (key: 'stdout' | 'stderr') =>
    (chunk: string | Uint8Array): boolean => {
      run[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      return true;
    };
  process.argv = [process.execPath, resolve(file), ...args];
  process.exit = ((code?: number) => {
    throw new Exit(code ?? 0);
  }) as typeof process.exit;
  process.stdout.write = capture('stdout') as typeof process.stdout.write;
  process.stderr.write = capture('stderr') as typeof process.stderr.write;
  try {
    await import(`${pathToFileURL(resolve(file)).href}?run=${++runs}`);
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    run.code = e.code;
  } finally {
    process.argv = saved.argv;
    process.exit = saved.exit;
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    process.exitCode = exitCode;
    // a crawl CLI stops gracefully on SIGINT and SIGTERM: its handlers must not outlive the run
    SIGNALS.forEach((s, i) => {
      for (const l of process.listeners(s)) if (!listeners[i].includes(l)) process.removeListener(s, l);
    });
  }
  return run;
}
