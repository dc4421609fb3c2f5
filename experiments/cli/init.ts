/**
 * crawler-harness init DIR [--from SPEC]: writes a starter project (issue #71), so that a
 * researcher does not copy examples out of node_modules by hand: a study config, a strategy module,
 * a program using the library, a CI job with the regression gate, a README. The files are
 * examples/starter/ (shipped with the package); package.json is written here, depending on the
 * harness the way the project init ran from does. A tarball is copied into the study (vendor/) and
 * named by a relative path (issue #87): an absolute path installs only on the machine init ran on,
 * and the package is on no registry, so the study's CI could not install it anywhere else.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve, sep } from 'node:path';
import { type CliIo, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';
import { ROOT } from '../../lib/paths.ts';
import { OutFolderError } from '../../lib/errors.ts';
import { makeFolder, writeOutputFile } from '../../lib/out-folder.ts';

const USAGE = `Usage: crawler-harness init DIR [--from SPEC]     (npm run init -- DIR in a clone)

Writes a starter project into DIR (new or empty): experiments/study.json (your strategy beside
bfs, immediate and future on the shipped synthetic web), strategies/topic-words.ts, program.ts (the
library from a program), .github/workflows/gate.yml (the regression gate), README.md, package.json.
Then: cd DIR && npm install && npm run experiment.

The study installs anywhere it is copied to (its CI too): a harness tarball is copied into
DIR/vendor/ and package.json names it there; a folder is named by its absolute path, which only
this machine has (a warning says so: give --from a tarball, npm pack makes one, or a git URL).

Options:
  --from SPEC   how package.json names the harness: a version range, a tarball, a folder or a git
                URL, as npm install takes it (default: as the project this command runs from has
                it, e.g. the tarball it was installed from; else ^VERSION)
`;

/** Starter files: where each is in examples/starter/ -> where it goes in the project. */
const FILES: Record<string, string> = {
  'study.json': 'experiments/study.json',
  'strategies/topic-words.ts': 'strategies/topic-words.ts',
  'program.ts': 'program.ts',
  'gate.yml': '.github/workflows/gate.yml',
  'README.md': 'README.md',
  // npm pack leaves out files named .gitignore
  gitignore: '.gitignore',
};

const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/**
 * How the new project names the harness: as the project whose node_modules this one is in names
 * it (a file: spec made absolute, since the new project is elsewhere); else the version.
 */
export function harnessSpec(root: string, version: string): string {
  const at = root.lastIndexOf(`${sep}node_modules${sep}`);
  if (at >= 0) {
    const project = root.slice(0, at);
    try {
      const p = readJson(join(project, 'package.json'));
      const deps = { ...(p.devDependencies as object), ...(p.dependencies as object) } as Record<string, string>;
      const spec = deps['crawler-harness'];
      if (spec?.startsWith('file:')) {
        const path = spec.slice('file:'.length);
        return `file:${isAbsolute(path) ? path : resolve(project, path)}`;
      }
      if (spec) return spec;
    } catch {
      // no package.json there (npx's cache keeps one; a bare node_modules may not)
    }
  }
  return `^${version}`;
}

/**
 * The spec the study's package.json names the harness by: a tarball on this machine copied into
 * the study's vendor/ and named relatively (the study then installs wherever it is copied, its CI
 * too); a folder stays where it is, with a warning that only this machine has it; anything else
 * (a version range, a git URL) as given.
 */
function vendored(spec: string, dir: string, io: CliIo): string {
  if (!spec.startsWith('file:')) return spec;
  const path = spec.slice('file:'.length);
  if (existsSync(path) && statSync(path).isFile()) {
    const name = basename(path);
    mkdirSync(join(dir, 'vendor'), { recursive: true });
    copyFileSync(path, join(dir, 'vendor', name));
    return `file:vendor/${name}`;
  }
  io.err(
    `warning: the study names the harness by a folder of this machine (${path}): it installs here only; ` +
      'for a study its CI can install, init --from a tarball (npm pack makes one) or a git URL\n',
  );
  return spec;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(argv, io, USAGE, { from: { type: 'string' } }, true);
  if (!parsed) return 0;
  if (parsed.positionals.length !== 1) usage('give one folder for the new project: crawler-harness init DIR');
  const dir = resolve(parsed.positionals[0]);
  // the one folder check every command that writes makes (lib/out-folder.ts): one line, exit 2
  makeFolder(
    dir,
    (why) => new OutFolderError('OUT_ERR_IN_USE', `cannot write the project under ${parsed.positionals[0]}: ${why}`),
  );
  if (readdirSync(dir).length)
    usage(`${parsed.positionals[0]} is not empty: init writes a new project into a new or empty folder`);
  const own = readJson(join(ROOT, 'package.json'));
  const version = String(own.version);
  const from = parsed.values.from;
  // a tarball or folder given by a relative path: from where the command runs, not the new project
  const spec =
    from === undefined
      ? harnessSpec(ROOT, version)
      : /^(\.|\/)/.test(from) || /\.(tgz|tar\.gz)$/.test(from)
        ? `file:${resolve(from)}`
        : from;
  const tsx = (own.dependencies as Record<string, string>).tsx;
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  const pkg = {
    name: name || 'crawler-study',
    private: true,
    type: 'module',
    // the gate at 6 seeds, where the docs' table (npm run bench:gate) detects a drop of its
    // --max-drop 0.02 (median detectable 0.011; 0.027 at 3, 0.036 at --quick's one, where a strategy
    // broken on purpose passed), and compare refuses a "no regression" from runs too few to see a
    // drop of --max-drop (issue #87)
    scripts: {
      experiment: 'crawler-harness experiment experiments/study.json',
      'experiment:quick': 'crawler-harness experiment experiments/study.json --quick --out results/quick',
      reference: 'crawler-harness experiment experiments/study.json --seeds 6 --out results/reference',
      candidate: 'crawler-harness experiment experiments/study.json --seeds 6 --out results/candidate',
      gate: 'crawler-harness compare results/reference results/candidate --max-drop 0.02',
      program: 'tsx program.ts',
    },
    dependencies: { 'crawler-harness': spec },
    // the version the harness itself runs TypeScript strategy modules with
    devDependencies: { tsx },
  };
  const put = (path: string, text: string): void => writeOutputFile(join(dir, path), text);
  for (const [from, to] of Object.entries(FILES)) put(to, readFileSync(join(ROOT, 'examples/starter', from), 'utf8'));
  const local = vendored(spec, dir, io);
  pkg.dependencies['crawler-harness'] = local;
  put('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
  io.out(
    `wrote a starter project into ${parsed.positionals[0]} (crawler-harness ${local}): ` +
      `${['package.json', ...Object.values(FILES)].join(', ')}\n` +
      `next: cd ${parsed.positionals[0]} && npm install && npm run experiment\n`,
  );
  return 0;
}

await runAsProcess(main, import.meta);
