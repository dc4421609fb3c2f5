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

/** The shipped experiment configs, found by name from any folder (a researcher's own config is given by its path). */
export const CONFIG_DIR = shipped('experiments/configs');

/** A config that cannot run: exit code 2, one line naming the field. */
export class ExperimentConfigError extends Error {
  readonly code = 'EXP_ERR_CONFIG';
}

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
        : `unknown experiment "${name}"; known: ${listExperiments(dir).join(', ')}`,
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
  o: { name: string; quick?: boolean; seeds?: number; prefix?: string },
): Static<T> & { name: string } {
  const fail = (m: string): ExperimentConfigError => new ExperimentConfigError(o.prefix ? `${o.prefix}: ${m}` : m);
  const quick = o.quick ? (raw.quick ?? (defaultsOf(schema) as { quick?: unknown }).quick ?? {}) : {};
  if (!isObject(quick)) throw fail('quick: expected an object of fields');
  const filled = withDefaults(schema, overlay(schema, raw, quick));
  const why = problemOf(schema, filled);
  if (why) throw fail(why);
  const c = { ...commentsOf(raw), ...(filled as object), name: o.name } as Static<T> & {
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
