/**
 * npm run bench:gate [-- --seeds 10 --reruns 20 --max-drop 0.02,0.005]: how often `npm run compare`
 * raises a false alarm, and how often it catches a drop of known size, by the number of web seeds
 * a gate runs (issue #71). The focused quick config (4 departments, budget 600, every strategy of
 * it) is run once at web seeds 1..S and link orders 1..R+2 (config orderSeeds). A gate of n seeds
 * compares the reference, link order 2 at seeds 1..n, with R candidates, orders 3..R+2 at the
 * same seeds: the same code whose ties fall another way, as after a change that reorders links but
 * should not matter. Every source of a run's noise moves with the order: the links' ties, and the
 * strategy's own seed (experiments/focused/run-one.ts runSeed: random and the seeded agents draw
 * anew at every order). Order 1, the page's own order, is not one of them: it is not a random order
 * (docs-first gains from it), so against it a permuted order is a real difference, not noise. A
 * false alarm is counted per comparison (a strategy of one gate run) and per gate run (every
 * strategy at once, as a lab's CI meets it: an alarm if any strategy raises one) at
 * --max-drop; a drop of d is every candidate run's recall AUC lowered by d, detected when compare
 * calls it a REGRESSION. The verdict is compare's own (experiments/intervals.ts dropVerdict, paired
 * by seed and site, averaged within units: sites with one seed, seeds with more). Prints the table
 * docs/experiments.md shows.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { loadExperiment } from '../experiments/focused/config.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import type { SummaryRow } from '../experiments/focused/rows.ts';
import { detectable, dropVerdict, pairedCi, unitOf } from '../experiments/intervals.ts';
import { gitCommit } from '../experiments/queue/code.ts';
import { recordBench } from './record.ts';
import { shipped } from '../lib/paths.ts';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '10' },
    reruns: { type: 'string', default: '20' },
    'max-drop': { type: 'string', default: '0.02,0.005' },
    // the tables into docs/experiments.md's block (bench/record.ts)
    record: { type: 'boolean' },
  },
});
const SEEDS = Number(values.seeds);
const RERUNS = Number(values.reruns);
/** Tolerances: one table each (a drop within the tolerance is never a regression, by design). */
const MAX_DROPS = values['max-drop'].split(',').map(Number);
const DROPS = [0.01, 0.03, 0.05];
const METRIC = 'recall_auc';
/** Gate sizes: how many of the seeds a gate runs. */
const SIZES = [1, 2, 3, 4, 6, 8, 10].filter((n) => n <= SEEDS);

const base = loadExperiment('focused', { quick: true });
const cfg = { ...base, seeds: Array.from({ length: SEEDS }, (_, i) => i + 1), orderSeeds: RERUNS + 2 };
const t0 = performance.now();
process.stderr.write(
  `bench:gate: ${cfg.strategies.length} strategies x ${cfg.seeds.length} seeds x ${cfg.orderSeeds} link orders ` +
    `on ${base.web}, budget ${cfg.budget}\n`,
);
const data = await runExperiment(cfg, {});
const wallS = (performance.now() - t0) / 1000;
const rows = data.summaries.filter((r) => r.strategy !== 'oracle');
const strategies = [...new Set(rows.map((r) => r.strategy))];

interface Cell {
  trials: number;
  alarms: number;
  /** Comparisons whose detectable drop exceeds the tolerance (compare then gives no verdict of "no regression"). */
  blind: number;
  caught: number[];
  detectable: number[];
}

const value = (r: SummaryRow): number => Number(r[METRIC as keyof SummaryRow]);
/** compare's table of one tolerance, over every gate size; false alarms by strategy beside it. */
function table(maxDrop: number): string[] {
  const lines: string[] = [];
  const perStrategy: string[] = [];
  for (const n of SIZES) {
    const cell: Cell = { trials: 0, alarms: 0, blind: 0, caught: DROPS.map(() => 0), detectable: [] };
    // a gate run compares every strategy at once: it raises an alarm when any of them does
    const runAlarms = new Set<number>();
    for (const s of strategies) {
      const mine = rows.filter((r) => r.strategy === s && r.seed <= n);
      const ref = mine.filter((r) => r.order === 2);
      const unit = unitOf(ref);
      let alarms = 0;
      for (let k = 3; k <= RERUNS + 2; k++) {
        const cand = mine.filter((r) => r.order === k).map((r) => ({ ...r, order: 2 }));
        const d = pairedCi(cand, ref, value, unit);
        cell.trials++;
        if (dropVerdict(d, maxDrop) === 'regression') {
          alarms++;
          runAlarms.add(k);
        }
        const least = detectable(d);
        cell.detectable.push(least);
        if (!(least <= maxDrop)) cell.blind++;
        DROPS.forEach((drop, i) => {
          const worse = cand.map((r) => ({ ...r, [METRIC]: value(r) - drop }));
          if (dropVerdict(pairedCi(worse, ref, value, unit), maxDrop) === 'regression') cell.caught[i]++;
        });
      }
      cell.alarms += alarms;
      if (alarms) perStrategy.push(`${n} seed${n > 1 ? 's' : ''}: ${s} ${alarms} of ${RERUNS}`);
    }
    const pct = (x: number): string => `${Math.round((100 * x) / cell.trials)}%`;
    const finite = cell.detectable.filter(Number.isFinite).sort((a, b) => a - b);
    const median = finite.length ? finite[Math.floor(finite.length / 2)].toFixed(3) : 'n/a';
    const units = n === 1 ? `${new Set(rows.map((r) => r.site)).size} sites` : `${n} seeds`;
    const caught = DROPS.map((_, i) => pct(cell.caught[i])).join(' | ');
    const perRun = `${runAlarms.size} of ${RERUNS} (${Math.round((100 * runAlarms.size) / RERUNS)}%)`;
    lines.push(
      `| ${n} | ${units} | ${perRun} | ${cell.trials} | ${cell.alarms} (${pct(cell.alarms)}) | ${caught} | ${median} | ${pct(cell.blind)} |`,
    );
  }
  return [
    `With --max-drop ${maxDrop}:`,
    '',
    `| seeds | units of the interval | gate runs with a false alarm | comparisons | false alarms per comparison | ${DROPS.map(
      (d) => `drop ${d} caught`,
    ).join(' | ')} | median detectable | blind |`,
    `|---|---|---|---|---|${DROPS.map(() => '---').join('|')}|---|---|`,
    ...lines,
    '',
    perStrategy.length ? `False alarms by strategy: ${perStrategy.join('; ')}.` : 'No false alarm.',
    '',
  ];
}

/** The page's own order (1) against the random ones, per strategy over every seed: why it is not a rerun. */
function ownOrder(): string {
  const parts = strategies.map((s) => {
    const mine = rows.filter((r) => r.strategy === s);
    const own = mine.filter((r) => r.order === 1);
    const diffs: number[] = [];
    for (let k = 2; k <= RERUNS + 2; k++) {
      const other = mine.filter((r) => r.order === k).map((r) => ({ ...r, order: 1 }));
      diffs.push(pairedCi(own, other, value, unitOf(own)).mean);
    }
    const mean = diffs.reduce((a, x) => a + x, 0) / diffs.length;
    return `${s} ${mean >= 0 ? '+' : ''}${mean.toFixed(3)}`;
  });
  return `The page's own link order (1) minus a random one, ${METRIC} over ${SEEDS} seeds, mean of ${RERUNS + 1} orders: ${parts.join(', ')}.`;
}

const c = cpus();
const out = [
  `Gate power of npm run compare (metric ${METRIC}): focused --quick (${base.web}, budget ${cfg.budget}, ` +
    `${strategies.length} strategies) at web seeds 1..n, reference link order 2 against ${RERUNS} other random link ` +
    `orders; commit ${gitCommit()}, ${new Date().toISOString().slice(0, 10)}, ${c.length} x ${c[0]?.model.trim()}, ` +
    `run ${wallS.toFixed(0)} s.`,
  '',
  ...MAX_DROPS.flatMap(table),
  ownOrder(),
].join('\n');
console.log(out);
if (values.record) recordBench('gate', out, shipped('docs/experiments.md'));
