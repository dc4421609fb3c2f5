/**
 * The crawl engine without timing: deterministic mode, checkpoint and resume (SIGKILL of a real
 * child process, a stop half-way), the crawl CLI. Politeness as the server measures it is in
 * crawler.politeness.timing.test.ts (a timing-sensitive file).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { BfsStrategy, CrawlEngine, RandomStrategy, type LogEntry } from '../crawler/index.ts';
import { loadConfig } from '../sim/config.ts';
import { SimServer } from '../sim/server.ts';
import { Web } from '../sim/web.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { DIST_HOSTS, finiteWeb, program } from './helpers.ts';

let server: SimServer;
const tmp = (): string => mkdtempSync(join(tmpdir(), 'crawl-'));
const readLog = (dir: string): LogEntry[] =>
  readFileSync(join(dir, 'crawl.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogEntry);

// small.json with its faults, its 503s asking for Retry-After 0: the crawls here are deterministic,
// their logs timing-free, and one-second holds made up most of their time
beforeAll(async () => {
  const small = loadConfig('data/webs/small.json');
  server = await SimServer.start(new Web({ ...small, faults: { ...small.faults, retryAfterSec: 0 } }, 1));
});
afterAll(async () => server.close());

describe('deterministic mode', () => {
  const settings = {
    startUrls: ['http://cs.gamma-university.test/', 'http://cs.beta-university.test/'],
    maxPages: 400,
    concurrency: 8,
    perHostConcurrency: 4,
    delayMs: 0,
    autoThrottle: false,
    deterministic: true,
    retryBaseMs: 1,
  };
  it('gives the same fetch order and the same log whatever the timing', async () => {
    const logs: string[] = [];
    for (const dir of [tmp(), tmp()]) {
      server.reset();
      const e = CrawlEngine.create({
        settings: { ...settings, resolve: [`*.test=127.0.0.1:${server.port}`] },
        strategy: new RandomStrategy(3),
        outDir: dir,
      });
      await e.run();
      logs.push(readFileSync(join(dir, 'crawl.jsonl'), 'utf8'));
    }
    expect(logs[0].split('\n').length).toBeGreaterThan(400);
    expect(logs[1]).toBe(logs[0]);
  });
});

describe('checkpoint and resume', () => {
  // journalFlushMs 0 writes the journal after every event-loop turn: a kill costs only the pages in
  // flight. The default writes it every 25 ms: a kill also costs the pages of the last 25 ms, and
  // loses no URL either
  it.each([
    { flushMs: 0, refetchedAtMost: 4 },
    { flushMs: 25, refetchedAtMost: 100 },
  ])(
    'a crawl killed with SIGKILL resumes without losing a URL (journal every $flushMs ms)',
    async ({ flushMs, refetchedAtMost }) => {
      // a quiet web (no transient 5xx): with faults, half the time went to waiting out Retry-After
      // holds, which this test is not about (the golden logs cover retries); a site of 300 pages
      // whose robots.txt blocks its calendar trap, crawled three times (whole, killed, resumed)
      const quiet = await SimServer.start(new Web(finiteWeb(), 1), { faults: false });
      onTestFinished(() => quiet.close());
      const common = [
        '--start',
        `http://${DIST_HOSTS[0]}/`,
        '--resolve',
        `*.test=127.0.0.1:${quiet.port}`,
        '--max-pages',
        '100000',
        '--delay-ms',
        '0',
        '--no-autothrottle',
        '--per-host',
        '4',
        '--concurrency',
        '4',
        '--quiet',
        '--deterministic',
        '--journal-flush-ms',
        String(flushMs),
      ];
      // reference: the whole site, uninterrupted
      const ref = tmp();
      // the whole crawl and the resumed one run in this process (test/cli-inprocess.ts), the killed one as a child
      expect((await runCliInProcess('experiments/cli/crawl.ts', [...common, '--out', ref])).code).toBe(0);
      const refUrls = new Set(readLog(ref).map((e) => e.url));
      expect(refUrls.size).toBeGreaterThan(250);
      // killed part-way
      const dir = tmp();
      const child = spawn(process.execPath, [...program('experiments/cli/crawl.ts'), ...common, '--out', dir], {
        stdio: 'ignore',
      });
      await new Promise<void>((resolve) => {
        const t = setInterval(() => {
          if (
            existsSync(join(dir, 'crawl.jsonl')) &&
            readFileSync(join(dir, 'crawl.jsonl'), 'utf8').split('\n').length > 100
          ) {
            clearInterval(t);
            child.kill('SIGKILL');
            resolve();
          }
        }, 5);
      });
      await new Promise((r) => child.once('exit', r));
      const before = readLog(dir).length;
      expect(before).toBeLessThan(refUrls.size);
      expect((await runCliInProcess('experiments/cli/crawl.ts', ['--resume', dir, '--quiet'])).code).toBe(0);
      const log = readLog(dir);
      const urls = log.map((e) => e.url);
      expect(new Set(urls)).toEqual(refUrls);
      const refetched = urls.length - new Set(urls).size;
      // at most the requests in flight at the kill (and, with a flush interval, the pages of its last interval)
      expect(refetched).toBeLessThanOrEqual(refetchedAtMost);
    },
  );
});

describe('resume keeps the counters (#17 item 7)', () => {
  it('a crawl stopped half-way and resumed has the summary of the uninterrupted crawl', async () => {
    const settings = {
      startUrls: ['http://cs.beta-university.test/'],
      resolve: [`*.test=127.0.0.1:${server.port}`],
      concurrency: 4,
      perHostConcurrency: 4,
      delayMs: 0,
      autoThrottle: false,
      deterministic: true,
      retryBaseMs: 1,
      checkpointEvery: 50,
    };
    const whole = tmp();
    server.reset();
    const wholeEngine = CrawlEngine.create({
      settings: { ...settings, maxPages: 600 },
      strategy: new BfsStrategy(),
      outDir: whole,
    });
    const a = await wholeEngine.run();
    // parent URLs are kept only while queued URLs refer to them, not one per page fetched
    const kept = (wholeEngine as unknown as { parents: { size: number } }).parents.size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(a.pages / 2);
    const part = tmp();
    server.reset();
    await CrawlEngine.create({
      settings: { ...settings, maxPages: 300 },
      strategy: new BfsStrategy(),
      outDir: part,
    }).run();
    // a SIGKILL while the next page's links were being journalled (issue #38, item 8): its links are
    // in frontier.log, its own log line is not. On resume the page is fetched again and finds them
    // again: they must not count as duplicates (a page of a million links read 633,136 more)
    // (the first page after the 300th that has links: a document has none)
    const wholeLog = readFileSync(join(whole, 'crawl.jsonl'), 'utf8').split('\n');
    const frontierLines = readFileSync(join(whole, 'frontier.log'), 'utf8').split('\n');
    let torn: string[] = [];
    for (let i = 300; i < wholeLog.length - 1 && torn.length === 0; i++) {
      const next = JSON.parse(wholeLog[i]) as { seq: number };
      torn = frontierLines.filter((l) => l.split('\t')[4] === String(next.seq));
    }
    expect(torn.length).toBeGreaterThan(0);
    appendFileSync(join(part, 'frontier.log'), `${torn.join('\n')}\n`);
    const b = await CrawlEngine.create({
      settings: { maxPages: 600 },
      strategy: new BfsStrategy(),
      outDir: part,
      resume: true,
    }).run();
    expect(readFileSync(join(part, 'crawl.jsonl'), 'utf8')).toBe(readFileSync(join(whole, 'crawl.jsonl'), 'utf8'));
    // timing, and the robots.txt requests a resumed crawl really makes again, differ
    const counters = (s: typeof a): Partial<typeof a> => {
      const { elapsedMs: _e, pagesPerSec: _p, robotsFetches: _r, strategy: _s, ...rest } = s;
      return rest;
    };
    expect(counters(b)).toEqual(counters(a));
    expect(a.errors.HTTP_404).toBeGreaterThan(0);
    expect(a.duplicates).toBeGreaterThan(0);
    expect(a.outOfScope.host).toBeGreaterThan(0);
  });
});

describe('crawl CLI', () => {
  it('bad flags and URLs give one line and exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--start', 'not a url'], /^error: --start: "not a url" is not an absolute URL\n$/],
      [
        ['--seed', 'http://a.test/'],
        /^error: --seed: "http:\/\/a\.test\/" is a URL; start URLs are given with --start/,
      ],
      [['--start', 'http://a.test/', '--max-pages=-3'], /^error: --max-pages: "-3" must be a whole number >= 1\n$/],
      [['--start', 'http://a.test/', '--strategy', 'psychic'], /^error: --strategy: "psychic" is not one of/],
      [
        ['--start', 'http://a.test/', '--resolve', 'nonsense'],
        /^error: --resolve: "nonsense" is not HOST:PORT:ADDRESS/,
      ],
      [['--bogus'], /^error: Unknown option '--bogus' \(see --help\)\n$/],
      [[], /^error: give at least one --start URL/],
      [['--resume', '/nonexistent/dir'], /^error: \/nonexistent\/dir: no crawl-settings\.json, nothing to resume\n$/],
      // refused before the web is served or a model trained: the one line is the refusal, with no
      // "synthetic web ... on 127.0.0.1" or "training on" before it
      [
        ['--web', 'data/webs/small.json', '--strategy', 'adaptive-rescue', '--processes', '2', '--assignment', 'nope'],
        /^error: --assignment: "nope" is not one of/,
      ],
      [
        ['--web', 'data/webs/small.json', '--processes', '2', '--warc', 'x.warc'],
        /^error: --warc is not supported in distributed crawls yet\n$/,
      ],
      [
        ['--start', 'http://a.test/', '--strategy', 'adaptive-rescue', '--processes', '2'],
        /^error: --strategy adaptive-rescue learns from labelled sites: give --web or --replay/,
      ],
      [
        ['--web', 'data/webs/small.json', '--strategy', 'future', '--site', 'nowhere.test'],
        /^error: --site: "nowhere.test" is not one of the sites: cs\.alpha-university\.test/,
      ],
    ];
    // in this process (test/cli-inprocess.ts); experiment.cli.test.ts runs the crawl CLI's usage
    // error as a real process
    for (const [args, re] of cases) {
      const r = await runCliInProcess('experiments/cli/crawl.ts', ['--quiet', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(re);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('--help documents every option', async () => {
    const { code, stdout } = await runCliInProcess('experiments/cli/crawl.ts', ['--help']);
    expect(code).toBe(0);
    for (const opt of [
      '--start',
      '--seed',
      '--strategy',
      '--max-pages',
      '--out',
      '--resume',
      '--resolve',
      '--scope',
      '--web',
      '--deterministic',
      '--per-host',
      '--delay-ms',
    ])
      expect(stdout).toContain(opt);
  });
});
