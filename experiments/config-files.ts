/**
 * Experiment config files, whatever their family: the shipped ones found by name
 * (experiments/configs/NAME.json) or a researcher's own by its path, read as JSON and not yet
 * resolved (the family that claims a config resolves it: experiments/families.ts), and the one
 * error every family's config problem is.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readJsonFile } from '../lib/input.ts';
import { basename, join } from 'node:path';
import { shipped } from '../lib/paths.ts';
import { didYouMean } from '../lib/strings.ts';
import { prototypePart } from '../lib/fields.ts';
import {
  commentsOf,
  optional,
  str,
  defaultsOf,
  overlay,
  problemOf,
  type Static,
  type TSchema,
  Type,
  withDefaults,
} from '../lib/schema.ts';
import { ExperimentConfigError } from '../lib/errors.ts';

/** The shipped experiment configs, found by name from any folder (a researcher's own config is given by its path). */
export const CONFIG_DIR = shipped('experiments/configs');

/** A config that cannot run: exit code 2, one line naming the field (lib/errors.ts). */
export { ExperimentConfigError } from '../lib/errors.ts';

export function listExperiments(dir = CONFIG_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** Reads experiments/configs/NAME.json, or a config file given by its path (ending in .json), unvalidated. */
export function readExperimentJson(nameOrFile: string, dir = CONFIG_DIR): { name: string; raw: unknown } {
  const isFile = nameOrFile.endsWith('.json');
  const name = isFile ? basename(nameOrFile, '.json') : nameOrFile;
  if (isFile ? !existsSync(nameOrFile) : !/^[a-z0-9][a-z0-9_-]*$/i.test(name) || !listExperiments(dir).includes(name)) {
    throw new ExperimentConfigError(
      isFile
        ? `${nameOrFile}: no such file`
        : `unknown experiment "${name}"${didYouMean(name, listExperiments(dir))}; known: ${listExperiments(dir).join(', ')}`,
    );
  }
  try {
    const file = isFile ? nameOrFile : join(dir, `${name}.json`);
    return { name, raw: readJsonFile(file, isFile ? nameOrFile : `${name}.json`) };
  } catch (e) {
    throw new ExperimentConfigError((e as Error).message);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A family's config resolved by its schema (lib/schema.ts): with `quick`, the config's "quick"
 * fields laid over it (a closed section such as "crawl" merged one level, anything else
 * replaced); the defaults filled; the first problem an ExperimentConfigError naming its path
 * (after `prefix`, when given); the root's comments kept; with `seeds`, seeds 1..K. Checks across
 * fields are the family's, after this.
 */
export function resolveBySchema<T extends TSchema>(
  schema: T,
  raw: Record<string, unknown>,
  o: { name: string; quick?: boolean; seeds?: number; prefix?: string; overrides?: readonly string[] },
): Static<T> & { name: string } {
  const fail = (m: string): ExperimentConfigError => new ExperimentConfigError(o.prefix ? `${o.prefix}: ${m}` : m);
  const quick = o.quick ? (raw.quick ?? (defaultsOf(schema) as { quick?: unknown }).quick ?? {}) : {};
  if (!isObject(quick)) throw fail('quick: expected an object of fields');
  const merged = overlay(schema, raw, quick);
  const filled = withDefaults(schema, o.overrides?.length ? withOverrides(merged, o.overrides) : merged);
  const why = problemOf(schema, filled);
  if (why) throw fail(why);
  // a config may carry its own name (a results folder's config.json does: a rerun writes the same folder)
  const name = typeof (filled as { name?: unknown }).name === 'string' ? (filled as { name: string }).name : o.name;
  const c = { ...commentsOf(raw), ...(filled as object), name } as Static<T> & {
    name: string;
    seeds?: number[];
  };
  if (o.seeds !== undefined) c.seeds = Array.from({ length: o.seeds }, (_, i) => i + 1);
  return c;
}

/** A config's "name": the results folder's name, so a word a file system takes (letters, digits, - and _; at most 100). */
export const nameField = () =>
  optional(
    str({
      pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$',
      expected: 'letters, digits, - and _ (at most 100)',
      help: 'the results folder name (default: the file name)',
    }),
  );

/** A family's "quick" field: the fields --quick lays over the config (resolveBySchema). */
export const quickField = (defaults: Record<string, unknown> = {}, help = 'fields --quick overrides') =>
  Type.Record(Type.String(), Type.Unknown(), { default: defaults, description: help });

/** A resolved config of a family's schema: its name set, its quick fields typed as the config's own. */
export type FamilyConfig<S extends TSchema> = Omit<Static<S>, 'name' | 'quick'> & {
  name: string;
  quick: Partial<Omit<Static<S>, 'quick' | 'name' | 'kind'>>;
};

/**
 * The text of a results folder's config.json: the resolved config (`body`, whose "quick" fields
 * were applied already, so the file holds none) and, as a comment, the command that made it.
 * Resolving the file gives the same config: `npm run experiment -- DIR/config.json` reruns it as is
 * (test/config-rerun.test.ts, for every family and shipped config).
 */
export function configFileText(rerun: string, body: Record<string, unknown>): string {
  const { quick: _quick, _rerun: _old, ...rest } = body;
  return `${JSON.stringify({ _rerun: rerun, ...rest, quick: {} }, null, 2)}\n`;
}

/** One `--set PATH=VALUE`: its dotted path and its value (JSON, else the string). */
export function parseOverride(set: string): { path: string; value: unknown } {
  const eq = set.indexOf('=');
  const path = eq < 0 ? '' : set.slice(0, eq).trim();
  if (eq < 0 || !/^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/.test(path))
    throw new ExperimentConfigError(
      `--set: "${set}": expected PATH=VALUE with a dotted field path (e.g. crawl.delayMs=0)`,
    );
  const bad = prototypePart(path);
  if (bad !== undefined) throw new ExperimentConfigError(`--set: "${set}": "${bad}" is not a field name`);
  const text = set.slice(eq + 1);
  try {
    return { path, value: JSON.parse(text) };
  } catch {
    // a bare word or path: the string itself
    return { path, value: text };
  }
}

/**
 * A config with `--set PATH=VALUE` overrides laid over it (as Hydra's): PATH is a dotted field path
 * (`budget`, `crawl.delayMs`, `archive.holes`), VALUE JSON when it parses as JSON (`600`, `true`,
 * `["bfs","future"]`, `null`), else the string itself (`data/webs/small.json`). Laid over the
 * config after its "quick" fields (resolveBySchema), so an override wins. The schema then checks every
 * field as usual (an unknown path is an unknown field, with its did-you-mean), and the results'
 * config.json records the values. Throws an ExperimentConfigError on a malformed override.
 */
export function withOverrides(raw: Record<string, unknown>, sets: readonly string[]): Record<string, unknown> {
  const out = structuredClone(raw);
  for (const set of sets) {
    const { path, value } = parseOverride(set);
    const parts = path.split('.');
    let o = out;
    for (const p of parts.slice(0, -1)) {
      if (o[p] === undefined || o[p] === null) o[p] = {};
      if (!isObject(o[p]))
        throw new ExperimentConfigError(`--set: "${set}": ${p} is not a section of fields, so ${path} names nothing`);
      o = o[p] as Record<string, unknown>;
    }
    o[parts[parts.length - 1]] = value;
  }
  return out;
}
