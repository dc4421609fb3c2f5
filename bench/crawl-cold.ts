/**
 * bench:crawl's first comparison (issue #86): the crawl command as users run it against the
 * minimal loop, each cold in a fresh process. The command: what `npm run crawl` starts (bin/run.js
 * crawl: dist/ when it is the sources built, as bench:crawl makes sure, else the sources through
 * tsx) with its default outputs (crawl.jsonl, the journal, summary.json) into a scratch folder; the
 * loop: bench/minimal-loop.ts (through tsx; its clock starts after it loaded). Each round runs both, the order alternating between
 * rounds; pages per second by each process's own clock (the command's summary.json, the loop's
 * line), and each process's wall time from spawn to exit (start-up and loading included) beside it.
 * The rounds pooled: the geometric mean of the rounds' ratios with a 95% t interval.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { meanCi } from '../experiments/intervals.ts';

/** What a cold run crawls (bench/crawl.ts Scenario's fields it reads). */
export interface ColdScenario {
  name: string;
  startUrls: string[];
  /** The hosts in scope as one pattern: a host or "*.suffix". */
  scopePattern: string;
  pages: number;
  concurrency: number;
}

interface ColdRun {
  pages: number;
  /** By the process's own clock: from its first request. */
  seconds: number;
  /** From spawn to exit. */
  wallSeconds: number;
}

/** Runs node with `args` in a fresh process; its stdout and its wall time. */
function runNode(args: string[]): Promise<{ out: string; wallSeconds: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    child.on('exit', (code) =>
      code === 0
        ? resolve({ out, wallSeconds: (performance.now() - t0) / 1000 })
        : reject(new Error(`${args[0]} exited ${code}: ${err.split('\n')[0]}`)),
    );
  });
}

/** The crawl command, as `npm run crawl -- ...` runs it, BFS, faults off on the server. */
async function crawlCommand(port: number, sc: ColdScenario): Promise<ColdRun> {
  const out = mkdtempSync(join(tmpdir(), 'bench-crawl-cold-'));
  try {
    const r = await runNode([
      'bin/run.js',
      'crawl',
      ...sc.startUrls.flatMap((u) => ['--start', u]),
      '--scope',
      sc.scopePattern,
      '--resolve',
      `*.test=127.0.0.1:${port}`,
      '--max-pages',
      String(sc.pages),
      '--concurrency',
      String(sc.concurrency),
      '--per-host',
      '8',
      '--delay-ms',
      '0',
      '--no-autothrottle',
      '--quiet',
      '--out',
      out,
    ]);
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { pages: number; elapsedMs: number };
    return { pages: s.pages, seconds: s.elapsedMs / 1000, wallSeconds: r.wallSeconds };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function loopProcess(port: number, sc: ColdScenario): Promise<ColdRun> {
  const r = await runNode([
    '--import',
    'tsx',
    'bench/minimal-loop.ts',
    String(port),
    String(sc.pages),
    String(sc.concurrency),
    sc.scopePattern,
    ...sc.startUrls,
  ]);
  const m = JSON.parse(r.out.trim().split('\n').pop()!) as { pages: number; seconds: number };
  return { pages: m.pages, seconds: m.seconds, wallSeconds: r.wallSeconds };
}

const rate = (r: ColdRun): number => r.pages / r.seconds;

/** Issue #86's target for the cold command: the pooled ratio, and the lower end of its interval. */
const COLD_TARGET = 0.9;
const COLD_FLOOR = 0.85;

/** `rounds` cold rounds of a scenario: the table rows and the pooled line. */
export async function coldRounds(
  port: number,
  sc: ColdScenario,
  rounds: number,
  log: (line: string) => void,
): Promise<{ rows: string[]; line: string }> {
  const rows: string[] = [];
  const logs: number[] = [];
  // one loop run unmeasured first: the server renders each page on its first request and serves
  // it from its cache after, so without it the first round's first side met a colder server (one
  // host on 2026-12-07: the loop's 4,600 pages/s against 7,400-7,800 in the other rounds)
  await loopProcess(port, sc);
  for (let r = 1; r <= rounds; r++) {
    const order = r % 2 ? (['loop', 'command'] as const) : (['command', 'loop'] as const);
    const got: Partial<Record<'loop' | 'command', ColdRun>> = {};
    for (const who of order) got[who] = who === 'loop' ? await loopProcess(port, sc) : await crawlCommand(port, sc);
    const { loop, command } = got as Record<'loop' | 'command', ColdRun>;
    const ratio = rate(command) / rate(loop);
    logs.push(Math.log(ratio));
    const row =
      `| ${r} | ${sc.name} | ${order.join(', ')} | ${Math.round(rate(loop))} | ${Math.round(rate(command))} | ` +
      `${loop.wallSeconds.toFixed(1)} | ${command.wallSeconds.toFixed(1)} | ${ratio.toFixed(2)} |`;
    rows.push(row);
    log(
      `  cold round ${r}, ${sc.name}: loop ${Math.round(rate(loop))} pages/s (${loop.wallSeconds.toFixed(1)} s in all), ` +
        `crawl command ${Math.round(rate(command))} pages/s (${command.wallSeconds.toFixed(1)} s in all): ${ratio.toFixed(2)}`,
    );
  }
  const c = meanCi(logs);
  const met = Math.exp(c.mean) >= COLD_TARGET && Math.exp(c.lo) >= COLD_FLOOR;
  const line =
    `${sc.name}, cold (each side a fresh process, ${rounds} rounds): crawl command / minimal loop ` +
    `${Math.exp(c.mean).toFixed(2)} [${Math.exp(c.lo).toFixed(2)}, ${Math.exp(c.hi).toFixed(2)}] ` +
    "(geometric mean of the rounds, 95% t interval; pages/s by each process's own clock): " +
    `${met ? 'met' : 'not met'} (target >= ${COLD_TARGET} with the interval's lower end >= ${COLD_FLOOR})`;
  return { rows, line };
}
