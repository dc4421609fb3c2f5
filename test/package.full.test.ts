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
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    'init writes a starter project that installs, runs as written, and passes its own gate',
    () => {
      // after the first test: the package is installed in dir, from the tarball
      const init = run('npx', ['crawler-harness', 'init', 'my-study']);
      expect(init.status, init.err).toBe(0);
      const study = join(dir, 'my-study');
      const pkg = JSON.parse(readFileSync(join(study, 'package.json'), 'utf8'));
      // the new project names the harness as this one does: the tarball, by an absolute path
      expect(pkg.dependencies['crawler-harness']).toMatch(/^file:\/.*crawler-harness-.*\.tgz$/);
      const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], study);
      expect(install.status, install.err).toBe(0);
      const experiment = run('npm', ['run', 'experiment'], study);
      expect(experiment.status, experiment.err).toBe(0);
      const report = readFileSync(join(study, 'results/study/report.md'), 'utf8');
      // the plug-in ran beside the built-ins, three seeds: bands drawn
      expect(report).toMatch(/\| topic-words \|/);
      expect(report).toContain('95% Student t interval over 3 web seeds');
      // what made it names the plug-in's code too
      expect(report).toMatch(/Made by: .*module strategies\/topic-words\.ts [0-9a-f]{16},/);
      const program = run('npm', ['run', '-s', 'program'], study);
      expect(program.status, program.err).toBe(0);
      expect(program.out).toMatch(/^topic-words +recall AUC 0\.\d{3} over 4 runs$/m);
      // the CI job's steps, the reference first: the gate passes on itself
      for (const step of ['reference', 'experiment:quick', 'gate']) {
        const r = run('npm', ['run', step], study);
        expect(r.status, `${step}: ${r.out}${r.err}`).toBe(0);
        if (step === 'gate') expect(r.out).toMatch(/No regression beyond 0\.02/);
      }
      const job = readFileSync(join(study, '.github/workflows/gate.yml'), 'utf8');
      for (const step of ['npm ci', 'npm run experiment:quick', 'npm run gate']) expect(job).toContain(`run: ${step}`);
      // a folder that is not empty is refused, in one line
      const again = run('npx', ['crawler-harness', 'init', 'my-study']);
      expect(again.status).toBe(2);
      expect(again.err.trim().split('\n')).toHaveLength(1);
    },
    scaled(300_000),
  );
});
