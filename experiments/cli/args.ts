/**
 * Shared by the experiments/ commands: one-line errors with exit code 2 (and the quiet exit on
 * EPIPE) come from the sim commands' helper; strict parseArgs for positional-taking commands.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { argsWithNegatives, fail } from '../../sim/cli/args.ts';

export { fail };

/** parseArgs in strict mode; a bad flag ends the process with one line and exit code 2. */
export function parseOrFail<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>({ args: argsWithNegatives(config.options ?? {}), ...config, strict: true });
  } catch (e) {
    // node's messages continue with advice about '--'; the first sentence says what is wrong
    fail(`${(e as Error).message.split(/\. |\n/)[0]} (see --help)`);
  }
}
