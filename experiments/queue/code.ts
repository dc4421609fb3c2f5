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
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ExperimentConfig } from '../focused/config.ts';
import { RUNS_SOURCES, resource, ROOT } from '../../lib/paths.ts';

/** What a job's result depends on besides its config: the harness's code and the files the config names. */
export interface CodeVersion {
  /** Hash of the harness's code and shipped data (CODE_PARTS), the same on every checkout of one commit. */
  tree: string;
  /** The git commit of the checkout (with "+changes" when files differ from it), for messages; null outside git. */
  commit: string | null;
  /** Path as the config names it -> hash of its content, for every file the config names. */
  files: Record<string, string>;
}

/**
 * The parts of the package whose content a result depends on: its code (sources in a clone, built
 * JavaScript when installed), its shipped data and the locked dependency versions. Tests, docs,
 * configs (a job carries its resolved config) and results are not.
 */
const CODE_PARTS = RUNS_SOURCES
  ? ['crawler', 'lib', 'sim', 'experiments', 'bin', 'data', 'index.ts', 'package-lock.json']
  : // installed: the built JavaScript (a clone's dist/ is a build product, not what its workers run)
    ['dist', 'data', 'package.json'];
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

/** The hash of the harness's code and data (computed once per process: about 10 MB read). */
export function treeHash(): string {
  if (treeMemo) return treeMemo;
  const files: string[] = [];
  for (const part of CODE_PARTS) {
    const p = join(ROOT, part);
    if (!existsSync(p)) continue;
    if (statSync(p).isDirectory()) walk(p, files);
    else files.push(p);
  }
  const h = createHash('sha256');
  for (const f of files.sort()) {
    h.update(relative(ROOT, f).split(sep).join('/'));
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  treeMemo = h.digest('hex').slice(0, 16);
  return treeMemo;
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
  if (cfg.archive) files.push(...cfg.archive.warc, cfg.archive.labels);
  return [...new Set(files)];
}

const fileHash = (path: string): string =>
  createHash('sha256')
    .update(readFileSync(resource(path)))
    .digest('hex')
    .slice(0, 16);

/** The code version a job for `cfg` is submitted with (the submitter's side). */
export function codeVersionOf(cfg: ExperimentConfig): CodeVersion {
  return {
    tree: treeHash(),
    commit: gitCommit(),
    files: Object.fromEntries(namedFiles(cfg).map((f) => [f, fileHash(f)])),
  };
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
export function refusal(theirs: CodeVersion, cfg: ExperimentConfig): string | null {
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
  for (const [f, h] of Object.entries(theirs.files))
    if (fileHash(f) !== h) return `refused: ${f} differs between the submitter and this worker; copy the same file`;
  const missing = namedFiles(cfg).filter((f) => !(f in theirs.files));
  if (missing.length) return `refused: the job does not say which ${missing[0]} it was submitted with`;
  return null;
}
