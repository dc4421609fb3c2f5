/**
 * A researcher's strategy module imports the harness by its package name (`import { Topic } from
 * 'crawler-harness'`), as a project that installed it does. Installed, Node resolves the name
 * through package.json "exports" (to dist/). A clone runs the sources, which have no dist/: here
 * the name is resolved to the sources instead, by a module resolve hook (node:module register),
 * registered once per process before a strategy module loads. The same module then loads in a
 * clone and from the package (examples/strategies/ ships in both).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, RUNS_SOURCES } from './paths.ts';

/** The package's public entry points ("exports" in package.json) and their sources. */
export const SOURCE_ENTRIES: Record<string, string> = {
  'crawler-harness': 'index.ts',
  'crawler-harness/crawler': 'crawler/index.ts',
  'crawler-harness/crawler/focused': 'crawler/focused/index.ts',
};

let registered = false;

/** From the sources (a clone): `crawler-harness` and its subpaths resolve to the sources. Built: nothing to do. */
export function resolveOwnNameToSources(): void {
  if (registered || !RUNS_SOURCES) return;
  registered = true;
  const map = Object.fromEntries(
    Object.entries(SOURCE_ENTRIES).map(([name, file]) => [name, pathToFileURL(join(ROOT, file)).href]),
  );
  // the hook runs on the loader thread: plain JavaScript, with the map written into it
  const hook = `const MAP = ${JSON.stringify(map)};
export async function resolve(specifier, context, next) {
  const url = MAP[specifier];
  return next(url ?? specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}

let typescript = false;

/**
 * Before a researcher's module loads (a strategy plugin): its own name resolved as above, and, when
 * the harness runs built, tsx's loader registered if the module is TypeScript, once, on demand.
 * Registering it at every start cost each command of the package about 0.3 CPU-s.
 */
export async function prepareModuleLoad(path: string): Promise<void> {
  resolveOwnNameToSources();
  if (RUNS_SOURCES || typescript || !/\.[cm]?tsx?$/.test(path)) return;
  typescript = true;
  ((await import('tsx/esm/api')) as { register(): unknown }).register();
}

/** The package.json that sets a file's module format (the nearest above it), and whether it says "module". */
function packageScope(file: string): { dir: string; esm: boolean } {
  for (let d = dirname(file); ; d = dirname(d)) {
    const pkg = join(d, 'package.json');
    if (existsSync(pkg)) {
      try {
        return { dir: d, esm: (JSON.parse(readFileSync(pkg, 'utf8')) as { type?: string }).type === 'module' };
      } catch {
        return { dir: d, esm: false };
      }
    }
    if (dirname(d) === d) return { dir: dirname(file), esm: false };
  }
}

/**
 * The URL to import a researcher's module by. A TypeScript module in a project whose package.json
 * does not say "type": "module" (what `npm init -y` writes) is CommonJS to Node and to tsx, which
 * turn its `import { Topic } from 'crawler-harness'` into a require() of the harness, an ES module
 * already loading: "Cannot require() ES Module ... in a cycle" (issue #89). Such a module is
 * bundled as an ES module instead (esbuild: its own files inlined, packages left to Node, which
 * resolves them from the project as before) into the project's node_modules/.cache, and that file
 * is imported. Any other module is imported where it is.
 */
export async function importUrlOf(path: string): Promise<string> {
  const file = resolve(path);
  if (RUNS_SOURCES || !/\.tsx?$/.test(file)) return pathToFileURL(file).href;
  const scope = packageScope(file);
  if (scope.esm) return pathToFileURL(file).href;
  const esbuild = await import('esbuild');
  const r = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  const code = r.outputFiles[0].text;
  const dir = join(scope.dir, 'node_modules', '.cache', 'crawler-harness', 'modules');
  mkdirSync(dir, { recursive: true });
  const out = join(
    dir,
    `${basename(file).replace(/\.tsx?$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`,
  );
  if (!existsSync(out)) writeFileSync(out, code);
  return pathToFileURL(out).href;
}
