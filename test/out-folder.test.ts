/**
 * Output folders (issue #68 item 2 and 4, lib/out-folder.ts): one run at a time per folder, a
 * crawl not replaced unless asked, the INCOMPLETE marker the run's own, and a full disk during a
 * crawl ending in one line, a summary that says so and a folder --resume continues.
 */
import { scaled } from './speed.ts';
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BfsStrategy, CrawlEngine } from '../crawler/index.ts';
import { HarnessError } from '../lib/errors.ts';
import { LOCK_FILE, lockFolder } from '../lib/out-folder.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { niced, programArgs } from './helpers.ts';
import { html, type LocalServer, localServer } from './local-server.ts';

const root = mkdtempSync(join(tmpdir(), 'out-folder-'));
const fail = (m: string): Error => new Error(m);

/** A chain of 30 pages, each answered after `delayMs`: a crawl of it lasts a while. */
let server: LocalServer;
const delay = { ms: 0 };
beforeAll(async () => {
  server = await localServer((req, res) => {
    const n = Number((req.url ?? '').split('/').pop()) || 0;
    setTimeout(() => html(res, n < 30 ? `<a href="/p/${n + 1}">next</a>` : 'end'), delay.ms);
  });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const settings = () => ({
  startUrls: ['http://a.test/p/0'],
  resolve: [`*.test=127.0.0.1:${server.port}`],
  delayMs: 0,
  autoThrottle: false,
  retryBaseMs: 5,
});
const crawl = (outDir: string, o: { resume?: boolean; force?: boolean } = {}) =>
  CrawlEngine.create({ settings: settings(), strategy: new BfsStrategy(), outDir, ...o }).run();
const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof HarnessError ? e.code : String(e);
  }
  return undefined;
};

describe('the folder lock', () => {
  let sleeper: ChildProcess;
  beforeAll(() => {
    sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
  });
  afterAll(() => {
    sleeper.kill();
  });

  it('refuses a folder a live process holds, naming it; takes over one whose process is gone', () => {
    const dir = join(root, 'held');
    mkdirSync(dir);
    const holder = (pid: number) =>
      writeFileSync(
        join(dir, LOCK_FILE),
        JSON.stringify({ pid, host: hostname(), started: 'then', command: 'crawl: x' }),
      );
    holder(sleeper.pid!);
    expect(() => lockFolder(dir, 'crawl', fail, fail)).toThrow(new RegExp(`in use by process ${sleeper.pid} `));
    // a pid no process has (above the kernel's pid_max)
    holder(2 ** 30);
    const release = lockFolder(dir, 'crawl', fail, fail);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    // this process may take it again (a command, then its engine); it goes with the last release
    const again = lockFolder(dir, 'crawl', fail, fail);
    again();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    // a torn lock file (its writer killed mid-write) is stale too
    writeFileSync(join(dir, LOCK_FILE), '{"pid": 12');
    lockFolder(dir, 'crawl', fail, fail)();
  });

  it('a folder that cannot be made is one line, whatever the file system (issue #68)', () => {
    // Node's recursive mkdir never returns on /proc and calls a read-only parent ENOENT; this does neither
    expect(() => lockFolder('/proc/self/nope/out', 'crawl', fail, fail)).toThrow(/^the folder cannot be created: /);
    expect(() => lockFolder('/dev/null/out', 'crawl', fail, fail)).toThrow(
      /a file on the path is not a folder \(ENOTDIR/,
    );
  });

  it('every command that writes checks its output the same way: one line, exit 2, nothing left behind (issue #84)', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    const cases: [string, string[], RegExp][] = [
      [
        'experiments/cli/init.ts',
        [file],
        /^error: cannot write the project under .*a-file: a file stands where the folder was to be$/,
      ],
      [
        'experiments/cli/init.ts',
        [join(file, 'sub')],
        /^error: cannot write the project under .*a-file\/sub: .*not a folder \(ENOTDIR/,
      ],
      [
        'sim/cli/truth.ts',
        ['--web', 'data/webs/small.json', '--out', join(file, 'x.csv')],
        /^error: cannot write .*x\.csv: .*a-file: a file stands/,
      ],
      [
        'sim/cli/truth.ts',
        ['--web', 'data/webs/small.json', '--out', root],
        /^error: cannot write .*: a folder stands where the file was to be written$/,
      ],
      [
        'sim/cli/warc-convert.ts',
        ['--dir', root, '--out', join(file, 'a.warc.gz'), '--labels', join(root, 'l.csv')],
        /^error: cannot write .*a\.warc\.gz: .*a file stands/,
      ],
      [
        'experiments/cli/fit.ts',
        ['webkb-papers', '--out', root],
        /^error: cannot write .*: a folder stands where the file was to be written$/,
      ],
      [
        'experiments/cli/crawl.ts',
        ['--web', 'data/webs/small.json', '--max-pages', '5', '--out', file],
        /^error: cannot write the crawl under .*a-file: a file stands where the folder was to be$/,
      ],
      [
        'experiments/cli/experiment.ts',
        ['focused', '--quick', '--out', file],
        /^error: cannot write the results under .*a-file: a file stands where the folder was to be$/,
      ],
      [
        'experiments/cli/experiment.ts',
        ['focused', '--quick', '--out', join(file, 'sub')],
        /^error: cannot write the results under .*a-file\/sub: .*not a folder \(ENOTDIR/,
      ],
    ];
    for (const [program, args, want] of cases) {
      const r = await runCliInProcess(program, args);
      expect({ program, args, code: r.code, lines: r.stderr.trim().split('\n').length }).toEqual({
        program,
        args,
        code: 2,
        lines: 1,
      });
      expect(r.stderr.trim()).toMatch(want);
    }
    // a file written whole: no temporary file beside it
    const { writeOutputFile } = await import('../lib/out-folder.ts');
    writeOutputFile(join(root, 'deep', 'er', 'out.csv'), 'a,b\n');
    expect(readFileSync(join(root, 'deep', 'er', 'out.csv'), 'utf8')).toBe('a,b\n');
    expect(readdirSync(join(root, 'deep', 'er'))).toEqual(['out.csv']);
  });

  it('an experiment on a folder another process holds is refused with exit 2, its files untouched', async () => {
    const dir = join(root, 'experiment');
    mkdirSync(dir);
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: sleeper.pid, host: hostname(), started: 'then', command: 'x' }),
    );
    writeFileSync(join(dir, 'INCOMPLETE'), 'theirs\n');
    const r = await runCliInProcess('experiments/cli/experiment.ts', ['focused', '--quick', '--out', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: ${dir} is in use by process ${sleeper.pid} `));
    expect(readFileSync(join(dir, 'INCOMPLETE'), 'utf8')).toBe('theirs\n');
  });
});

describe('a crawl folder', () => {
  it('is not shared by two engines, nor replaced without --resume or --force', async () => {
    const dir = join(root, 'crawl');
    const first = CrawlEngine.create({ settings: settings(), strategy: new BfsStrategy(), outDir: dir });
    expect(existsSync(join(dir, 'INCOMPLETE'))).toBe(true);
    expect(codeOf(() => CrawlEngine.create({ settings: settings(), strategy: new BfsStrategy(), outDir: dir }))).toBe(
      'OUT_ERR_IN_USE',
    );
    const s = await first.run();
    expect(s.pages).toBe(31);
    expect(existsSync(join(dir, 'INCOMPLETE'))).toBe(false);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(codeOf(() => CrawlEngine.create({ settings: settings(), strategy: new BfsStrategy(), outDir: dir }))).toBe(
      'OUT_ERR_EXISTS',
    );
    const log = readFileSync(join(dir, 'crawl.jsonl'), 'utf8');
    // --force replaces it: one crawl's log, not two
    await crawl(dir, { force: true });
    expect(readFileSync(join(dir, 'crawl.jsonl'), 'utf8').split('\n').length).toBe(log.split('\n').length);
  });

  it('a full disk: the crawl stops with one line naming the folder, INCOMPLETE stays, --resume finishes it', async () => {
    const dir = join(root, 'full');
    mkdirSync(dir);
    // every write to the crawl log fails as on a full disk
    symlinkSync('/dev/full', join(dir, 'crawl.jsonl'));
    const s = await crawl(dir);
    expect(s.stopped).toBe('write error');
    expect(s.writeError).toMatch(new RegExp(`^cannot write the crawl under ${dir}: no space left on the device`));
    expect(s.writeError).toMatch(/--resume/);
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).stopped).toBe('write error');
    expect(existsSync(join(dir, 'INCOMPLETE'))).toBe(true);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    // space freed: the crawl goes on from its journal and ends whole
    rmSync(join(dir, 'crawl.jsonl'));
    const again = await crawl(dir, { resume: true });
    expect(again.stopped).toBeUndefined();
    expect(existsSync(join(dir, 'INCOMPLETE'))).toBe(false);
    const urls = readFileSync(join(dir, 'crawl.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).url as string);
    expect(urls.filter((u) => u.includes('/p/')).length).toBe(31);
  });

  it(
    'two crawl commands on one --out: the second exits 2 naming the first, whose log stays whole',
    async () => {
      delay.ms = 60;
      const dir = join(root, 'two');
      const args = ['--start', 'http://a.test/p/0', '--resolve', `*.test=127.0.0.1:${server.port}`, '--out', dir];
      const first = niced(
        spawn(process.execPath, programArgs(['experiments/cli/crawl.ts', ...args, '--delay-ms', '0', '--quiet']), {
          stdio: ['ignore', 'ignore', 'pipe'],
        }),
      );
      let firstErr = '';
      first.stderr!.on('data', (b: Buffer) => {
        firstErr += b.toString();
      });
      const ended = new Promise<number | null>((r) => first.on('exit', r));
      while (!existsSync(join(dir, 'crawl-settings.json'))) await new Promise((r) => setTimeout(r, 20));
      const second = await runCliInProcess('experiments/cli/crawl.ts', [...args, '--quiet']);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(new RegExp(`^error: ${dir} is in use by process ${first.pid} `));
      expect(await ended, firstErr).toBe(0);
      delay.ms = 0;
      const lines = readFileSync(join(dir, 'crawl.jsonl'), 'utf8').trim().split('\n');
      expect(lines.map((l) => JSON.parse(l).url)).toContain('http://a.test/p/30');
      expect(existsSync(join(dir, 'INCOMPLETE'))).toBe(false);
    },
    scaled(60_000),
  );
});
