/**
 * The commands' contract (issue #37): every command is a function `main(argv, io)` that returns
 * its exit code, and does nothing when its module is imported. The process around it is made in
 * one place, runAsProcess(), which is also the only place that reads process.argv, installs the
 * EPIPE handler and calls process.exit. Tests and other programs call main() directly.
 *
 * Exit codes, the same for every command:
 *   0  done;
 *   1  the command ran and failed: a crawl whose seeds all failed, a statistic outside its band,
 *      a run that threw, a file it could not write;
 *   2  usage: a bad flag or value, a config file that is not valid, a file a flag names that is
 *      missing. Nothing was started.
 * Errors are one line on stderr, "error: ..." (no stack trace).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { pathToFileURL } from 'node:url';
import { CommandFailed, HarnessError, UsageError } from './errors.ts';
import { redactSecrets } from './secrets.ts';
import { didYouMean } from './strings.ts';

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Where a command writes, and how a long-running one (a server, a crawl) learns it should stop. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /**
   * Calls `handler` when the command should stop gracefully: SIGINT or SIGTERM for a process. A
   * command that never asks keeps the default (the signal ends the process at once).
   */
  onStop?(handler: (signal?: 'SIGINT' | 'SIGTERM') => void): void;
}

export type Main = (argv: string[], io: CliIo) => Promise<number>;

/** A usage or configuration error (exit code 2, nothing was started) and a command that failed (1). */
export { CommandFailed, UsageError } from './errors.ts';

export function usage(message: string): never {
  throw new UsageError(message);
}

export function failed(message: string): never {
  throw new CommandFailed(message);
}

/** The exit code and the one line an error thrown out of main() stands for. */
export function exitOf(e: unknown): { code: number; line: string } {
  const message = e instanceof Error ? e.message : String(e);
  const line = `error: ${redactSecrets(message.split('\n')[0])}\n`;
  // the table says what each of the harness's errors stands for (lib/errors.ts); anything else failed
  return { code: e instanceof HarnessError ? e.exitCode : EXIT_FAILED, line };
}

/**
 * Runs main() with an io, and turns what it throws into an exit code and one line on io.err:
 * what runAsProcess() does for a process, for a caller in the same process (tests).
 */
export async function runMain(main: Main, argv: string[], io: CliIo): Promise<number> {
  try {
    return await main(argv, io);
  } catch (e) {
    const { code, line } = exitOf(e);
    io.err(line);
    return code;
  }
}

/**
 * "--opt -5" written as "--opt=-5" for options that take a value: parseArgs would read "-5" as a
 * flag and say "argument is ambiguous"; this way the option's own range check gives its message.
 */
export function argsWithNegatives(options: NonNullable<ParseArgsConfig['options']>, argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = /^--([^=]+)$/.exec(argv[i])?.[1];
    if (name && options[name]?.type === 'string' && i + 1 < argv.length && /^-\d/.test(argv[i + 1])) {
      out.push(`${argv[i]}=${argv[i + 1]}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<T extends Options> = ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: true }>>;

/**
 * The one parser of the commands: node:util parseArgs in strict mode, --help/-h for every command
 * (null: the usage text was written, main returns 0), a bad flag a UsageError naming it.
 * Positionals are refused unless `positionals` allows them.
 */
export function parseCommand<T extends Options>(
  argv: readonly string[],
  io: CliIo,
  usageText: string,
  options: T,
  positionals = false,
): { values: Parsed<T>['values']; positionals: string[] } | null {
  let parsed: Parsed<T>;
  try {
    parsed = parseArgs({
      args: argsWithNegatives(options, argv),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    }) as Parsed<T>;
  } catch (e) {
    // node's messages continue with advice about '--'; the first sentence says what is wrong, and
    // a misspelt flag gets the nearest one (--quik: did you mean --quick?)
    const first = (e as Error).message.split(/\. |\n/)[0];
    const unknown = /^Unknown option '--([^'=]+)'/.exec(first)?.[1];
    const near = unknown ? didYouMean(unknown, Object.keys(options)).replace('mean ', 'mean --') : '';
    usage(`${first}${near} (see --help)`);
  }
  if ((parsed.values as Record<string, unknown>).help) {
    io.out(usageText);
    return null;
  }
  if (!positionals && parsed.positionals.length) usage(`unexpected argument "${parsed.positionals[0]}" (see --help)`);
  return { values: parsed.values, positionals: parsed.positionals };
}

/** A whole number flag within a range, or undefined when absent. */
export function intFlag(
  name: string,
  v: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    usage(
      `--${name}: "${v}" must be a whole number ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`}`,
    );
  return n;
}

/**
 * Runs main() as this process's command when `meta` is the module node was started with (and
 * does nothing when it is imported): argv from the command line, io on stdout/stderr, onStop on
 * SIGINT/SIGTERM, output into a closed pipe ends quietly, and the process exits with main's code
 * once stdout is flushed.
 */
export async function runAsProcess(main: Main, meta: ImportMeta): Promise<void> {
  if (!process.argv[1] || meta.url !== pathToFileURL(process.argv[1]).href) return;
  await runInProcess(main, process.argv.slice(2));
}

/** Runs a command as this process (stdout, stderr, signals, exit code): the entry files and the package's bin. */
export async function runInProcess(main: Main, argv: string[]): Promise<void> {
  // output piped into head or a closed pager: stop quietly instead of crashing on EPIPE
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      throw e;
    });
  // no credential in a URL reaches the terminal or a log, whoever prints it (lib/secrets.ts)
  const code = await runMain(main, argv, {
    out: (t) => process.stdout.write(redactSecrets(t)),
    err: (t) => process.stderr.write(redactSecrets(t)),
    onStop: (handler) => {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
    },
  });
  process.stdout.write('', () => process.exit(code));
}
