import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { buildInputs, builtFresh, inputsHash, keyedSource, STAMP } from './build-stamp.ts';

/** A project as the build sees it: tsconfig.build.json including index.ts and lib/, and some files beside. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  const put = (name: string, text: string): void => {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  };
  put('tsconfig.build.json', JSON.stringify({ include: ['index.ts', 'lib', 'missing'] }));
  put('tsconfig.json', '{ /* comments allowed */ }');
  put('package-lock.json', '{"lockfileVersion": 3}');
  put('package.json', '{"type": "module"}');
  put('index.ts', 'export * from "./lib/a.ts";');
  put('lib/a.ts', 'export const a = 1;');
  put('lib/sub/c.ts', 'export const c = 2;');
  put('lib/a.test.ts', 'a test');
  put('lib/types.d.ts', 'declare const x: number;');
  put('lib/node_modules/pkg/index.ts', 'a dependency');
  put('other/d.ts', 'not included');
  return root;
}

/** A copy of `root` whose stamp holds the hash of its inputs (as a build leaves it). */
function stamped(root: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  cpSync(root, copy, { recursive: true });
  mkdirSync(join(copy, 'dist'), { recursive: true });
  writeFileSync(join(copy, STAMP), JSON.stringify({ inputs: inputsHash(copy) }));
  return copy;
}

describe('the build stamp', () => {
  it("lists what tsconfig.build.json includes: .ts files but tests, declarations and dependencies, and the build's own files", () => {
    expect(buildInputs(project())).toEqual([
      'index.ts',
      'lib/a.ts',
      'lib/sub/c.ts',
      'package-lock.json',
      'package.json',
      'tsconfig.build.json',
      'tsconfig.json',
    ]);
  });

  it('says fresh only while every input hashes as when the stamp was written', () => {
    const base = project();
    expect(builtFresh(base)).toBe(false); // never built
    expect(builtFresh(stamped(base))).toBe(true);
    const edited = stamped(base);
    appendFileSync(join(edited, 'lib/sub/c.ts'), '// one more line');
    expect(builtFresh(edited)).toBe(false);
    const lock = stamped(base);
    appendFileSync(join(lock, 'package-lock.json'), ' ');
    expect(builtFresh(lock)).toBe(false);
    // "type" in package.json chooses the emitted module format
    const type = stamped(base);
    writeFileSync(join(type, 'package.json'), '{"type": "commonjs"}');
    expect(builtFresh(type)).toBe(false);
    const gone = stamped(base);
    rmSync(join(gone, 'lib/a.ts'));
    expect(builtFresh(gone)).toBe(false);
    const unstamped = stamped(base);
    rmSync(join(unstamped, STAMP));
    expect(builtFresh(unstamped)).toBe(false);
    const garbled = stamped(base);
    writeFileSync(join(garbled, STAMP), 'not json');
    expect(builtFresh(garbled)).toBe(false);
    // what the build does not read leaves the stamp good
    const beside = stamped(base);
    appendFileSync(join(beside, 'lib/a.test.ts'), 'more');
    appendFileSync(join(beside, 'other/d.ts'), 'more');
    writeFileSync(join(beside, 'lib/new.md'), 'notes');
    expect(builtFresh(beside)).toBe(true);
  });

  it('has no inputs hash without tsconfig.build.json (an installed package), so nothing is fresh', () => {
    const root = stamped(project());
    rmSync(join(root, 'tsconfig.build.json'));
    expect(inputsHash(root)).toBeNull();
    expect(builtFresh(root)).toBe(false);
  });

  it('keys a built file by its source while dist/ is the sources built, by itself otherwise', () => {
    const fresh = stamped(project());
    const url = (root: string, path: string): URL => pathToFileURL(join(root, path));
    expect(keyedSource(url(fresh, 'dist/lib/a.js'), fresh).href).toBe(url(fresh, 'lib/a.ts').href);
    expect(keyedSource(url(fresh, 'dist'), fresh).href).toBe(`${url(fresh, '').href}/`);
    expect(keyedSource(new URL(`${url(fresh, 'dist').href}/`), fresh).href).toBe(`${url(fresh, '').href}/`);
    expect(keyedSource(url(fresh, 'lib/a.ts'), fresh).href).toBe(url(fresh, 'lib/a.ts').href);
    expect(keyedSource(url(fresh, 'distant/x.js'), fresh).href).toBe(url(fresh, 'distant/x.js').href);
    const stale = stamped(project());
    appendFileSync(join(stale, 'lib/a.ts'), '// edited');
    expect(keyedSource(url(stale, 'dist/lib/a.js'), stale).href).toBe(url(stale, 'dist/lib/a.js').href);
  });
});
