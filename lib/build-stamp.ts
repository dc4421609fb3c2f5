/**
 * Whether dist/ is the sources built: `npm run build` (this module as a program) compiles
 * tsconfig.build.json into dist/ and writes dist/build-stamp.json, a hash of everything the build
 * read (each .ts file tsconfig.build.json includes, the two tsconfig files, package.json and
 * package-lock.json). The npm scripts run the built JavaScript only while that hash is the
 * sources' own (bin/run.js); after any edit they run the sources through tsx again, so a stale
 * build never computes under the sources' name (the failure issue #89 closed for the queue). The
 * built code starts about 0.25 CPU-s faster a command (docs/benchmarks.md, "Start-up").
 *
 * The stamp vouches for what the build read, not for dist/'s files afterwards: a hand edit inside
 * dist/ goes unseen, as it would for any build tool that compares its inputs.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CliIo, parseCommand, runAsProcess } from './cli.ts';
import { ROOT } from './paths.ts';

/** Where the build writes its stamp, from the package root. */
export const STAMP = join('dist', 'build-stamp.json');
/**
 * Files besides the included sources that change what the build emits: the tsconfig files,
 * package.json (under "module": "NodeNext" its "type" chooses ESM or CommonJS output) and
 * package-lock.json (the compiler's version).
 */
const BUILD_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist') walk(p, out);
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
}

/** The files the build reads, as paths from `root` with "/", sorted (tsconfig.build.json's include). */
export function buildInputs(root: string = ROOT): string[] {
  const config = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[] };
  const files: string[] = [];
  for (const inc of config.include) {
    const p = join(root, inc);
    if (!existsSync(p)) continue;
    if (inc.endsWith('.ts')) files.push(p);
    else walk(p, files);
  }
  const names = files.map((f) => relative(root, f).split(sep).join('/'));
  return [...names, ...BUILD_FILES].sort();
}

/**
 * The hash of the build's inputs as they are now (about 250 files, 2 MB: 10 ms); null when one
 * cannot be read (no tsconfig.build.json: an installed package, which has no sources).
 */
export function inputsHash(root: string = ROOT): string | null {
  try {
    const h = createHash('sha256');
    for (const f of buildInputs(root))
      h.update(f)
        .update('\0')
        .update(readFileSync(join(root, f)))
        .update('\0');
    return h.digest('hex');
  } catch {
    return null;
  }
}

const memo = new Map<string, boolean>();

/**
 * Whether dist/ was built from the sources as they are now (its stamp holds their hash). Asked once
 * a process per root: a process keeps the code it loaded, whatever the checkout does later.
 */
export function builtFresh(root: string = ROOT): boolean {
  let fresh = memo.get(root);
  if (fresh === undefined) {
    fresh = false;
    try {
      const stamp = JSON.parse(readFileSync(join(root, STAMP), 'utf8')) as { inputs?: unknown };
      fresh = typeof stamp.inputs === 'string' && stamp.inputs === inputsHash(root);
    } catch {
      // no stamp (never built, a build that failed or was cut) or not ours: not fresh
    }
    memo.set(root, fresh);
  }
  return fresh;
}

/**
 * The file a cache key hashes for `url`, a module of the harness as this process runs it: `url`
 * itself, except for a file of a dist/ that is the sources built, whose key is its .ts source's (the
 * same code), so a model trained from dist/ is found again from the sources and the other way round.
 * A stale or installed dist/ is keyed by its own JavaScript.
 */
export function keyedSource(url: URL, root: string = ROOT): URL {
  const dist = pathToFileURL(join(root, 'dist') + sep).href;
  const from = url.href === dist.slice(0, -1) ? dist : url.href;
  if (!from.startsWith(dist) || !builtFresh(root)) return url;
  return new URL(from.slice(dist.length).replace(/\.js$/, '.ts'), pathToFileURL(root + sep));
}

/** Moves every file under `from` into the same place under `to`, each by one rename (whole files only). */
function moveInto(from: string, to: string): void {
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, e.name);
    const dst = join(to, e.name);
    if (e.isDirectory()) {
      mkdirSync(dst, { recursive: true });
      moveInto(src, dst);
    } else renameSync(src, dst);
  }
}

/**
 * Builds dist/ and stamps it. The stamp goes first, so a failed build leaves none; the compiler
 * writes into a folder of its own whose files then replace dist/'s one rename each, so a command
 * started meanwhile (a test beside `npm pack`) reads whole files; the stamp is written only when
 * the inputs hashed the same before and after the compiler ran (an edit during the build would
 * otherwise be vouched for).
 */
export function build(root: string, io: Pick<CliIo, 'err'>): number {
  const before = inputsHash(root);
  memo.delete(root);
  rmSync(join(root, STAMP), { force: true });
  const out = join(root, 'dist', `.build-${process.pid}`);
  try {
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    execFileSync(tsc, ['-p', 'tsconfig.build.json', '--outDir', out], { cwd: root, stdio: 'inherit' });
    mkdirSync(join(root, 'dist'), { recursive: true });
    moveInto(out, join(root, 'dist'));
  } catch (e) {
    // the compiler's own messages went to stderr above; dist/ keeps what it held, unstamped
    const status = (e as { status?: number | null }).status;
    const why = typeof status === 'number' ? `exited ${status}` : (e as Error).message;
    io.err(`build: tsc ${why}; dist/ is not stamped, so npm scripts run the sources\n`);
    return 1;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const after = inputsHash(root);
  if (before === null || before !== after) {
    io.err(
      'build: the sources changed while they were compiled; dist/ is not stamped, so npm scripts run the sources\n',
    );
    return 0;
  }
  writeFileSync(join(root, STAMP), `${JSON.stringify({ inputs: after, files: buildInputs(root).length })}\n`);
  memo.set(root, true);
  return 0;
}

const USAGE = `Usage: npm run build
  compiles the harness into dist/ (tsconfig.build.json) and stamps it with the hash of the sources
  it read (dist/build-stamp.json): npm scripts run dist/ while the sources hash the same. Exit 1
  when tsc fails (no stamp), except as npm's prepare in npm ci or npm install
`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  if (!parseCommand(argv, io, USAGE, {})) return 0;
  const code = build(ROOT, io);
  // as npm's prepare in `npm ci` or `npm install`, a type error does not fail the install: the
  // npm scripts run the sources through tsx, which does not type-check (npm test does)
  const installing = process.env.npm_command === 'ci' || process.env.npm_command === 'install';
  return installing ? 0 : code;
}

await runAsProcess(main, import.meta);
