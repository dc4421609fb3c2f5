/**
 * npm run compare -- REF CAND [--max-drop X] [--metric M,...] [--strategy S,...]
 * A recall/precision regression gate for CI: two results folders of a focused experiment (the
 * reference, and a candidate run with changed code or strategies) compared per strategy and
 * metric on runs paired by site and seed, with the same 95% intervals as the reports.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { type CliIo, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';
import { readTextFile } from '../../lib/input.ts';
import { didYouMean } from '../../lib/strings.ts';
import { type Ci, detectable, dropVerdict, pairedCi, unitCi, unitOf, unitsToDetect } from '../intervals.ts';
import { codeDifference, provenanceLine, readProvenance } from '../provenance.ts';
import { listRuns } from '../run-history.ts';

const USAGE = `Usage: npm run compare -- REF CAND [options]     (npx crawler-harness compare REF CAND)
   or: npm run compare -- --list DIR                 (a results folder's runs, to pick REF from)

Compares two results folders of a focused experiment (results/NAME/: summary.csv, curves.csv):
REF, the reference, and CAND, a run of the same config with other code or strategies. For every
strategy and metric, the candidate minus the reference on runs paired by site and seed, with a
95% Student t interval over the runs' independent units (seeds, or sites of one web), as the
reports compute them. Prints a markdown table (for CI logs).

A regression: the candidate is lower by more than --max-drop, and the interval excludes 0 (the
runs tell it apart from noise); with one unit, the drop alone decides.

Options:
  --max-drop X      tolerated drop, in the metric's units (default 0.02)
  --metric M,...    summary.csv columns (default recall_auc,recall,precision), or a curve column at
                    a checkpoint: recall@500, precision@1000 (curves.csv)
  --strategy S,...  only these strategies (default: every strategy of REF but the oracle)
  --allow-diff F,... compare although the two config.json differ in these fields (a dotted path
                    such as budget or adaptive.r1, or a section: crawl)
  --list            list the runs of the folder DIR instead: each earlier run a rerun kept in
                    DIR/runs/STAMP/, then the latest, each with what made it (commit, code, date)
  --accept-blind    say "no regression" even where the runs could not detect a drop of --max-drop
                    (without it, compare refuses that verdict: exit 2, naming the size that would)

The two folders' config.json are read first: runs of configs that differ in anything that
changes results (the web, budget, sites, seeds, a strategy's parameters...) are not compared
unless --allow-diff names every such field; comments (_...), description and name do not count.

A gate that cannot see the drop it guards against passes everything: when no comparison regressed
but some could not have detected a drop of --max-drop (80% power at the spread of their paired
differences; the "detectable" column), compare gives no verdict and says how many seeds would.

Exit codes: 0 within tolerance; 1 a regression; 2 unusable input (a missing file, configs that
differ, a strategy or run of REF that CAND lacks, an unknown metric) or runs too few to detect
--max-drop (without --accept-blind).
`;

type Row = Record<string, string> & { strategy: string; site: string; seed: string };

function readCsv(dir: string, file: string): Row[] {
  const path = join(dir, file);
  if (!existsSync(path)) usage(`${path}: no such file (is ${dir} a focused experiment's results folder?)`);
  try {
    return parse(readTextFile(path), { columns: true, skip_empty_lines: true }) as Row[];
  } catch (e) {
    usage(`${path}: ${(e as Error).message.split('\n')[0]}`);
  }
}

interface Run {
  seed: number;
  site: string;
  /** The link order (folders written before the column existed have order 1 only). */
  order: number;
  value: number;
}

/** The runs of one strategy for one metric ("col" of summary.csv, or "col@pages" of curves.csv). */
function runsOf(summary: Row[], curves: Row[] | null, strategy: string, metric: string, where: string): Run[] {
  const at = /^([a-z_]+)@(\d+)$/.exec(metric);
  const rows = at
    ? curves!.filter((r) => r.strategy === strategy && r.pages === at[2])
    : summary.filter((r) => r.strategy === strategy);
  const col = at ? at[1] : metric;
  return rows.map((r) => {
    const value = Number(r[col]);
    if (r[col] === undefined || r[col] === '' || !Number.isFinite(value))
      usage(`${where}: ${strategy} has no number in column "${col}"${at ? ` at ${at[2]} pages` : ''}`);
    return { seed: Number(r.seed), site: r.site, order: r.order === undefined ? 1 : Number(r.order), value };
  });
}

/** Fields of a config.json that do not change results: comments, the words about the run. */
const INERT = (key: string): boolean => key.startsWith('_') || key === 'description' || key === 'name';

/** A strategy entry's name: a built-in's, or a module's "name". */
const strategyName = (e: unknown): string =>
  typeof e === 'string' ? e : String((e as { name?: unknown } | null)?.name ?? JSON.stringify(e));

/**
 * Every leaf of a JSON value as dotted path -> its JSON text (arrays are leaves: seeds [1, 2]).
 * The strategies are a set, compared by name: their order in the list changes no run's results
 * (a run's seed is the web seed and its link order, experiments/focused/run-one.ts runSeed).
 */
function leaves(v: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) if (!INERT(k)) leaves(x, path ? `${path}.${k}` : k, out);
    if (!Object.keys(v).length && path) out.set(path, '{}');
  } else if (path === 'strategies' && Array.isArray(v))
    out.set(path, JSON.stringify([...v].sort((a, b) => strategyName(a).localeCompare(strategyName(b)))));
  else out.set(path, JSON.stringify(v));
  return out;
}

/** A field of the configs in which the two folders differ, with both values. */
type ConfigDiff = { field: string; ref: string; cand: string };

/** Whether a dotted field is `name` or lies in the section `name`. */
const under = (field: string, name: string): boolean => field === name || field.startsWith(`${name}.`);

/** Every field of the two folders' config.json, and those in which they differ, each with both values. */
function configDifferences(ref: string, cand: string): { fields: string[]; diffs: ConfigDiff[] } {
  const read = (dir: string): Map<string, string> => {
    const file = join(dir, 'config.json');
    if (!existsSync(file)) usage(`${file}: no such file (compare needs each folder's config.json to pair its runs)`);
    try {
      return leaves(JSON.parse(readTextFile(file)));
    } catch (e) {
      usage(`${file}: ${(e as Error).message.split('\n')[0]}`);
    }
  };
  const a = read(ref);
  const b = read(cand);
  const fields = [...new Set([...a.keys(), ...b.keys()])];
  const diffs = fields
    .filter((k) => a.get(k) !== b.get(k))
    .sort()
    .map((field) => ({ field, ref: a.get(field) ?? '(absent)', cand: b.get(field) ?? '(absent)' }));
  return { fields, diffs };
}

/**
 * The configs before any number: runs of other settings are not a regression of the code (a budget
 * of 500 against 600 once read as a REGRESSION of -0.091). Refuses differences --allow-diff does not
 * name; returns every difference (to state).
 */
function comparableConfigs(ref: string, cand: string, allowDiff: string | undefined): ConfigDiff[] {
  const allowed = (allowDiff ?? '').split(',').filter(Boolean);
  const { fields, diffs } = configDifferences(ref, cand);
  // a misspelt field (budgte) would allow nothing and say nothing: each must name a field or a section
  for (const a of allowed)
    if (!fields.some((f) => under(f, a))) {
      const names = [...new Set(fields.flatMap((f) => f.split('.').map((_, i, p) => p.slice(0, i + 1).join('.'))))];
      usage(`--allow-diff: "${a}" is not a field of the two config.json${didYouMean(a, names)}`);
    }
  const refused = diffs.filter((d) => !allowed.some((a) => under(d.field, a)));
  if (refused.length)
    usage(
      `${ref} and ${cand} were run with other configs: ${refused
        .slice(0, 5)
        .map((d) => `${d.field} ${d.ref} vs ${d.cand}`)
        .join('; ')}${refused.length > 5 ? `; and ${refused.length - 5} more` : ''}; ` +
        `compare runs of one config, or name the fields with --allow-diff ${[...new Set(refused.map((d) => d.field))].slice(0, 5).join(',')}`,
    );
  return diffs;
}

/** The comparison's heading: what is compared, what made each folder, and what differs (code, config). */
function heading(ref: string, cand: string, maxDrop: number, diffs: ConfigDiff[]): string[] {
  const made = [readProvenance(ref), readProvenance(cand)];
  const codeDiff = made[0] && made[1] ? codeDifference(made[0], made[1]) : null;
  return [
    `## compare: ${cand} against ${ref}`,
    '',
    `Candidate minus reference, paired by site and seed; a regression is a drop of more than ${maxDrop} whose 95% interval excludes 0.`,
    '',
    ...made.map(
      (p, i) =>
        `${i ? 'Candidate' : 'Reference'}: ${p ? provenanceLine(p) : 'no provenance.json (made before it was recorded)'}.`,
    ),
    '',
    // other code is what a gate compares: said, not refused
    ...(codeDiff ? [`The code differs (what the comparison measures): ${codeDiff}.`, ''] : []),
    ...(diffs.length
      ? [
          `The configs differ (allowed with --allow-diff): ${diffs.map((d) => `${d.field} ${d.ref} vs ${d.cand}`).join('; ')}.`,
          '',
        ]
      : []),
    '| strategy | metric | reference | candidate | difference [95% CI] | detectable | verdict |',
    '|---|---|---|---|---|---|---|',
  ];
}

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

/** --list DIR: the folder's runs, oldest first, each a folder compare takes as REF or CAND. */
function listFolder(positionals: readonly string[], io: CliIo): number {
  if (positionals.length !== 1) usage('--list takes one results folder: compare --list DIR');
  const [dir] = positionals;
  if (!existsSync(dir)) usage(`--list: "${dir}" does not exist`);
  const runs = listRuns(dir);
  if (!runs.length) usage(`--list: ${dir} holds no finished run (no config.json or provenance.json)`);
  io.out(
    `${runs.length} run${runs.length === 1 ? '' : 's'} in ${dir}, oldest first (compare any two: npm run compare -- OLD NEW):\n`,
  );
  for (const r of runs) io.out(`  ${r.path}${r.path === dir ? ' (latest)' : ''}: ${r.made}\n`);
  return 0;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(
    argv,
    io,
    USAGE,
    {
      'max-drop': { type: 'string' },
      metric: { type: 'string' },
      strategy: { type: 'string' },
      'allow-diff': { type: 'string' },
      'accept-blind': { type: 'boolean' },
      list: { type: 'boolean' },
    },
    true,
  );
  if (!parsed) return 0;
  const v = parsed.values;
  if (v.list) return listFolder(parsed.positionals, io);
  const c = readComparison(parsed.positionals, v);
  const { ref, cand, maxDrop, metrics, strategies } = c;
  const lines = heading(ref, cand, maxDrop, c.diffs);
  const regressions: string[] = [];
  const blind: string[] = [];
  /** Units (seeds) every blind comparison would detect --max-drop at; null: no size up to 1000. */
  let wanted: number | null = 0;
  for (const s of strategies)
    for (const m of metrics) {
      const row = compareOne(c, s, m);
      if (row.regressed) regressions.push(`${s} ${m} ${signed(row.d.mean)}`);
      if (!(row.power <= maxDrop)) {
        blind.push(`${s} ${m} (${Number.isFinite(row.power) ? f3(row.power) : `${row.d.n} unit`})`);
        // the size that would see it: at this spread, or (one unit: no spread) at least two
        const need = row.d.n < 2 ? 2 : unitsToDetect(row.d.sd, maxDrop);
        wanted = need === null || wanted === null ? null : Math.max(wanted, need);
      }
      lines.push(row.line);
    }
  lines.push(
    '',
    regressions.length
      ? `**${regressions.length} regression${regressions.length === 1 ? '' : 's'}**: ${regressions.join('; ')}`
      : `No regression beyond ${maxDrop} (${strategies.length} strategies x ${metrics.length} metrics).`,
    '',
    ...(blind.length
      ? [
          `Warning: the tolerance ${maxDrop} is below the smallest drop these runs could detect (80% power, ` +
            `the "detectable" column) for ${blind.join('; ')}: a drop of that size would read as noise; ` +
            'more seeds narrow it (docs/experiments.md).',
          '',
        ]
      : []),
  );
  // the table first (a CI log shows what was measured), then the refusal in one line
  io.out(lines.join('\n'));
  if (!regressions.length && blind.length && !v['accept-blind'])
    usage(
      `no verdict: these runs could not detect a drop of ${maxDrop} (80% power) for ${blind.length} of ` +
        `${strategies.length * metrics.length} comparisons (${blind.slice(0, 3).join('; ')}${blind.length > 3 ? '; ...' : ''}); ` +
        `${wanted === null ? 'no number of seeds up to 1000 would at this spread' : `about ${wanted} seeds would`} ` +
        '(docs/experiments.md, "How many seeds a gate needs"); run both folders at that size, or --accept-blind ' +
        'to accept "no regression" from runs that could miss one',
    );
  return regressions.length ? 1 : 0;
}

type Rows = ReturnType<typeof readCsv>;

/** Two results folders read and checked against the flags: what to compare, and the rows to compare it on. */
interface Comparison {
  ref: string;
  cand: string;
  maxDrop: number;
  metrics: string[];
  strategies: string[];
  diffs: ReturnType<typeof comparableConfigs>;
  /** summary.csv of each, and curves.csv where a metric reads a checkpoint (recall@500) */
  rs: Rows;
  cs: Rows;
  rc: Rows | null;
  cc: Rows | null;
}

function readComparison(
  positionals: string[],
  v: { 'max-drop'?: string; metric?: string; strategy?: string; 'allow-diff'?: string },
): Comparison {
  if (positionals.length !== 2) usage('give two results folders: REF CAND (see --help)');
  const [ref, cand] = positionals;
  const maxDrop = v['max-drop'] === undefined ? 0.02 : Number(v['max-drop']);
  if (!(maxDrop >= 0 && maxDrop < 1e6)) usage(`--max-drop: "${v['max-drop']}" must be a number >= 0`);
  const metrics = (v.metric ?? 'recall_auc,recall,precision').split(',').filter(Boolean);
  const rs = readCsv(ref, 'summary.csv');
  const cs = readCsv(cand, 'summary.csv');
  const diffs = comparableConfigs(ref, cand, v['allow-diff']);
  const curved = metrics.some((m) => m.includes('@'));
  const rc = curved ? readCsv(ref, 'curves.csv') : null;
  const cc = curved ? readCsv(cand, 'curves.csv') : null;
  for (const m of metrics) {
    const col = m.split('@')[0];
    const cols = m.includes('@') ? Object.keys(rc![0] ?? {}) : Object.keys(rs[0] ?? {});
    if (!/^[a-z_]+(@\d+)?$/.test(m) || !cols.includes(col))
      usage(
        `--metric: "${m}" is not a column of ${m.includes('@') ? 'curves.csv' : 'summary.csv'} ` +
          `(${cols.filter((c) => !['experiment', 'strategy', 'site', 'seed', 'pages'].includes(c)).join(', ')})`,
      );
  }
  const known = [...new Set(rs.map((r) => r.strategy))].filter((s) => s !== 'oracle');
  const strategies = v.strategy ? v.strategy.split(',').filter(Boolean) : known;
  for (const s of strategies) {
    if (!known.includes(s)) usage(`--strategy: "${s}" is not a strategy of ${ref} (${known.join(', ')})`);
    if (!cs.some((r) => r.strategy === s)) usage(`${cand} has no runs of ${s} (the reference has)`);
  }
  return { ref, cand, maxDrop, metrics, strategies, diffs, rs, cs, rc, cc };
}

/** One strategy's metric, paired run by run: its table line, its difference, and what it could detect. */
function compareOne(c: Comparison, s: string, m: string): { line: string; d: Ci; regressed: boolean; power: number } {
  const a = runsOf(c.cs, c.cc, s, m, c.cand);
  const b = runsOf(c.rs, c.rc, s, m, c.ref);
  const unit = unitOf(b);
  let d: Ci;
  try {
    if (a.length !== b.length) throw new Error(`${b.length} runs in the reference, ${a.length} in the candidate`);
    d = pairedCi(a, b, (r) => r.value, unit);
  } catch (e) {
    usage(`${s} ${m}: the runs do not pair (${(e as Error).message}); compare runs of the same config and seeds`);
  }
  const refMean = unitCi(b, (r) => r.value, unit).mean;
  const candMean = unitCi(a, (r) => r.value, unit).mean;
  const read = dropVerdict(d, c.maxDrop);
  const verdict = {
    regression: '**REGRESSION**',
    noise: `lower, within the noise (n ${d.n})`,
    better: 'better',
    within: 'within tolerance',
  }[read];
  // the smallest drop these paired runs would find with 80% power (the reports' "detectable")
  const power = detectable(d);
  const line = `| ${s} | ${m} | ${f3(refMean)} | ${f3(candMean)} | ${signed(d.mean)} [${f3(d.lo)}, ${f3(d.hi)}] | ${f3(power)} | ${verdict} |`;
  return { line, d, regressed: read === 'regression', power };
}

await runAsProcess(main, import.meta);
