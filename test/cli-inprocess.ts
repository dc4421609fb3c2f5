/**
 * A command run inside the test's process: its module's main(argv, io) (lib/cli.ts) called with
 * an io that captures what it writes, and errors turned into exit codes and one line as a process
 * would show them (runMain). A usage error costs milliseconds this way instead of a second for a
 * child process (node, tsx and the imports again each time).
 *
 * What this cannot show, that runAsProcess really ends the process with the code and nothing else
 * on stderr, each CLI test file shows with one real child process; a command stopped by a signal
 * needs one too (crawler.engine, hostile).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Main, runMain } from '../lib/cli.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliInProcess(file: string, args: string[]): Promise<CliRun> {
  const mod = (await import(pathToFileURL(resolve(file)).href)) as { main?: Main };
  if (typeof mod.main !== 'function') throw new Error(`${file} exports no main(argv, io)`);
  const run: CliRun = { code: 0, stdout: '', stderr: '' };
  run.code = await runMain(mod.main, args, {
    out: (t) => {
      run.stdout += t;
    },
    err: (t) => {
      run.stderr += t;
    },
  });
  return run;
}
