/**
 * Profiles of the twin fit's loss (issue #72): along each knob, the least loss with the other
 * knobs re-optimised (profile likelihood, within a stated number of evaluations), the order in
 * which they are re-optimised, and the pairs of knobs the profiles show trading against each other.
 * experiments/twin/fit.ts walks the grid and reads the intervals.
 */
import { type KnobValues, mean, type TwinKnob } from './terms.ts';

export type Point = { values: KnobValues; loss: number };
/** A knob's profile: at each grid value, the least loss found and the knobs' values there (the others re-optimised). */
export type Profile = {
  value: number;
  loss: number;
  values?: KnobValues;
  /** The loss with the other knobs held at the fit (the slice), where it differs from `loss`. */
  slice?: number;
}[];

/** A knob's value within its range, whole where it is, else to three decimals. */
export const clamp = (k: TwinKnob, x: number): number => {
  const c = Math.min(k.max, Math.max(k.min, x));
  return k.integer ? Math.round(c) : Math.round(c * 1000) / 1000;
};

/**
 * Evaluations that re-optimise the other knobs at each profile point, by default: the line search's
 * two tries on each of the three knobs that moved most with the profiled one (ridgeOrder). A
 * stated budget, not a converged optimum: a profile's loss is an upper bound of the true profile,
 * so an interval read from it can only be too narrow where the re-optimisation fell short.
 */
export const PROFILE_STEPS = 6;
export const profileSteps = (o: { profileSteps?: number }): number => o.profileSteps ?? PROFILE_STEPS;

/**
 * The other knobs in the order a profile of `k` re-optimises them: by how strongly they moved with
 * `k` (|Pearson r|) over the best quarter of the points the search evaluated (at least 8), where a
 * trade between two knobs shows as a ridge; the declared order among equals.
 */
export function ridgeOrder(k: TwinKnob, free: readonly TwinKnob[], visited: readonly Point[]): TwinKnob[] {
  const others = free.filter((o) => o.path !== k.path);
  const ranked = [...visited].sort((a, b) => a.loss - b.loss);
  const top = ranked.slice(0, Math.max(8, Math.ceil(ranked.length / 4)));
  const r = new Map(
    others.map((o) => [
      o.path,
      Math.abs(
        correlation(
          top.map((p) => p.values[k.path]),
          top.map((p) => p.values[o.path]),
        ),
      ),
    ]),
  );
  return others
    .map((o, i) => ({ o, i, r: r.get(o.path)! }))
    .sort((a, b) => b.r - a.r || a.i - b.i)
    .map((x) => x.o);
}

/** Pearson's r of two lists (0 where either is constant or the lists are shorter than 2). */
function correlation(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  const mx = mean(xs.slice(0, n));
  const my = mean(ys.slice(0, n));
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

/**
 * Two knobs that trade: at a point of `along`'s profile, with the other knobs held at the fit (the
 * slice) the loss is above the threshold, and with them re-optimised it is not; `with` is the knob
 * that moved most (as a share of its range, at least a tenth) to make up for it: papers per faculty
 * member down as faculty per 1,000 pages goes up, say. Either knob alone then says less than its
 * own interval suggests. (Knobs merely moving along a flat profile are not trades: nothing had to
 * make up for anything there.)
 */
export interface Trade {
  along: string;
  with: string;
  /** Pearson's r of the two over the fit and those points: > 0 they rise together, < 0 one makes up for the other. */
  r: number;
}

/** The trades read from the profiles (each pair once, where its knob moved most), around the fitted `fit`. */
export function tradesOf(
  free: readonly TwinKnob[],
  profiles: Map<string, Profile>,
  threshold: number,
  fit: KnobValues,
): Trade[] {
  const found = new Map<string, Trade & { moved: number }>();
  for (const k of free) {
    const rescued = (profiles.get(k.path) ?? []).filter(
      (p) => p.values && p.loss <= threshold && p.slice !== undefined && p.slice > threshold,
    );
    const by = new Map<string, Point[]>();
    for (const p of rescued) {
      let most: TwinKnob | null = null;
      let moved = 0.1;
      for (const o of free) {
        if (o === k) continue;
        const m = Math.abs(p.values![o.path] - fit[o.path]) / (o.max - o.min);
        if (m >= moved) [most, moved] = [o, m];
      }
      if (most) by.set(most.path, [...(by.get(most.path) ?? []), { values: p.values!, loss: moved }]);
    }
    for (const [o, pts] of by) {
      const xs = [fit[k.path], ...pts.map((p) => p.values[k.path])];
      const ys = [fit[o], ...pts.map((p) => p.values[o])];
      const moved = Math.max(...pts.map((p) => p.loss));
      const key = [k.path, o].sort().join(' ');
      const prev = found.get(key);
      if (!prev || moved > prev.moved)
        found.set(key, { along: k.path, with: o, r: Math.round(correlation(xs, ys) * 100) / 100, moved });
    }
  }
  return [...found.values()].map(({ moved: _m, ...t }) => t);
}

/** What a profile needs of the fit: its loss (cached, counted) and how many evaluations it has made. */
export interface Evaluator {
  evaluate(values: KnobValues): number;
  readonly evaluations: number;
}

/**
 * The least loss found with knob `k` at `x`: from the best of `starts` with k set to x, a
 * coordinate line search over `others` (each tried a quarter of its range either side, the step
 * halved after each round) for `steps` evaluations.
 */
export function reoptimise(
  f: Evaluator,
  k: TwinKnob,
  x: number,
  others: readonly TwinKnob[],
  starts: readonly Point[],
  steps: number,
): Point {
  const stop = f.evaluations + 1 + steps;
  let best: Point | null = null;
  for (const s of starts) {
    const v = { ...s.values, [k.path]: x };
    const l = f.evaluate(v);
    if (!best || l < best.loss) best = { values: v, loss: l };
  }
  let cur = best!;
  const width = new Map(others.map((o) => [o.path, (o.max - o.min) / 4]));
  for (let round = 0; f.evaluations < stop && others.length && round < 8; round++)
    for (const o of others) {
      for (const dir of [-1, 1]) {
        if (f.evaluations >= stop) break;
        const y = clamp(o, cur.values[o.path] + dir * width.get(o.path)!);
        if (y === cur.values[o.path]) continue;
        const v = { ...cur.values, [o.path]: y };
        const l = f.evaluate(v);
        if (l < cur.loss) cur = { values: v, loss: l };
      }
      width.set(o.path, width.get(o.path)! / 2);
    }
  return cur;
}

/** The trades in one line, for a fit's report. */
export function tradesLine(trades: readonly Trade[]): string {
  if (!trades.length) return 'knobs that trade against each other along the profiles: none found';
  return `knobs that trade against each other along the profiles (either alone says less than its interval): ${trades
    .map((t) => `${t.along} and ${t.with} (${t.r < 0 ? 'one makes up for the other' : 'rising together'}, r ${t.r})`)
    .join('; ')}`;
}
