/**
 * Numbers in configs: a numeric field's descriptor (what lib/schema.ts numberFieldsOf derives
 * from a schema, and the crawl CLI makes flags of), its range in words and the one check every
 * number goes through, plus dotted-path access (sweeps, the twin fit). The fields themselves are
 * declared once, in the families' schemas (lib/schema.ts).
 */
import { ExperimentConfigError } from './errors.ts';

export interface NumberField {
  /** Dotted path in the config ("budget", "future.gamma"). */
  path: string;
  /** null: the field may be null (chosen at run time; help says how). */
  default: number | null;
  min: number;
  max: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** The bounds themselves are excluded (min < v < max). */
  open?: boolean;
  /** Null is allowed (the default says so too). */
  nullable?: boolean;
  help: string;
}

/** The value at a dotted path (undefined where a part is missing). */
export function getPath(obj: unknown, path: string): unknown {
  let o: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof o !== 'object' || o === null) return undefined;
    o = (o as Record<string, unknown>)[part];
  }
  return o;
}

/** Names that reach an object's prototype machinery rather than a field of it. */
const NOT_FIELDS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The first part of a dotted path that is no field name but "__proto__", "constructor" or
 * "prototype", if any: set through, `__proto__.x` would give every object of the process an x, and
 * `__proto__` alone would be dropped without a word.
 */
export const prototypePart = (path: string): string | undefined => path.split('.').find((p) => NOT_FIELDS.has(p));

/** Sets a dotted path, making the objects on the way; a path through the prototype is refused. */
export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const bad = prototypePart(path);
  if (bad !== undefined) throw new ExperimentConfigError(`${path}: "${bad}" is not a field name`);
  const parts = path.split('.');
  let o = obj;
  for (const part of parts.slice(0, -1)) {
    if (typeof o[part] !== 'object' || o[part] === null) o[part] = {};
    o = o[part] as Record<string, unknown>;
  }
  o[parts.at(-1)!] = value;
}

/** The range in words: "a whole number from 1 to 10", "a number between 0 and 1". */
export function rangeText(f: Range): string {
  const what = f.integer ? 'a whole number' : 'a number';
  if (f.min === -Infinity) return f.max === Infinity ? what : `${what} <= ${f.max.toLocaleString('en-US')}`;
  const hi = f.max === Infinity ? '' : f.max.toLocaleString('en-US');
  if (f.open) return `${what} between ${f.min} and ${hi}`;
  return hi ? `${what} from ${f.min.toLocaleString('en-US')} to ${hi}` : `${what} >= ${f.min.toLocaleString('en-US')}`;
}

type Range = Pick<NumberField, 'min' | 'max' | 'integer' | 'open' | 'nullable'>;

/** Why a value does not fit a range, or null if it does (also for numbers in lists, which have no field). */
export function numberProblem(range: Range, v: unknown): string | null {
  if (v === null && range.nullable) return null;
  const ok =
    typeof v === 'number' &&
    !Number.isNaN(v) &&
    // an unlimited setting (max Infinity) may be Infinity, whole or not
    (!range.integer || Number.isInteger(v) || (v === Infinity && range.max === Infinity)) &&
    (range.open ? v > range.min && v < range.max : v >= range.min && v <= range.max);
  return ok ? null : `expected ${rangeText(range)}${range.nullable ? ' (or null)' : ''}, got ${JSON.stringify(v)}`;
}
