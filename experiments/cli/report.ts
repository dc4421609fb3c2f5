/**
 * npm run report -- results/<experiment>: writes the interactive index.html again from an
 * experiment's outputs (config.json, curves.csv, aggregates.csv, summary.csv, replay.json if the
 * run recorded one), e.g. after a change to the page; the claims are decided again from the
 * curves, as the experiment decided them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { checkClaims } from '../focused/analysis.ts';
import { ExperimentConfigError, loadExperiment } from '../focused/config.ts';
import { pageInput } from '../focused/report.ts';
import { buildPage } from '../focused/page.ts';
import type { ReplayView } from '../focused/replay.ts';
import type { CurveRow } from '../focused/run-one.ts';
import { parseOrFail } from './args.ts';
import { type CliIo, runAsProcess, usage } from '../../lib/cli.ts';
import { isDeepOutputs, readDeepOutputs } from '../deepweb/load.ts';
import { writeDeepOutputs } from '../deepweb/report.ts';

const USAGE = `Usage: npm run report -- DIR
Writes DIR/index.html, the interactive results page, from the outputs of a focused experiment in
DIR (config.json, curves.csv, aggregates.csv, summary.csv, and replay.json when present); for a
deep-web experiment, writes its report.md, figures and CSVs again from its CSVs.
`;
export async function main(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOrFail(argv, {
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (positionals.length !== 1)
    usage('give one results directory, e.g. npm run report -- results/focused (see --help)');
  const dir = positionals[0];
  if (isDeepOutputs(dir)) {
    // a deep-web run: its report, figures and CSVs made again from its CSVs
    const written = await writeDeepOutputs(readDeepOutputs(dir), dir);
    io.out(`wrote ${written.files.map((f) => join(dir, f)).join(', ')}\n`);
    return 0;
  }
  for (const f of ['config.json', 'curves.csv', 'aggregates.csv', 'summary.csv']) {
    if (!existsSync(join(dir, f))) usage(`${dir}: no ${f} (not the outputs of a focused experiment)`);
  }
  let cfg: ReturnType<typeof loadExperiment>;
  try {
    cfg = loadExperiment(join(dir, 'config.json'));
  } catch (e) {
    if (e instanceof ExperimentConfigError) usage(e.message);
    throw e;
  }
  /** CSV rows with numbers as numbers and empty cells as null. */
  const rows = (file: string): Record<string, string | number | null>[] =>
    (parse(readFileSync(join(dir, file), 'utf8'), { columns: true }) as Record<string, string>[]).map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : v]),
      ),
    );
  const curves = rows('curves.csv');
  const claims = checkClaims(curves as unknown as CurveRow[], cfg.budget, cfg.every, cfg.earlyPhase);
  const replay = existsSync(join(dir, 'replay.json'))
    ? (JSON.parse(readFileSync(join(dir, 'replay.json'), 'utf8')) as ReplayView)
    : null;
  const sites = [...new Set(curves.map((c) => String(c.site)))];
  writeFileSync(
    join(dir, 'index.html'),
    buildPage(pageInput(cfg, sites, rows('aggregates.csv'), curves, rows('summary.csv'), claims, replay)),
  );
  io.out(`wrote ${join(dir, 'index.html')}\n`);
  return 0;
}

await runAsProcess(main, import.meta);
