/**
 * A search's parameter space (the "search.space" of an experiment config): each parameter a range
 * [low, high] of a numeric field (whole numbers where the field's schema says so) or a list of
 * choices, checked against the web's and the experiment's schemas; and the points a search tries:
 * a seeded Latin hypercube over the space, and a parameter's neighbours in a window around a point.
 * Shared by the focused config (which checks a search's space) and the sweep family (which runs it).
 */
import { type TSchema, fieldAt } from '../lib/schema.ts';
import { WebSchema } from '../sim/config.ts';
import { makeRng } from '../sim/web-rng.ts';

/** A parameter's value at a point of a sweep or a search. */
export type Value = number | boolean | string;

export type Dimension =
  | { key: string; kind: 'range'; lo: number; hi: number; integer: boolean }
  | { key: string; kind: 'choice'; values: Value[] };

/** The space's dimensions, or the first problem with it (", KEY: why", to follow "search.space"). */
export function dimensionsOf(
  space: Record<string, Value[]>,
  experiment: TSchema,
): { dimensions: Dimension[]; problem: string | null } {
  const dimensions: Dimension[] = [];
  const keys = Object.keys(space);
  if (!keys.length) return { dimensions, problem: ': name one parameter or more' };
  for (const key of keys) {
    const vals = space[key];
    const field = key.startsWith('web.') ? fieldAt(WebSchema, key.slice(4)) : fieldAt(experiment, key);
    const where = `.${key}`;
    if (!field)
      return {
        dimensions,
        problem: `${where}: not a field of the ${key.startsWith('web.') ? 'web' : 'experiment'} config (web fields start with "web.")`,
      };
    const range = vals.length === 2 && vals.every((v) => typeof v === 'number');
    if (range && field.kind === 'number') {
      const [lo, hi] = vals as number[];
      if (!(lo < hi))
        return { dimensions, problem: `${where}: a range [low, high] with low < high, got [${lo}, ${hi}]` };
      if (lo < field.min || hi > field.max)
        return {
          dimensions,
          problem: `${where}: [${lo}, ${hi}] leaves the field's range [${field.min}, ${field.max}]`,
        };
      if (field.integer && !(Number.isInteger(lo) && Number.isInteger(hi)))
        return { dimensions, problem: `${where}: a whole-number field takes whole bounds, got [${lo}, ${hi}]` };
      dimensions.push({ key, kind: 'range', lo, hi, integer: field.integer });
      continue;
    }
    const type = field.kind === 'number' ? 'number' : field.kind;
    if (new Set(vals.map(String)).size !== vals.length)
      return { dimensions, problem: `${where}: choices must differ, got ${JSON.stringify(vals)}` };
    const wrong = vals.find((v) => (type === 'other' ? false : typeof v !== type));
    if (wrong !== undefined)
      return { dimensions, problem: `${where}: ${JSON.stringify(wrong)} is not a ${type} (the field's type)` };
    dimensions.push({ key, kind: 'choice', values: [...vals] });
  }
  return { dimensions, problem: null };
}

const roundTo = (x: number, integer: boolean): number => (integer ? Math.round(x) : Math.round(x * 1e4) / 1e4);

/** A value of a dimension at position u in [0, 1). */
function valueAt(d: Dimension, u: number): Value {
  if (d.kind === 'choice') return d.values[Math.min(d.values.length - 1, Math.floor(u * d.values.length))];
  // whole numbers: each of the hi - lo + 1 values gets an equal share of [0, 1)
  if (d.integer) return Math.min(d.hi, d.lo + Math.floor(u * (d.hi - d.lo + 1)));
  return roundTo(d.lo + u * (d.hi - d.lo), false);
}

/**
 * n points of a Latin hypercube (McKay, Beckman & Conover 1979): each dimension's range cut into n
 * strata, every stratum used once, the strata paired across dimensions by seeded permutations.
 */
export function latinHypercube(dimensions: readonly Dimension[], n: number, seed: number): Record<string, Value>[] {
  const rng = makeRng(`search-${seed}`);
  const columns = dimensions.map((d) => {
    const perm = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [perm[i], perm[j]] = [perm[j], perm[i]];
    }
    return perm.map((stratum) => valueAt(d, (stratum + rng.next()) / n));
  });
  return Array.from({ length: n }, (_, i) => Object.fromEntries(dimensions.map((d, k) => [d.key, columns[k][i]])));
}

/**
 * A point's neighbours along one dimension: for a range, the values half a window either side
 * (window = a share of the range; at least one step for whole numbers), within the range; for
 * choices, every other choice. The point's own value is never among them.
 */
export function neighbours(d: Dimension, at: Value, window: number): Value[] {
  if (d.kind === 'choice') return d.values.filter((v) => v !== at);
  const x = at as number;
  const half = (window * (d.hi - d.lo)) / 2;
  const step = d.integer ? Math.max(1, Math.round(half)) : half;
  const out = [x - step, x + step]
    .map((v) => roundTo(Math.min(d.hi, Math.max(d.lo, v)), d.integer))
    .filter((v) => v !== x);
  return [...new Set(out)];
}
