/**
 * Experiment config files, whatever their family: the shipped ones found by name
 * (experiments/configs/NAME.json) or a researcher's own by its path, read as JSON and not yet
 * resolved (the family that claims a config resolves it: experiments/families.ts), and the one
 * error every family's config problem is.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { shipped } from '../lib/paths.ts';

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
    return { name, raw: JSON.parse(readFileSync(isFile ? nameOrFile : join(dir, `${name}.json`), 'utf8')) };
  } catch (e) {
    throw new ExperimentConfigError(`${name}.json: ${(e as Error).message}`);
  }
}
