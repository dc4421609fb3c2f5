/**
 * Does a twin rank the strategies as its archive does (experiments/twin/validate.ts runs the
 * validation): per strategy the twin's level against the archive's beside a control (the
 * archive's other sites), per held-out site Kendall's tau of the rankings beside the control's,
 * the web's tau with itself as the bar, and the verdict.
 */
import { type Ci, detectable, meanCi } from '../intervals.ts';

/** Recall AUC of a strategy on a site: the archive's, the twin's (and at each web seed), the own web's. */
export interface ValidationRow {
  strategy: string;
  site: string;
  archive: number;
  twin: number;
  twinSeeds?: number[];
  own?: number;
}

export interface StrategyComparison {
  strategy: string;
  archive: Ci;
  twin: Ci;
  difference: Ci;
  detectable: number;
  /**
   * 'cannot tell' where the strategies' archive AUCs span no more than `detectable`: a level
   * verdict of "agrees" there says only that the runs are too few (issue #72).
   */
  verdict: 'agrees' | 'off' | 'cannot tell';
  /**
   * How far each prediction of a held-out site's AUC is from it: |twin - archive| and
   * |control - archive| (the control: the strategy's mean AUC over the other sites), and their
   * paired difference over the held-out sites. (The control's signed difference has mean 0 by
   * construction, so levels are compared by the size of the miss.)
   */
  twinError: Ci;
  controlError: Ci;
  errorDifference: Ci;
  /** 'further': the twin misses by more than the control (the CI of the paired difference above 0). */
  levelVerdict: 'as close' | 'further' | 'closer';
}

/**
 * Per held-out site: tau of the twin's ranking and of the control's with the site's own, and the
 * same-web control: how well the twin ranks like itself at another web seed (mean tau over pairs
 * of seeds; null with one seed).
 */
export interface SiteTau {
  site: string;
  twin: number;
  control: number;
  self: number | null;
  /**
   * Where the archive's own web is known (archive.origin): tau of the site's ranking with that
   * web's, its mean AUC over its departments at other web seeds: what a twin that found the true
   * knobs would score. The verdict's bar then (issue #85); null where the web is not known.
   */
  own: number | null;
}

/** What the rankings say, against the web's own seed noise (issue #72). */
export type RankingVerdict =
  | 'ranks like the archive as well as the web ranks like itself'
  | 'ranks like the archive worse than the web ranks like itself'
  | 'cannot tell';

/** The rankings judged against the control (computed from the rows alone: testable without a crawl). */
export interface RankingComparison {
  strategies: StrategyComparison[];
  /** Tau between the rankings of mean AUC over the held-out sites (archive vs twin). */
  tau: number;
  p: number;
  perSite: SiteTau[];
  /** Per-site tau: the twin's, the control's, and their paired difference (twin - control). */
  twinTau: Ci;
  controlTau: Ci;
  tauDifference: Ci;
  /** The twin with itself at other seeds: per-site tau. */
  selfTau: Ci | null;
  /**
   * The archive's own web at other seeds (archive.origin): per-site tau with the site's ranking;
   * null where that web is not known.
   */
  ownTau: Ci | null;
  /**
   * The same-web control the verdict uses: the archive's own web where known, else the twin with
   * itself; and the paired per-site difference, twin minus it.
   */
  sameWeb: 'own web' | 'twin' | null;
  selfDifference: Ci | null;
  verdict: RankingVerdict;
  /** Why, in a sentence. */
  because: string;
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

/** The mean of a list (NaN when empty). */
export const avg = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;

/**
 * Per strategy the twin's and the control's level against the archive's, and per held-out site
 * their rankings' tau with the site's. Strategies without a row for every site are left out; the
 * oracle is first on every side by construction and stays out of every tau.
 */
export function compareRankings(rows: readonly ValidationRow[]): RankingComparison {
  const sites = [...new Set(rows.map((r) => r.site))];
  const strategies = [...new Set(rows.map((r) => r.strategy))].filter(
    (s) => rows.filter((r) => r.strategy === s).length === sites.length,
  );
  const at = (s: string, site: string) => rows.find((r) => r.strategy === s && r.site === site)!;
  const ranked = strategies.filter((s) => s !== 'oracle');
  const g: RankingGrid = {
    sites,
    ranked,
    at,
    controlOf: (s, site) => avg(sites.filter((x) => x !== site).map((x) => at(s, x).archive)),
  };
  // how far apart the strategies are on the archive: a level verdict finer than that is no verdict
  const means = ranked.map((s) => avg(sites.map((site) => at(s, site).archive)));
  const spread = means.length ? Math.max(...means) - Math.min(...means) : 0;
  const comparisons = strategies.map((s) => strategyComparison(g, s, spread));
  const am = ranked.map((s) => avg(sites.map((site) => at(s, site).archive)));
  const tm = ranked.map((s) => avg(sites.map((site) => at(s, site).twin)));
  const tau = kendallTau(am, tm);
  const perSite = siteTaus(g);
  const twinTau = meanCi(perSite.map((x) => x.twin));
  const every = (k: 'self' | 'own'): Ci | null =>
    perSite.length && perSite.every((x) => x[k] !== null) ? meanCi(perSite.map((x) => x[k]!)) : null;
  const self = every('self');
  const ownTau = every('own');
  // the archive's own web, where known, is the bar a perfect twin meets; the twin with itself
  // stands in for it otherwise
  const sameWeb = ownTau ? 'own web' : self ? 'twin' : null;
  const bar = ownTau ? 'own' : 'self';
  const selfDifference = sameWeb ? meanCi(perSite.map((x) => x.twin - x[bar]!)) : null;
  return {
    strategies: comparisons,
    tau,
    p: ranked.length >= 2 && ranked.length <= 10 ? kendallExactP(am, tm, tau) : NaN,
    perSite,
    twinTau,
    controlTau: meanCi(perSite.map((x) => x.control)),
    tauDifference: meanCi(perSite.map((x) => x.twin - x.control)),
    selfTau: self,
    ownTau,
    sameWeb,
    selfDifference,
    ...rankingVerdict(ownTau ?? self, selfDifference, sameWeb === 'own web'),
  };
}

/** The rows by strategy and site, the strategies ranked (the oracle aside), and a site's control (the other sites' mean). */
interface RankingGrid {
  sites: string[];
  ranked: string[];
  at: (s: string, site: string) => ValidationRow;
  controlOf: (s: string, site: string) => number;
}

/** One strategy, twin against archive site by site: the difference, its verdict, and whether the twin beats the control. */
function strategyComparison(g: RankingGrid, s: string, spread: number): StrategyComparison {
  const { sites, at, controlOf } = g;
  const mine = sites.map((site) => at(s, site));
  const difference = meanCi(mine.map((r) => r.twin - r.archive));
  const twinMiss = mine.map((r) => Math.abs(r.twin - r.archive));
  const controlMiss = sites.map((site) => Math.abs(controlOf(s, site) - at(s, site).archive));
  const errorDifference = meanCi(twinMiss.map((x, j) => x - controlMiss[j]));
  const verdict: StrategyComparison['verdict'] =
    difference.n >= 2 && (difference.lo > 0 || difference.hi < 0)
      ? 'off'
      : !(spread > detectable(difference))
        ? 'cannot tell'
        : 'agrees';
  return {
    strategy: s,
    archive: meanCi(mine.map((r) => r.archive)),
    twin: meanCi(mine.map((r) => r.twin)),
    difference,
    detectable: detectable(difference),
    verdict,
    twinError: meanCi(twinMiss),
    controlError: meanCi(controlMiss),
    errorDifference,
    levelVerdict:
      errorDifference.n >= 2 && errorDifference.lo > 0
        ? 'further'
        : errorDifference.n >= 2 && errorDifference.hi < 0
          ? 'closer'
          : 'as close',
  };
}

/** Each site's rank agreement with the archive: the twin's, the control's, the twin with itself, the own web's. */
function siteTaus(g: RankingGrid): SiteTau[] {
  const { sites, ranked, at, controlOf } = g;
  // with one site there are no other sites: no control
  if (sites.length < 2) return [];
  return sites.map((site) => {
    const own = ranked.map((s) => at(s, site).archive);
    return {
      site,
      twin: kendallTau(
        own,
        ranked.map((s) => at(s, site).twin),
      ),
      control: kendallTau(
        own,
        ranked.map((s) => controlOf(s, site)),
      ),
      self: selfTau(ranked.map((s) => at(s, site).twinSeeds ?? [])),
      own: ranked.every((s) => at(s, site).own !== undefined)
        ? kendallTau(
            own,
            ranked.map((s) => at(s, site).own!),
          )
        : null,
    };
  });
}

/**
 * Mean Kendall tau over pairs of web seeds of one web's rankings (`aucs[strategy][seed]`): how well
 * the web ranks like itself, its own seed noise; null with fewer than two seeds.
 */
export function selfTau(aucs: readonly (readonly number[])[]): number | null {
  const seeds = Math.min(...aucs.map((a) => a.length));
  if (!(seeds >= 2) || aucs.length < 2) return null;
  const taus: number[] = [];
  for (let i = 0; i < seeds; i++)
    for (let j = i + 1; j < seeds; j++)
      taus.push(
        kendallTau(
          aucs.map((a) => a[i]),
          aucs.map((a) => a[j]),
        ),
      );
  return avg(taus);
}

/**
 * The ranking verdict against the same-web control: cannot tell without it (one seed), when the
 * web does not detectably rank like itself (its per-site tau's CI reaches 0: the noise floor is
 * too high for any twin to show more), or when the sites could not have detected even a twin that
 * ranked at random; worse when the twin's tau with the archive is detectably below the web's with
 * itself; else as well.
 */
function rankingVerdict(
  self: Ci | null,
  difference: Ci | null,
  ownWeb: boolean,
): Pick<RankingComparison, 'verdict' | 'because'> {
  const f3 = (x: number): string => x.toFixed(3);
  if (!self || !difference)
    return { verdict: 'cannot tell', because: 'the twin was crawled at one web seed: no same-web control' };
  const control = ownWeb
    ? `the archive's own web at other seeds ranks like the archive with tau`
    : 'the web ranks like itself at another seed with tau';
  const minus = ownWeb ? "twin tau minus the own web's" : "twin tau minus the web's own";
  if (!(self.n >= 2 && self.lo > 0))
    return {
      verdict: 'cannot tell',
      because:
        `${control} ${f3(self.mean)} [${f3(self.lo)}, ${f3(self.hi)}]: ` +
        'the noise floor is too high for a ranking to show more',
    };
  // a twin that ranked at random (tau 0) would fall short by the web's own tau: if these sites could
  // not detect a shortfall that large, an interval that contains 0 says nothing
  if (!(difference.n >= 2 && difference.hi < 0) && !(detectable(difference) < self.mean))
    return {
      verdict: 'cannot tell',
      because:
        `${minus} ${f3(difference.mean)} [${f3(difference.lo)}, ${f3(difference.hi)}], ` +
        `and these sites would detect a shortfall of ${f3(detectable(difference))} only, not the ` +
        `${f3(self.mean)} of a twin that ranked at random`,
    };
  if (difference.n >= 2 && difference.hi < 0)
    return {
      verdict: 'ranks like the archive worse than the web ranks like itself',
      because: `${minus} ${f3(difference.mean)} [${f3(difference.lo)}, ${f3(difference.hi)}]`,
    };
  return {
    verdict: 'ranks like the archive as well as the web ranks like itself',
    because: `${minus} ${f3(difference.mean)} [${f3(difference.lo)}, ${f3(difference.hi)}] contains 0 or is above it`,
  };
}
