/**
 * Every experiment family, one contract (experiments/family-contract.ts), registered a line each in
 * experiments/registry.ts: `npm run experiment` (experiments/cli/experiment.ts) gives a config to
 * the first family whose claims() accepts it, the fallback family (focused: any config no other
 * claims) last; its help, `npm run schemas` and `npm run report` read the list too.
 */
import type { ExperimentCommand, ExperimentFamily } from './family-contract.ts';
import * as registered from './registry.ts';

export type { ExperimentCommand, ExperimentFamily, FamilyContext, ProgressBar } from './family-contract.ts';

const entries = Object.values(registered) as (ExperimentFamily<never> | ExperimentCommand)[];
const isCommand = (x: ExperimentFamily<never> | ExperimentCommand): x is ExperimentCommand => 'verb' in x;
const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every family ordered by its id, the fallback last. Explicitly: the order of a module namespace's
 * values differs between runners (Node sorts the export names, vitest keeps declaration order).
 */
export const FAMILIES: readonly ExperimentFamily<never>[] = entries
  .filter((x): x is ExperimentFamily<never> => !isCommand(x))
  .sort((a, b) => Number(a.fallback ?? false) - Number(b.fallback ?? false) || byName(a.id, b.id));

/** Every command ordered by its verb. */
export const COMMANDS: readonly ExperimentCommand[] = entries.filter(isCommand).sort((a, b) => byName(a.verb, b.verb));

export function familyOf(raw: unknown): ExperimentFamily<unknown> {
  return FAMILIES.find((f) => f.claims(raw)) as unknown as ExperimentFamily<unknown>;
}
