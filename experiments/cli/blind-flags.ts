/**
 * The flags of a blind round trip, read once for the two commands that run one: npm run
 * sim:fit-blind (a few webs, each reported) and npm run bench:twin (many, counted), and the fit's
 * search flags they share with npm run sim:fit (searchFlags). Each command gives its own defaults;
 * the ranges and the errors are the same.
 */
import { intFlag, usage } from '../../lib/cli.ts';
import { PAPER_EXTENSIONS } from '../../lib/document-types.ts';
import type { BlindOptions } from '../twin/blind.ts';
import { PROFILE_STEPS } from '../twin/fit.ts';

export const BLIND_FLAGS = {
  webs: { type: 'string' },
  draw: { type: 'string' },
  departments: { type: 'string' },
  pages: { type: 'string' },
  budget: { type: 'string' },
  restarts: { type: 'string' },
  profile: { type: 'string' },
  'profile-steps': { type: 'string' },
  'check-seeds': { type: 'string' },
  conventions: { type: 'string' },
} as const;

export interface BlindDefaults {
  webs: number;
  departments: number;
  pages: number;
  budget: number;
  restarts: (budget: number) => number;
  /** The fewest profile points allowed (0: no profile). */
  profileMin: number;
}

/** The round trip's options from the flags (a usage error, exit 2, for one out of range); the fit's seed 1, web seed 101. */
export function blindOptions(
  v: Partial<Record<keyof typeof BLIND_FLAGS, string>>,
  d: BlindDefaults,
): BlindOptions & { fit: { budget: number; restarts: number; profile: number; profileSteps: number } } {
  const whole = (flag: keyof typeof BLIND_FLAGS, dflt: number, min: number, max: number): number =>
    intFlag(flag, v[flag], min, max) ?? dflt;
  const { budget, restarts, checks, profile, profileSteps } = searchFlags(v, {
    budget: d.budget,
    restarts: d.restarts,
    checks: 1,
    profile: 5,
    profileMin: d.profileMin,
  });
  let set: Record<string, number> | undefined;
  if (v.conventions !== undefined) {
    const x = Number(v.conventions);
    if (!(x >= 0 && x <= 1)) usage(`--conventions: "${v.conventions}" must be a number from 0 to 1`);
    set = { 'structure.conventions': x };
  }
  return {
    webs: whole('webs', d.webs, 1, 1000),
    seed: whole('draw', 1, 0, 2 ** 31),
    sizes: Array(whole('departments', d.departments, 2, 50)).fill(whole('pages', d.pages, 100, 100_000)),
    archiveSeed: 101,
    // papers by URL, as webkb-papers
    spec: { documents: [...PAPER_EXTENSIONS], relevantDocuments: [...PAPER_EXTENSIONS], relevantLabels: [] },
    viaArchive: true,
    ...(set ? { set } : {}),
    fit: {
      seed: 1,
      budget,
      restarts,
      profile,
      profileSteps,
      checkSeeds: Array.from({ length: checks }, (_, i) => i + 1),
    },
  };
}

/**
 * The fit's search from the command line, shared by sim:fit and the blind round trip: the budget,
 * the restarts (at least 4 evaluations each), the check seeds and the profile; a usage error
 * (exit 2) for one out of range.
 */
export function searchFlags(
  v: Partial<Record<string, string | boolean>>,
  d: { budget: number; restarts: (budget: number) => number; checks: number; profile: number; profileMin: number },
): { budget: number; restarts: number; checks: number; profile: number; profileSteps: number } {
  const whole = (flag: string, dflt: number, min: number, max: number): number =>
    intFlag(flag, v[flag] as string | undefined, min, max) ?? dflt;
  const budget = whole('budget', d.budget, 4, 10_000);
  const restarts = whole('restarts', d.restarts(budget), 1, 20);
  if (budget < 4 * restarts) usage(`--budget: ${budget} evaluations for ${restarts} restarts: at least 4 each`);
  return {
    budget,
    restarts,
    checks: whole('check-seeds', d.checks, 1, 20),
    profile: whole('profile', d.profile, d.profileMin, 50),
    profileSteps: whole('profile-steps', PROFILE_STEPS, 0, 1000),
  };
}
