/**
 * Every experiment family and command, a line each: a new family is its folder (with a family.ts
 * exporting an ExperimentFamily, experiments/family-contract.ts) and its line here; a command that runs on
 * another family's configs (`npm run experiment -- VERB CONFIG`) its command.ts and its line.
 * Order does not matter: experiments/families.ts lists them by name, asking the fallback family
 * (the one that claims any config) last.
 */
export { deepweb } from './deepweb/family.ts';
export { distributed } from './distributed/family.ts';
export { focused } from './focused/family.ts';
export { sweep } from './sweep/family.ts';
export { twinValidation } from './twin/command.ts';
