/**
 * npm run sim:fit -- CONFIG [--hold-out SITE] [--budget N] [--seed S] [--check-seeds K] [--out FILE]
 * Measures an archive experiment's sites and fits the generator to them (experiments/twin/).
 */
import { type CliIo, parseCommand, runAsProcess } from '../../lib/cli.ts';
import { PROFILE_STEPS, TWIN_KNOBS, TWIN_TARGETS } from '../twin/fit.ts';

const USAGE = `Usage: npm run sim:fit -- CONFIG [options]
   or: npm run sim:fit -- --warc FILE[,FILE] --labels FILE (--relevant LABEL[,...] | --papers) [options]

Measures every site of an archive experiment (CONFIG: a name in experiments/configs/ or a path)
as a crawler meets it under the config's hole policy, fits the generator's knobs to those
statistics, and writes the twin: a web config with the fitted values, the loss and every
statistic side by side with its tolerance (under "_fit").

Without a config, an archive is named by its files: --relevant the labels that are the target,
or --papers for documents whose URL ends in .pdf/.ps (compressed too); every host with a relevant
label is a site, holes closed, known documents as in any archive experiment. Such a WARC is read
as a crawler writes one: every response a record, so a twin's links to moved pages lead to them
and its linked files were fetched (--collection pages: a collection of HTML pages, as WebKB).

Options:
  --hold-out SITE   fit to the other sites only (the twin validation does this for each site)
  --budget N        generator evaluations of the search, shared by the restarts (default 288)
  --restarts N      independent searches, the first from the generator's defaults (default: one per
                    96 evaluations of the budget, 1 to 3)
  --seed S          the optimiser's seed and the web seed of each evaluation (default 1)
  --check-seeds K   web seeds 1..K every evaluation is measured at, the loss over all of them (default 3)
  --profile N       points of the loss profile along each knob (default 7; 0: none)
  --profile-steps N evaluations at each profile point that re-optimise the other knobs (profile
                    likelihood; default ${PROFILE_STEPS}; 0: the others held at the fit, a slice). Knobs that
                    moved together along a profile are listed as trading against each other.
                    Every point evaluated (restarts and profile) whose loss is at most what
                    the fitted web scores against itself at other web seeds (90th percentile) fits as
                    well as the true knobs would: a knob whose values over those points span more
                    than half its range is flat, not identified by the statistics
  --out FILE        the twin's config (default data/webs/NAME-twin.json)
  --collection C    with --warc, how the archive was made: "crawl" (default: a crawler's WARC)
                    or "pages" (HTML pages, redirects lost; the archive's "collection")
  --own WEB         also the archive's loss at that generated web's own knobs (the sample and the
                    scale fitted, 16 evaluations) against the fit's threshold: for a
                    crawl of a generated web, whether the fit's region holds the web it came from
  --scale K,...     also write the twin at K times its departments' size (NAME-twin-xK.json): a
                    larger web of the same kind, unsampled; an extrapolation, and its _doc says so

Knobs searched (experiments/twin/fit.ts TWIN_KNOBS), range:
${TWIN_KNOBS.map((k) => `  ${k.path.padEnd(38)} ${k.min}..${k.max}${k.integer ? ' (whole)' : ''}  ${k.help}`).join('\n')}
Statistics fitted (TWIN_TARGETS), tolerance:
${TWIN_TARGETS.map((t) => `  ${t.stat.padEnd(20)} ${t.relative ? `${t.tolerance * 100}% of the archive's` : `±${t.tolerance}`}`).join('\n')}
`;

export const FIT_OPTIONS = {
  'hold-out': { type: 'string' },
  budget: { type: 'string' },
  seed: { type: 'string' },
  'check-seeds': { type: 'string' },
  profile: { type: 'string' },
  'profile-steps': { type: 'string' },
  restarts: { type: 'string' },
  out: { type: 'string' },
  scale: { type: 'string' },
  own: { type: 'string' },
  warc: { type: 'string' },
  labels: { type: 'string' },
  relevant: { type: 'string' },
  papers: { type: 'boolean' },
  collection: { type: 'string' },
} as const;
export type FitFlags = NonNullable<ReturnType<typeof parseCommand<typeof FIT_OPTIONS>>>;

/** --help answered from this module alone; the fit and the archive reader load after it (fit-run.ts). */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(argv, io, USAGE, FIT_OPTIONS, true);
  if (!parsed) return 0;
  return (await import('./fit-run.ts')).runFit(parsed, io);
}

await runAsProcess(main, import.meta);
