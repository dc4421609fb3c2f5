/**
 * What the npm scripts of a clone start: `node bin/run.js COMMAND ARGS` runs the command's main
 * (bin/harness.ts COMMANDS), from dist/ when dist/ is the sources built (lib/build-stamp.ts: its
 * stamp holds the hash of the sources as they are now), else from the sources through tsx. The
 * built code starts about 0.25 CPU-s a command faster (issue #86); a stale build never runs.
 * Plain JavaScript, since it runs before tsx is loaded.
 */
import { existsSync } from 'node:fs';

const built = new URL('../dist/', import.meta.url);
let fresh = false;
if (existsSync(new URL('lib/build-stamp.js', built))) {
  try {
    fresh = (await import(new URL('lib/build-stamp.js', built).href)).builtFresh();
  } catch {
    // a dist/ that cannot even load its stamp check is not run
  }
}
if (!fresh) await import('tsx');
const from = fresh ? built : new URL('../', import.meta.url);
const ext = fresh ? '.js' : '.ts';
const { COMMANDS } = await import(new URL(`bin/harness${ext}`, from).href);
const { runInProcess, EXIT_USAGE } = await import(new URL(`lib/cli${ext}`, from).href);
const [name, ...argv] = process.argv.slice(2);
// own keys only: "constructor" or "__proto__" is no command
const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
if (!command) {
  const what = name === undefined ? 'no command given' : `unknown command "${name}"`;
  process.stderr.write(
    `bin/run.js: ${what} (node bin/run.js COMMAND ARGS); commands: ${Object.keys(COMMANDS).join(', ')}\n`,
  );
  process.exit(EXIT_USAGE);
}
await runInProcess((await command.load()).main, argv);
