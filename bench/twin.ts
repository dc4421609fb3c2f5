/**
 * npm run bench:twin: the twin fit's coverage measured, not asserted (issue #72). Webs whose knobs
 * are drawn uniformly from their ranges (experiments/twin/blind.ts: nobody chose them), each
 * written as an archive and fitted back with the profile likelihood; per knob, how often the fit
 * called it identified, how often an identified interval held the drawn value, and how often it was
 * flat. The webs are fitted on worker processes (one per core by default); the table does not
 * depend on which process fitted what.
 */
import { availableParallelism } from 'node:os';
import { type CliIo, intFlag, parseCommand, runAsProcess, usage } from '../lib/cli.ts';
import { PAPER_EXTENSIONS } from '../lib/document-types.ts';
import { moduleUrl, shipped } from '../lib/paths.ts';
import { runInProcesses } from '../experiments/pool.ts';
import { type BlindOptions, type BlindWeb, coverageOf } from '../experiments/twin/blind.ts';
import { IDENTIFIED_SHARE, PROFILE_STEPS } from '../experiments/twin/fit.ts';
import { recordBench } from './record.ts';

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
  --conventions X   set structure.conventions to X instead of drawing it (0: departments without
                    heterogeneity, where the statistics can identify knobs)
  --workers N       processes fitting webs side by side (default: the machine's cores)
  --record          write the table into the bench:twin block of docs/twin.md (bench/record.ts)
`;

const pct = (a: number, b: number): string => (b ? `${Math.round((100 * a) / b)}%` : '-');

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
    webs: { type: 'string' },
    draw: { type: 'string' },
    departments: { type: 'string' },
    pages: { type: 'string' },
    budget: { type: 'string' },
    restarts: { type: 'string' },
    profile: { type: 'string' },
    'profile-steps': { type: 'string' },
    conventions: { type: 'string' },
    workers: { type: 'string' },
    record: { type: 'boolean' },
  });
  if (!p) return 0;
  const v = p.values;
  const whole = (flag: string, raw: string | undefined, dflt: number, min: number, max: number): number =>
    intFlag(flag, raw, min, max) ?? dflt;
  const n = whole('webs', v.webs, 20, 1, 1000);
  const draw = whole('draw', v.draw, 1, 0, 2 ** 31);
  const departments = whole('departments', v.departments, 3, 2, 50);
  const pages = whole('pages', v.pages, 400, 100, 100_000);
  const budget = whole('budget', v.budget, 96, 4, 10_000);
  const restarts = whole('restarts', v.restarts, 1, 1, 20);
  const profile = whole('profile', v.profile, 5, 2, 50);
  const profileSteps = whole('profile-steps', v['profile-steps'], PROFILE_STEPS, 0, 1000);
  const conventions = v.conventions === undefined ? undefined : Number(v.conventions);
  if (conventions !== undefined && !(conventions >= 0 && conventions <= 1))
    usage(`--conventions: "${v.conventions}" must be a number from 0 to 1`);
  const workers = whole('workers', v.workers, availableParallelism(), 1, 64);
  const opts: BlindOptions = {
    webs: n,
    seed: draw,
    sizes: Array(departments).fill(pages),
    archiveSeed: 101,
    spec: { documents: [...PAPER_EXTENSIONS], relevantDocuments: [...PAPER_EXTENSIONS], relevantLabels: [] },
    viaArchive: true,
    ...(conventions === undefined ? {} : { set: { 'structure.conventions': conventions } }),
    fit: { seed: 1, budget, restarts, profile, profileSteps, checkSeeds: [1] },
  };
  const setup =
    `${n} blind webs (draw ${draw}) of ${departments} departments x ${pages} HTML pages, papers by URL; ` +
    `each fit ${budget} evaluations in ${restarts} search${restarts === 1 ? '' : 'es'}, a profile of ` +
    `${profile} points a knob with ${profileSteps} evaluations re-optimising the others at each, one check ` +
    `seed${conventions === undefined ? '' : `; structure.conventions set to ${conventions}, not drawn`}; a knob ` +
    `is identified when its interval spans at most ${IDENTIFIED_SHARE} of its range`;
  io.out(`bench:twin: ${setup}, on ${Math.min(workers, n)} processes\n`);
  const t0 = performance.now();
  const webs: BlindWeb[] = new Array(n);
  let done = 0;
  await runInProcesses<BlindWeb>(
    Array.from({ length: n }, (_, index) => ({
      module: moduleUrl(import.meta.url, '../experiments/twin/blind').href,
      fn: 'blindWebTask',
      arg: { opts, index },
    })),
    workers,
    (i, w) => {
      webs[i] = w;
      const id = w.knobs.filter((k) => k.identified);
      io.out(
        `  web ${i} (${++done}/${n}, ${((performance.now() - t0) / 1000).toFixed(0)} s): loss ${w.fit.loss.toFixed(3)}, ` +
          `${w.lossWithinNoise ? 'within' : 'NOT within'} its own noise; identified ` +
          `${id.map((k) => `${k.path}${k.covered ? '' : ' (MISSES the drawn value)'}`).join(', ') || 'none'}; ` +
          `${w.fit.trades.length} trade${w.fit.trades.length === 1 ? '' : 's'}\n`,
      );
    },
  );
  const seconds = (performance.now() - t0) / 1000;
  const { all } = coverageOf(webs);
  const within = webs.filter((w) => w.lossWithinNoise).length;
  const trades = new Map<string, number>();
  for (const w of webs)
    for (const t of w.fit.trades) {
      const key = [t.along, t.with].sort().join(' and ');
      trades.set(key, (trades.get(key) ?? 0) + 1);
    }
  const summary =
    `Coverage of identified intervals: ${all.covered} of ${all.identified} (${pct(all.covered, all.identified)}; ` +
    `the fit promises 90%); ${all.flat} of ${all.webs} knob fits flat; ${within} of ${n} fits within their ` +
    `web's own seed-to-seed noise. Pairs found trading (webs): ` +
    `${[...trades].map(([k, c]) => `${k} (${c})`).join('; ') || 'none'}. ${seconds.toFixed(0)} s.`;
  const md = `${setup}.\n\n${coverageTable(webs)}\n\n${summary}`;
  io.out(`\n${coverageTable(webs)}\n\n${summary}\n`);
  if (v.record) {
    // one block per setting of the knobs held: drawn, or conventions set
    const id = conventions === undefined ? 'twin' : `twin-conventions-${conventions}`;
    const block = shipped('docs/twin.md');
    recordBench(id, md, block, `npm run bench:twin -- ${argv.join(' ')}`);
    io.out('recorded in docs/twin.md\n');
  }
  return 0;
}

await runAsProcess(main, import.meta);
