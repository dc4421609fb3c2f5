/**
 * Where the harness's own files are. A clone runs the TypeScript sources through tsx; the
 * installed package runs the JavaScript built into dist/; both read the same shipped files
 * (data/, experiments/configs/, the page's assets) from the package root, the nearest folder
 * above this module that holds package.json and data/.
 *
 * A path a researcher gives (a web config, keywords, a word list, an archive) is read from the
 * working directory when it is there, else from the package: their own files win, and the
 * shipped ones, named as the configs name them ("data/webs/paper.json"), are found from any
 * folder. The path as written is what results and cache keys record, so outputs do not depend
 * on where the harness is installed.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRoot(): string {
  let d = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(d, 'package.json')) && existsSync(join(d, 'data'))) return d;
    const up = dirname(d);
    if (up === d) throw new Error(`crawler-harness: no package root above ${fileURLToPath(import.meta.url)}`);
    d = up;
  }
}

/** The package root: the repository in a clone, node_modules/crawler-harness when installed. */
export const ROOT = packageRoot();

/** A shipped file by its path inside the package ("data/vocab/computing.txt"). */
export const shipped = (path: string): string => join(ROOT, path);

/** A given path: as written when it exists from the working directory, else the shipped file of that name. */
export function resource(path: string): string {
  if (isAbsolute(path) || existsSync(path)) return path;
  const inPackage = join(ROOT, path);
  return existsSync(inPackage) ? inPackage : path;
}

/** Whether this process runs the TypeScript sources (a clone, through tsx) rather than built JavaScript. */
export const RUNS_SOURCES = import.meta.url.endsWith('.ts');

/**
 * A module file beside `from` (an import.meta.url) by its name without extension, in the form
 * that is running: `./pool-worker` is pool-worker.ts in a clone and pool-worker.js when built.
 */
export const moduleUrl = (from: string, name: string): URL => new URL(`${name}${RUNS_SOURCES ? '.ts' : '.js'}`, from);
