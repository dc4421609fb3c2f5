/**
 * One experiment job: on the web of one seed, crawl one department with every strategy of the
 * config (deterministic mode, same budget) and measure recall and precision against ground
 * truth every `every` pages. Runs inside a worker process (see runner.ts); the web, its
 * server and the training data are reused across the jobs of one seed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CrawlEngine } from '../crawler/index.ts';
import { loadKeywords } from '../crawler/focused/topic.ts';
import { loadConfig } from '../sim/config.ts';
import { SimServer } from '../sim/server.ts';
import { GroundTruth } from '../sim/truth.ts';
import { Web } from '../sim/web.ts';
import type { ExperimentConfig } from './config.ts';
import { makeStrategy } from './strategies.ts';
import { TrainingData, type TrainedModels } from './training.ts';

export interface CurveRow { experiment: string; strategy: string; site: string; seed: number; pages: number; recall: number; precision: number }
export interface SummaryRow {
  experiment: string; strategy: string; site: string; seed: number; pages: number; relevant_found: number; relevant_total: number;
  recall: number; precision: number; pages_per_relevant: number; requests: number; audit_disallowed: number; audit_max_concurrent: number;
  links_scored: number; discarded: number; retrainings: number; r1: number | null; r2: number | null;
}
export interface JobResult { curves: CurveRow[]; summaries: SummaryRow[]; timings: { strategy: string; ms: number }[]; modelCached: boolean | null }

interface SeedState { seed: number; web: Web; server: SimServer; truth: GroundTruth; training: TrainingData; hosts: string[] }
let current: SeedState | null = null;
let keywords: string[] | null = null;

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

async function seedState(cfg: ExperimentConfig, seed: number): Promise<SeedState> {
  if (current && current.seed === seed) return current;
  if (current) await current.server.close();
  const web = new Web(loadConfig(cfg.web), seed);
  const server = await SimServer.start(web, { faults: cfg.faults });
  const hosts = web.sites.filter((s) => s.kind === 'department').map((s) => s.host);
  current = { seed, web, server, truth: new GroundTruth(web), training: new TrainingData(web, hosts, cfg.future), hosts };
  return current;
}

export async function closeSeedState(): Promise<void> {
  await current?.server.close();
  current = null;
}

export function experimentSites(cfg: ExperimentConfig): string[] | null {
  return cfg.sites.length ? cfg.sites : null;
}

export async function runJob(cfg: ExperimentConfig, seed: number, site: string, cacheDir: string | null): Promise<JobResult> {
  const st = await seedState(cfg, seed);
  keywords ??= loadKeywords();
  const webKey = createHash('sha256').update(readFileSync(cfg.web)).digest('hex').slice(0, 16) + `:${seed}`;
  const relevant = new Set(st.truth.relevantOf(site));
  let models: TrainedModels | null = null;
  const getModels = (): TrainedModels => (models ??= st.training.models(site, keywords!, cacheDir, webKey, cfg.adaptive.offlineSample));
  const result: JobResult = { curves: [], summaries: [], timings: [], modelCached: null };
  for (const name of cfg.strategies) {
    const strategy = makeStrategy(name, { seed, keywords, models: getModels, immediate: cfg.immediate, adaptive: cfg.adaptive, future: cfg.future });
    st.server.reset();
    const found = new Set<number>();
    let pages = 0;
    const rows: CurveRow[] = [];
    const point = (): void => {
      rows.push({ experiment: cfg.name, strategy: name, site, seed, pages, recall: r6(found.size / relevant.size), precision: r6(pages ? found.size / pages : 0) });
    };
    const engine = CrawlEngine.create({
      settings: {
        seeds: [`http://${site}/`], resolve: [`*.test=127.0.0.1:${st.server.port}`], maxPages: cfg.budget, deterministic: true,
        concurrency: cfg.crawl.concurrency, perHostConcurrency: cfg.crawl.perHostConcurrency, delayMs: cfg.crawl.delayMs,
        autoThrottle: false, retryBaseMs: 5, seed,
      },
      strategy,
      onLog: (e) => {
        pages++;
        if (e.status !== null && e.status >= 200 && e.status < 300) {
          const id = st.truth.idOf(e.url);
          if (id >= 0 && relevant.has(id)) found.add(id);
        }
        if (pages % cfg.every === 0) point();
      },
    });
    const t0 = performance.now();
    const s = await engine.run();
    result.timings.push({ strategy: name, ms: performance.now() - t0 });
    if (pages % cfg.every !== 0) point();
    // a crawl that ran out of links keeps its last values up to the budget
    const last = rows[rows.length - 1];
    for (let p = (Math.floor(pages / cfg.every) + 1) * cfg.every; p <= cfg.budget; p += cfg.every) rows.push({ ...last, pages: p });
    result.curves.push(...rows);
    const audit = st.server.audit()[site];
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
