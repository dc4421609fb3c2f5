/**
 * Shared command-line handling for the sim commands: node:util parseArgs in strict mode,
 * and one-line errors with exit code 2 for bad flags or configs (no stack traces).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type WebConfig } from '../config.ts';

const DEFAULT_WEB = 'data/webs/paper.json';

// output piped into head or a closed pager: stop quietly instead of crashing on EPIPE
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

export function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

/**
 * The command line with "--opt -5" written as "--opt=-5" for options that take a value: parseArgs
 * would read "-5" as a flag and say "argument is ambiguous"; this way the option's own range
 * check gives its message.
 */
export function argsWithNegatives(
  options: NonNullable<ParseArgsConfig['options']>,
  argv = process.argv.slice(2),
): string[] {
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

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  usage: string,
  options: T,
): ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>['values'] {
  try {
    const { values } = parseArgs({
      args: argsWithNegatives(options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    if ((values as Record<string, unknown>).help) {
      process.stdout.write(usage);
      process.exit(0);
    }
    return values as never;
  } catch (e) {
    fail(`${(e as Error).message.split(/\. |\n/)[0]} (see --help)`);
  }
}

export function webAndSeed(values: { web?: string; seed?: string }): { config: WebConfig; seed: number } {
  let config: WebConfig;
  try {
    config = loadConfig(values.web ?? DEFAULT_WEB);
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    throw e;
  }
  const seed = Number(values.seed ?? '1');
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1)
    fail(`--seed: "${values.seed}" must be a whole number from 0 to 4294967295`);
  return { config, seed };
}
