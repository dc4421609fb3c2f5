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
 *
 * The control (issue #51 item 5): how well does the archive rank like itself? For held-out site h
 * the twin predicts h from the other sites through the generator; the control predicts h from the
 * other sites directly (a strategy's mean AUC over them). Both are judged the same way: per
 * held-out site, Kendall's tau of the prediction's ranking with h's, and per strategy how far the
 * prediction misses h's AUC. A twin that ranks like the archive only as well as the archive's own sites
 * rank like each other says little; one that ranks far worse than the control says the generator
 * misses what orders the strategies.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, resolveConfig } from '../../sim/config.ts';
import type { ExperimentConfig } from '../focused/config.ts';
import { archiveSites } from '../focused/env.ts';
import { runExperiment } from '../focused/runner.ts';
import { archiveViews, fitToSites, specOf } from './archive.ts';
import { type FitResult, fitTable } from './fit.ts';
import { writeTwinArchive } from './writer.ts';
import { append } from '../../lib/arrays.ts';
import { avg, compareRankings, type RankingComparison, type ValidationRow } from './rankings.ts';

export {
  compareRankings,
  kendallExactP,
  kendallTau,
  type RankingComparison,
  type SiteTau,
  type StrategyComparison,
  selfTau,
  type ValidationRow,
} from './rankings.ts';

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

export interface TwinValidation {
  config: ExperimentConfig;
  sites: string[];
  /** Per held-out site: the fit and its table. */
  fits: { site: string; fit: FitResult; table: ReturnType<typeof fitTable> }[];
  /**
   * recall AUC per (strategy, site): the archive's and the twin's (mean over the twin's departments
   * and seeds), and the twin's at each web seed (mean over its departments).
   */
  rows: ValidationRow[];
  /** Where the archive's own web is known: the web seeds it was crawled at (its own seed aside). */
  ownSeeds?: number[];
  /** The comparison (strategies, tau and p of the mean rankings, per-site tau beside the control). */
  ranking: RankingComparison;
  wallMs: number;
}

export async function runTwinValidation(given: ExperimentConfig, opts: TwinValidationOptions): Promise<TwinValidation> {
  const t0 = performance.now();
  // archive and twin are each crawled in the page's link order: the config's orderSeeds repeats its
  // own runs (webkb-papers: ten), and here would repeat every twin crawl of every held-out site
  // as often (docs/twin.md)
  const cfg: ExperimentConfig = { ...given, orderSeeds: 1 };
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
  const real = await runExperiment(cfg, { workers: opts.workers, cacheDir: opts.cacheDir ?? null, replay: false });
  const aucOf = (rows: typeof real.summaries, strategy: string, site?: string): number[] =>
    rows.filter((r) => r.strategy === strategy && (site === undefined || r.site === site)).map((r) => r.recall_auc);
  const strategies = [...cfg.strategies, 'oracle'];
  const own = a.origin ? await crawlOwnWeb(cfg, a.origin, opts) : null;
  const fits: TwinValidation['fits'] = [];
  const rows: TwinValidation['rows'] = [];
  for (const site of sites) {
    opts.onProgress?.(`fitting the twin without ${site}`);
    const name = `${cfg.name}-twin-without-${site}`;
    const { fit } = fitToSites(name, views, site, spec, { budget: opts.fitBudget, seed: 1, checkSeeds: [1] });
    fits.push({ site, fit, table: fitTable(fit) });
    const twinRows: typeof real.summaries = [];
    const bySeed: (typeof real.summaries)[] = [];
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
      const twinCfg = asArchive(cfg, w, `${name}-seed${seed}`, `twin of ${cfg.name} without ${site}`);
      const data = await runExperiment(twinCfg, {
        workers: opts.workers,
        cacheDir: opts.cacheDir ?? null,
        replay: false,
      });
      append(twinRows, data.summaries);
      bySeed.push(data.summaries);
    }
    for (const s of strategies) {
      const ar = aucOf(real.summaries, s, site);
      const tw = aucOf(twinRows, s);
      if (!ar.length || !tw.length) continue;
      const twinSeeds = bySeed.map((rs) => avg(aucOf(rs, s)));
      const ownAucs = own ? aucOf(own.rows, s) : [];
      rows.push({
        strategy: s,
        site,
        archive: ar[0],
        twin: avg(tw),
        twinSeeds,
        ...(ownAucs.length ? { own: avg(ownAucs) } : {}),
      });
    }
  }
  return {
    config: cfg,
    sites,
    fits,
    rows,
    ...(own ? { ownSeeds: own.seeds } : {}),
    ranking: compareRankings(rows),
    wallMs: performance.now() - t0,
  };
}

/** The experiment `cfg` on a written archive (a twin, or the archive's own web at another seed) instead of its own. */
function asArchive(
  cfg: ExperimentConfig,
  w: Awaited<ReturnType<typeof writeTwinArchive>>,
  name: string,
  source: string,
): ExperimentConfig {
  const a = cfg.archive!;
  return {
    ...cfg,
    name,
    archive: {
      ...a,
      warc: [w.warc],
      labels: w.labels,
      sites: [],
      groups: w.groups,
      starts: w.starts,
      origin: null,
      source,
    },
  };
}

/**
 * The archive's own web (archive.origin) written at the validation's web seeds, its own seed
 * replaced by the next one unused, and crawled by the same experiment as the archive and the twins:
 * the same-web control a twin that found the true knobs would meet (issue #85).
 */
async function crawlOwnWeb(
  cfg: ExperimentConfig,
  origin: NonNullable<NonNullable<ExperimentConfig['archive']>['origin']>,
  opts: TwinValidationOptions,
): Promise<{ seeds: number[]; rows: Awaited<ReturnType<typeof runExperiment>>['summaries'] }> {
  const seeds: number[] = [];
  for (const s of opts.seeds) {
    let x = s;
    while (x === origin.seed || seeds.includes(x)) x++;
    seeds.push(x);
  }
  const web = loadConfig(origin.web);
  const rows: Awaited<ReturnType<typeof runExperiment>>['summaries'] = [];
  for (const seed of seeds) {
    opts.onProgress?.(`crawling the archive's own web (${origin.web}) at web seed ${seed}`);
    const base = join(opts.dir, `${cfg.name}-own-seed${seed}`);
    const w = await writeTwinArchive(web, seed, origin.sample, `${base}.warc.gz`, `${base}.labels.csv`);
    const data = await runExperiment(
      asArchive(cfg, w, `${cfg.name}-own-seed${seed}`, `${origin.web} at web seed ${seed} (the archive's own web)`),
      { workers: opts.workers, cacheDir: opts.cacheDir ?? null, replay: false },
    );
    append(rows, data.summaries);
  }
  return { seeds, rows };
}
