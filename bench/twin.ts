/**
 * npm run bench:twin: the twin fit's coverage measured, not asserted (issue #72). Webs whose knobs
 * are drawn uniformly from their ranges (experiments/twin/blind.ts: nobody chose them), each
 * written as an archive and fitted back with the profile likelihood; per knob, how often the fit
 * called it identified, how often an identified interval held the drawn value, and how often it was
 * flat. The webs are fitted on worker processes (one per core by default); the table does not
 * depend on which process fitted what.
 */
import { availableParallelism } from 'node:os';
import { type CliIo, intFlag, parseCommand, runAsProcess } from '../lib/cli.ts';
import { moduleUrl, shipped } from '../lib/paths.ts';
import { runInProcesses } from '../experiments/pool.ts';
import {
  acceptanceFactor,
  type BlindWeb,
  coverageOf,
  ownAcceptance,
  type SkippedWeb,
} from '../experiments/twin/blind.ts';
import { BLIND_FLAGS, blindOptions } from '../experiments/cli/blind-flags.ts';
import { IDENTIFIED_SHARE, PROFILE_STEPS, SELF_LOSS_FACTOR } from '../experiments/twin/fit.ts';
import { recordBench } from './record.ts';
import { wilson } from '../experiments/intervals.ts';

const USAGE = `Usage: npm run bench:twin [-- options]

Fits N blind webs (knobs drawn at random, papers by URL the target, each web written as a WARC at
web seed 101 and read back) and prints, per knob, how often it was identified, how often those
intervals held the drawn value (coverage; the fit promises 90%) and how often it was flat.

Options:
  --webs N          webs drawn (default 20)
  --draw S          the draw's seed (default 1)
  --departments D   departments a web (default 3)
  --pages P         HTML pages a department (default 400)
  --budget N        evaluations of each fit's search (default 96)
  --restarts N      searches a fit (default 1)
  --profile N       points of each knob's profile (default 5)
  --profile-steps N re-optimisation of the other knobs at each profile point (default ${PROFILE_STEPS})
  --check-seeds K   web seeds 1..K every evaluation is measured at (default 1)
  --conventions X   set structure.conventions to X instead of drawing it (0: departments without
                    heterogeneity, where the statistics can identify knobs)
  --workers N       processes fitting webs side by side (default: the machine's cores)
  --calibrate       also print the factor on the self-loss bound under which the drawn values score
                    within the threshold in 90% of pairs (experiments/twin/fit.ts SELF_LOSS_FACTOR:
                    read on draws other than the recorded one, e.g. --draw 2)
  --record          write the table into docs/twin.md (bench/record.ts): block bench:twin, or
                    bench:twin-conventions-X and bench:twin-DxP (D departments of P pages) for those flags
`;

/** The bench's webs and fits unless flags say otherwise (the table recorded without flags). */
const DEFAULTS = { webs: 20, departments: 3, pages: 400, budget: 96, restarts: () => 1, profileMin: 2 };

const pct = (a: number, b: number): string => (b ? `${Math.round((100 * a) / b)}%` : '-');

/** "[lo%, hi%]": the Wilson 95% interval of a of b. */
const wilsonText = (a: number, b: number): string => {
  const [lo, hi] = wilson(a, b);
  return `[${Math.round(100 * lo)}%, ${Math.round(100 * hi)}%]`;
};

/** The table of coverageOf, in markdown. */
function coverageTable(webs: readonly BlindWeb[]): string {
  const { knobs, all } = coverageOf(webs);
  const row = (k: ReturnType<typeof coverageOf>['all']): string =>
    `| ${k.path} | ${k.webs} | ${k.identified} | ${k.covered} | ${pct(k.covered, k.identified)} | ${k.flat} | ` +
    `${k.width.toFixed(2)} |`;
  return [
    '| knob | webs | identified | identified, covering the drawn value | coverage | flat | mean interval / range |',
    '|---|---|---|---|---|---|---|',
    ...knobs.map(row),
    row(all),
  ].join('\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {
    ...BLIND_FLAGS,
    workers: { type: 'string' },
    record: { type: 'boolean' },
    calibrate: { type: 'boolean' },
  });
  if (!p) return 0;
  const v = p.values;
  const opts = blindOptions(v, DEFAULTS);
  const workers = intFlag('workers', v.workers, 1, 64) ?? availableParallelism();
  const { webs: n, seed: draw, sizes, fit } = opts;
  const [departments, pages] = [sizes.length, sizes[0]];
  const { budget, restarts, profile, profileSteps } = fit;
  const conventions = opts.set?.['structure.conventions'];
  const checks = fit.checkSeeds.length;
  const setup =
    `${n} blind webs (draw ${draw}) of ${departments} departments x ${pages} HTML pages, papers by URL; ` +
    `each fit ${budget} evaluations in ${restarts} search${restarts === 1 ? '' : 'es'}, a profile of ` +
    `${profile} points a knob with ${profileSteps} evaluations re-optimising the others at each, ` +
    `${checks === 1 ? 'one check seed' : `check seeds 1-${checks}`}` +
    `${conventions === undefined ? '' : `; structure.conventions set to ${conventions}, not drawn`}; ` +
    `a knob is identified when its interval spans at most ${IDENTIFIED_SHARE} of its range`;
  io.out(`bench:twin: ${setup}, on ${Math.min(workers, n)} processes\n`);
  const t0 = performance.now();
  const results: (BlindWeb | SkippedWeb)[] = new Array(n);
  let done = 0;
  await runInProcesses<BlindWeb | SkippedWeb>(
    Array.from({ length: n }, (_, index) => ({
      module: moduleUrl(import.meta.url, '../experiments/twin/blind').href,
      fn: 'blindWebTask',
      arg: { opts, index },
    })),
    workers,
    (i, w) => {
      results[i] = w;
      if ('skipped' in w) {
        io.out(`  web ${i} (${++done}/${n}): SKIPPED, the fit cannot take it: ${w.skipped}\n`);
        return;
      }
      const id = w.knobs.filter((k) => k.identified);
      io.out(
        `  web ${i} (${++done}/${n}, ${((performance.now() - t0) / 1000).toFixed(0)} s): loss ${w.fit.loss.toFixed(3)}, ` +
          `${w.lossWithinNoise ? 'within' : 'NOT within'} its own noise; its own knobs accepted at ` +
          `${w.ownAccepted} of ${w.truthLosses.length} seeds; identified ` +
          `${id.map((k) => `${k.path}${k.covered ? '' : ' (MISSES the drawn value)'}`).join(', ') || 'none'}; ` +
          `${w.fit.trades.length} trade${w.fit.trades.length === 1 ? '' : 's'}\n`,
      );
    },
  );
  const seconds = (performance.now() - t0) / 1000;
  const webs = results.filter((w): w is BlindWeb => !('skipped' in w));
  const skipped = results.length - webs.length;
  const { all } = coverageOf(webs);
  const within = webs.filter((w) => w.lossWithinNoise).length;
  const trades = new Map<string, number>();
  for (const w of webs)
    for (const t of w.fit.trades) {
      const key = [t.along, t.with].sort().join(' and ');
      trades.set(key, (trades.get(key) ?? 0) + 1);
    }
  const own = ownAcceptance(webs);
  const summary =
    `Coverage of identified intervals: ${all.covered} of ${all.identified} (${pct(all.covered, all.identified)}` +
    (all.identified ? ` ${wilsonText(all.covered, all.identified)}` : '') +
    '; ' +
    `the fit promises 90%). **The web an archive came from, within the fit's threshold: ${own.accepted} of ` +
    `${own.pairs} (web, seed) pairs (${pct(own.accepted, own.pairs)} ${wilsonText(own.accepted, own.pairs)}; ` +
    `the threshold promises 90%), ${own.never} of ${webs.length} webs at no seed.** ` +
    (skipped
      ? `${skipped} of ${n} drawn webs skipped: the fit cannot take them (too few pages or relevant items). `
      : '') +
    `${all.flat} of ${all.webs} knob fits flat; ${within} of ${webs.length} fits within their ` +
    `web's own seed-to-seed noise. Pairs found trading (webs): ` +
    `${[...trades].map(([k, c]) => `${k} (${c})`).join('; ') || 'none'}. ${seconds.toFixed(0)} s.`;
  const md = `${setup}.\n\n${coverageTable(webs)}\n\n${summary}`;
  if (v.calibrate) {
    const c = acceptanceFactor(webs);
    io.out(
      `calibration (draw ${draw}): factor ${c.factor} on the self-loss bound accepts the drawn values in ` +
        `${c.accepted} of ${c.pairs} pairs (the shipped factor is ${SELF_LOSS_FACTOR})\n`,
    );
  }
  io.out(`\n${coverageTable(webs)}\n\n${summary}\n`);
  if (v.record) {
    // one block per setting: the knobs held (drawn, or conventions set) and webs of another size
    const size = departments === DEFAULTS.departments && pages === DEFAULTS.pages ? [] : [`${departments}x${pages}`];
    const id = ['twin', ...(conventions === undefined ? [] : [`conventions-${conventions}`]), ...size].join('-');
    const block = shipped('docs/twin.md');
    recordBench(id, md, block, `npm run bench:twin -- ${argv.join(' ')}`);
    io.out('recorded in docs/twin.md\n');
  }
  return 0;
}

await runAsProcess(main, import.meta);
