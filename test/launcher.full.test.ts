/**
 * The npm scripts' launcher (bin/run.js, issue #86): in a copy of the sources, `npm run build`'s
 * build stamps dist/; while the sources hash as stamped the launcher runs dist/ (seen by a mark put
 * into a built file only), and once a source file changes it runs the sources, so a stale build
 * never computes. A copy, since the test edits sources and builds (the repository's dist/ is left
 * alone).
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, builtFresh, STAMP } from '../lib/build-stamp.ts';

const ROOT = join(import.meta.dirname, '..');

/** The sources, the build's files and an empty data/ (the package root's mark) in a new folder. */
function copyOfSources(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harness-launcher-'));
  for (const part of ['bin', 'lib', 'crawler', 'sim', 'experiments'])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  for (const f of ['index.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'])
    cpSync(join(ROOT, f), join(dir, f));
  symlinkSync(join(ROOT, 'data'), join(dir, 'data'), 'dir');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The model cache's key for small.json seed 1 (experiments/web-training.ts webKey), from dist/ or the sources. */
function webKeyFrom(dir: string, from: 'dist' | 'sources'): string {
  const [base, ext, loader] = from === 'dist' ? ['./dist/', 'js', []] : ['./', 'ts', ['--import', 'tsx']];
  const script =
    `const { webKey } = await import('${base}experiments/web-training.${ext}');` +
    `const { Web } = await import('${base}sim/web.${ext}');` +
    `const { loadConfig } = await import('${base}sim/config.${ext}');` +
    "console.log(webKey(new Web(loadConfig('data/webs/small.json'), 1)));";
  const r = spawnSync(process.execPath, [...loader, '--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
}

const help = (dir: string): { status: number | null; out: string; err: string } => {
  const r = spawnSync(process.execPath, ['bin/run.js', 'compare', '--help'], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, out: r.stdout, err: r.stderr };
};

describe('bin/run.js, the npm scripts launcher', () => {
  it('runs dist/ while it is the sources built, the sources once they change', () => {
    const dir = copyOfSources();
    const fromSources = help(dir);
    expect(fromSources.status, fromSources.err).toBe(0);
    expect(fromSources.out).toMatch(/^Usage: npm run compare -- REF CAND/);

    const errs: string[] = [];
    expect(build(dir, { err: (t) => errs.push(t) })).toBe(0);
    expect(errs).toEqual([]);
    expect(builtFresh(dir)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, STAMP), 'utf8')).inputs).toMatch(/^[0-9a-f]{64}$/);
    // the compiler's own folder is gone once its files moved into dist/
    expect(readdirSync(join(dir, 'dist')).filter((n) => n.startsWith('.build-'))).toEqual([]);

    // the model cache finds the same models from dist/ as from the sources it was built from
    const sourcesKey = webKeyFrom(dir, 'sources');
    expect(sourcesKey).toMatch(/^[0-9a-f]{16}$/);
    expect(webKeyFrom(dir, 'dist')).toBe(sourcesKey);

    // a mark only the built file has: the launcher ran dist/
    const built = join(dir, 'dist', 'experiments', 'cli', 'compare.js');
    writeFileSync(built, readFileSync(built, 'utf8').replace('Usage: npm run compare', 'Usage: BUILT npm run compare'));
    const fromDist = help(dir);
    expect(fromDist.status, fromDist.err).toBe(0);
    expect(fromDist.out).toMatch(/^Usage: BUILT npm run compare/);

    // one source file changed: the build is stale and the sources run, as they now are
    appendFileSync(join(dir, 'lib', 'text.ts'), '\n// edited after the build\n');
    const stale = help(dir);
    expect(stale.status, stale.err).toBe(0);
    expect(stale.out).toBe(fromSources.out);
    // a stale dist/ started by hand is keyed by its own JavaScript, never as the sources
    expect(webKeyFrom(dir, 'dist')).not.toBe(webKeyFrom(dir, 'sources'));
  });

  it('a build that does not compile leaves no stamp: exit 1, but not as the prepare of npm ci', () => {
    const dir = copyOfSources();
    appendFileSync(join(dir, 'lib', 'text.ts'), "\nexport const broken: number = 'not a number';\n");
    const buildIn = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'lib/build-stamp.ts'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, npm_command: '', ...env },
      });
    const plain = buildIn({});
    expect(plain.status).toBe(1);
    expect(plain.stderr).toMatch(/build: tsc exited \d+; dist\/ is not stamped, so npm scripts run the sources\n$/);
    expect(existsSync(join(dir, STAMP))).toBe(false);
    const installing = buildIn({ npm_command: 'ci' });
    expect(installing.status, installing.stderr).toBe(0);
    expect(installing.stderr).toMatch(/dist\/ is not stamped/);
    expect(existsSync(join(dir, STAMP))).toBe(false);
    // and the launcher runs the sources, type error and all (tsx does not type-check)
    expect(help(dir).out).toMatch(/^Usage: npm run compare -- REF CAND/);
  });

  it('refuses an unknown command, or none, with exit 2 and the list', () => {
    const r = spawnSync(process.execPath, ['bin/run.js', 'nope'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^bin\/run\.js: unknown command "nope" \(node bin\/run\.js COMMAND ARGS\); commands: experiment, compare, /,
    );
    const proto = spawnSync(process.execPath, ['bin/run.js', 'constructor'], { cwd: ROOT, encoding: 'utf8' });
    expect(proto.status).toBe(2);
    expect(proto.stderr).toMatch(/^bin\/run\.js: unknown command "constructor" /);
    const none = spawnSync(process.execPath, ['bin/run.js'], { cwd: ROOT, encoding: 'utf8' });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^bin\/run\.js: no command given \(node bin\/run\.js COMMAND ARGS\); commands: /);
    expect(existsSync(join(ROOT, 'bin', 'run.js'))).toBe(true);
  });
});
