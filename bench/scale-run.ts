/**
 * One focused comparison at one web size, measured (issue #55): npm run bench:scale runs it at
 * 10^4, 10^5 and 10^6 pages, each size in a process of its own (peak memory is the process's),
 * and test/scale.full.test.ts at 10^3 and 10^4.
 *
 * The web: two departments of 47.5% of the pages each (a strategy that trains does so on the
 * other one, as in every experiment) and background sites of 20-80 pages making the rest; research
 * groups one per 2,500 department pages (4 to 200: the paper's departments have 6-8 in 5,000-7,000
 * pages). The comparison: bfs, immediate, future, adaptive and the oracle, web seed 1, both
 * departments, a budget of 10% of the web per run (the condition), 8 requests in flight,
 * in this process one job after another, so the CPU time of a phase is the crawl's and the
 * server's together (the server runs in this process).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadExperiment } from '../experiments/focused/config.ts';
import { type Caches, simEnv } from '../experiments/focused/env.ts';
import { oracleOrder } from '../experiments/focused/oracle.ts';
import { runExperiment, writeResults } from '../experiments/focused/runner.ts';

export const SCALE_STRATEGIES = ['bfs', 'immediate', 'future', 'adaptive'] as const;

export interface ScaleResult {
  pages: number;
  budget: number;
  /** Seconds in each phase, summed over the two jobs (environment: generating and serving the web, once). */
  phases: Record<'environment' | 'facts' | 'training' | 'crawl' | 'oracle' | 'outputs', number>;
  /** CPU microseconds per page fetched, per strategy (crawl phases), and the oracle's per page of budget. */
  cpuPerPage: Record<string, number>;
  /** Pages each strategy fetched over both departments. */
  crawled: Record<string, number>;
  /**
   * The share of each strategy's responses it parsed itself, the rest found in the environment's
   * parse cache (parsed by training or by a strategy before it): what a page costs depends on it.
   */
  parsedAnew: Record<string, number>;
  wallS: number;
  /** Peak resident memory of this process, MB. */
  peakMb: number;
}

/** The web config of a size. */
export function scaleWeb(pages: number): Record<string, unknown> {
  const dept = Math.round(pages * 0.475);
  const groups = Math.max(4, Math.min(200, Math.round(dept / 2500)));
  return {
    name: `scale-${pages}`,
    _doc: `npm run bench:scale: a web of about ${pages} pages (bench/scale-run.ts)`,
    departments: [
      { host: 'cs.alpha-university.test', name: 'Alpha University', pages: dept, groups },
      { host: 'cs.beta-university.test', name: 'Beta University', pages: dept, groups },
    ],
    background: { sites: Math.max(4, Math.round((pages * 0.05) / 50)), pagesMin: 20, pagesMax: 80 },
  };
}

/**
 * Runs the comparison on a web of about `pages` pages and measures it. With `queue`, its jobs go
 * through the Redis queue (workers started by the caller); with `out`, the outputs are kept there.
 */
export async function measureScale(
  pages: number,
  o: { queue?: string; out?: string; strategies?: readonly string[]; caches?: Caches } = {},
): Promise<ScaleResult> {
  const dir = mkdtempSync(join(tmpdir(), `scale-${pages}-`));
  try {
    const web = join(dir, 'web.json');
    writeFileSync(web, JSON.stringify(scaleWeb(pages)));
    const budget = Math.round(pages / 10);
    const cfg = {
      ...loadExperiment('focused'),
      name: `scale-${pages}`,
      web,
      seeds: [1],
      strategies: [...(o.strategies ?? SCALE_STRATEGIES)],
      budget,
      every: Math.max(1, Math.round(budget / 20)),
      crawl: { ...loadExperiment('focused').crawl, concurrency: 8, perHostConcurrency: 8, delayMs: 0 },
    };
    const t0 = performance.now();
    const data = await runExperiment(
      cfg,
      o.queue ? { queue: o.queue, cacheDir: null } : { workers: 0, cacheDir: null, caches: o.caches },
    );
    const t1 = performance.now();
    await writeResults(data, o.out ?? join(dir, 'out'));
    const outputs = (performance.now() - t1) / 1000;
    const phases = { environment: 0, facts: 0, training: 0, crawl: 0, oracle: 0, outputs };
    const cpu: Record<string, number> = {};
    const crawled: Record<string, number> = {};
    const anew: Record<string, number> = {};
    for (const p of data.phases ?? []) {
      if (p.parsedAnew !== undefined) anew[p.strategy] = (anew[p.strategy] ?? 0) + p.parsedAnew;
      phases[p.phase] += p.ms / 1000;
      if (p.phase === 'crawl' || p.phase === 'oracle') {
        cpu[p.strategy] = (cpu[p.strategy] ?? 0) + p.cpuMs;
        crawled[p.strategy] = (crawled[p.strategy] ?? 0) + p.pages;
      }
    }
    return {
      pages,
      budget,
      phases,
      cpuPerPage: Object.fromEntries(Object.keys(cpu).map((s) => [s, (cpu[s] * 1000) / Math.max(1, crawled[s])])),
      crawled,
      parsedAnew: Object.fromEntries(Object.keys(anew).map((s) => [s, anew[s] / Math.max(1, crawled[s])])),
      wallS: (performance.now() - t0) / 1000,
      peakMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The oracle's CPU microseconds per page of budget on each department of a web of about `pages`
 * pages, its search alone, the least of `repeats` runs: the oracle's whole phase at 10^4 pages is
 * a few tens of milliseconds, within what a collection of the crawls' garbage on another thread adds
 * to the process's CPU time; the least of several runs is the search's own cost.
 */
export async function measureOracle(pages: number, repeats = 5): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), `oracle-${pages}-`));
  const web = join(dir, 'web.json');
  writeFileSync(web, JSON.stringify(scaleWeb(pages)));
  const budget = Math.round(pages / 10);
  const env = await simEnv({ ...loadExperiment('focused'), web, budget }, 1);
  try {
    const graphs = (scaleWeb(pages).departments as { host: string }[]).map((d) => env.graphOf(d.host).graph);
    let least = Number.POSITIVE_INFINITY;
    for (let r = 0; r < repeats; r++) {
      const t = process.cpuUsage();
      for (const g of graphs) oracleOrder(g, budget);
      const u = process.cpuUsage(t);
      least = Math.min(least, (u.user + u.system) / (graphs.length * budget));
    }
    return least;
  } finally {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
