/**
 * Every built-in strategy held to the contract its descriptor declares (issue #54 item 5), as
 * scikit-learn's check_estimator holds every estimator: its parameters' defaults lie in their
 * declared ranges and values outside them are refused; two crawls of one site from fresh
 * instances fetch the same pages in the same order; stats() reports only the counters the
 * descriptor declares, as finite numbers; a crawl stopped half-way and resumed fetches no page
 * twice and spends the same budget. A new built-in is found by the registry and checked here
 * with nothing to add. One small generated web, its models trained once, one request at a time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlEngine, type Strategy } from '../crawler/index.ts';
import { RelevanceJudge } from '../crawler/focused/relevance.ts';
import { loadKeywords } from '../crawler/focused/topic.ts';
import { type ExperimentConfig, loadExperiment, relevanceOf } from '../experiments/focused/config.ts';
import { type Env, simEnv } from '../experiments/focused/env.ts';
import {
  makeStrategy,
  resolveParams,
  strategyDescriptor,
  strategyNames,
  strategyParams,
} from '../experiments/strategy-registry.ts';
import type { TrainedModels } from '../experiments/web-training.ts';
import { numberProblem } from '../lib/fields.ts';
import { scaledWeb, smallWebWithoutWaits } from './helpers.ts';
import { scaled } from './speed.ts';

const PAGES = 60;
let env: Env;
let cfg: ExperimentConfig;
let site: string;
let models: TrainedModels;
let judge: RelevanceJudge;
const keywords = loadKeywords();
const dirs: string[] = [];

beforeAll(async () => {
  cfg = { ...loadExperiment('focused', { quick: true }), web: scaledWeb(smallWebWithoutWaits(), 0.25), faults: false };
  env = await simEnv(cfg, 1);
  site = env.training.hosts[0];
  models = env.training.models(site, keywords, null, env.cacheKey, cfg.adaptive.offlineSample, true);
  judge = new RelevanceJudge(relevanceOf(cfg), models.pages);
}, scaled(120_000));
afterAll(async () => {
  await env?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const make = (name: string): Strategy =>
  makeStrategy(name, {
    seed: 1,
    keywords,
    models: () => models,
    judge: () => judge,
    immediate: cfg.immediate,
    adaptive: cfg.adaptive,
    future: cfg.future,
  });

/** The URLs a crawl of the site fetched, in order; with `dir`, journalled there (or resumed from it). */
async function crawl(strategy: Strategy, maxPages: number, dir?: string, resume = false): Promise<string[]> {
  env.reset();
  const urls: string[] = [];
  await CrawlEngine.create({
    settings: {
      startUrls: [env.startUrl(site)],
      resolve: [`*.test=127.0.0.1:${env.port}`],
      maxPages,
      deterministic: true,
      concurrency: 1,
      perHostConcurrency: 1,
      delayMs: 0,
      autoThrottle: false,
      seed: 1,
    },
    strategy,
    ...(dir ? { outDir: dir, resume } : {}),
    onLog: (e) => {
      if (e.status !== null) urls.push(e.url);
    },
  }).run();
  return urls;
}

describe('every built-in strategy keeps its declared contract', () => {
  it('the registry finds the built-ins', () => {
    expect(strategyNames().length).toBeGreaterThanOrEqual(14);
  });

  for (const name of strategyNames()) {
    it(
      `${name}: parameters in range, deterministic, declared counters, a resume losing and repeating nothing`,
      async () => {
        const d = strategyDescriptor(name)!;
        expect(d.summary.length, 'a summary line').toBeGreaterThan(0);
        for (const [k, p] of Object.entries(strategyParams(name))) {
          const range = { max: Infinity, ...p };
          expect(numberProblem(range, p.default), `${k}'s default`).toBeNull();
          expect(p.help.length, `${k}'s help`).toBeGreaterThan(0);
          expect(() => resolveParams(name, { [k]: p.min - 1 }), `${k} below its range`).toThrow(/must be/);
          if (p.integer) expect(() => resolveParams(name, { [k]: p.default + 0.5 })).toThrow(/whole number/);
        }

        const first = make(name);
        const a = await crawl(first, PAGES);
        const b = await crawl(make(name), PAGES);
        expect(a.length, 'pages fetched').toBeGreaterThan(PAGES / 2);
        expect(b, 'the same order from a fresh instance').toEqual(a);

        const declared = Object.keys(d.counters ?? {});
        const stats = first.stats?.() ?? {};
        for (const [k, v] of Object.entries(stats)) {
          expect(declared, `counter ${k} declared`).toContain(k);
          expect(Number.isFinite(v) && v >= 0, `counter ${k} = ${v}`).toBe(true);
        }
        if (declared.length) expect(Object.keys(stats).sort()).toEqual([...declared].sort());

        const dir = mkdtempSync(join(tmpdir(), `conformance-${name}-`));
        dirs.push(dir);
        const part1 = await crawl(make(name), PAGES / 2, dir);
        const part2 = await crawl(make(name), PAGES, dir, true);
        const both = [...part1, ...part2];
        expect(new Set(both).size, 'no page fetched twice across the resume').toBe(both.length);
        expect(both.length, 'the budget spent as without the stop').toBe(a.length);
      },
      scaled(60_000),
    );
  }
});
