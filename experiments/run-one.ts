/**
 * One experiment job: on the web of one seed (or the replayed archive), crawl one site with every
 * strategy of the config (deterministic mode, same budget) and measure recall and precision
 * against ground truth every `every` pages. Runs inside a worker process (see runner.ts); the
 * environment (server, ground truth, training data) is reused across the jobs of one seed.
 */
import { CrawlEngine } from '../crawler/index.ts';
import { loadKeywords } from '../crawler/focused/topic.ts';
import type { ExperimentConfig } from './config.ts';
import { archiveEnv, simEnv, type Env } from './env.ts';
import { makeStrategy } from './strategies.ts';
import type { TrainedModels } from './training.ts';

export interface CurveRow { experiment: string; strategy: string; site: string; seed: number; pages: number; recall: number; precision: number }
export interface SummaryRow {
  experiment: string; strategy: string; site: string; seed: number; pages: number; relevant_found: number; relevant_total: number;
  recall: number; precision: number; pages_per_relevant: number; requests: number; audit_disallowed: number; audit_max_concurrent: number;
  links_scored: number; discarded: number; retrainings: number; r1: number | null; r2: number | null;
}
export interface JobResult { curves: CurveRow[]; summaries: SummaryRow[]; timings: { strategy: string; ms: number }[]; modelCached: boolean | null }

let current: { key: string; env: Env } | null = null;
let keywords: string[] | null = null;

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The environment of a job: the seed's synthetic web, or the archive; reused across jobs. */
async function envFor(cfg: ExperimentConfig, seed: number): Promise<Env> {
  const key = cfg.archive ? `archive:${JSON.stringify(cfg.archive)}` : `sim:${cfg.web}:${seed}:${cfg.faults}`;
  if (current && current.key === key) return current.env;
  if (current) await current.env.close();
  current = { key, env: cfg.archive ? await archiveEnv(cfg) : await simEnv(cfg, seed) };
  return current.env;
}

export async function closeSeedState(): Promise<void> {
  await current?.env.close();
  current = null;
}

export async function runJob(cfg: ExperimentConfig, seed: number, site: string, cacheDir: string | null): Promise<JobResult> {
  const env = await envFor(cfg, seed);
  keywords ??= cfg.keywords ? loadKeywords(cfg.keywords) : loadKeywords();
  const relevant = env.relevant(site);
  let models: TrainedModels | null = null;
  const getModels = (): TrainedModels => (models ??= env.training.models(site, keywords!, cacheDir, env.cacheKey, cfg.adaptive.offlineSample));
  const result: JobResult = { curves: [], summaries: [], timings: [], modelCached: null };
  for (const name of cfg.strategies) {
    const strategy = makeStrategy(name, { seed, keywords, models: getModels, immediate: cfg.immediate, adaptive: cfg.adaptive, future: cfg.future });
    env.reset();
    const found = new Set<string>();
    let pages = 0;
    const rows: CurveRow[] = [];
    const point = (): void => {
      rows.push({ experiment: cfg.name, strategy: name, site, seed, pages, recall: r6(found.size / relevant.size), precision: r6(pages ? found.size / pages : 0) });
    };
    const engine = CrawlEngine.create({
      settings: {
        seeds: [env.startUrl(site)], scope: env.scopeOf(site), resolve: [`${cfg.archive ? '*' : '*.test'}=127.0.0.1:${env.port}`], maxPages: cfg.budget, deterministic: true,
        concurrency: cfg.crawl.concurrency, perHostConcurrency: cfg.crawl.perHostConcurrency, delayMs: cfg.crawl.delayMs,
        autoThrottle: false, retryBaseMs: 5, seed,
      },
      strategy,
      onLog: (e) => {
        pages++;
        if (e.status !== null && e.status >= 200 && e.status < 300) {
          const key = env.keyOf(e.url);
          if (key !== null && relevant.has(key)) found.add(key);
        }
        if (pages % cfg.every === 0) point();
      },
    });
    const t0 = performance.now();
    const s = await engine.run();
    result.timings.push({ strategy: name, ms: performance.now() - t0 });
    if (pages % cfg.every !== 0 || !rows.length) point();
    // a crawl that ran out of links keeps its last values up to the budget
    const last = rows[rows.length - 1];
    for (let p = (Math.floor(pages / cfg.every) + 1) * cfg.every; p <= cfg.budget; p += cfg.every) rows.push({ ...last, pages: p });
    result.curves.push(...rows);
    const hosts = env.scopeOf(site).length ? env.scopeOf(site) : [new URL(env.startUrl(site)).host];
    const audits = hosts.map((h) => env.audit()[h]).filter((x) => x !== undefined);
    const audit = audits.length ? { requests: audits.reduce((n, x) => n + x.requests, 0), disallowed: audits.reduce((n, x) => n + x.disallowed, 0), maxConcurrent: Math.max(...audits.map((x) => x.maxConcurrent)) } : undefined;
    const ss = s.strategy;
    result.summaries.push({
      experiment: cfg.name, strategy: name, site, seed, pages: s.pages, relevant_found: found.size, relevant_total: relevant.size,
      recall: r6(found.size / relevant.size), precision: r6(s.pages ? found.size / s.pages : 0),
      pages_per_relevant: r6(found.size ? s.pages / found.size : 0), requests: audit?.requests ?? 0,
      audit_disallowed: audit?.disallowed ?? 0, audit_max_concurrent: audit?.maxConcurrent ?? 0,
      links_scored: ss.linksScored ?? 0, discarded: s.discarded, retrainings: ss.retrainings ?? 0,
      r1: name === 'adaptive' ? cfg.adaptive.r1 ?? getModels().calibration.r1 : null, r2: name === 'adaptive' ? cfg.adaptive.r2 ?? getModels().calibration.r2 : null,
    });
    if (models) result.modelCached = (models as TrainedModels).cached;
  }
  return result;
}
