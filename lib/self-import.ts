/**
 * A researcher's strategy module imports the harness by its package name (`import { Topic } from
 * 'crawler-harness'`), as a project that installed it does. Installed, Node resolves the name
 * through package.json "exports" (to dist/). A clone runs the sources, which have no dist/: here
 * the name is resolved to the sources instead, by a module resolve hook (node:module register),
 * registered once per process before a strategy module loads. The same module then loads in a
 * clone and from the package (examples/strategies/ ships in both).
 */
import { register } from 'node:module';
import { join } from 'node:path';
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
