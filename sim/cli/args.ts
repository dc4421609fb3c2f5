/** What the sim commands share: the web config and the random seed, checked (lib/cli.ts is the rest). */
import { intFlag } from '../../lib/cli.ts';
import { loadConfig, type WebConfig } from '../config.ts';

export const DEFAULT_WEB = 'data/webs/paper.json';

/** --web (a config file) and --seed (the web's random seed), or a UsageError naming the bad one. */
export function webAndSeed(values: { web?: string; seed?: string }): { config: WebConfig; seed: number } {
  // a config that is not valid is a ConfigError: exit 2 by the table (lib/errors.ts)
  const config = loadConfig(values.web ?? DEFAULT_WEB);
  const seed = intFlag('seed', values.seed, 0, 2 ** 32 - 1) ?? 1;
  return { config, seed };
}
