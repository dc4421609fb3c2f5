/**
 * What the queue's test files share (test/queue.timing.full.test.ts, test/queue-identity.timing.full.test.ts):
 * a redis-server of a file's own, a tiny web, worker processes as `npm run worker` starts them, and
 * the rows a run gives, to compare a queued run with a local one.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type ExperimentConfig, loadExperiment } from '../experiments/focused/config.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { runSweep } from '../experiments/sweep/sweep.ts';
import { afterAll, beforeAll } from 'vitest';
import { niced } from './helpers.ts';
import { scaled } from './speed.ts';

export const hasRedis = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** This file's redis-server: started, killed, started again empty on the same port. */
export class PrivateRedis {
  proc: ChildProcess | null = null;
  constructor(
    readonly port: number,
    readonly extra: string[] = [],
  ) {}
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    this.proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...this.extra],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      const r = new Redis(this.port, '127.0.0.1', {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      let noauth = false;
      r.on('error', (e) => {
        noauth ||= /NOAUTH/.test(e.message);
      });
      try {
        await r.connect();
        await r.ping().catch((e: Error) => {
          if (!/NOAUTH/.test(e.message)) throw e;
        });
        return;
      } catch (e) {
        // a server with a password answers its ready check with NOAUTH: it is up
        if (noauth || /NOAUTH/.test((e as Error).message)) return;
        await new Promise((res) => setTimeout(res, 50));
      } finally {
        r.disconnect();
      }
    }
    throw new Error(`redis-server on ${this.port} did not start`);
  }
  async kill(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const gone = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await gone;
  }
}

/** A web of two small departments (a job takes well under a second), or of `pages` pages each. */
export function tinyWeb(pages?: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'queue-web-')), 'tiny.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: pages ? 'queue-bigger' : 'queue-tiny',
      departments: [
        { host: 'cs.alpha-university.test', name: 'Alpha', pages: pages ?? 300, groups: 3 },
        { host: 'cs.beta-university.test', name: 'Beta', pages: pages ?? 250, groups: 3 },
      ],
      background: { sites: 4 },
    }),
  );
  return file;
}

let web = '';
/** The web cfg() names (a test file's beforeAll sets it: tinyWeb()). */
export const useWeb = (file: string): void => {
  web = file;
};
export function cfg(over: Partial<ExperimentConfig> = {}): ExperimentConfig {
  const base = loadExperiment('focused', { quick: true });
  return {
    ...base,
    name: 'queue-test',
    web,
    seeds: [1],
    strategies: ['bfs'],
    strategyParams: {},
    budget: 40,
    every: 10,
    sites: ['cs.alpha-university.test', 'cs.beta-university.test'],
    sweep: {},
    ...over,
  };
}

/** One site, whose first page holds the event loop for blockMs (test/fixtures/queue/blocking.ts). */
export const blockingCfg = (blockMs: number, over: Partial<ExperimentConfig> = {}): ExperimentConfig =>
  cfg({
    strategies: ['blocking'],
    strategyParams: { blocking: { module: 'test/fixtures/queue/blocking.ts', params: { blockMs } } },
    sites: ['cs.alpha-university.test'],
    ...over,
  });
const localRows = new Map<string, Promise<string>>();
/** The rows of a local run of c (in this process), once per config. */
export const local = (c: ExperimentConfig): Promise<string> => {
  const k = JSON.stringify(c);
  if (!localRows.has(k)) localRows.set(k, rows(c, { workers: 0, cacheDir: null }));
  return localRows.get(k)!;
};

const workers: ChildProcess[] = [];
/** A worker process as npm run worker starts it; `log` collects its lines. */
export function worker(
  url: string,
  log: string[],
  { lockMs = 5000, cwd = process.cwd(), env = {} as Record<string, string>, extra = [] as string[] } = {},
): ChildProcess {
  const w = niced(
    spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(cwd, 'experiments/cli/worker.ts'),
        '--queue',
        url,
        '--no-cache',
        '--lock-ms',
        String(lockMs),
        ...extra,
      ],
      { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
    ),
  );
  w.stderr!.on('data', (b: Buffer) => log.push(...b.toString().split('\n').filter(Boolean)));
  workers.push(w);
  return w;
}
export const exited = (w: ChildProcess): Promise<number | null> =>
  w.exitCode !== null ? Promise.resolve(w.exitCode) : new Promise((r) => w.once('exit', (code) => r(code)));
/** Kills the workers the test started (each file: afterEach(killWorkers)). */
export function killWorkers(): void {
  for (const w of workers.splice(0)) w.kill('SIGKILL');
}

export const starts = (logs: string[][]): string[] => logs.flat().filter((l) => / start /.test(l));
/** How many times each job (seed x site x experiment name) started. */
export function startsPerJob(logs: string[][]): number[] {
  const n = new Map<string, number>();
  for (const l of starts(logs)) {
    const k = l.replace(/^\S+ start /, '');
    n.set(k, (n.get(k) ?? 0) + 1);
  }
  return [...n.values()];
}

/** A sweep's rows (what sweep.csv and phase.csv are written from), in order. */
export async function sweepTables(c: ExperimentConfig, run: Parameters<typeof runSweep>[2]): Promise<string> {
  const data = await runSweep(c, mkdtempSync(join(tmpdir(), 'queue-sweep-')), run);
  return JSON.stringify(data.points.map((p) => [p.values, p.curves, p.summaries]));
}

/** The CSV-bound rows of an experiment's result, in order. */
export async function rows(c: ExperimentConfig, run: Parameters<typeof runExperiment>[1]): Promise<string> {
  const d = await runExperiment(c, run);
  return JSON.stringify([d.curves, d.summaries]);
}

/**
 * A describe block's own redis-server on a free port (started before its tests, killed after) and
 * the tiny web cfg() names; `fresh()` gives each test a queue of its own on it.
 */
export function privateRedisFor(prefix: string): { redis: PrivateRedis; fresh: () => string } {
  const redis = new PrivateRedis(0);
  let n = 0;
  beforeAll(async () => {
    if (!hasRedis) throw new Error('no redis-server: .ci/run must install it');
    (redis as { port: number }).port = await freePort();
    await redis.start();
    useWeb(tinyWeb());
  }, scaled(60_000));
  afterAll(() => redis.kill());
  return { redis, fresh: () => `${redis.url}?queue=${prefix}${++n}-${process.pid}` };
}

/** The processes whose parent is `pid` (Linux /proc). */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // stat: pid (comm) state ppid ...; comm may hold spaces, so read after its closing ")"
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** `fn` with a client of the Redis a queue URL names, and that queue's name; the client closed after. */
export async function withQueueRedis<T>(url: string, fn: (r: Redis, queue: string) => Promise<T>): Promise<T> {
  const { redisTarget } = await import('../experiments/queue/redis-connection.ts');
  const t = redisTarget(url);
  const r = new Redis(t.connection.port, t.connection.host);
  try {
    return await fn(r, t.queue);
  } finally {
    r.disconnect();
  }
}
