/**
 * Web configuration: a config file (JSON under data/webs/) overrides any subset of DEFAULTS;
 * validate() checks the merged result and names the first bad field. The parameters, their
 * defaults, allowed ranges and sources are declared in config-schema.ts.
 */
import { readJsonFile } from '../lib/input.ts';
import { resource } from '../lib/paths.ts';
import { getPath } from '../lib/fields.ts';
import { problemOf, withDefaults } from '../lib/schema.ts';
import { ConfigError } from '../lib/errors.ts';

export {
  type BackgroundKind,
  type Charset,
  DEFAULTS,
  type DepartmentConfig,
  ROBOTS_PROFILES,
  type RobotsProfile,
  type WebConfig,
  WebSchema,
} from './config-schema.ts';
import { type WebConfig, WebSchema } from './config-schema.ts';

/** Fields whose maximum is another field (min <= max). */
const MIN_MAX: [string, string][] = [
  ['background.pagesMin', 'background.pagesMax'],
  ['structure.gapMin', 'structure.gapMax'],
  ['structure.lecturesMin', 'structure.lecturesMax'],
  ['links.extraMin', 'links.extraMax'],
  ['text.wordsMin', 'text.wordsMax'],
];

/** A web config that is not valid (lib/errors.ts: SIM_ERR_CONFIG, exit 2). */
export { ConfigError } from '../lib/errors.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks across fields of a resolved config (each field alone is the schema's); throws ConfigError naming the first bad one. */
export function validate(c: WebConfig): WebConfig {
  const why = problemOf(WebSchema, c);
  if (why) throw new ConfigError(why);
  const hosts = new Set<string>();
  const once = (h: string, p: string): void => {
    if (hosts.has(h)) throw new ConfigError(`${p}.host: "${h}" is used twice`);
    hosts.add(h);
  };
  c.departments.forEach((d, i) => once(d.host, `departments[${i}]`));
  c.deepweb.sites.forEach((d, i) => once(d.host, `deepweb.sites[${i}]`));
  for (const [lo, hi] of MIN_MAX)
    if ((getPath(c, hi) as number) < (getPath(c, lo) as number))
      throw new ConfigError(`${hi}: expected at least ${lo} (${getPath(c, lo)}), got ${getPath(c, hi)}`);
  const g = c.geo;
  const R = g.regions.length;
  for (const k of ['rttMs', 'bandwidthMBps'] as const)
    if (g[k].length !== R || g[k].some((row) => row.length !== R))
      throw new ConfigError(`geo.${k}: expected a ${R} x ${R} matrix (one row and column per region)`);
  if (g.siteShares.length !== R) throw new ConfigError(`geo.siteShares: expected ${R} shares, one per region`);
  if (!g.siteShares.some((x) => x > 0)) throw new ConfigError('geo.siteShares: at least one share must be above 0');
  return c;
}

/** Fills a partial config (parsed JSON) with the schema's defaults and validates it. */
export function resolveConfig(partial: unknown): WebConfig {
  if (!isObject(partial)) throw new ConfigError('config: expected a JSON object');
  return validate(withDefaults(WebSchema, partial) as WebConfig);
}

export function loadConfig(file: string): WebConfig {
  let json: unknown;
  try {
    json = readJsonFile(resource(file), file);
  } catch (e) {
    throw new ConfigError((e as Error).message, { cause: e });
  }
  try {
    return resolveConfig(json);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`${file}: ${e.message}`, { cause: e });
    throw e;
  }
}
