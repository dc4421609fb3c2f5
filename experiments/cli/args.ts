/** Shared by the experiments/ commands: one-line errors with exit code 2, and strict parseArgs. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

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

/** parseArgs in strict mode; a bad flag ends the process with one line and exit code 2. */
export function parseOrFail<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>({ ...config, strict: true });
  } catch (e) {
    // node's messages continue with advice about '--'; the first sentence says what is wrong
    fail(`${(e as Error).message.split(/\. |\n/)[0]} (see --help)`);
  }
}
