/**
 * Every experiment family, one contract (experiments/family.ts): `npm run experiment`
 * (experiments/cli/experiment.ts) gives a config to the first family whose claims() accepts it,
 * the focused family (the default) last; its help, `npm run schemas` and `npm run report` read
 * the list too. A new family is its folder with a family.ts and one entry here; a command that
 * runs on another family's configs (`npm run experiment -- VERB CONFIG`) its command.ts and one
 * entry in COMMANDS.
 */
import type { ExperimentCommand, ExperimentFamily } from './family.ts';
import { deepweb } from './deepweb/family.ts';
import { distributed } from './distributed/family.ts';
import { focused } from './focused/family.ts';
import { sweep } from './sweep/family.ts';
import { twinValidation } from './twin/command.ts';

export type { ExperimentCommand, ExperimentFamily, FamilyContext, ProgressBar } from './family.ts';

/** Every family, the default last. */
export const FAMILIES: readonly ExperimentFamily<never>[] = [
  distributed as ExperimentFamily<never>,
  deepweb as ExperimentFamily<never>,
  sweep as ExperimentFamily<never>,
  focused as ExperimentFamily<never>,
];

/** Every command by its verb. */
export const COMMANDS: readonly ExperimentCommand[] = [twinValidation];

export function familyOf(raw: unknown): ExperimentFamily<unknown> {
  return FAMILIES.find((f) => f.claims(raw)) as unknown as ExperimentFamily<unknown>;
}
