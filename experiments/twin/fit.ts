/**
 * Fitting the generator to an archive (issue #36): a search over a stated set of the generator's
 * knobs for the web whose departments' statistics (sim/site-stats.ts) come closest to the
 * archive sites'.
 *
 * - The knobs and their ranges are TWIN_KNOBS (experiments/twin/terms.ts, with the targets, the
 *   loss and the twin's config, re-exported here); every other field keeps its documented default.
 *   The twin's departments have the archive sites' sizes (pages = nodes of the site's graph) and
 *   a fixed background (TWIN_BACKGROUND: in-site statistics do not see it).
 * - The loss is the mean over TWIN_TARGETS of ((twin - archive) / tolerance)^2, each side the
 *   mean over its sites; a statistic meets its target when |twin - archive| <= tolerance. The
 *   tolerances are conditions: about the spread of the statistic between the four WebKB sites.
 * - The optimiser, per restart: a start (the generator's defaults, then a random point), seeded
 *   uniform random search over the box for a fifth of the restart's budget, then a coordinate
 *   line search from the best point: each knob in turn tried at 4 points spread over a window
 *   around its best value (the whole range in the first round), the window halved after each
 *   round, for the rest. Every evaluation is measured at the `checkSeeds` web seeds, and the
 *   loss is over their pooled statistics.
 * - Identification: see KnobInterval.
 */
import { resolveConfig } from '../../sim/config.ts';
import { makeRng } from '../../sim/web-rng.ts';
import { getPath } from '../../lib/fields.ts';
import { conformalBound } from '../intervals.ts';
import { SELF_LOSS_FACTOR } from './calibration.ts';
import type { SiteStats } from '../../sim/site-stats.ts';
import {
  type KnobValues,
  lossOf,
  mean,
  meanStats,
  measureWeb,
  type NumericStat,
  TWIN_KNOBS,
  type TwinKnob,
  type TwinSpec,
  twinConfig,
} from './terms.ts';
import { FitError } from '../../lib/errors.ts';
import {
  clamp,
  type Point,
  type Profile,
  profileSteps,
  reoptimise,
  ridgeOrder,
  type Trade,
  tradesOf,
} from './profile.ts';

// the fit's terms, where its users have always found them
export * from './terms.ts';
export { PROFILE_STEPS, type Trade, tradesLine } from './profile.ts';

/** sim:fit's default budget: three searches of SEARCH_EVALUATIONS. */
export const FIT_BUDGET = 288;
/**
 * Evaluations a search needs: fewer do not finish two rounds of the line search over eleven knobs
 * (measured blind: three searches of 32 left 3 of 4 fits above the drawn values' own loss).
 */
export const SEARCH_EVALUATIONS = 96;
/** Restarts a budget affords by default: one per SEARCH_EVALUATIONS, 1 to 3. */
export const defaultRestarts = (budget: number): number =>
  Math.max(1, Math.min(3, Math.floor(budget / SEARCH_EVALUATIONS)));

/** Points tried per knob and round of the line search. */
const LINE = 4;

/** Share of a knob's range its interval may span for the knob to be called identified. */
export const IDENTIFIED_SHARE = 0.5;

/** A fit that cannot be made from what it was given: EXP_ERR_FIT of lib/errors.ts, exit 2. */
export { FitError } from '../../lib/errors.ts';
export { CALIBRATED_AT, calibrationLine, SELF_LOSS_FACTOR } from './calibration.ts';

export interface FitOptions {
  /** Generator evaluations of the search, shared between the restarts (at least 4 each). */
  budget: number;
  /** The optimiser's seed (restart i uses seed + i). */
  seed: number;
  /** Web seeds every evaluation is measured at (the loss is over their pooled statistics): the seeds the fit reports. */
  checkSeeds: readonly number[];
  /**
   * Independent searches (default 1), the first from the generator's defaults, the others from a
   * random point: fits that end equally good with different values show a knob the statistics do
   * not identify.
   */
  restarts?: number;
  /** Points of the loss profile along each knob (0: no profile). */
  profile?: number;
  /**
   * Evaluations at each profile point that re-optimise the other knobs (profile likelihood; default
   * PROFILE_STEPS; 0: the others held at the fit, a slice of the loss rather than its profile).
   */
  profileSteps?: number;
  /** Knobs held fixed (not searched), e.g. by a test. */
  fixed?: KnobValues;
  /** Called before the first evaluation with how many the fit will make (the cost, said before it is paid). */
  onStart?: (total: number) => void;
  /** Called after each evaluation (the search's, then the profile's). */
  onEvaluation?: (done: number, total: number, loss: number) => void;
}

export interface FitResult {
  values: KnobValues;
  loss: number;
  evaluations: number;
  /** The archive's and the twin's mean statistics (the twin's over checkSeeds). */
  archive: Record<NumericStat, number>;
  twin: Record<NumericStat, number>;
  /** Per-seed twin statistics of the chosen point. */
  twinSites: SiteStats[];
  config: Record<string, unknown>;
  /** Per knob: the values of every point that fits as well as the fit (within the noise), and whether that pins it. */
  knobs: KnobInterval[];
  /**
   * A fitted web against itself: its statistics at each of SELF_SEEDS alone taken as the archive
   * against its statistics at the check seeds. `selfLoss` is their conformal bound at
   * ACCEPT_QUANTILE (what a perfect twin scores at most, 9 draws in 10), the largest over the fit and every restart's end the threshold accepts; `noise`
   * the standard deviation at the fit.
   */
  selfLoss: number;
  noise: number;
  /** The fit's own self-losses, one per self seed (what selfLoss and noise are read from). */
  selfLosses: number[];
  /**
   * Points with a loss at most this fit as well as the fit: max(selfLoss, loss + noise). When
   * the fit's loss is above selfLoss the generator found nothing like the archive, and the
   * intervals are around the best it found, not a confidence set.
   */
  threshold: number;
  /** Each restart's best point and loss. */
  restarts: { values: KnobValues; loss: number }[];
  /** Points evaluated whose loss was at most the threshold (the fit included). */
  accepted: number;
  /** Pairs of knobs that trade against each other along a profile (see tradesOf). */
  trades: Trade[];
}

/**
 * How well the statistics identify a knob, read from every point the fit evaluated (every
 * restart's search and the profile): a point whose loss is no more than what the fitted web scores
 * against itself at another web seed (FitResult.threshold) fits the archive as well as the true
 * knobs would, as far as the loss can tell: the accepted points are a confidence set by test
 * inversion (the true knobs' loss is one draw of that self-loss), in the spirit of approximate
 * Bayesian computation's acceptance region. A knob's interval is the span of its values over those
 * points, widened to the neighbouring points of its profile grid (between them the loss is not
 * known). The self-loss is measured where fits landed, and a knob can set the departments' own
 * variation (conventions does): before a knob is called identified, each profile point outside its
 * interval is tested against its own self-loss, nearest first. A knob whose interval spans more
 * than half its range is flat: the statistics do not identify it. An identified knob's interval holds only what the search visited: two knobs that
 * trade against each other (papers per faculty member and faculty per 1,000 pages make the papers
 * together) are flat only if the restarts and the profile found the trade.
 */
export interface KnobInterval {
  path: string;
  value: number;
  lo: number;
  hi: number;
  /**
   * The statistics identify the knob: the interval spans at most half its range, the fit is as
   * good as a perfect twin (loss <= selfLoss) and a profile scanned the range.
   */
  identified: boolean;
  profile: { value: number; loss: number }[];
}

/** The share of its own web's draws a point's acceptance bound must hold: a 90% set. */
export const ACCEPT_QUANTILE = 0.9;
/**
 * Web seeds the fitted web is measured at alone, each against the twin (the check seeds left out):
 * 19, so that the conformal bound (conformalBound) at 90% is the 18th of 19 self-losses, not the
 * largest (the largest of 9 would do, but moves with one draw).
 */
const SELF_SEEDS = Array.from({ length: 19 }, (_, i) => 1001 + i);

/** What a perfect twin scores at most, nine draws in ten: the calibrated conformal bound of self-losses. */
const selfBound = (self: readonly number[]): number => SELF_LOSS_FACTOR * conformalBound(self, ACCEPT_QUANTILE);

/**
 * One fit's state: the archive it is fitted to, the knobs searched, and every point evaluated
 * (cached by its values; `visited` in order). The search, the threshold and the intervals are its
 * methods, run in that order by fitTwin.
 */
class Fit {
  readonly archive: Record<NumericStat, number>;
  readonly free: readonly TwinKnob[];
  readonly seeds: readonly number[];
  readonly visited: Point[] = [];
  evaluations = 0;
  private readonly cache = new Map<string, number>();
  readonly total: number;
  private defaults: Record<string, unknown> | undefined;

  constructor(
    private readonly name: string,
    archiveStats: readonly SiteStats[],
    private readonly sizes: readonly number[],
    private readonly spec: TwinSpec,
    private readonly opts: FitOptions,
    restarts: number,
  ) {
    this.archive = meanStats(archiveStats);
    this.free = TWIN_KNOBS.filter(
      (k) => !(opts.fixed && k.path in opts.fixed) && !(k.labels && spec.relevantLabels.length === 0),
    );
    this.seeds = opts.checkSeeds.length ? opts.checkSeeds : [opts.seed];
    const points = opts.profile ?? 0;
    const perPoint = 1 + (this.free.length > 1 ? profileSteps(opts) : 0);
    // the search's budget, the profile's grid, the best end's self-losses and, at most, each other
    // accepted end's (its own statistics and self-losses): a plan, exact without a profile; the
    // profile's repeats are read from the cache and a narrow interval's checks add some (the CLI
    // says how many ran)
    const self = SELF_SEEDS.filter((x) => !this.seeds.includes(x)).length;
    this.total =
      opts.budget + (points >= 2 ? this.free.length * points * perPoint : 0) + self + (restarts - 1) * (self + 1);
  }

  /** Statistics of the twin for these knob values (fixed ones included) at `at` web seeds. */
  measure(all: KnobValues, at: readonly number[] = this.seeds): SiteStats[] {
    const cfg = resolveConfig(twinConfig(this.name, this.sizes, all));
    return at.flatMap((s) => measureWeb(cfg, s, this.spec, all.sample ?? 1));
  }

  /**
   * The loss of the searched knobs' values (the fixed ones added), measured at every check seed:
   * a loss at one seed was as noisy as 0.86 / 11.59 / 1.29 at three seeds of one point (issue #51).
   */
  evaluate(values: KnobValues): number {
    const key = JSON.stringify(values);
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const loss = lossOf(this.archive, meanStats(this.measure({ ...values, ...this.opts.fixed })));
    this.cache.set(key, loss);
    this.visited.push({ values, loss });
    this.evaluations++;
    this.opts.onEvaluation?.(this.evaluations, this.total, loss);
    return loss;
  }

  /** The generator's default for a knob (sample and scale 1, gap spread 2): the first search's start. */
  private defaultOf(path: string): number {
    if (path === 'sample' || path === 'scale') return 1;
    if (path === 'gapSpread') return 2;
    this.defaults ??= resolveConfig(twinConfig(this.name, this.sizes, {})) as unknown as Record<string, unknown>;
    const o = getPath(this.defaults, path);
    return typeof o === 'boolean' ? (o ? 1 : 0) : Number(o);
  }

  /**
   * One search of `budget` evaluations: a start (the defaults for restart 0, else a random
   * point), random points for a fifth of the budget, then a coordinate line search: each knob in
   * turn tried at LINE points over a window around the best value (the whole range at first), the
   * window halved after every round of the knobs.
   */
  search(restart: number, budget: number): Point {
    const { free } = this;
    const rng = makeRng(`twin-fit:${this.name}:${this.opts.seed + restart}`);
    const draw = (): KnobValues =>
      Object.fromEntries(free.map((k) => [k.path, clamp(k, k.min + rng.next() * (k.max - k.min))]));
    const stop = this.evaluations + budget;
    let best: KnobValues =
      restart === 0 ? Object.fromEntries(free.map((k) => [k.path, clamp(k, this.defaultOf(k.path))])) : draw();
    let bestLoss = this.evaluate(best);
    const explore = this.evaluations + Math.max(0, Math.floor(budget / 5) - 1);
    while (this.evaluations < explore) {
      const v = draw();
      const l = this.evaluate(v);
      if (l < bestLoss) [best, bestLoss] = [v, l];
    }
    const width = new Map(free.map((k) => [k.path, k.max - k.min]));
    for (let round = 0; this.evaluations < stop && round < 12; round++) {
      let moved = false;
      for (const k of free) {
        if (this.evaluations >= stop) break;
        const w = width.get(k.path)!;
        const lo = Math.max(k.min, best[k.path] - w / 2);
        const hi = Math.min(k.max, best[k.path] + w / 2);
        for (let j = 0; j < LINE && this.evaluations < stop; j++) {
          // the window's ends included: a knob at the end of its range is often where a fit wants it
          const v = { ...best, [k.path]: clamp(k, lo + (j / (LINE - 1)) * (hi - lo)) };
          if (v[k.path] === best[k.path]) continue;
          const l = this.evaluate(v);
          if (l < bestLoss) [best, bestLoss, moved] = [v, l, true];
        }
        width.set(k.path, w / 2);
      }
      const converged = [...width.values()].every(
        (w, i) => w < (free[i].integer ? 1 : 0.01 * (free[i].max - free[i].min)),
      );
      if (!moved && converged) break;
    }
    return { values: best, loss: bestLoss };
  }

  /**
   * A fitted web against itself: its statistics at each of SELF_SEEDS (the check seeds left out)
   * alone, taken as the archive (one draw of departments, as the archive is), against `own`, its
   * statistics at the check seeds. Counted as evaluations.
   */
  selfLosses(all: KnobValues, own: Record<NumericStat, number> = meanStats(this.measure(all))): number[] {
    const out = SELF_SEEDS.filter((x) => !this.seeds.includes(x)).map((x) =>
      lossOf(meanStats(this.measure(all, [x])), own),
    );
    this.evaluations += out.length;
    return out;
  }

  /**
   * What a perfect twin would score (FitResult.selfLoss, noise, threshold). A fit that lands where
   * departments vary little (conventions near 0) sets a threshold that excludes a noisier truth
   * (seen blind: a fit at loss 0.02, threshold 0.43, "identified" conventions 0.007 for a drawn
   * 0.351): every restart's end that the threshold accepts is as plausible a truth, so the largest
   * of their self-losses is taken, until no further end is accepted.
   */
  threshold(
    ends: readonly Point[],
    best: Point,
    twin: Record<NumericStat, number>,
  ): { selfLoss: number; noise: number; threshold: number; self: number[] } {
    const self = this.selfLosses({ ...best.values, ...this.opts.fixed }, twin);
    const m = mean(self);
    const noise = Math.sqrt(self.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, self.length - 1));
    let selfLoss = selfBound(self);
    let threshold = Math.max(selfLoss, best.loss + Math.max(0.01, noise));
    const pending = ends.filter((e) => e !== best);
    for (let next = pending.find((e) => e.loss <= threshold); next; next = pending.find((e) => e.loss <= threshold)) {
      pending.splice(pending.indexOf(next), 1);
      const own = this.selfLosses({ ...next.values, ...this.opts.fixed });
      this.evaluations++;
      selfLoss = Math.max(selfLoss, selfBound(own));
      threshold = Math.max(threshold, selfLoss);
    }
    return { selfLoss, noise, threshold, self };
  }

  /**
   * The profile of the loss along each knob: at `points` evenly spaced values of it, the least loss
   * found with the other knobs re-optimised (profile likelihood) in `profileSteps` evaluations.
   * With the others held at the fit a profile is a slice: blind, faculty per 1,000 pages was
   * "identified" at 10.07 [2, 16.5] where the hidden web had 31.37, because papers per faculty
   * member, held at the fit, could not move with it (issue #72). The grid is walked outward from
   * the fit, each point starting from the better of the fit and its inner neighbour's optimum
   * (continuation: a trade found once is carried along), then a line search over the others, those
   * that moved with this knob among the search's best points first (ridgeOrder).
   */
  profiles(best: Point, points: number): Map<string, Profile> {
    const out = new Map<string, Profile>();
    if (points < 2) return out;
    const steps = this.free.length > 1 ? profileSteps(this.opts) : 0;
    for (const k of this.free) {
      const grid = Array.from({ length: points }, (_, j) =>
        clamp(k, k.min + (j / (points - 1)) * (k.max - k.min)),
      ).filter((x, j, xs) => xs.indexOf(x) === j);
      const others = ridgeOrder(k, this.free, this.visited);
      const at = new Map<number, Point>();
      const x0 = best.values[k.path];
      // outward from the fit on each side: the inner neighbour's optimum is the next start
      for (const side of [-1, 1]) {
        let inner: Point = best;
        for (const x of [...grid].filter((x) => side * (x - x0) >= 0).sort((a, b) => side * (a - b))) {
          const p = x === x0 ? best : reoptimise(this, k, x, others, [best, inner], steps);
          at.set(x, p);
          inner = p;
        }
      }
      out.set(
        k.path,
        // the slice: the fit with this knob moved, the others held (every re-optimisation's first
        // start, so read from the cache)
        grid.map((x) => ({
          value: x,
          loss: at.get(x)!.loss,
          values: at.get(x)!.values,
          slice: this.evaluate({ ...best.values, [k.path]: x }),
        })),
      );
    }
    return out;
  }

  /** Each knob's interval over the accepted points (see KnobInterval). */
  interval(
    k: TwinKnob,
    best: Point,
    fit: { values: KnobValues; loss: number; selfLoss: number; threshold: number },
    good: readonly Point[],
    profile: Profile,
  ): KnobInterval {
    const xs = good.map((p) => p.values[k.path]);
    // a profile point the shared threshold rejects may still fit as well as a truth there would:
    // the knob can set the departments' own variation (conventions does), so an interval narrow
    // enough to identify the knob is checked against each rejected grid point's own self-loss
    // (nearest first, on each side until one is rejected by its own)
    const narrow = (): boolean => Math.max(...xs) - Math.min(...xs) <= IDENTIFIED_SHARE * (k.max - k.min);
    if (narrow() && fit.loss <= fit.selfLoss)
      for (const side of [-1, 1]) {
        const out = profile
          .filter((p) => p.loss > fit.threshold && side * (p.value - fit.values[k.path]) > 0)
          .sort((p, q) => side * (p.value - q.value));
        for (const p of out) {
          if (!narrow()) break;
          const own = this.selfLosses({ ...(p.values ?? { ...best.values, [k.path]: p.value }), ...this.opts.fixed });
          this.evaluations++;
          if (p.loss > selfBound(own)) break;
          xs.push(p.value);
        }
      }
    let lo = Math.min(...xs);
    let hi = Math.max(...xs);
    // widened to the profile's neighbouring grid points: between them the loss is unknown
    const below = profile.filter((p) => p.value < lo).map((p) => p.value);
    const above = profile.filter((p) => p.value > hi).map((p) => p.value);
    if (below.length) lo = Math.max(...below);
    if (above.length) hi = Math.min(...above);
    // a fit worse than a perfect twin, or without a profile (nothing scanned the knob's range),
    // identifies nothing: its accepted points are only where the search happened to look
    const identified = fit.loss <= fit.selfLoss && profile.length >= 2 && hi - lo <= IDENTIFIED_SHARE * (k.max - k.min);
    return { path: k.path, value: fit.values[k.path], lo, hi, identified, profile };
  }
}

/** Fits the knobs to the archive sites' statistics; `sizes` are the HTML pages of the twin departments' archives. */
export function fitTwin(
  name: string,
  archiveStats: readonly SiteStats[],
  sizes: readonly number[],
  spec: TwinSpec,
  opts: FitOptions,
): FitResult {
  if (archiveStats.length < 2)
    throw new FitError(`a fit needs two sites or more (the leak is learnt on the others), got ${archiveStats.length}`);
  if (sizes.length < 2) throw new FitError(`a twin needs two departments or more, got ${sizes.length}`);
  const small = archiveStats.filter((s) => s.pages < 50 || s.relevant < 5);
  if (small.length)
    throw new FitError(
      `too few pages to fit: ${small.map((s) => `${s.site} has ${s.pages} pages and ${s.relevant} relevant`).join('; ')} (at least 50 and 5)`,
    );
  const restarts = opts.restarts ?? 1;
  if (!(Number.isInteger(restarts) && restarts >= 1))
    throw new FitError(`fit restarts ${restarts}: a whole number, 1 or more`);
  if (!(opts.budget >= 4 * restarts))
    throw new FitError(`fit budget ${opts.budget}: at least 4 evaluations a restart (${restarts} restarts)`);
  const f = new Fit(name, archiveStats, sizes, spec, opts, restarts);
  opts.onStart?.(f.total);
  const ends: Point[] = [];
  for (let i = 0; i < restarts; i++) ends.push(f.search(i, Math.floor((opts.budget - f.evaluations) / (restarts - i))));
  const best = ends.reduce((a, b) => (b.loss < a.loss ? b : a));
  const values = { ...best.values, ...opts.fixed };
  const twinSites = f.measure(values);
  const twin = meanStats(twinSites);
  const loss = lossOf(f.archive, twin);
  const { selfLoss, noise, threshold, self } = f.threshold(ends, best, twin);
  const profiles = f.profiles(best, opts.profile ?? 0);
  const good = f.visited.filter((p) => p.loss <= threshold);
  const fit = { values, loss, selfLoss, threshold };
  const knobs = f.free.map((k) => f.interval(k, best, fit, good, profiles.get(k.path) ?? []));
  return {
    values,
    loss,
    evaluations: f.evaluations,
    archive: f.archive,
    twin,
    twinSites,
    config: twinConfig(name, sizes, values),
    knobs,
    noise,
    selfLoss,
    selfLosses: self,
    threshold,
    restarts: ends,
    accepted: good.length,
    trades: tradesOf(f.free, profiles, threshold, best.values),
  };
}
