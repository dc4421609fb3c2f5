#!/usr/bin/env node
/**
 * The installed package's one command: `crawler-harness COMMAND [flags]`. Each command is the
 * main(argv, io) of its module (lib/cli.ts), the same one `npm run COMMAND` starts in a clone;
 * modules load on demand, so `--help` does not load the crawler. A researcher's TypeScript
 * strategy module (`--strategy mine.ts`, a config's "module") loads through tsx, registered when
 * such a module is loaded (lib/self-import.ts prepareModuleLoad), not at every start.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT_USAGE, type Main, runInProcess } from '../lib/cli.ts';

type Command = { summary: string; npm: string; load: () => Promise<{ main: Main }> };

/** Every command, in the order --help lists them; `npm` is the script that runs it in a clone. */
export const COMMANDS: Record<string, Command> = {
  experiment: {
    summary: 'run an experiment config (default: focused) and write results/NAME/',
    npm: 'experiment',
    load: () => import('../experiments/cli/experiment.ts'),
  },
  compare: {
    summary: 'a regression gate: two results folders compared per strategy and metric (exit 1 on a drop)',
    npm: 'compare',
    load: () => import('../experiments/cli/compare.ts'),
  },
  report: {
    summary: "rebuild an experiment's report and page from its CSVs",
    npm: 'report',
    load: () => import('../experiments/cli/report.ts'),
  },
  crawl: {
    summary: 'crawl an HTTP server, or a generated web started in process (--web)',
    npm: 'crawl',
    load: () => import('../experiments/cli/crawl.ts'),
  },
  init: {
    summary: 'write a starter project: a study config, a strategy module, a program, a CI gate',
    npm: 'init',
    load: () => import('../experiments/cli/init.ts'),
  },
  model: {
    summary: 'train or load the future-value model for one held-out department and print it',
    npm: 'model',
    load: () => import('../experiments/cli/model.ts'),
  },
  fit: {
    summary: "fit the generator to an archive experiment's sites (a synthetic twin)",
    npm: 'sim:fit',
    load: () => import('../experiments/cli/fit.ts'),
  },
  'fit-blind': {
    summary: "check the twin fit blind: webs drawn from the knobs' ranges, fitted back, intervals checked",
    npm: 'sim:fit-blind',
    load: () => import('../experiments/cli/fit-blind.ts'),
  },
  worker: {
    summary: 'run experiment jobs from a Redis queue until stopped',
    npm: 'worker',
    load: () => import('../experiments/cli/worker.ts'),
  },
  schemas: {
    summary: 'write (or --check) the JSON Schema files of the config families',
    npm: 'schemas',
    load: () => import('../experiments/cli/schemas.ts'),
  },
  serve: {
    summary: 'serve a generated web (or web archives) over HTTP on 127.0.0.1',
    npm: 'sim',
    load: () => import('../sim/cli/serve.ts'),
  },
  stats: {
    summary: "a generated web's statistics against their targets",
    npm: 'sim:stats',
    load: () => import('../sim/cli/stats.ts'),
  },
  truth: {
    summary: "a generated web's ground truth as CSV, for evaluators",
    npm: 'sim:truth',
    load: () => import('../sim/cli/truth.ts'),
  },
  'warc-convert': {
    summary: 'convert a folder of pages (e.g. WebKB) into a WARC archive with labels',
    npm: 'warc:convert',
    load: () => import('../sim/cli/warc-convert.ts'),
  },
};

export function help(): string {
  const w = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  return [
    'Usage: crawler-harness COMMAND [flags]   (crawler-harness COMMAND --help for its flags)',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([k, c]) => `  ${k.padEnd(w)}  ${c.summary}`),
    '',
    'Exit codes: 0 done, 1 the run failed, 2 bad usage or config.',
    'Shipped configs and webs (experiments/configs/, data/) are found by name from any folder;',
    'results/ and .cache/ are written in the working directory.',
    '',
    'The docs write commands as a clone runs them; installed, each is this command:',
    ...Object.entries(COMMANDS).map(
      ([k, c]) => `${`  npm run ${c.npm} -- ARGS`.padEnd(w + 28)}crawler-harness ${k} ARGS`,
    ),
    '',
  ].join('\n');
}

/** The npm scripts a clone runs the commands by, as they appear in the commands' help and hints. */
const SCRIPTS = Object.entries(COMMANDS).map(([k, c]) => ({
  re: new RegExp(`npm run ${c.npm}(?![\\w:-])( --)?`, 'g'),
  k,
}));

/** A command's output with every `npm run SCRIPT --` of a command named as the bin runs it. */
const named = (t: string): string =>
  t.includes('npm run ') ? SCRIPTS.reduce((x, { re, k }) => x.replace(re, `crawler-harness ${k}`), t) : t;

/** main() of the bin: the command's own main, or help. */
export const main: Main = async (argv, io) => {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.err : io.out)(help());
    return name === undefined ? EXIT_USAGE : 0;
  }
  // own keys only: "constructor" or "__proto__" is no command
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.err(`crawler-harness: unknown command "${name}"; commands: ${Object.keys(COMMANDS).join(', ')}\n`);
    return EXIT_USAGE;
  }
  // init's output names the new study's own npm scripts ("npm run experiment" there), not the harness's
  if (name === 'init') return (await command.load()).main(rest, io);
  return (await command.load()).main(rest, { ...io, out: (t) => io.out(named(t)), err: (t) => io.err(named(t)) });
};

// the module node was started with (npm links the bin: compare real paths); imported, it only exports
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runInProcess(main, process.argv.slice(2));
}
