/** What the sim commands share: the web config and the random seed, checked (lib/cli.ts is the rest). */
import { intFlag, usage } from '../../lib/cli.ts';
import { ConfigError, loadConfig, type WebConfig } from '../config.ts';

export const DEFAULT_WEB = 'data/webs/paper.json';

/** --web (a config file) and --seed (the web's random seed), or a UsageError naming the bad one. */
export function webAndSeed(values: { web?: string; seed?: string }): { config: WebConfig; seed: number } {
  let config: WebConfig;
  try {
    config = loadConfig(values.web ?? DEFAULT_WEB);
  } catch (e) {
    if (e instanceof ConfigError) usage(e.message);
    throw e;
  }
  const seed = intFlag('seed', values.seed, 0, 2 ** 32 - 1) ?? 1;
  return { config, seed };
}
