/**
 * npm run sim:fit-blind -- [--webs N] [--draw S] [--departments D] [--pages P] [fit options]
 * The twin fit checked blind (experiments/twin/blind.ts): webs drawn at random from the knobs'
 * ranges, fitted back; per knob whether it is identified and whether the drawn value lies in its
 * interval, per web whether the fit's loss is within the web's own noise.
 */
import { type CliIo, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';
import type { BlindWeb } from '../twin/blind.ts';
import { defaultRestarts, FIT_BUDGET, PROFILE_STEPS, TWIN_KNOBS, tradesLine } from '../twin/fit.ts';
import { BLIND_FLAGS, blindOptions } from './blind-flags.ts';

const USAGE = `Usage: npm run sim:fit-blind -- [options]

Draws webs whose knobs are uniform over their ranges (npm run sim:fit -- --help lists them),
writes each as an archive at web seed 101 (a sample of its pages, as sim:fit reads a collection),
fits the generator back and reports, per knob, the drawn value, the fit, its interval and whether
it is identified; per web, whether the fit's loss is within the web's own seed-to-seed noise (at
most the 90th percentile of the drawn values' loss against the archive at web seeds 1-8). Papers
by URL are the target, as in webkb-papers.

Options:
  --webs N          webs drawn (default 4)
  --draw S          the draw's seed (default 1)
  --departments D   departments a web (default 4, as WebKB)
  --pages P         HTML pages a department (default 1000, about a WebKB department's)
  --budget N        generator evaluations of each fit's search (default 288, as sim:fit)
  --restarts N      searches a fit (default: one per 96 evaluations, 1 to 3, as sim:fit)
  --profile N       points of each knob's profile (default 5)
  --profile-steps N evaluations re-optimising the other knobs at each profile point (default ${PROFILE_STEPS})
  --check-seeds K   web seeds 1..K every evaluation is measured at (default 1)
  --free K,...      knobs searched (default all); the others held at their drawn values
  --conventions X   set structure.conventions to X instead of drawing it (0: no heterogeneity)
`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(argv, io, USAGE, { ...BLIND_FLAGS, free: { type: 'string' } }, false);
  if (!parsed) return 0;
  const v = parsed.values;
  const opts = blindOptions(v, {
    webs: 4,
    departments: 4,
    pages: 1000,
    budget: FIT_BUDGET,
    restarts: defaultRestarts,
    profileMin: 0,
  });
  const free = v.free?.split(',').filter(Boolean);
  for (const k of free ?? [])
    if (!TWIN_KNOBS.some((t) => t.path === k))
      usage(`--free: "${k}" is not a knob (${TWIN_KNOBS.map((t) => t.path).join(', ')})`);
  const { fit } = opts;
  const t0 = performance.now();
  io.out(
    `blind round trip: ${opts.webs} webs of ${opts.sizes.length} departments x ${opts.sizes[0]} HTML pages ` +
      `(draw ${opts.seed}), fits of ${fit.budget} evaluations in ${fit.restarts} searches, ` +
      `profile ${fit.profile}, check seeds 1-${fit.checkSeeds.length}\n`,
  );
  const all: BlindWeb[] = [];
  // the generator and the fit load after the flags are read: --help does not load them
  const { blindRoundTrip } = await import('../twin/blind.ts');
  await blindRoundTrip(
    { ...opts, free },
    (i, w) => {
      all.push(w);
      io.out(
        `\nweb ${i}: fit loss ${w.fit.loss.toFixed(3)} (restarts ` +
          `${w.fit.restarts.map((r) => r.loss.toFixed(2)).join(', ')}); the drawn values' own loss ` +
          `at seeds 1-8: ${w.truthLosses.map((x) => x.toFixed(2)).join(', ')}: ` +
          `${w.lossWithinNoise ? 'within' : 'NOT within'} its noise; threshold ` +
          `${w.fit.threshold.toFixed(3)}, ${w.fit.accepted} ` +
          `points accepted (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`,
      );
      io.out(`  ${'knob'.padEnd(36)} ${'drawn'.padStart(8)} ${'fitted'.padStart(8)}  interval         verdict\n`);
      for (const k of w.knobs)
        io.out(
          `  ${k.path.padEnd(36)} ${String(k.drawn).padStart(8)} ${String(k.fitted).padStart(8)}  ` +
            `${`[${k.lo}, ${k.hi}]`.padEnd(16)} ` +
            `${k.identified ? (k.covered ? 'identified, covers the drawn value' : 'identified, MISSES the drawn value') : 'not identified'}\n`,
        );
      io.out(`  ${tradesLine(w.fit.trades)}\n`);
    },
    (i, why) => io.out(`\nweb ${i}: SKIPPED, the fit cannot take it: ${why}\n`),
  );
  const knobs = all.flatMap((w) => w.knobs);
  const identified = knobs.filter((k) => k.identified);
  io.out(
    `\n${all.filter((w) => w.lossWithinNoise).length} of ${all.length} fits within their ` +
      `web's own noise; ${identified.length} of ${knobs.length} knob fits ` +
      `identified, ${identified.filter((k) => k.covered).length} of them covering the drawn ` +
      `value; ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
  );
  return all.every((w) => w.lossWithinNoise) && identified.every((k) => k.covered) ? 0 : 1;
}

await runAsProcess(main, import.meta);
