/**
 * What a queued job's result depends on beyond its config: the code that runs it and the files
 * its config names. A job carries both as hashes; its id includes them (so a result computed by
 * other code is never reused), and a worker whose checkout differs refuses the job instead of
 * returning other numbers under the same id.
 *
 * The trust boundary (docs/experiments.md): whoever can write to the queue's Redis chooses the
 * configs the workers run. A config may name strategy modules (code the worker imports) and data
 * files (archives, labels, keywords); a worker takes such paths only inside its own working
 * directory or the harness's package, never through "..", an absolute path elsewhere or a
 * symbolic link out of them.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ExperimentConfig } from '../focused/config.ts';
import { RUNS_SOURCES, resource, ROOT } from '../../lib/paths.ts';
import { append } from '../../lib/arrays.ts';
import { builtFresh } from '../../lib/build-stamp.ts';

/** What a job's result depends on besides its config: the harness's code and the files the config names. */
export interface CodeVersion {
  /** Hash of the harness's code and shipped data (codeParts()), the same on every checkout of one commit. */
  tree: string;
  /** Node's major version: another V8 may round a float another way (absent: submitted before it was recorded). */
  node?: string;
  /** The git commit of the checkout (with "+changes" when files differ from it), for messages; null outside git. */
  commit: string | null;
  /** Path as the config names it -> hash of its content, for every file the config names. */
  files: Record<string, string>;
}

/**
 * The parts of the package whose content a result depends on: its code, its shipped data and the
 * locked dependency versions. The code is the sources in a clone, whether they run through tsx or
 * as dist/ built from them as they are now (lib/build-stamp.ts: the npm scripts run such a build),
 * so that two clones of one commit agree; otherwise (installed, or a dist/ older than the sources
 * started by hand) the built JavaScript that runs. Tests, docs, configs (a job carries its resolved
 * config) and results are not. Asked at the first hash, not when this module loads: whether dist/
 * matches costs a hash of the sources (10 ms), which a command that never hashes its tree skips.
 */
const codeParts = (): string[] =>
  RUNS_SOURCES || builtFresh()
    ? ['crawler', 'lib', 'sim', 'experiments', 'bin', 'data', 'index.ts', 'package-lock.json']
    : ['dist', 'data', 'package.json'];
const SKIP = /(^|\/)(node_modules|\.cache|configs)(\/|$)|\.test\.ts$|\.md$/;

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (SKIP.test(relative(ROOT, p))) continue;
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
}

let treeMemo: string | null = null;

/**
 * The hash of the harness's code and data as this process loaded it: computed at the first call
 * (a job process makes it before it imports the code it runs: experiments/queue/job-entry.ts) and
 * kept. What the checkout holds now is currentTreeHash()'s.
 */
export function treeHash(): string {
  treeMemo ??= currentTreeHash();
  return treeMemo;
}

/** Per file: its stat key and its content's hash, so that hashing the tree again reads only what changed. */
const fileMemo = new Map<string, { key: string; hash: string }>();

/**
 * The hash of the harness's code and data as the checkout holds them now (about 10 MB: 40-50 ms
 * cold; again, a stat a file and only changed files read). A file is read again when its size,
 * modification or change time or inode differ: a write that keeps all four (within the clock's
 * resolution) goes unseen, as it does for git's index.
 */
export function currentTreeHash(): string {
  const files: string[] = [];
  for (const part of codeParts()) {
    const p = join(ROOT, part);
    if (!existsSync(p)) continue;
    if (statSync(p).isDirectory()) walk(p, files);
    else files.push(p);
  }
  const h = createHash('sha256');
  for (const f of files.sort()) {
    const st = statSync(f);
    const key = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
    let m = fileMemo.get(f);
    if (m?.key !== key) {
      m = { key, hash: createHash('sha256').update(readFileSync(f)).digest('hex') };
      fileMemo.set(f, m);
    }
    h.update(relative(ROOT, f).split(sep).join('/'));
    h.update('\0');
    h.update(m.hash);
    h.update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

let commitMemo: { commit: string | null } | null = null;

/**
 * The checkout's commit, "+changes" when its working tree differs; null outside a git checkout.
 * Read once per process, as the tree's hash is (a sweep submits every point: a git status each).
 * Changes under results/ do not count: outputs, not what makes them (regenerating two committed
 * references one after the other made the second read as made from changed code).
 */
export function gitCommit(): string | null {
  commitMemo ??= { commit: readGitCommit() };
  return commitMemo.commit;
}

/** The checkout's commit now (not this process's memo): for a message when the checkout changed. */
export const currentGitCommit = (): string | null => readGitCommit();

function readGitCommit(): string | null {
  try {
    const run = (args: string[]): string =>
      execFileSync('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 })
        .toString()
        .trim();
    const head = run(['rev-parse', '--short=12', 'HEAD']);
    const changed = run(['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)results']);
    return changed ? `${head}+changes` : head;
  } catch {
    return null;
  }
}

/** The files a config names by path (besides the web config, whose text travels in the job). */
export function namedFiles(cfg: ExperimentConfig): string[] {
  const files = Object.values(cfg.strategyParams).flatMap((s) => (s.module ? [s.module] : []));
  if (cfg.keywords) files.push(cfg.keywords);
  if (cfg.archive) {
    append(files, cfg.archive.warc);
    files.push(cfg.archive.labels);
  }
  return [...new Set(files)];
}

/** Node's major version, as jobs carry it. */
export const NODE_MAJOR = process.versions.node.split('.')[0];

/**
 * A named file's hash: its content; for a strategy module (code: .ts, .js, .mjs...), the content of
 * every file of its import closure (static and dynamic imports with a literal path, resolved by
 * esbuild as Node and tsx resolve them) and the name and version of every package it imports,
 * found as Node finds it (node_modules upwards from the importing file). The harness itself
 * (`crawler-harness`) is the tree's hash; node: modules are Node's, whose major version the job
 * carries. A helper the module imports that differs by a byte gives another hash (issue #69).
 * Computed each time it is asked (an esbuild scan, tens of milliseconds): a worker that runs for a
 * week sees a helper edited on its disk at the next job.
 */
export async function fileHash(path: string): Promise<string> {
  const file = resource(path);
  const h = createHash('sha256');
  if (!/\.[cm]?[jt]sx?$/.test(file)) return h.update(readFileSync(file)).digest('hex').slice(0, 16);
  for (const [part, content] of await moduleClosure(file)) h.update(part).update('\0').update(content).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** The files and packages a module's code depends on: [name, content] pairs in a stable order. */
async function moduleClosure(path: string): Promise<[string, string | Buffer][]> {
  const file = resolve(path);
  const esbuild = await import('esbuild');
  const harness = /^crawler-harness(\/|$)/;
  const r = await esbuild.build({
    entryPoints: [resolve(file)],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    absWorkingDir: dirname(file),
    plugins: [
      {
        name: 'harness-and-packages-external',
        setup(b) {
          b.onResolve({ filter: harness }, (a) => ({ path: a.path, external: true }));
          // packages: by name and version below, not their files
          b.onResolve({ filter: /^[^./]/ }, (a) =>
            a.kind === 'entry-point' || isAbsolute(a.path) ? undefined : { path: a.path, external: true },
          );
        },
      },
    ],
  });
  const out: [string, string | Buffer][] = [];
  const packages = new Set<string>();
  for (const [input, meta] of Object.entries(r.metafile.inputs)) {
    const abs = resolve(dirname(file), input);
    out.push([`file:${relative(dirname(file), abs).split(sep).join('/')}`, readFileSync(abs)]);
    for (const i of meta.imports)
      if (i.external && !harness.test(i.path) && !i.path.startsWith('node:')) packages.add(`${abs}\0${i.path}`);
  }
  for (const p of packages) {
    const [from, spec] = p.split('\0');
    out.push([`package:${spec}`, packageVersion(from, spec)]);
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** name@version of the package `spec` names, as Node finds it from `from`; "builtin" or "missing". */
function packageVersion(from: string, spec: string): string {
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  for (let d = dirname(from); ; d = dirname(d)) {
    const pkg = join(d, 'node_modules', name, 'package.json');
    if (existsSync(pkg)) return `${name}@${(JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version}`;
    if (dirname(d) === d) return builtinModules.includes(name) ? `${name} (builtin)` : `${name} (missing)`;
  }
}

/** The strategy modules `cfg` names, each with its import closure's hash (a results folder's provenance). */
export async function moduleHashes(cfg: ExperimentConfig): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const s of Object.values(cfg.strategyParams)) if (s.module) out[s.module] = await fileHash(s.module);
  return out;
}

/** The code version a job for `cfg` is submitted with (the submitter's side). */
export async function codeVersionOf(cfg: ExperimentConfig): Promise<CodeVersion> {
  const files: Record<string, string> = {};
  for (const f of namedFiles(cfg)) files[f] = await fileHash(f);
  return { tree: treeHash(), node: NODE_MAJOR, commit: gitCommit(), files };
}

/**
 * A path a queued config names, checked against the trust boundary: inside the working directory
 * or the package, after following symbolic links. Returns what is wrong, or null.
 */
export function outsideCheckout(path: string): string | null {
  const roots = [process.cwd(), ROOT].map((r) => realpathSync(r));
  const file = resource(path);
  if (!existsSync(file)) return `"${path}" is not a file in this checkout`;
  const real = realpathSync(isAbsolute(file) ? file : resolve(file));
  const inside = roots.some((r) => {
    const rel = relative(r, real);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  });
  return inside ? null : `"${path}" is outside this worker's checkout (${roots[0]}); a queued job may not name it`;
}

/**
 * Why this worker must not run a job submitted with `theirs` (other code, other files, or a file
 * outside the checkout), in one line; null when it may.
 */
export async function refusal(theirs: CodeVersion, cfg: ExperimentConfig): Promise<string | null> {
  for (const f of namedFiles(cfg)) {
    const why = outsideCheckout(f);
    if (why) return `refused: ${why}`;
  }
  const mine = treeHash();
  if (theirs.tree !== mine)
    return (
      `refused: the job was submitted from other code (${theirs.commit ?? 'no commit'}, tree ` +
      `${theirs.tree}) than this worker runs (${gitCommit() ?? 'no commit'}, tree ${mine}); run ` +
      `the same commit, unchanged, on the submitter and every worker`
    );
  if ((theirs.node ?? NODE_MAJOR) !== NODE_MAJOR)
    return `refused: the job was submitted from Node ${theirs.node}, this worker runs Node ${NODE_MAJOR}; run one major version everywhere`;
  for (const [f, h] of Object.entries(theirs.files))
    if ((await fileHash(f)) !== h)
      return (
        `refused: ${f} differs between the submitter and this worker (the file, a file it imports or a ` +
        'package version it imports); copy the same files and install the same packages'
      );
  const missing = namedFiles(cfg).filter((f) => !(f in theirs.files));
  if (missing.length) return `refused: the job does not say which ${missing[0]} it was submitted with`;
  return null;
}
