/**
 * What the experiments/ commands share beyond lib/cli.ts: strict parseArgs for commands that
 * take positionals and declare their own help flag.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { argsWithNegatives, usage } from '../../lib/cli.ts';

/** parseArgs in strict mode over argv; a bad flag is a UsageError naming it (exit code 2). */
export function parseOrFail<T extends ParseArgsConfig>(
  argv: readonly string[],
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>({ args: argsWithNegatives(config.options ?? {}, argv), ...config, strict: true });
  } catch (e) {
    // node's messages continue with advice about '--'; the first sentence says what is wrong
    usage(`${(e as Error).message.split(/\. |\n/)[0]} (see --help)`);
  }
}
