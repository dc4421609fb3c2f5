import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ARCHIVE_DEFAULTS,
  DEFAULT_EXPERIMENT,
  ExperimentConfigError,
  listExperiments,
  loadExperiment,
} from '../experiments/focused/config.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { program, smallWebWithoutWaits } from './helpers.ts';

const run = promisify(execFile);

describe('experiment CLI and configs', () => {
  it('lists the experiments', async () => {
    const { stdout } = await runCliInProcess('experiments/cli/experiment.ts', ['--list']);
    for (const n of listExperiments()) expect(stdout).toContain(n);
    expect(stdout).toContain('focused');
  });

  it('--help lists every field of a config with its default, read from the one declaration', async () => {
    const { stdout } = await runCliInProcess('experiments/cli/experiment.ts', ['--help']);
    const leaves = (o: Record<string, unknown>, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v &&
        typeof v === 'object' &&
        !Array.isArray(v) &&
        ['crawl', 'future', 'adaptive', 'immediate', 'target'].includes(k)
          ? leaves(v as Record<string, unknown>, `${prefix}${k}.`)
          : [`${prefix}${k}`],
      );
    const paths = [...leaves(DEFAULT_EXPERIMENT), ...Object.keys(ARCHIVE_DEFAULTS).map((k) => `archive.${k}`)];
    for (const p of [...paths, 'archive.warc', 'archive.labels']) expect(stdout).toMatch(new RegExp(`\\n  ${p} +\\S`));
    expect(stdout).toMatch(/\n {2}archive\.holes +"closed" +/);
    expect(stdout).toMatch(/\n {2}budgetCounts +"requests" +/);
  });

  it('bad names and options: one line, exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['nonexistent'], /^error: unknown experiment "nonexistent"; known: .*focused.*\n$/],
      [['--seeds', '0'], /^error: --seeds: "0" must be a whole number from 1 to 100\n$/],
      [['--workers', 'many'], /^error: --workers: "many" must be a whole number from 0 to 64\n$/],
      [['--seeds', '-2'], /^error: --seeds: "-2" must be a whole number from 1 to 100\n$/],
      [['--frobnicate'], /^error: Unknown option '--frobnicate' \(see --help\)\n$/],
      [['a', 'b'], /^error: one experiment at a time, got a b\n$/],
      [['twin-validation'], /^error: twin-validation: name one experiment config\n$/],
      [
        ['twin-validation', 'focused', '--queue', 'redis://127.0.0.1:1'],
        /^error: --queue: twin-validation does not use it \(it takes --workers, --no-cache, --cpu-prof\)\n$/,
      ],
      [['twin-validation', 'focused'], /^error: twin-validation: focused is not an archive experiment/],
      [['--set', 'budget'], /^error: --set: "budget": expected PATH=VALUE with a dotted field path/],
      [['--set', 'budgte=60'], /^error: focused: budgte: unknown field \(did you mean budget\?\)\n$/],
      [['--set', 'budget=-1'], /^error: focused: budget: /],
      [['--set', 'budget.x=1'], /^error: --set: "budget.x=1": budget is not a section of fields/],
      // through the prototype: dropped without a word, or every object of the process given a field
      [['--set', '__proto__=1'], /^error: --set: "__proto__=1": "__proto__" is not a field name\n$/],
      [['--set', '__proto__.budget=1'], /^error: --set: "__proto__.budget=1": "__proto__" is not a field name\n$/],
      [['--set', 'crawl.constructor=1'], /^error: --set: "crawl.constructor=1": "constructor" is not a field name\n$/],
      // a run flag the family would ignore is refused, not silently dropped
      [
        ['deepweb', '--queue', 'redis://127.0.0.1:6379/0'],
        /^error: --queue: a deepweb experiment does not use it \(it takes --workers, --cpu-prof\)\n$/,
      ],
      [['deepweb', '--no-cache'], /^error: --no-cache: a deepweb experiment does not use it/],
      [['deepweb', '--no-replay'], /^error: --no-replay: a deepweb experiment does not use it/],
      [['sweep-structure', '--no-replay'], /^error: --no-replay: a sweep experiment does not use it/],
      [
        ['distributed', '--workers', '2'],
        /^error: --workers: a distributed experiment does not use it \(it runs in this process and trains nothing\)\n$/,
      ],
      [['--cpu-prof', 'prof', '--workers', '0'], /^error: --cpu-prof profiles the job processes, and --workers 0 runs/],
      [['--cpu-prof', 'prof', '--queue', 'redis://127.0.0.1:1'], /^error: --cpu-prof profiles this command's job/],
      [['--cpu-prof', 'package.json'], /^error: --cpu-prof: package\.json is a file, not a directory\n$/],
      [['distributed', '--cpu-prof', 'prof'], /^error: --cpu-prof: a distributed experiment does not use it/],
    ];
    // in this process (test/cli-inprocess.ts); the broken-module test below runs the experiment
    // CLI's error as a real process
    const fit: [string[], RegExp][] = [
      [['focused'], /^error: focused: not an archive experiment .*sim:fit fits a twin to an archive\n$/],
      [
        ['webkb-papers', '--hold-out', 'mit'],
        /^error: --hold-out: "mit" is not a site of webkb-papers \(cornell, texas, washington, wisconsin\)\n$/,
      ],
      [['webkb-papers', '--budget', '2'], /^error: --budget: "2" must be a whole number from 4 to 10000\n$/],
      [[], /^error: name one archive experiment config \(see --help\)\n$/],
      [
        ['--warc', 'data/webkb/webkb.warc.gz', '--labels', 'data/webkb/labels.csv'],
        /^error: say what is relevant: --relevant LABEL\[,...\] or --papers\n$/,
      ],
      [['--warc', 'nope.warc.gz', '--labels', 'x.csv', '--papers'], /^error: nope\.warc\.gz: no such file\n$/],
      [
        ['webkb-papers', '--warc', 'a.warc.gz', '--labels', 'b.csv'],
        /^error: give --warc and --labels, or a config, not both\n$/,
      ],
      [
        ['webkb-papers', '--collection', 'crawl'],
        /^error: --collection goes with --warc \(a config says "archive.collection"\)\n$/,
      ],
      [
        ['--warc', 'a.warc.gz', '--labels', 'b.csv', '--papers', '--collection', 'all'],
        /^error: --collection: "all" is not one of pages, crawl\n$/,
      ],
    ];
    for (const [args, re] of fit) {
      const r = await runCliInProcess('experiments/cli/fit.ts', args);
      expect(r.code, `sim:fit ${args.join(' ')}`).toBe(2);
      expect(r.stderr, `sim:fit ${args.join(' ')}`).toMatch(re);
    }
    for (const [args, re] of cases) {
      const r = await runCliInProcess('experiments/cli/experiment.ts', args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(re);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  // a real process: the crawl CLI's usage error ends it with exit code 2 and this one line
  it('a negative number gets the option\'s range message, not "ambiguous"', async () => {
    const err = await run(process.execPath, [
      ...program('experiments/cli/crawl.ts'),
      '--start',
      'http://a.test/',
      '--max-pages',
      '-5',
    ]).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(2);
    expect(err?.stderr).toBe('error: --max-pages: "-5" must be a whole number >= 1\n');
  });

  it('SIGTERM to `npm run sim` stops the server too (npm does not pass the signal on)', async () => {
    const npm = spawn('npm', ['run', 'sim', '--', '--web', 'data/webs/small.json', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    const port = await new Promise<number>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no port in: ${out}`)), 30_000);
      const check = (): void => {
        const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
        if (m) {
          clearTimeout(t);
          resolve(Number(m[1]));
        }
      };
      npm.stdout!.on('data', check);
    });
    const alive = (): Promise<boolean> =>
      new Promise((resolve) => {
        const c = connect(port, '127.0.0.1', () => {
          c.destroy();
          resolve(true);
        });
        c.on('error', () => resolve(false));
      });
    expect(await alive()).toBe(true);
    npm.kill('SIGTERM');
    // the server polls for its parent every 500 ms; a loaded machine (this suite runs files in
    // parallel) can take a few more to let it notice and close: up to 15 s
    let up = true;
    for (let i = 0; i < 150 && up; i++) {
      await new Promise((r) => setTimeout(r, 100));
      up = await alive();
    }
    expect(up).toBe(false);
  });

  it('validates config files and applies --quick and --seeds', () => {
    const q = loadExperiment('focused', { quick: true });
    expect(q.web).toBe('data/webs/small.json');
    expect(q.seeds).toEqual([1]);
    expect(loadExperiment('focused', { seeds: 3 }).seeds).toEqual([1, 2, 3]);
    expect(() => loadExperiment('../etc/passwd')).toThrow(ExperimentConfigError);
    // fields are checked by the schema (ExperimentSchema), nested ones included
    const dir = mkdtempSync(join(tmpdir(), 'exp-num-'));
    const cases: [object, string][] = [
      [{ crawl: { concurrency: 0 } }, 'crawl.concurrency: expected a whole number from 1 to 10,000, got 0'],
      [{ adaptive: { r1: 1.5 } }, 'adaptive.r1: expected a number from 0 to 1 (or null), got 1.5'],
      [{ future: { gamma: 1 } }, 'future.gamma: expected a number between 0 and 1, got 1'],
      [{ budget: 100, every: 200 }, 'every: expected a whole number from 1 to budget (100), got 200'],
    ];
    for (const [body, msg] of cases) {
      const f = join(dir, 'n.json');
      writeFileSync(f, JSON.stringify(body));
      expect(() => loadExperiment(f)).toThrow(`n: ${msg}`);
    }
  });

  it('strategies with parameters and modules in a config; bad ones are refused with one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-'));
    const write = (name: string, body: object): string => {
      const f = join(dir, `${name}.json`);
      writeFileSync(f, JSON.stringify(body));
      return f;
    };
    const c = loadExperiment(
      write('ok', {
        strategies: [
          'bfs',
          { name: 'best-n-first', params: { n: 64 } },
          { name: 'mine', module: 'examples/strategies/depth-best-first.ts', params: { decay: 0.5 } },
        ],
        reference: 'bfs',
      }),
    );
    expect(c.strategies).toEqual(['bfs', 'best-n-first', 'mine']);
    expect(c.strategyParams).toEqual({
      'best-n-first': { params: { n: 64 } },
      mine: { module: 'examples/strategies/depth-best-first.ts', params: { decay: 0.5 } },
    });
    const bad: [object, RegExp][] = [
      [{ strategies: [{ name: 'best-n-first', params: { m: 2 } }] }, /parameter "m" is not one of n/],
      [{ strategies: [{ name: 'mine', module: 'nope/missing.ts' }] }, /module "nope\/missing.ts": no such file/],
      [
        { strategies: [{ name: 'bfs', module: 'examples/strategies/depth-best-first.ts' }] },
        /"bfs" is a built-in strategy/,
      ],
      [{ strategies: ['mystery'] }, /"mystery" is not one of .*or give \{ "name": "mystery", "module"/],
      [{ strategies: [{ name: 'x', modul: 'a.ts' }] }, /strategies\[0\]\.modul: unknown field/],
      [{ strategies: ['bfs', 'bfs'] }, /appears twice/],
    ];
    for (const [body, re] of bad) expect(() => loadExperiment(write('bad', body))).toThrow(re);
  });

  it('an experiment or a crawl with a broken strategy module exits 2 with one line; the example module crawls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-'));
    const mod = join(dir, 'broken.ts');
    writeFileSync(mod, 'export default 5;\n');
    const cfg = join(dir, 'plugin.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        web: 'data/webs/small.json',
        seeds: [1],
        budget: 50,
        every: 10,
        strategies: ['bfs', { name: 'broken', module: mod }],
        reference: 'bfs',
      }),
    );
    // both CLIs refuse the module before any web or worker starts: in this process (fail()'s exit
    // code 2 as a real process is the negative-number test's; as one, this refusal cost 4 CPU-s
    // of node, tsx and the experiment's imports)
    const exp = await runCliInProcess('experiments/cli/experiment.ts', [cfg, '--out', join(dir, 'out')]);
    expect(exp.code).toBe(2);
    expect(exp.stderr).toMatch(
      /^error: plugin: strategy module .*broken\.ts: its default export must be a factory \(context\) => Strategy, got number$/m,
    );
    expect(exp.stderr.match(/^error:/gm)).toHaveLength(1);
    const crawl = await runCliInProcess('experiments/cli/crawl.ts', [
      '--web',
      'data/webs/small.json',
      '--strategy',
      mod,
      '--out',
      join(dir, 'c'),
    ]);
    expect(crawl.code).toBe(2);
    expect(crawl.stderr).toMatch(/^error: --strategy: strategy module .*must be a factory.*\n$/);
    expect(crawl.stderr.match(/^error:/gm)).toHaveLength(1);
    const out = join(dir, 'example');
    const web = smallWebWithoutWaits();
    // a crawl that runs to its end: in this process (test/cli-inprocess.ts)
    const example = await runCliInProcess('experiments/cli/crawl.ts', [
      '--web',
      web,
      '--strategy',
      'examples/strategies/depth-best-first.ts',
      '--param',
      'decay=0.5',
      '--max-pages',
      '100',
      '--delay-ms',
      '0',
      '--out',
      out,
      '--quiet',
    ]);
    expect(example.code, example.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      pages: number;
      strategy: { linksScored: number };
    };
    expect(summary.pages).toBe(100);
    expect(summary.strategy.linksScored).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(out, 'crawl-settings.json'), 'utf8')).strategy).toBe('depth-best-first');
  });
});
