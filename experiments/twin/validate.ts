/**
 * Is the twin like the archive where it matters: does it rank the strategies as the archive does?
 * (issue #36, `npm run experiment -- twin-validation CONFIG`).
 *
 * For every site of the archive experiment in turn: the twin is fitted to the other sites only
 * (experiments/twin/archive.ts fitToSites: the held-out site's statistics are never read), written
 * as an archive at each web seed (experiments/twin/writer.ts) and crawled by the same experiment
 * (strategies, budget, judgement, hole policy, target) as the archive. The twin's recall AUC of a
 * strategy for held-out site h is its mean over the twin's departments and seeds; the archive's is
 * that strategy's AUC on h. Per strategy: both means over the held-out sites with 95% t intervals,
 * the paired difference (twin - archive) and its interval: "agrees" when the interval contains 0
 * (with the difference these sites could have detected), "off" when it does not. Over strategies
 * (the oracle aside: first on both by construction): Kendall's tau between the two rankings of mean AUC, with its exact one-sided p (every
 * permutation of the strategies: the chance of a tau at least as large if the twin's ranking were
 * unrelated to the archive's).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../sim/config.ts';
import type { ExperimentConfig } from '../focused/config.ts';
import { archiveSites } from '../focused/env.ts';
import { runExperiment } from '../focused/runner.ts';
import { type Ci, detectable, meanCi } from '../stats.ts';
import { archiveViews, fitToSites, specOf } from './archive.ts';
import { type FitResult, fitTable } from './fit.ts';
import { writeTwinArchive } from './writer.ts';

export interface TwinValidationOptions {
  /** Generator evaluations per fit. */
  fitBudget: number;
  /** Web seeds of every twin. */
  seeds: readonly number[];
  /** Folder for the twins' archives and configs. */
  dir: string;
  workers?: number;
  cacheDir?: string | null;
  onProgress?: (step: string) => void;
}

export interface StrategyComparison {
  strategy: string;
  archive: Ci;
  twin: Ci;
  difference: Ci;
  detectable: number;
  verdict: 'agrees' | 'off';
}

export interface TwinValidation {
  config: ExperimentConfig;
  sites: string[];
  /** Per held-out site: the fit and its table. */
  fits: { site: string; fit: FitResult; table: ReturnType<typeof fitTable> }[];
  /** recall AUC per (strategy, site): the archive's and the twin's (mean over the twin's departments and seeds). */
  rows: { strategy: string; site: string; archive: number; twin: number }[];
  strategies: StrategyComparison[];
  tau: number;
  /** Exact one-sided p of tau (permutations of the strategies). */
  p: number;
  wallMs: number;
}

/** Kendall's tau-a of two paired lists. */
export function kendallTau(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  let pairs = 0;
  for (let i = 0; i < a.length; i++)
    for (let j = i + 1; j < a.length; j++) {
      s += Math.sign(a[i] - a[j]) * Math.sign(b[i] - b[j]);
      pairs++;
    }
  return pairs ? s / pairs : 0;
}

/** Share of the permutations of b whose tau with a is at least `tau` (exact; n up to 10). */
export function kendallExactP(a: readonly number[], b: readonly number[], tau: number): number {
  const n = b.length;
  if (n > 10) throw new Error(`exact p for ${n} items: at most 10`);
  const perm = [...b];
  let hits = 0;
  let total = 0;
  const walk = (k: number): void => {
    if (k === n) {
      total++;
      if (kendallTau(a, perm) >= tau - 1e-12) hits++;
      return;
    }
    for (let i = k; i < n; i++) {
      [perm[k], perm[i]] = [perm[i], perm[k]];
      walk(k + 1);
      [perm[k], perm[i]] = [perm[i], perm[k]];
    }
  };
  walk(0);
  return hits / total;
}

export async function runTwinValidation(cfg: ExperimentConfig, opts: TwinValidationOptions): Promise<TwinValidation> {
  const t0 = performance.now();
  const a = cfg.archive;
  if (!a)
    throw new Error(`${cfg.name}: twin validation compares an archive with its twin; this config has no "archive"`);
  mkdirSync(opts.dir, { recursive: true });
  const sites = archiveSites(cfg);
  if (sites.length < 3)
    throw new Error(
      `${cfg.name}: a twin validation needs three sites or more (fit on two, hold one out), got ${sites.length}`,
    );
  const spec = specOf(cfg);
  opts.onProgress?.('measuring the archive');
  const views = await archiveViews(cfg);
  opts.onProgress?.('crawling the archive');
  const real = await runExperiment(cfg, { workers: opts.workers, cacheDir: opts.cacheDir ?? null });
  const aucOf = (rows: typeof real.summaries, strategy: string, site?: string): number[] =>
    rows.filter((r) => r.strategy === strategy && (site === undefined || r.site === site)).map((r) => r.recall_auc);
  const strategies = [...cfg.strategies, 'oracle'];
  const fits: TwinValidation['fits'] = [];
  const rows: TwinValidation['rows'] = [];
  for (const site of sites) {
    opts.onProgress?.(`fitting the twin without ${site}`);
    const name = `${cfg.name}-twin-without-${site}`;
    const { fit } = fitToSites(name, views, site, spec, { budget: opts.fitBudget, seed: 1, checkSeeds: [1] });
    fits.push({ site, fit, table: fitTable(fit) });
    const twinRows: typeof real.summaries = [];
    for (const seed of opts.seeds) {
      opts.onProgress?.(`crawling the twin without ${site}, web seed ${seed}`);
      const base = join(opts.dir, `${name}-seed${seed}`);
      const w = await writeTwinArchive(
        resolveConfig(fit.config),
        seed,
        fit.values.sample ?? 1,
        `${base}.warc.gz`,
        `${base}.labels.csv`,
      );
      const twinCfg: ExperimentConfig = {
        ...cfg,
        name: `${name}-seed${seed}`,
        archive: {
          ...a,
          warc: [w.warc],
          labels: w.labels,
          sites: [],
          groups: w.groups,
          starts: w.starts,
          source: `twin of ${cfg.name} without ${site}`,
        },
      };
      const data = await runExperiment(twinCfg, { workers: opts.workers, cacheDir: opts.cacheDir ?? null });
      twinRows.push(...data.summaries);
    }
    for (const s of strategies) {
      const ar = aucOf(real.summaries, s, site);
      const tw = aucOf(twinRows, s);
      if (!ar.length || !tw.length) continue;
      rows.push({ strategy: s, site, archive: ar[0], twin: tw.reduce((x, y) => x + y, 0) / tw.length });
    }
  }
  const comparisons: StrategyComparison[] = strategies
    .filter((s) => rows.some((r) => r.strategy === s))
    .map((s) => {
      const mine = rows.filter((r) => r.strategy === s);
      const difference = meanCi(mine.map((r) => r.twin - r.archive));
      const off = difference.n >= 2 && (difference.lo > 0 || difference.hi < 0);
      return {
        strategy: s,
        archive: meanCi(mine.map((r) => r.archive)),
        twin: meanCi(mine.map((r) => r.twin)),
        difference,
        detectable: detectable(difference),
        verdict: off ? 'off' : 'agrees',
      };
    });
  // the rankings of the strategies: the oracle, first on both by construction, would inflate tau
  const ranked = comparisons.filter((c) => c.strategy !== 'oracle');
  const am = ranked.map((c) => c.archive.mean);
  const tm = ranked.map((c) => c.twin.mean);
  const tau = kendallTau(am, tm);
  return {
    config: cfg,
    sites,
    fits,
    rows,
    strategies: comparisons,
    tau,
    p: kendallExactP(am, tm, tau),
    wallMs: performance.now() - t0,
  };
}
