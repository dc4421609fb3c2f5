/** Shared test helpers: small webs, a server per test file, HTTP through the sim dispatcher. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, expect } from 'vitest';
import { BfsStrategy, CrawlEngine } from '../crawler/index.ts';
import { resolveConfig, type WebConfig } from '../sim/config.ts';
import { SimServer, type SimServerOptions } from '../sim/server.ts';
import { Web } from '../sim/web.ts';
import type { CurveRow } from '../experiments/focused/rows.ts';

/** A tiny web (two departments, a few background sites) with optional overrides. */
export function tinyConfig(over: Record<string, unknown> = {}): WebConfig {
  return resolveConfig({
    name: 'tiny',
    departments: [
      { host: 'cs.alpha-university.test', name: 'Alpha', pages: 600, groups: 3 },
      {
        host: 'cs.beta-university.test',
        name: 'Beta',
        pages: 500,
        groups: 3,
        robots: 'tricky',
        charset: 'iso-8859-1',
        sessionIds: true,
      },
    ],
    background: { sites: 12 },
    ...over,
  });
}

/** A web config file read, changed by `edit` and written to a fresh temporary folder as `name`. */
function webVariant(
  file: string,
  name: string,
  edit: (web: Record<string, unknown>) => Record<string, unknown>,
): string {
  const web = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const out = join(mkdtempSync(join(tmpdir(), 'web-variant-')), name);
  writeFileSync(out, JSON.stringify(edit(web)));
  return out;
}

/**
 * A file of small.json whose faults make no one wait: transient 503s ask for Retry-After 0 and
 * slow pages are not delayed. For crawls whose logs are timing-free (deterministic mode) or that
 * test nothing about waiting; one-second holds were most of their time.
 */
export const smallWebWithoutWaits = (structure: Record<string, unknown> = {}): string =>
  webVariant('data/webs/small.json', 'small.json', (web) => ({
    ...web,
    faults: { retryAfterSec: 0, slowMs: 0 },
    structure: { ...(web.structure as object | undefined), ...structure },
  }));

/**
 * A file of a shipped web at a fraction of its size: every department's pages scaled by `share`
 * (its groups kept, but at most one per 60 pages and at least two), `background` other sites; every
 * other setting as the file has it. For tests of what an experiment does with a web (resume, reuse,
 * workers, outputs), where the quick web's 5,500 pages only cost time: generating it and training on it.
 */
export const scaledWeb = (file: string, share: number, background = 6): string =>
  webVariant(file, `scaled-${share}.json`, (web) => ({
    ...web,
    departments: (web.departments as { pages: number; groups?: number }[]).map((d) => {
      const pages = Math.round(d.pages * share);
      return { ...d, pages, ...(d.groups ? { groups: Math.max(2, Math.min(d.groups, Math.floor(pages / 60))) } : {}) };
    }),
    background: { sites: background },
  }));

/** The two departments of the distributed-crawling tests. */
export const DIST_HOSTS = ['cs.alpha-university.test', 'cs.beta-university.test'];

/** Two departments whose robots.txt blocks the calendar trap: a finite web, so a full crawl's page set is defined. */
export const finiteWeb = (): WebConfig =>
  tinyConfig({
    departments: [
      { host: DIST_HOSTS[0], name: 'Alpha', pages: 300, groups: 3, robots: 'trap-blocked' },
      { host: DIST_HOSTS[1], name: 'Beta', pages: 250, groups: 3, robots: 'trap-blocked', sessionIds: true },
    ],
  });

export async function startWeb(
  config: WebConfig,
  seed = 1,
  opts: SimServerOptions = {},
): Promise<{ web: Web; server: SimServer; http: Dispatcher; close: () => Promise<void> }> {
  const web = new Web(config, seed);
  const server = await SimServer.start(web, opts);
  const http = server.dispatcher();
  return {
    web,
    server,
    http,
    close: async () => {
      await http.close();
      await server.close();
    },
  };
}

/** What every crawler of the distributed-crawling tests shares, against the web served at `port`. */
export const distributedSettings = (port: number) => ({
  startUrls: DIST_HOSTS.map((h) => `http://${h}/`),
  scope: DIST_HOSTS,
  resolve: [`*.test=127.0.0.1:${port}`],
  delayMs: 0,
  autoThrottle: false,
  concurrency: 4,
});

/**
 * The finite web served for a describe block (beforeAll/afterAll registered here), and the URLs
 * one BFS process fetches from it: what a distributed crawl must equal.
 */
export function useFiniteWeb(): {
  readonly port: number;
  readonly single: Set<string>;
  settings: () => ReturnType<typeof distributedSettings>;
} {
  let w: Awaited<ReturnType<typeof startWeb>>;
  const single = new Set<string>();
  beforeAll(async () => {
    w = await startWeb(finiteWeb(), 1, { faults: false });
    await CrawlEngine.create({
      settings: { ...distributedSettings(w.server.port), maxPages: 100_000 },
      strategy: new BfsStrategy(),
      dispatcher: w.http,
      onLog: (l) => single.add(l.url),
    }).run();
    expect(single.size).toBeGreaterThan(250);
  });
  afterAll(() => w.close());
  return {
    get port() {
      return w.server.port;
    },
    single,
    settings: () => distributedSettings(w.server.port),
  };
}

export async function get(
  http: Dispatcher,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; ms: number }> {
  const t0 = performance.now();
  const res = await request(url, { dispatcher: http, headers, maxRedirections: 0 } as Parameters<typeof request>[1]);
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, ms: performance.now() - t0 };
}

/** Rows of a CSV as the experiments write them (csv-stringify), read back with csv-parse. */
function parseCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

/**
 * A regression check against committed reference curves: the rows of nowFile must name the same
 * points (key columns) as refFile's, and each value column may move by at most tolerance.
 */
export function expectCurvesNear(
  refFile: string,
  nowFile: string,
  keys: string[],
  values: string[],
  tolerance: number,
  hint: string,
): void {
  const ref = parseCsv(readFileSync(refFile, 'utf8'));
  const now = parseCsv(readFileSync(nowFile, 'utf8'));
  expect(now.length).toBe(ref.length);
  const key = (row: Record<string, string>): string => keys.map((k) => row[k]).join(' ');
  const off: string[] = [];
  ref.forEach((r, i) => {
    expect(key(now[i])).toBe(key(r));
    for (const v of values)
      if (Math.abs(Number(now[i][v]) - Number(r[v])) > tolerance) off.push(`${key(r)} ${v}: ${r[v]} -> ${now[i][v]}`);
  });
  expect(off, `${hint}:\n${off.slice(0, 20).join('\n')}`).toEqual([]);
}

/** The Redis the Redis tests use (REDIS_URL; .ci/run starts one at the default). */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a redis-server answers at REDIS_URL. */
export async function redisUp(): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** A focused experiment config replaying a twin archive (experiments/twin/writer.ts), papers by URL as the target. */
export async function twinArchiveExperiment(
  w: { warc: string; labels: string; groups: Record<string, string[]>; starts: Record<string, string> },
  name: string,
) {
  const { twinExperiment } = await import('../experiments/twin/archive.ts');
  const { PAPER_EXTENSIONS } = await import('../lib/document-types.ts');
  return twinExperiment(w, name, { relevantDocuments: [...PAPER_EXTENSIONS], relevantLabels: [] });
}

/**
 * A process a timing file starts for CPU-bound work (a queue worker, a crawl CLI), at nice 10 as
 * main's files run (test/lower-priority.ts): beside it, other timing files measure gaps of tens of
 * milliseconds, which a busy process at their own priority stretches (a 98 ms delay seen in CI).
 */
export function niced<T extends { pid?: number }>(child: T): T {
  try {
    if (child.pid) setPriority(child.pid, 10);
  } catch {
    // refused (none known): the process runs at the default priority
  }
  return child;
}

/**
 * The node arguments that start one of the harness's programs (a path from the repository root,
 * "experiments/cli/crawl.ts"): its JavaScript built once for this run (test/build-dist.ts), else
 * the sources through tsx.
 */
export function program(file: string): string[] {
  const dist = process.env.HARNESS_TEST_DIST;
  return dist ? [join(dist, file.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', file];
}

/** program() for an argument list whose first element is the program. */
export const programArgs = ([file, ...rest]: string[]): string[] => [...program(file), ...rest];

/** Every file a focused experiment writes (experiments/focused/report.ts writeOutputs), sorted. */
export function focusedOutputFiles(): string[] {
  const figures = ['recall', 'precision', 'harvest', 'difference'].flatMap((f) =>
    ['svg', 'png', 'pdf'].map((e) => `fig-${f}.${e}`),
  );
  const tables = ['aggregates.csv', 'config.json', 'curves.csv', 'differences.csv', 'sites.csv', 'summary.csv'];
  return [...tables, 'report.md', 'index.html', 'replay.json', 'provenance.json', ...figures].sort();
}

/** A deterministic crawl of a web served on loopback, 200 pages, no gap: the WARC tests' crawls. */
export const LOOPBACK_CRAWL = {
  maxPages: 200,
  deterministic: true,
  concurrency: 4,
  perHostConcurrency: 4,
  delayMs: 0,
  autoThrottle: false,
} as const;

/**
 * The curve rows of a large run made up, not crawled (issue #70's scale tests): every strategy's
 * recall growing linearly to its level at the budget, the oracle well ahead and the others a tenth
 * apart in the order given, with a seed's noise of up to 4% (no two strategies' order flips).
 */
export function syntheticCurves(
  strategies: readonly string[],
  sites: readonly string[],
  seeds: number,
  budget: number,
  every: number,
): CurveRow[] {
  const rows: CurveRow[] = [];
  for (const [k, strategy] of strategies.entries())
    for (const site of sites)
      for (let seed = 1; seed <= seeds; seed++) {
        const noise = 1 + ((seed * 7 + k * 3) % 5) / 100;
        const base = strategy === 'oracle' ? 3 : (1 + k / 10) * noise;
        for (let pages = every; pages <= budget; pages += every) {
          const recall = ((pages / budget) * base) / 4;
          rows.push({
            experiment: 'big',
            strategy,
            site,
            seed,
            order: 1,
            pages,
            recall,
            recall_reachable: recall,
            precision: recall / 2,
            harvest: recall / 3,
          } as CurveRow);
        }
      }
  return rows;
}

/** --set flags of a small quick run: one department, 60 requests, these strategies. */
export const smallRun = (strategies: string[]): string[] => [
  '--set',
  'budget=60',
  '--set',
  'every=20',
  '--set',
  `strategies=${JSON.stringify(strategies)}`,
  '--set',
  'sites=["cs.alpha-university.test"]',
];
