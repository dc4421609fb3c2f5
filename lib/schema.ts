/**
 * Config schemas, declared once (issue #37 item 4). A config family (web, focused, deep-web,
 * distributed experiments, crawl settings) declares its fields as a TypeBox schema, the library
 * Fastify uses; from that one declaration derive
 *   - the TypeScript type (`Static<typeof Schema>`),
 *   - the defaults (`defaultsOf`) and their filling into a partial config (`withDefaults`),
 *   - validation with the field's JSON path in a one-line message (`problemOf`),
 *   - the `--help` lines (`schemaHelp`), the numeric fields the CLI makes flags of (`numberFieldsOf`),
 *   - the published JSON Schema files under schemas/ (`publishedSchema`), which configs name as
 *     `"$schema"` so editors complete and check them.
 *
 * The schema is plain JSON Schema. The checker below walks the subset the families use rather
 * than TypeBox's Value.Errors for two reasons: its messages keep the project's wording ("budget:
 * expected a whole number >= 10, got 9"), which tests and researchers rely on, and an unlimited
 * number (no maximum) may be Infinity in code (crawl settings' maxPagesPerHost), which TypeBox's
 * number check refuses. test/schemas.test.ts checks every shipped config with TypeBox's own
 * Value.Check as a second opinion.
 *
 * Conventions: every object is closed (an unknown field is an error) except for keys starting
 * with "_" (comments, e.g. "_doc") and a root "$schema"; a field with a `default` may be left out.
 */
import type { Static, TLiteral, TSchema } from '@sinclair/typebox';
import { didYouMean } from './strings.ts';
import { numberProblem, rangeText, type NumberField } from './fields.ts';
import { Type } from './typebox.ts';

export { Type, type Static, type TSchema };

type Schema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  required?: string[];
  items?: Schema | Schema[];
  anyOf?: Schema[];
  const?: unknown;
  default?: unknown;
  description?: string;
};

/** What every field declares: its help line. */
interface FieldOptions {
  help: string;
}

/** Objects are closed; "_" keys are comments (patternProperties keeps them valid JSON Schema). */
const CLOSED = { additionalProperties: false, patternProperties: { '^_': {} } };

/** A number field: default, range (open: both bounds excluded), help and, for the crawl CLI, a flag. */
export function num(o: {
  default: number;
  min: number;
  max?: number;
  integer?: boolean;
  open?: boolean;
  help: string;
  flag?: string;
}) {
  const opts = {
    default: o.default,
    description: o.help,
    ...(o.open ? { exclusiveMinimum: o.min } : { minimum: o.min }),
    ...(o.max === undefined || o.max === Infinity ? {} : o.open ? { exclusiveMaximum: o.max } : { maximum: o.max }),
    ...(o.flag ? { flag: o.flag } : {}),
  };
  return o.integer ? Type.Integer(opts) : Type.Number(opts);
}

/** A number that may be null (chosen at run time; the help says how). */
export function numOrNull(o: { default: number | null; min: number; max?: number; help: string }) {
  const range = { minimum: o.min, ...(o.max === undefined || o.max === Infinity ? {} : { maximum: o.max }) };
  return Type.Union([Type.Number(range), Type.Null()], { default: o.default, description: o.help });
}

export function str(o: FieldOptions & { default?: string; pattern?: string; expected?: string; minLength?: number }) {
  return Type.String({
    ...(o.default !== undefined ? { default: o.default } : {}),
    ...(o.pattern ? { pattern: o.pattern } : {}),
    ...(o.minLength ? { minLength: o.minLength } : {}),
    ...(o.expected ? { expected: o.expected } : {}),
    description: o.help,
  });
}

export function bool(o: FieldOptions & { default: boolean }) {
  return Type.Boolean({ default: o.default, description: o.help });
}

/** One of a few strings. */
export function oneOf<const T extends readonly string[]>(values: T, o: FieldOptions & { default?: T[number] }) {
  const members = values.map((v) => Type.Literal(v)) as unknown as TLiteral<T[number]>[];
  return Type.Union(members, { ...(o.default !== undefined ? { default: o.default } : {}), description: o.help });
}

export function list<T extends TSchema>(
  items: T,
  o: FieldOptions & { default?: Static<T>[]; minItems?: number; maxItems?: number; expected?: string },
) {
  return Type.Array(items, {
    ...(o.default !== undefined ? { default: o.default } : {}),
    ...(o.minItems !== undefined ? { minItems: o.minItems } : {}),
    ...(o.maxItems !== undefined ? { maxItems: o.maxItems } : {}),
    ...(o.expected ? { expected: o.expected } : {}),
    description: o.help,
  });
}

/** A map from any name to a value (strategy parameters, archive groups, sweep axes). */
export function map<T extends TSchema>(values: T, o: FieldOptions & { default?: Record<string, Static<T>> }) {
  return Type.Record(Type.String(), values, {
    ...(o.default !== undefined ? { default: o.default } : {}),
    description: o.help,
  });
}

/** A closed object; its default is built from its fields' defaults. */
export function obj<T extends Record<string, TSchema>>(props: T, o: Partial<FieldOptions> = {}) {
  return Type.Object(props, { ...CLOSED, ...(o.help ? { description: o.help } : {}) });
}

/** A field that may be left out and has no default (optional parameters, plugin modules). */
export const optional = Type.Optional;

/** Any JSON value (a strategy's own parameters, checked by the strategy). */
export function any(o: FieldOptions) {
  return Type.Unknown({ description: o.help });
}

// ---------------------------------------------------------------------------------------------
// Defaults

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema's default value: its own `default`, else (objects) one built from its fields'. */
export function defaultsOf(schema: TSchema): unknown {
  const s = schema as Schema;
  if ('default' in s) return structuredClone(s.default);
  if (s.type === 'object' && s.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(s.properties)) {
      const d = defaultsOf(p as TSchema);
      if (d !== undefined) out[k] = d;
    }
    return out;
  }
  return undefined;
}

/**
 * Fills what `value` leaves out with the schema's defaults, recursively (objects in lists and
 * maps too); keys come out in the schema's order, then any unknown ones (left for the check).
 * Comments ("_" keys) and the root's "$schema" are dropped. Values of the wrong type are left as they are.
 */
export function withDefaults(schema: TSchema, value: unknown, root = true): unknown {
  const s = schema as Schema;
  if (value === undefined) return defaultsOf(schema);
  if (s.anyOf) {
    const member = s.anyOf.find((m) => m.type === 'object' && isObject(value));
    return member ? withDefaults(member as TSchema, value, root) : value;
  }
  if (s.type === 'object' && isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const v = withDefaults(p as TSchema, value[k], false);
      if (v !== undefined) out[k] = v;
    }
    const values = s.properties ? undefined : Object.values(s.patternProperties ?? {})[0];
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith('_') || (k === '$schema' && root) || (s.properties && Object.hasOwn(s.properties, k))) continue;
      out[k] = values ? withDefaults(values as TSchema, v, false) : v;
    }
    return out;
  }
  const items = s.items;
  if (s.type === 'array' && Array.isArray(value) && items && !Array.isArray(items))
    return value.map((v) => withDefaults(items as TSchema, v, false));
  return value;
}

/**
 * `over`'s fields laid over `base`'s (both as written in a config): a field that is a closed
 * object with fields of its own (crawl, isit) is merged one level; any other (lists, maps,
 * numbers) is replaced. A config's "quick" section is laid over the config this way.
 */
export function overlay(schema: TSchema, base: Record<string, unknown>, over: Record<string, unknown>) {
  const props = (schema as Schema).properties ?? {};
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over))
    out[k] = props[k]?.properties && isObject(v) && isObject(base[k]) ? { ...base[k], ...v } : v;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Checking

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);
const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));

function numberRange(s: Schema) {
  return {
    min: (s.minimum ?? s.exclusiveMinimum ?? -Infinity) as number,
    max: (s.maximum ?? s.exclusiveMaximum ?? Infinity) as number,
    integer: s.type === 'integer',
    open: s.exclusiveMinimum !== undefined,
  };
}

/** What a schema expects, in words ("true or false", "one of a, b", "a whole number from 1 to 10"). */
function expected(s: Schema): string {
  if (typeof s.expected === 'string') return s.expected;
  if (s.anyOf) {
    if (s.anyOf.every((m) => 'const' in m)) return `one of ${s.anyOf.map((m) => String(m.const)).join(', ')}`;
    return s.anyOf.map(expected).join(' or ');
  }
  if ('const' in s) return JSON.stringify(s.const);
  switch (s.type) {
    case 'number':
    case 'integer':
      return rangeText(numberRange(s));
    case 'boolean':
      return 'true or false';
    case 'string':
      return 'a string';
    case 'null':
      return 'null';
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    default:
      return 'a value';
  }
}

function fits(s: Schema, v: unknown): boolean {
  switch (s.type) {
    case 'null':
      return v === null;
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'number':
    case 'integer':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    default:
      return true;
  }
}

/**
 * The first way `value` breaks the schema, as "path: problem" (the path dotted, list items in
 * brackets: "departments[2].host"), or null when it fits.
 */
export function problemOf(schema: TSchema, value: unknown, path = ''): string | null {
  const s = schema as Schema;
  const at = path || 'config';
  if (s.anyOf) {
    if (s.anyOf.some((m) => problemOf(m as TSchema, value, path) === null)) return null;
    const consts = s.anyOf.filter((m) => 'const' in m);
    if (consts.length && consts.some((m) => typeof m.const === typeof value)) {
      const others = s.anyOf.filter((m) => !('const' in m)).map(expected);
      return `${at}: ${show(value)} is not one of ${consts.map((m) => String(m.const)).join(', ')}${others.length ? ` (or ${others.join(' or ')})` : ''}`;
    }
    // a union of types (null | object, number | null): the problem with the member of the value's type
    const member = s.anyOf.find((m) => !('const' in m) && m.type !== undefined && fits(m, value));
    // a number that may be null: "expected a number from 0 to 1 (or null), got 1.5"
    const number = s.anyOf.find((m) => m.type === 'number' || m.type === 'integer');
    if (number && s.anyOf.length === 2 && s.anyOf.some((m) => m.type === 'null'))
      return `${at}: ${numberProblem({ ...numberRange(number), nullable: true }, value)}`;
    if (!member) return `${at}: expected ${expected(s)}, got ${show(value)}`;
    return problemOf(member as TSchema, value, path);
  }
  if ('const' in s) return s.const === value ? null : `${at}: expected ${expected(s)}, got ${show(value)}`;
  switch (s.type) {
    case 'number':
    case 'integer': {
      const why = numberProblem(numberRange(s), value);
      return why ? `${at}: ${why}` : null;
    }
    case 'string': {
      if (typeof value !== 'string') return `${at}: expected ${expected(s)}, got ${show(value)}`;
      if (
        (s.minLength !== undefined && value.length < (s.minLength as number)) ||
        (s.pattern && !new RegExp(s.pattern as string).test(value))
      )
        return `${at}: expected ${expected(s)}, got ${show(value)}`;
      return null;
    }
    case 'boolean':
    case 'null':
      return fits(s, value) ? null : `${at}: expected ${expected(s)}, got ${show(value)}`;
    case 'array': {
      if (!Array.isArray(value)) return `${at}: expected ${expected(s)}, got ${show(value)}`;
      const lo = s.minItems as number | undefined;
      const hi = s.maxItems as number | undefined;
      if ((lo !== undefined && value.length < lo) || (hi !== undefined && value.length > hi)) {
        const size = hi === undefined ? `at least ${lo} item${lo === 1 ? '' : 's'}` : `${lo ?? 0} to ${hi} items`;
        return `${at}: expected ${typeof s.expected === 'string' ? s.expected : `a list of ${size}`}, got ${value.length}`;
      }
      if (s.items) {
        for (let i = 0; i < value.length; i++) {
          const item = Array.isArray(s.items) ? s.items[i] : s.items;
          const why = item ? problemOf(item as TSchema, value[i], `${path}[${i}]`) : null;
          if (why) return why;
        }
      }
      return null;
    }
    case 'object': {
      if (!isObject(value)) return `${at}: expected ${expected(s)}, got ${show(value)}`;
      const props = s.properties;
      const values = props ? undefined : Object.values(s.patternProperties ?? {})[0];
      for (const [k, v] of Object.entries(value)) {
        if (k.startsWith('_') || (k === '$schema' && !path)) continue;
        const p = props ? (Object.hasOwn(props, k) ? props[k] : undefined) : values; // not Object.prototype's
        if (!p) return `${join(path, k)}: unknown field${props ? didYouMean(k, Object.keys(props)) : ''}`;
        const why = problemOf(p as TSchema, v, join(path, k));
        if (why) return why;
      }
      for (const k of s.required ?? [])
        if (!Object.hasOwn(value, k)) return `${join(path, k)}: required (${expected(props![k]!)})`;
      return null;
    }
    default:
      return null;
  }
}

/** The comments ("_" keys) at a config's root, which a resolved experiment config keeps (results/NAME/config.json shows them). */
export function commentsOf(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([k]) => k.startsWith('_')));
}

/** Fills the defaults and checks; throws `error(message)` naming the first problem. */
export function resolveWith<T extends TSchema>(
  schema: T,
  value: unknown,
  error: (message: string) => Error,
): Static<T> {
  if (!isObject(value)) throw error('config: expected a JSON object');
  const filled = withDefaults(schema, value);
  const why = problemOf(schema, filled);
  if (why) throw error(why);
  return filled as Static<T>;
}

// ---------------------------------------------------------------------------------------------
// What derives from a schema: help lines, numeric fields, the published JSON Schema

interface Leaf {
  path: string;
  schema: Schema;
  optional?: boolean;
}

/** The fields a user sets, depth first: nested objects are walked, lists and maps are one field. */
function leaves(schema: TSchema, path = '', optional = false): Leaf[] {
  const s = schema as Schema;
  if (s.type === 'object' && s.properties)
    return Object.entries(s.properties).flatMap(([k, p]) =>
      leaves(p as TSchema, join(path, k), !(s.required ?? []).includes(k)),
    );
  const objectMember = s.anyOf?.find((m) => m.type === 'object' && m.properties);
  if (objectMember) return [{ path, schema: s }, ...leaves(objectMember as TSchema, path)];
  return [{ path, schema: s, optional }];
}

/**
 * The field at a dotted path of a schema (into objects, and the object member of a nullable
 * section), as a descriptor: its kind, and for numbers their range. Null when no field is there.
 */
export function fieldAt(
  schema: TSchema,
  path: string,
): { kind: 'number' | 'boolean' | 'string' | 'other'; min: number; max: number; integer: boolean } | null {
  let s = schema as Schema;
  for (const key of path.split('.')) {
    const object = s.properties ? s : s.anyOf?.find((m) => m.type === 'object' && m.properties);
    const next = object?.properties && Object.hasOwn(object.properties, key) ? object.properties[key] : undefined;
    if (!next) return null;
    s = next;
  }
  if (s.type === 'number' || s.type === 'integer') return { kind: 'number', ...numberRange(s) };
  const member = s.anyOf?.find((m) => m.type === 'number' || m.type === 'integer');
  if (member) return { kind: 'number', ...numberRange(member) };
  const kind =
    s.type === 'boolean' ? 'boolean' : s.type === 'string' || s.anyOf?.every((m) => 'const' in m) ? 'string' : 'other';
  return { kind, min: -Infinity, max: Infinity, integer: false };
}

/** The numeric fields of a schema as descriptor rows (the crawl CLI's flags, sweeps). */
export function numberFieldsOf(schema: TSchema): (NumberField & { flag?: string })[] {
  return leaves(schema)
    .filter((l) => l.schema.type === 'number' || l.schema.type === 'integer')
    .map(({ path, schema: s }) => ({
      path,
      default: s.default as number,
      ...numberRange(s),
      help: s.description ?? '',
      ...(typeof s.flag === 'string' ? { flag: s.flag } : {}),
    }));
}

function rangeLabel(s: Schema): string {
  if ('const' in s) return JSON.stringify(s.const);
  if (s.anyOf) {
    const consts = s.anyOf.filter((m) => 'const' in m).map((m) => String(m.const));
    const others = s.anyOf.filter((m) => !('const' in m)).map(rangeLabel);
    return [...(consts.length ? [consts.join('|')] : []), ...others].join(' or ');
  }
  if (s.type === 'number' || s.type === 'integer') {
    const r = numberRange(s);
    const [lo, hi] = r.open ? ['(', ')'] : ['[', ']'];
    return `${r.max === Infinity ? `>= ${r.min}` : `${lo}${r.min}, ${r.max}${hi}`}${r.integer ? ' whole' : ''}`;
  }
  if (s.type === 'array') return 'list';
  if (s.type === 'object') return s.properties ? 'object' : 'map';
  return s.type ?? 'any';
}

/** One line per field for --help: path, default, type or range, help. */
export function schemaHelp(schema: TSchema, indent = '  '): string {
  const rows = leaves(schema).map(({ path, schema: s, optional }) => {
    const d = 'default' in s ? (JSON.stringify(s.default) ?? '') : optional ? '(optional)' : '(required)';
    const def = d === 'null' && s.default === Infinity ? 'unlimited' : d;
    return [path, def.length > 28 ? `${def.slice(0, 25)}...` : def, rangeLabel(s), s.description ?? ''];
  });
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)) + 2);
  return rows
    .map((r) => `${indent}${r[0]!.padEnd(w[0]!)}${r[1]!.padEnd(w[1]!)}${r[2]!.padEnd(w[2]!)}${r[3]}\n`)
    .join('');
}

/** A field a config may leave out: it has a default, or it is an object whose fields all may be left out. */
function mayBeLeftOut(s: Schema): boolean {
  if ('default' in s) return true;
  return s.type === 'object' && !!s.properties && (s.required ?? []).every((k) => mayBeLeftOut(s.properties![k]!));
}

/**
 * The schema as a JSON Schema document for schemas/NAME.schema.json: fields with defaults are
 * not required (a config may leave them out), a root "$schema" is allowed, Infinity defaults
 * (which JSON cannot write) are left out, and the project's own keywords are dropped.
 */
export function publishedSchema(schema: TSchema, o: { id: string; title: string; description: string }): object {
  const clean = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => clean(n, false));
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'flag' || k === 'expected' || k === 'additionalItems') continue;
      // what only the published schema says (e.g. the built-in strategies' names as an enum, for
      // editors; the loader checks names itself, with a did-you-mean)
      if (k === 'published') {
        Object.assign(out, v);
        continue;
      }
      // a tuple (TypeBox writes draft-07's items array) in draft 2020-12's words
      if (k === 'items' && Array.isArray(v)) {
        out.prefixItems = clean(v, false);
        out.items = false;
        continue;
      }
      if (k === 'default' && v === 'Infinity') continue;
      if (k === 'properties' || k === 'patternProperties') {
        out[k] = Object.fromEntries(Object.entries(v as object).map(([p, c]) => [p, clean(c, false)]));
        continue;
      }
      out[k] = clean(v, false);
    }
    if (Array.isArray(node.required) && isObject(node.properties)) {
      const props = node.properties as Record<string, Schema>;
      const required = (node.required as string[]).filter((k) => !mayBeLeftOut(props[k]!));
      if (required.length) out.required = required;
      else delete out.required;
    }
    if (root)
      out.properties = {
        $schema: { type: 'string', description: 'this file: editors complete and check the config' },
        ...(out.properties as object),
      };
    return out;
  };
  const body = clean(JSON.parse(JSON.stringify(schema, (_k, v) => (v === Infinity ? 'Infinity' : v))), true) as Record<
    string,
    unknown
  >;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: o.id,
    title: o.title,
    ...body,
    description: o.description,
  };
}
