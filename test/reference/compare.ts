/**
 * The shipped focused crawlers beside the second implementation (test/reference/paper-crawlers.ts)
 * on the same generated web, seed and models: per department, each strategy's recall AUC from the
 * experiment runner (HTTP, the crawl engine) and from the reference (the site in memory, one page
 * at a time). The differential test runs it on a small web; `npm run check:reference` on any:
 *
 *   npm run check:reference -- [--web data/webs/paper.json] [--seed 1] [--budget 2000]
 *
 * The adaptive crawler runs in the literal reading (adaptive.scope "link", adaptive.tunnel
 * "subcrawl", the thresholds of rule "f1" fitted per link), the one the reference implements.
 */
import { parseArgs } from 'node:util';
import { thresholdsFor } from '../../crawler/focused/calibrate.ts';
import { MAX_THREADS } from '../../crawler/focused/adaptive-options.ts';
import { loadKeywords } from '../../crawler/focused/topic.ts';
import type { ExperimentConfig } from '../../experiments/focused/config.ts';
import { loadExperiment } from '../../experiments/focused/config.ts';
import { simEnv } from '../../experiments/focused/env.ts';
import { runExperiment } from '../../experiments/focused/runner.ts';
import { parseRobots } from '../../lib/robots-rules.ts';
import { loadConfig } from '../../sim/config.ts';
import { effectiveRobots } from '../../sim/robots-profiles.ts';
import {
  type Crawl,
  crawlAdaptive,
  crawlFuture,
  crawlImmediate,
  type MemorySite,
  type ReferenceOptions,
  recallAuc,
  type ServedPage,
  type Visit,
} from './paper-crawlers.ts';
import type { LinkClassifier } from '../../crawler/focused/nb.ts';
import type { QExample } from '../../crawler/focused/training-examples.ts';

export const STRATEGIES = ['immediate', 'future', 'adaptive'] as const;

/** The literal reading's settings, as an experiment config's "adaptive" section sets them. */
export const LITERAL = { scope: 'link', tunnel: 'subcrawl', thresholdRule: 'f1' } as const;

export interface Row {
  site: string;
  strategy: (typeof STRATEGIES)[number];
  shipped: number;
  reference: number;
}

/** What the reference's adaptive crawl of a site read and decided, and the model state it started from. */
export interface AdaptiveTrace {
  site: string;
  visits: Visit[];
  model: LinkClassifier;
  examples: readonly QExample[];
  options: ReferenceOptions;
  threadsOpened: number;
}

/** The experiment config both run: the given web, seed and budget, the three strategies, the literal reading. */
export function literalConfig(web: string, seed: number, budget: number): ExperimentConfig {
  const base = loadExperiment('focused');
  return {
    ...base,
    name: 'reference-check',
    web,
    seeds: [seed],
    budget,
    every: Math.max(1, Math.floor(budget / 40)),
    strategies: [...STRATEGIES],
    adaptive: { ...base.adaptive, ...LITERAL },
  };
}

/** Per department and strategy, the shipped crawler's recall AUC and the reference's. */
export async function compareWithReference(cfg: ExperimentConfig): Promise<{ rows: Row[]; traces: AdaptiveTrace[] }> {
  const seed = cfg.seeds[0];
  const shipped = await runExperiment(cfg, { workers: 0, cacheDir: null, replay: false });
  const env = await simEnv(cfg, seed);
  const web = loadConfig(cfg.web);
  const keywords = cfg.keywords ? loadKeywords(cfg.keywords) : loadKeywords();
  const rows: Row[] = [];
  const traces: AdaptiveTrace[] = [];
  try {
    for (const dept of web.departments) {
      const host = dept.host;
      const { site, relevant } = memorySite(env.training.labelled(host), host, dept.robots ?? 'standard');
      const a = cfg.adaptive;
      const m = env.training.models(host, keywords, null, env.cacheKey, a.offlineSample, false, a.sourceWeight);
      const t = thresholdsFor(m.calibration, a.thresholdRule, 'link');
      const o: ReferenceOptions = {
        budget: cfg.budget,
        sourceWeight: a.sourceWeight,
        r1: a.r1 ?? t.r1,
        r2: a.r2 ?? t.r2,
        retrainEvery: a.retrainEvery,
        topK: a.topK,
        gamma: cfg.future.gamma,
        horizon: cfg.future.horizon,
        offlineSample: a.offlineSample,
        threadPages: a.threadPages,
        maxThreads: MAX_THREADS,
      };
      const adaptive = crawlAdaptive(site, keywords, m.future, m.examples, o);
      traces.push({
        site: host,
        visits: adaptive.visits,
        model: m.future,
        examples: m.examples,
        options: o,
        threadsOpened: adaptive.threadsOpened,
      });
      const crawls: Record<Row['strategy'], Crawl> = {
        immediate: crawlImmediate(site, keywords, { ...o, sourceWeight: cfg.immediate.sourceWeight }),
        future: crawlFuture(site, keywords, m.future, cfg.budget),
        adaptive: adaptive.crawl,
      };
      for (const strategy of STRATEGIES) {
        const run = shipped.summaries.find((s) => s.site === host && s.strategy === strategy);
        rows.push({
          site: host,
          strategy,
          shipped: run ? run.recall_auc : Number.NaN,
          reference: recallAuc(crawls[strategy], relevant, cfg.budget),
        });
      }
    }
  } finally {
    await env.close();
  }
  return { rows, traces };
}

type Labelled = ReturnType<Awaited<ReturnType<typeof simEnv>>['training']['labelled']>;

/**
 * A department in memory, as the simulated server answers (sim/server.ts): its pages as a crawler
 * parses them, "/old/..." redirected to the path without it, a home directory without its slash
 * redirected to it, any other path nothing; in scope its host, less what its robots.txt disallows.
 */
function memorySite(
  pages: Labelled,
  host: string,
  robots: Parameters<typeof effectiveRobots>[0],
): {
  site: MemorySite;
  relevant: Set<string>;
} {
  const byPath = new Map<string, ServedPage>();
  const relevant = new Set<string>();
  for (const p of pages) {
    const u = new URL(p.url);
    const q = p.page;
    // read field by field: a parsed page keeps its text behind a getter, which a spread would lose
    byPath.set(u.pathname, {
      url: p.url,
      status: 200,
      contentType: q.kind === 'html' ? 'text/html' : `application/${q.kind}`,
      kind: q.kind,
      title: q.title,
      headings: q.headings,
      text: q.text,
      words: q.words,
      links: q.links.filter((l) => !l.nofollow),
    });
    if (p.relevant) relevant.add(p.url);
  }
  const rules = parseRobots(`http://${host}/robots.txt`, effectiveRobots(robots).body);
  const site: MemorySite = {
    start: `http://${host}/`,
    allowed: (url) => {
      try {
        return new URL(url).hostname === host && rules.isAllowed(url) !== false;
      } catch {
        return false;
      }
    },
    page: (url) => {
      const u = new URL(url);
      const path = decodeURIComponent(u.pathname);
      if (path.startsWith('/old/')) return { redirect: `http://${host}${path.slice(4)}${u.search}` };
      if (/\/~?[a-z]+\d+$/.test(path) && byPath.has(`${path}/`)) return { redirect: `http://${host}${path}/` };
      const p = byPath.get(path);
      return p ? { ...p, url } : undefined;
    },
  };
  return { site, relevant };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      web: { type: 'string', default: 'data/webs/paper.json' },
      seed: { type: 'string', default: '1' },
      budget: { type: 'string', default: '2000' },
      concurrency: { type: 'string' },
    },
  });
  const cfg = literalConfig(values.web!, Number(values.seed), Number(values.budget));
  // one request at a time, as the reference crawls: what the engine's concurrency adds to a difference
  if (values.concurrency) cfg.crawl = { ...cfg.crawl, concurrency: Number(values.concurrency) };
  const { rows } = await compareWithReference(cfg);
  console.log(
    `web ${values.web}, seed ${values.seed}, ${values.budget} requests, shipped at concurrency ${cfg.crawl.concurrency}; ` +
      `adaptive: ${JSON.stringify(LITERAL)}`,
  );
  console.log('site                          strategy   shipped  reference  difference');
  const num = (x: number, w: number): string => x.toFixed(3).padStart(w);
  for (const r of rows)
    console.log(
      `${r.site.padEnd(30)}${r.strategy.padEnd(11)}${num(r.shipped, 7)}  ${num(r.reference, 9)}  ` +
        num(r.shipped - r.reference, 10),
    );
  for (const s of STRATEGIES) {
    const xs = rows.filter((r) => r.strategy === s);
    const mean = (f: (r: Row) => number): number => xs.reduce((a, r) => a + f(r), 0) / xs.length;
    console.log(
      `mean ${s.padEnd(10)} shipped ${mean((r) => r.shipped).toFixed(3)}, reference ${mean((r) => r.reference).toFixed(3)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
