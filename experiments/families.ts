/**
 * Every experiment family, one contract (experiments/family.ts), registered a line each in
 * experiments/registry.ts: `npm run experiment` (experiments/cli/experiment.ts) gives a config to
 * the first family whose claims() accepts it, the fallback family (focused: any config no other
 * claims) last; its help, `npm run schemas` and `npm run report` read the list too.
 */
import type { ExperimentCommand, ExperimentFamily } from './family.ts';
import * as registered from './registry.ts';

export type { ExperimentCommand, ExperimentFamily, FamilyContext, ProgressBar } from './family.ts';

const entries = Object.values(registered) as (ExperimentFamily<never> | ExperimentCommand)[];
const isCommand = (x: ExperimentFamily<never> | ExperimentCommand): x is ExperimentCommand => 'verb' in x;

/** Every family by its registered name, the fallback last. */
export const FAMILIES: readonly ExperimentFamily<never>[] = entries
  .filter((x): x is ExperimentFamily<never> => !isCommand(x))
  .sort((a, b) => Number(a.fallback ?? false) - Number(b.fallback ?? false));

/** Every command by its verb. */
export const COMMANDS: readonly ExperimentCommand[] = entries.filter(isCommand);

export function familyOf(raw: unknown): ExperimentFamily<unknown> {
  return FAMILIES.find((f) => f.claims(raw)) as unknown as ExperimentFamily<unknown>;
}
