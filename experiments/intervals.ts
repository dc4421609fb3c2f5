/**
 * Statistics for experiment verdicts: means and 95% confidence intervals at the level of the
 * random factor, and paired differences between strategies.
 *
 * Why the unit matters: the sites of one synthetic web share that web and train their
 * classifiers on each other, so runs of one seed are not independent. The web seed is the random
 * factor; sites are fixed effects. A CI is therefore computed over per-seed means (each the mean
 * over the seed's sites) with Student t on k - 1 degrees of freedom for k seeds. With a single
 * web (one seed, or a replayed archive) there is no seed-to-seed variation to measure, and the
 * CI is taken over sites instead: it then describes how sites differ, and the report says so.
 *
 * Claims compare strategies on paired differences (same seed and site), averaged to the unit
 * level first; a verdict is PASS or FAIL only when the difference's CI excludes 0, else TIE.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { errorFunction, mean, sampleStandardDeviation } from 'simple-statistics';

export interface Ci {
  mean: number;
  lo: number;
  hi: number;
  n: number;
  /** Sample standard deviation of the observations (NaN for n < 2). */
  sd?: number;
}

/** "mean ± half-width" of a CI, for report tables. */
export function pmText(c: Ci, digits = 3): string {
  return `${c.mean.toFixed(digits)} ± ${(c.hi - c.mean).toFixed(digits)}`;
}

/** Two-sided 95% Student t critical value for df degrees of freedom (NaN for df < 1). */
const t975 = (df: number): number => (df >= 1 ? tQuantile(0.975, df) : NaN);

/** Mean and 95% Student t interval of independent observations (lo = hi = mean for n < 2). */
export function meanCi(xs: readonly number[]): Ci {
  const n = xs.length;
  if (!n) return { mean: NaN, lo: NaN, hi: NaN, n, sd: NaN };
  const m = mean(xs as number[]);
  if (n < 2) return { mean: m, lo: m, hi: m, n, sd: NaN };
  const sd = sampleStandardDeviation(xs as number[]);
  const h = (t975(n - 1) * sd) / Math.sqrt(n);
  return { mean: m, lo: m - h, hi: m + h, n, sd };
}

/**
 * The smallest true mean difference that a two-sided paired t-test at 5% would detect with 80%
 * power, at this n and the observed spread: (t(0.975, n-1) + t(0.80, n-1)) x sd / sqrt(n), the
 * usual normal-approximation formula with t quantiles (e.g. Cohen 1988, ch. 2; it ignores the
 * noncentral t, so it is slightly optimistic at small n). NaN when n < 2.
 */
export function detectable(c: Ci): number {
  if (c.n < 2 || c.sd === undefined || !Number.isFinite(c.sd)) return NaN;
  return ((t975(c.n - 1) + tQuantile(0.8, c.n - 1)) * c.sd) / Math.sqrt(c.n);
}

/**
 * The fewest units (seeds) at which detectable() falls to `drop`, at the spread `sd` observed:
 * the size a gate must run at to see a drop that large (issue #87). null when no size up to `max`
 * does, or the spread is unknown.
 */
export function unitsToDetect(sd: number | undefined, drop: number, max = 1000): number | null {
  if (sd === undefined || !(sd >= 0) || !(drop > 0)) return null;
  for (let n = 2; n <= max; n++) if (detectable({ mean: 0, lo: 0, hi: 0, n, sd }) <= drop) return n;
  return null;
}

/**
 * How likely `rounds` independent rounds all read a ratio of at least `threshold` when the true
 * ratio is `ratio`, at a machine's spread: one pair of runs next to each other (one of each side)
 * varies by `pairSd` (the sd of the pairs' log ratios), so a round of `runs` runs a side, whose log
 * ratio is the mean of `runs` such pairs, by pairSd / sqrt(runs), taken as normal. What a target
 * set per round can show on this machine (npm run bench:crawl); NaN without a spread.
 */
export function chanceEveryRound(pairSd: number, runs: number, rounds: number, threshold: number, ratio = 1): number {
  const sd = pairSd / Math.sqrt(runs);
  if (!(sd > 0)) return NaN;
  const z = (Math.log(ratio) - Math.log(threshold)) / sd;
  return (0.5 * (1 + errorFunction(z / Math.SQRT2))) ** rounds;
}

/**
 * A gate's reading of a paired difference (candidate minus reference): a regression is a drop of
 * more than `maxDrop` whose 95% interval excludes 0 (npm run compare; bench/gate.ts measures how
 * often it fires on noise and on drops of known size).
 */
export function dropVerdict(d: Ci, maxDrop: number): 'regression' | 'noise' | 'better' | 'within' {
  if (d.mean < -maxDrop) return d.hi < 0 ? 'regression' : 'noise';
  return d.lo > 0 ? 'better' : 'within';
}

/** The level at which runs are independent: the web seed, or the site when there is one web. */
export type Unit = 'seed' | 'site';

export interface Run {
  seed: number;
  site: string;
  /** The link order of a focused run (experiments/focused/config-schema.ts orderSeeds); 1 when absent. */
  order?: number;
}

/** What identifies one run of a strategy: its seed, site and link order. */
export const runKey = (r: Run): string => `${r.seed}\u0000${r.site}\u0000${r.order ?? 1}`;

/** Seed when the runs span two or more seeds, else site. */
export function unitOf(runs: readonly Run[]): Unit {
  return new Set(runs.map((r) => r.seed)).size >= 2 ? 'seed' : 'site';
}

/**
 * Fewest units a figure draws 95% bands over. With 2 units the t quantile is 12.7 (1 df): a band
 * that spans most of the plot says nothing a reader can use, so it is left out and the caption
 * says why (issue #71).
 */
export const MIN_BAND_UNITS = 3;

/** The caption's words for a figure's bands over `units` units of `unit`: the method, or why none are drawn. */
export const bandsText = (unit: Unit, units: number): string =>
  units >= MIN_BAND_UNITS
    ? ciMethod(unit, units)
    : `none drawn: a 95% interval over ${units} ${unit}${units === 1 ? '' : 's'} ` +
      `(df ${Math.max(0, units - 1)}) spans most of the plot; ${MIN_BAND_UNITS} or more are needed`;

/** Human-readable name of the CI method, for captions and reports. */
export function ciMethod(unit: Unit, units: number): string {
  return unit === 'seed'
    ? `95% Student t interval over ${units} web seeds (runs averaged over sites within a seed; df ${units - 1})`
    : `95% Student t interval over ${units} sites of one web (site-to-site variation only; df ${units - 1})`;
}

/** Values averaged within each unit (order of first appearance), then a CI over the unit means. */
export function unitCi<T extends Run>(rows: readonly T[], value: (r: T) => number, unit: Unit = unitOf(rows)): Ci {
  const by = new Map<string, number[]>();
  for (const r of rows) {
    const k = unit === 'seed' ? String(r.seed) : r.site;
    const list = by.get(k);
    if (list) list.push(value(r));
    else by.set(k, [value(r)]);
  }
  return meanCi([...by.values()].map((v) => mean(v)));
}

/**
 * Paired difference a - b: rows of a and b are matched on (seed, site, order), differences averaged
 * within units, CI over the units. Throws if a run of a has no partner in b.
 */
export function pairedCi<T extends Run>(
  a: readonly T[],
  b: readonly T[],
  value: (r: T) => number,
  unit: Unit = unitOf(a),
): Ci {
  const other = new Map(b.map((r) => [runKey(r), r]));
  const diffs: Run[] = [];
  const d = new Map<Run, number>();
  for (const r of a) {
    const p = other.get(runKey(r));
    if (!p) throw new Error(`no paired run for seed ${r.seed}, site ${r.site}, order ${r.order ?? 1}`);
    const row = { seed: r.seed, site: r.site };
    diffs.push(row);
    d.set(row, value(r) - value(p));
  }
  return unitCi(diffs, (r) => d.get(r)!, unit);
}

export type Verdict = 'PASS' | 'FAIL' | 'TIE' | 'INFEASIBLE' | 'NO DATA' | 'n/a';

/**
 * Verdict on "a difference is positive" from its CI: PASS if the whole CI is above 0, FAIL if
 * it is below 0, TIE if it contains 0. With fewer than 2 units (no CI) the sign decides and 0 is
 * a TIE.
 */
export function signVerdict(ci: Ci): Verdict {
  // every run gave exactly the same difference, 0: nothing was measured
  if (ci.n >= 1 && ci.mean === 0 && ci.lo === 0 && ci.hi === 0 && (ci.sd === 0 || ci.n < 2)) return 'NO DATA';
  if (ci.lo > 0) return 'PASS';
  if (ci.hi < 0) return 'FAIL';
  return 'TIE';
}

/** Several conditions that must all hold: FAIL if any fails, PASS if all pass, else TIE. */
export function allOf(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes('INFEASIBLE')) return 'INFEASIBLE';
  if (verdicts.includes('FAIL')) return 'FAIL';
  if (verdicts.every((v) => v === 'PASS')) return 'PASS';
  if (verdicts.every((v) => v === 'NO DATA')) return 'NO DATA';
  return 'TIE';
}

/** Verdict on "value > threshold" from its CI. */
export function thresholdVerdict(ci: Ci, threshold: number): Verdict {
  return signVerdict({ ...ci, mean: ci.mean - threshold, lo: ci.lo - threshold, hi: ci.hi - threshold });
}

/** Rounded to 4 places (shares and differences in CSVs). */
export const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** Mean and 95% confidence interval of shares (recall, coverage): rounded to 4 places, clamped to [0, 1]. */
export function shareCi(xs: readonly number[]): { mean: number; lo: number; hi: number } {
  return share(meanCi(xs));
}

/** A CI of shares: rounded to 4 places, clamped to [0, 1]. */
export const share = (c: Ci): { mean: number; lo: number; hi: number } => ({
  mean: r4(c.mean),
  lo: r4(Math.max(0, c.lo)),
  hi: r4(Math.min(1, c.hi)),
});

/** Items grouped by a key, groups in order of first appearance. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const g = groups.get(k);
    if (g) g.push(it);
    else groups.set(k, [it]);
  }
  return [...groups.values()];
}

/** Wilson's 95% interval for k successes in n trials. */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}

/** The q-quantile of xs, linear between order statistics (type 7, as R's and numpy's default). */
export function quantile(xs: readonly number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * q;
  const i = Math.floor(h);
  return s[i] + (h - i) * ((s[Math.min(i + 1, s.length - 1)] ?? s[i]) - s[i]);
}

/**
 * The bound a fresh draw from the same distribution as xs falls under with probability at least q:
 * the ceil((n + 1) q)-th smallest of the n values (the split-conformal quantile: Vovk, Gammerman
 * & Shafer, Algorithmic Learning in a Random World, 2005; Lei et al., JASA 2018, section 2.2),
 * Infinity when n is too small for q. The plug-in quantile of 8 values (as the fit took before,
 * issue #85) holds a fresh draw only about 80% of the time: the k-th smallest of n holds one with
 * probability k / (n + 1), and the 90th percentile of 8 lies between the 7th and the 8th. Blind,
 * the web an archive came from fell under it in 78% of pairs.
 */
export function conformalBound(xs: readonly number[], q: number): number {
  const k = Math.ceil((xs.length + 1) * q - 1e-9);
  if (k > xs.length) return Infinity;
  return [...xs].sort((a, b) => a - b)[k - 1];
}
