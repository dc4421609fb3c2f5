/**
 * The installable package (issue #37): `npm pack`, installed into an empty project, runs its bin;
 * the programs it ships (examples/library/: a strategy crawling, and one given in memory to the
 * experiment runner on a shipped web found by name, its results written) type-check against the
 * package's types and run; the example strategy module, which imports the harness by its name,
 * crawls through the bin and logs what the same crawl from the sources logs. It checks packaging,
 * not results: those are experiment.regression's. npm installs the dependencies from its cache
 * (`npm ci` filled it) or the registry.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './cli-inprocess.ts';
import { scaled } from './speed.ts';

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'harness-package-'));
// npm's own variables of the `npm test` that runs this would steer the nested npm commands
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

/** The installed bin as npm links it (npx, once above, finds the same file; each npx costs a second). */
const BIN = join(dir, 'node_modules/.bin/crawler-harness');

function run(cmd: string, args: string[], cwd = dir): { status: number | null; out: string; err: string } {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

// the install is ~300 MB in ~22,000 files: removed without blocking the worker, with time to spare
afterAll(() => rm(dir, { recursive: true, force: true }), scaled(180_000));

describe('the package installed into an empty project', () => {
  it(
    'runs its bin and the programs it ships, and crawls as the sources crawl',
    async () => {
      const pack = run('npm', ['pack', '--pack-destination', dir], ROOT);
      expect(pack.status, pack.err).toBe(0);
      const tarball = join(dir, pack.out.trim().split('\n').pop()!);
      const dev = (
        JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
      ).devDependencies;
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
      const install = run('npm', [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        tarball,
        `typescript@${dev.typescript}`,
        `@types/node@${dev['@types/node']}`,
      ]);
      expect(install.status, install.err).toBe(0);

      const help = run('npx', ['crawler-harness', '--help']);
      expect(help.status, help.err).toBe(0);
      expect(help.out).toMatch(/^ {2}experiment /m);
      // a command's help names the bin, not the npm script a clone runs it by
      const crawlHelp = run(BIN, ['crawl', '--help']);
      expect(crawlHelp.status, crawlHelp.err).toBe(0);
      expect(crawlHelp.out).toMatch(/^Usage: crawler-harness crawl --start URL/);
      expect(crawlHelp.out).not.toMatch(/npm run/);
      const bad = run(BIN, ['no-such-command']);
      expect(bad.status).toBe(2);
      expect(bad.err.trim().split('\n')).toHaveLength(1);

      // the programs the package ships, as its README says to use them
      const shippedExamples = join(dir, 'node_modules/crawler-harness/examples/library');
      for (const f of ['crawl.ts', 'experiment.ts', 'tsconfig.json'])
        copyFileSync(join(shippedExamples, f), join(dir, f));
      const tsc = run('npx', ['tsc', '-p', '.']);
      expect(tsc.status, tsc.out + tsc.err).toBe(0);
      const crawl = run('node', ['out/crawl.js']);
      expect(crawl.status, crawl.err).toBe(0);
      expect(JSON.parse(crawl.out)).toMatchObject({ strategy: 'shortest-url', pages: 60 });
      const experiment = run('node', ['out/experiment.js']);
      expect(experiment.status, experiment.err).toBe(0);
      expect(JSON.parse(experiment.out)).toMatchObject({ strategies: ['bfs', 'immediate', 'paper-words'] });
      expect(readFileSync(join(dir, 'results/my-strategy/config.json'), 'utf8')).toContain('"inMemory": true');
      // the example strategy module, named as the docs name it, from the package; the built
      // JavaScript computes what the sources do: the same crawl from the clone's sources logs the same
      // pages in the same order (what experiments compute from such crawls is experiment.regression's)
      const crawlArgs = [
        'crawl',
        '--web',
        'data/webs/small.json',
        '--strategy',
        'examples/strategies/depth-best-first.ts',
        '--max-pages',
        '30',
        '--delay-ms',
        '0',
        '--deterministic',
      ];
      const mine = run(BIN, [...crawlArgs, '--out', 'out/mine']);
      expect(mine.status, mine.err).toBe(0);
      expect(mine.out).toMatch(/"pages": 30,/);
      const clone = join(dir, 'clone-mine');
      const fromSources = await runCliInProcess('experiments/cli/crawl.ts', [...crawlArgs.slice(1), '--out', clone]);
      expect(fromSources.code, fromSources.stderr).toBe(0);
      // the log without each fetch's milliseconds
      const log = (d: string): string => readFileSync(join(d, 'crawl.jsonl'), 'utf8').replace(/,"ms":\d+/g, '');
      expect(log(join(dir, 'out/mine')).split('\n')).toHaveLength(31);
      expect(log(join(dir, 'out/mine'))).toBe(log(clone));
      // a TypeScript strategy of the researcher's own, in this "type": "module" project and in one
      // as `npm init -y` writes it (no "type": CommonJS, where tsx once made the module require()
      // the harness: "Cannot require() ES Module ... in a cycle", issue #89)
      const cjs = join(dir, 'cjs-project');
      mkdirSync(cjs);
      writeFileSync(
        join(cjs, 'package.json'),
        JSON.stringify({ name: 'cjs-project', version: '1.0.0', main: 'index.js' }),
      );
      for (const project of [dir, cjs]) {
        copyFileSync(join(ROOT, 'examples/strategies/depth-best-first.ts'), join(project, 'own.ts'));
        const own = run(
          BIN,
          [...crawlArgs.slice(0, 3), '--strategy', 'own.ts', ...crawlArgs.slice(5), '--out', 'out/own'],
          project,
        );
        expect(own.status, `${project}: ${own.err}`).toBe(0);
        expect(log(join(project, 'out/own'))).toBe(log(clone));
      }
    },
    scaled(240_000),
  );

  it(
    'init writes a study that installs anywhere, runs as written, passes its own gate and catches a break',
    () => {
      // after the first test: the package is installed in dir, from the tarball
      const init = run('npx', ['crawler-harness', 'init', 'my-study']);
      expect(init.status, init.err).toBe(0);
      // the next step it prints is a command that works (npm puts the bin on the scripts' PATH)
      expect(init.out, init.out).toMatch(/^next: cd my-study && npm install && npm run experiment$/m);
      const study = join(dir, 'my-study');
      const pkg = JSON.parse(readFileSync(join(study, 'package.json'), 'utf8'));
      // the tarball travels with the study, named by a relative path (issue #87)
      expect(pkg.dependencies['crawler-harness']).toMatch(/^file:vendor\/crawler-harness-.*\.tgz$/);
      expect(existsSync(join(study, pkg.dependencies['crawler-harness'].slice('file:'.length)))).toBe(true);
      const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], study);
      expect(install.status, install.err).toBe(0);
      const program = run('npm', ['run', '-s', 'program'], study);
      expect(program.status, program.err).toBe(0);
      expect(program.out).toMatch(/^topic-words +recall AUC 0\.\d{3} over 4 runs$/m);
      // the CI job's steps, the reference first: the gate passes on itself
      for (const step of ['reference', 'candidate', 'gate']) {
        const r = run('npm', ['run', step], study);
        expect(r.status, `${step}: ${r.out}${r.err}`).toBe(0);
        if (step === 'gate') expect(r.out).toMatch(/No regression beyond 0\.02/);
      }
      const report = readFileSync(join(study, 'results/reference/report.md'), 'utf8');
      // the plug-in ran beside the built-ins, six seeds (the gate's size): bands drawn
      expect(report).toMatch(/\| topic-words \|/);
      expect(report).toContain('95% Student t interval over 6 web seeds');
      // what made it names the plug-in's code too
      expect(report).toMatch(/Made by: .*module strategies\/topic-words\.ts [0-9a-f]{16},/);
      const job = readFileSync(join(study, '.github/workflows/gate.yml'), 'utf8');
      for (const step of ['npm ci', 'npm run candidate', 'npm run gate']) expect(job).toContain(`run: ${step}`);
      // a deliberate break: 30% of links given a random priority; the gate fails on it
      const strategy = join(study, 'strategies/topic-words.ts');
      const good = readFileSync(strategy, 'utf8');
      writeFileSync(strategy, broken(good));
      expect(run('npm', ['run', 'candidate'], study).status).toBe(0);
      const caught = run('npm', ['run', 'gate'], study);
      expect(caught.status, caught.out + caught.err).toBe(1);
      expect(caught.out).toMatch(/\| topic-words \| recall \|.*\*\*REGRESSION\*\*/);
      writeFileSync(strategy, good);
      // the study as a lab pushes it, on another machine: moved, no node_modules, and the tarball
      // it was made from gone; its workflow's steps as the job runs them
      const moved = join(mkdtempSync(join(tmpdir(), 'harness-study-')), 'my-study');
      const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
      cpSync(study, moved, { recursive: true, filter: (f) => !/[\\/](node_modules|candidate)$/.test(f) });
      renameSync(join(dir, tarball), join(dir, `${tarball}.gone`));
      try {
        for (const step of [['ci'], ['run', 'candidate'], ['run', 'gate']]) {
          const r = run('npm', [...step, '--prefer-offline', '--no-audit', '--no-fund'], moved);
          expect(r.status, `npm ${step.join(' ')}: ${r.out}${r.err}`).toBe(0);
        }
      } finally {
        renameSync(join(dir, `${tarball}.gone`), join(dir, tarball));
        rmSync(dirname(moved), { recursive: true, force: true });
      }
      // a folder that is not empty is refused, in one line
      const again = run('npx', ['crawler-harness', 'init', 'my-study']);
      expect(again.status).toBe(2);
      expect(again.err.trim().split('\n')).toHaveLength(1);
    },
    scaled(600_000),
  );
});

/** The starter strategy broken on purpose: 30% of its links given a random priority (seeded: runs repeat). */
function broken(source: string): string {
  const out = source
    .replace(
      'return {',
      'let x = (context.seed ?? 1) * 2654435761;\n  const random = (): number => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 4294967296;\n  return {',
    )
    .replace(
      'const words = linkWords(l);',
      'if (random() < 0.3) return random();\n        const words = linkWords(l);',
    );
  expect(out).not.toBe(source);
  return out;
}
