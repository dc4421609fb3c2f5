/**
 * Descriptor tables for the numeric fields of a config family (web, focused, deep-web and
 * distributed configs), as Scrapy's default_settings declares each setting once: its dotted
 * path, default, range, whether it is a whole number, and its help. A family's defaults, its
 * validation and its help text are derived from the table, so a field's range is written in one
 * place. The crawl settings keep their own table (crawler/settings.ts NUMBER_SETTINGS, which also
 * makes the crawl CLI's flags) and are checked by the same numberProblem.
 */

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

/** Sets a dotted path, making the objects on the way. */
export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = obj;
  for (const part of parts.slice(0, -1)) {
    if (typeof o[part] !== 'object' || o[part] === null) o[part] = {};
    o = o[part] as Record<string, unknown>;
  }
  o[parts.at(-1)!] = value;
}

/** The fields' defaults as a nested object (to merge into a family's other defaults). */
export function numberDefaults(fields: readonly NumberField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) setPath(out, f.path, f.default);
  return out;
}

/** The range in words: "a whole number from 1 to 10", "a number between 0 and 1". */
export function rangeText(f: Range): string {
  const what = f.integer ? 'a whole number' : 'a number';
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

/** The first field whose value in `config` is out of range, as "path: problem"; null if none. */
export function checkNumbers(fields: readonly NumberField[], config: unknown): string | null {
  for (const f of fields) {
    const why = numberProblem(f, getPath(config, f.path));
    if (why) return `${f.path}: ${why}`;
  }
  return null;
}

/** The range in brackets for --help: "[1, 1000] whole", "(0, 1)", ">= 10 whole", "[0, 1] or null". */
function rangeBrackets(f: NumberField): string {
  const [lo, hi] = f.open ? ['(', ')'] : ['[', ']'];
  const range = f.max === Infinity ? `>= ${f.min}` : `${lo}${f.min}, ${f.max}${hi}`;
  return `${range}${f.integer ? ' whole' : ''}${f.nullable ? ' or null' : ''}`;
}

/** One line per field for --help: path, default, range and help. */
export function fieldsHelp(fields: readonly NumberField[], indent = '  '): string {
  const width = Math.max(...fields.map((f) => f.path.length)) + 2;
  const rangeWidth = Math.max(...fields.map((f) => rangeBrackets(f).length)) + 2;
  return fields
    .map((f) => {
      const def = f.default === null ? 'null' : String(f.default);
      return `${indent}${f.path.padEnd(width)}${def.padEnd(9)}${rangeBrackets(f).padEnd(rangeWidth)}${f.help}\n`;
    })
    .join('');
}
