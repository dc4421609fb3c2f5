/**
 * sim:fit after its flags are read (experiments/cli/fit.ts): measures the archive's sites, fits
 * the generator to them and writes the twin.
 */
import { crawlEndWarnings } from '../../lib/crawl-end.ts';
import { existsSync } from 'node:fs';
import { checkOutputFile, writeOutputFile } from '../../lib/out-folder.ts';
import { basename, dirname, relative, resolve as resolvePath } from 'node:path';
import { PAPER_EXTENSIONS } from '../../lib/document-types.ts';
import { ARCHIVE_DEFAULTS, type ExperimentConfig, loadExperiment } from '../focused/config.ts';
import { loadConfig } from '../../sim/config.ts';
import { archiveSites, checkArchive } from '../focused/env.ts';
import { readingLine, WarcArchive } from '../../sim/warc-index.ts';
import { COLLECTIONS, type Collection } from '../../sim/site-stats.ts';
import { searchFlags } from './blind-flags.ts';
import { archiveViews, fitToSites, specOf } from '../twin/archive.ts';
import {
  defaultRestarts,
  FIT_BUDGET,
  type FitOptions,
  fitTable,
  ownKnobs,
  calibrationLine,
  SELF_LOSS_FACTOR,
  tradesLine,
} from '../twin/fit.ts';
import { type CliIo, intFlag, usage } from '../../lib/cli.ts';
import type { FitFlags } from './fit.ts';
import { resource, shipped } from '../../lib/paths.ts';

/**
 * The twin's file: its schema, its doc, the fitted web config, and under _fit how it was fitted
 * (the archive, sites, search, loss, threshold, knobs, the own-web check, the table).
 */
function twinDocument(
  out: string,
  cfg: { name: string; archive: NonNullable<ExperimentConfig['archive']> },
  result: ReturnType<typeof fitToSites>,
  f: {
    heldOut: string | null;
    budget: number;
    seed: number;
    checks: number;
    restarts: number;
    own: ReturnType<typeof ownCheck> | null;
    table: ReturnType<typeof fitTable>;
  },
): Record<string, unknown> & { _doc: string } {
  const { fit, stats } = result;
  const { heldOut, budget, seed, checks, restarts, own, table } = f;
  return {
    // editors complete and check the twin against the web schema (a path from the file's folder)
    $schema: relative(dirname(resolvePath(out)), shipped('schemas/web.schema.json')),
    _doc: twinDoc(cfg.name, cfg.archive.source, heldOut, fit.evaluations, restarts, checks),
    ...fit.config,
    _fit: {
      archive: cfg.name,
      // how the archive was made: what a twin's links to moved pages and files read as (sim/site-stats.ts)
      collection: cfg.archive.collection,
      sites: stats.map((s) => s.site),
      heldOut,
      budget,
      seed,
      checkSeeds: checks,
      loss: Math.round(fit.loss * 1000) / 1000,
      values: fit.values,
      restarts: fit.restarts.map((r) => ({ loss: Math.round(r.loss * 1000) / 1000, values: r.values })),
      selfLoss: Math.round(fit.selfLoss * 1000) / 1000,
      threshold: Math.round(fit.threshold * 1000) / 1000,
      noise: Math.round(fit.noise * 1000) / 1000,
      knobs: fit.knobs.map(({ profile: _p, ...k }) => k),
      trades: fit.trades,
      ...(own ? { own } : {}),
      table,
      archiveSites: stats,
    },
  };
}

/** The twin with every department k times as large, for each --scale k: an extrapolation, said in its doc. */
function writeScaledTwins(
  io: CliIo,
  out: string,
  doc: Record<string, unknown>,
  scales: number[],
  archive: string,
  name: string,
): void {
  for (const k of scales) {
    const file = `${out.replace(/\.json$/, '')}-x${k}.json`;
    const departments = (doc.departments as { pages: number }[]).map((d) => ({ ...d, pages: d.pages * k }));
    const scaled = {
      ...doc,
      _doc:
        `The twin of ${archive} (${relative(process.cwd(), out)}) with every department ${k} ` +
        `times as large: an extrapolation to a larger web of the same kind, not a measurement. ` +
        `Departments are generated whole (the archive's sampling is not applied): what a crawler ` +
        `meets on sites like the ones the collection sampled, at ${k} times their size.`,
      name: `${name}-x${k}`,
      departments,
    };
    writeOutputFile(file, `${JSON.stringify(scaled, null, 2)}\n`);
    io.out(`wrote ${file} (${departments.reduce((a, d) => a + d.pages, 0)} department pages)\n`);
  }
}

export async function runFit(parsed: FitFlags, io: CliIo): Promise<number> {
  const v = parsed.values;
  const whole = (flag: string, raw: string | undefined, dflt: number, min: number, max: number): number =>
    intFlag(flag, raw, min, max) ?? dflt;
  const { budget, seed, checks, profile, profileSteps, restarts } = fitSearch(v);
  const scales = (v.scale ?? '')
    .split(',')
    .filter(Boolean)
    .map((x) => whole('scale', x, 1, 2, 1000));
  const cfg = await archiveConfig(v, parsed.positionals, io);
  if (!cfg.archive)
    usage(`${cfg.name}: not an archive experiment (no "archive" section); sim:fit fits a twin to an archive`);
  const sites = archiveSites(cfg);
  const heldOut = v['hold-out'] ?? null;
  if (heldOut !== null && !sites.includes(heldOut))
    usage(`--hold-out: "${heldOut}" is not a site of ${cfg.name} (${sites.join(', ')})`);
  const views = await archiveViews(cfg);
  const name = `${cfg.name}-twin${heldOut ? `-without-${heldOut}` : ''}`;
  const out = v.out ?? `data/webs/${name}.json`;
  // before minutes of fitting, not after: a folder where the file goes, a read-only folder
  checkOutputFile(out);
  const started = performance.now();
  let planned = 0;
  // a fit that cannot be made is a FitError: exit 2 by the table (lib/errors.ts)
  const result = fitToSites(name, views, heldOut, specOf(cfg), {
    budget,
    seed,
    checkSeeds: Array.from({ length: checks }, (_, i) => i + 1),
    profile,
    profileSteps,
    restarts,
    ...fitProgress(io, views, checks, (total) => {
      planned = total;
    }),
  });
  const { fit, stats } = result;
  io.err(`\n${madeLine(fit.evaluations, planned)}\n`);
  const table = fitTable(fit);
  const own = v.own === undefined ? null : ownCheck(io, v.own, fit, name, views, heldOut, specOf(cfg), seed, checks);
  const doc = twinDocument(out, { name: cfg.name, archive: cfg.archive }, result, {
    heldOut,
    budget,
    seed,
    checks,
    restarts,
    own,
    table,
  });
  writeOutputFile(out, `${JSON.stringify(doc, null, 2)}\n`);
  io.out(
    `twin of ${cfg.name}${heldOut ? ` without ${heldOut}` : ''}: loss ${fit.loss.toFixed(3)} after ${fit.evaluations} evaluations ` +
      `(${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  printFit(
    io,
    fit,
    table,
    own,
    calibrationLine(
      stats.map((x) => x.htmlPages),
      checks,
    ),
  );
  io.out(`wrote ${out}\n`);
  writeScaledTwins(io, out, doc, scales, cfg.name, name);
  return 0;
}

/** The "_doc" of a fitted twin's web config: what it is and how to read its "_fit". */
function twinDoc(
  name: string,
  source: string,
  heldOut: string | null,
  evaluations: number,
  restarts: number,
  checks: number,
): string {
  return (
    `A synthetic twin of the archive experiment ${name} (${source}), fitted ` +
    `by npm run sim:fit to ${heldOut ? `every site but ${heldOut}` : 'every site'}: the ` +
    `generator's defaults with the knobs under "_fit.values" searched ` +
    `(experiments/twin/fit.ts), ${evaluations} evaluations (${restarts} searches, the ` +
    `profile and the fitted web against itself), each measured at web seeds 1-${checks}; ` +
    `"_fit.knobs" gives each knob's interval: its values over every evaluated point whose loss ` +
    `is at most "_fit.threshold" (what the fitted web scores against itself at other web ` +
    `seeds: ${SELF_LOSS_FACTOR} times their conformal 90% bound, docs/twin.md), a 90% set by test ` +
    `inversion; a knob whose interval spans more than half its range is not identified by the ` +
    `statistics. A twin is an extrapolation from what the statistics capture; "_fit.table" shows ` +
    'which it meets.'
  );
}

/** The archive experiment named by a config or by --warc and --labels (a usage error for a mix). */
async function archiveConfig(
  v: Record<string, string | boolean | undefined>,
  positionals: readonly string[],
  io: CliIo,
): Promise<ReturnType<typeof loadExperiment>> {
  const byFiles = v.warc !== undefined || v.labels !== undefined;
  if (byFiles ? positionals.length !== 0 : positionals.length !== 1)
    usage(
      byFiles ? 'give --warc and --labels, or a config, not both' : 'name one archive experiment config (see --help)',
    );
  if (!byFiles) {
    if (v.collection !== undefined) usage('--collection goes with --warc (a config says "archive.collection")');
    return loadExperiment(positionals[0]);
  }
  if (!(v.warc && v.labels)) usage('--warc and --labels go together');
  if (!v.relevant === !v.papers) usage('say what is relevant: --relevant LABEL[,...] or --papers');
  const collection = (v.collection ?? 'crawl') as Collection;
  if (!COLLECTIONS.includes(collection)) usage(`--collection: "${collection}" is not one of ${COLLECTIONS.join(', ')}`);
  return configFromFiles(
    v.warc as string,
    v.labels as string,
    v.relevant as string | undefined,
    !!v.papers,
    collection,
    io,
  );
}

/** Evaluations of the --own check: the sample and the scale searched, the rest held. */
const OWN_BUDGET = 16;

/**
 * --own WEB: the archive's loss at a generated web's own knobs (ownKnobs), the sample and the scale
 * fitted, against the fit's threshold: does the fit's acceptance region hold the web the archive
 * was crawled from? (issue #72: the documented user path, round trip.)
 */
function ownCheck(
  io: CliIo,
  file: string,
  fit: { threshold: number },
  name: string,
  views: Parameters<typeof fitToSites>[1],
  heldOut: string | null,
  spec: ReturnType<typeof specOf>,
  seed: number,
  checks: number,
): { web: string; values: Record<string, number>; loss: number; evaluations: number; within: boolean } {
  if (!existsSync(resource(file))) usage(`--own: ${file}: no such file`);
  const fixed = ownKnobs(loadConfig(resource(file)));
  const { fit: own } = fitToSites(`${name}-own`, views, heldOut, spec, {
    onStart: (total) =>
      io.err(
        `fit: the web's own knobs (${file}), the sample and the scale searched in ${OWN_BUDGET} evaluations, ` +
          `then its own noise in ${total - OWN_BUDGET}: ${total} evaluations\n`,
      ),
    budget: OWN_BUDGET,
    seed,
    checkSeeds: Array.from({ length: checks }, (_, i) => i + 1),
    restarts: 1,
    profile: 0,
    fixed,
  });
  const loss = Math.round(own.loss * 1000) / 1000;
  return { web: file, values: own.values, loss, evaluations: own.evaluations, within: own.loss <= fit.threshold };
}

/** The search's numbers from the command line (a usage error for one out of range). */
function fitSearch(v: Record<string, string | boolean | undefined>): ReturnType<typeof searchFlags> & { seed: number } {
  const search = searchFlags(v, {
    budget: FIT_BUDGET,
    restarts: defaultRestarts,
    checks: 3,
    profile: 7,
    profileMin: 0,
  });
  return { ...search, seed: intFlag('seed', v.seed as string | undefined, 0, 2 ** 31) ?? 1 };
}

/**
 * The one line for a threshold too loose to learn from (issue #85: on a paper-heavy blind web the
 * threshold accepted 390 of 440 points and every knob came out flat): said when no knob is
 * identified, with the share of evaluated points the threshold accepts. Null when one is.
 */
export function looseLine(
  knobs: readonly { identified: boolean }[],
  accepted: number,
  evaluations: number,
  threshold: number,
): string | null {
  if (!knobs.length || knobs.some((k) => k.identified)) return null;
  return (
    `nothing identified: the threshold ${threshold.toFixed(3)} accepts ${accepted} of the ${evaluations} ` +
    `evaluated points (${Math.round((100 * accepted) / Math.max(1, evaluations))}%); these statistics do not pin ` +
    'any knob of this archive down, and the twin is one web among many that fit as well'
  );
}

/** What ran, against what was said before it (issue #85): the profile's repeats come from the cache. */
export function madeLine(made: number, planned: number): string {
  const why =
    made === planned
      ? ''
      : made < planned
        ? ` (${planned - made} repeated a point already measured: read from the cache)`
        : ` (${made - planned} more: the self-checks of knobs whose intervals came out narrow)`;
  return `fit: ${made} evaluations made, ${planned} planned${why}`;
}

/** Minutes and seconds, for an estimate (rounded to whole seconds first: never "10 min 60 s"). */
export const duration = (s: number): string => {
  if (s < 90) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
};

/**
 * What the fit will cost, said before it is paid (issue #72: a default fit of a crawl took 26
 * CPU-minutes and said nothing first): the evaluations it will make; the first one's seconds (cold:
 * modules loading, caches filling); then, from the second on, the time per warm evaluation times
 * those left (issue #85: extrapolating the cold first one ran 2.8-5.6x high).
 */
function fitProgress(
  io: CliIo,
  views: readonly { graph: { n: number } }[],
  checks: number,
  onPlan: (total: number) => void,
): Pick<FitOptions, 'onStart' | 'onEvaluation'> {
  const t0 = performance.now();
  let warm = t0;
  const pages = views.reduce((a, v) => a + v.graph.n, 0);
  return {
    onStart: (total) => {
      onPlan(total);
      io.err(
        `fit: ${total} evaluations planned, each generating and measuring a web like the archive's ${views.length} ` +
          `sites (${pages.toLocaleString('en')} pages) at ${checks} web seed${checks === 1 ? '' : 's'}; timing the first ...\n`,
      );
    },
    onEvaluation: (d, t, loss) => {
      const now = performance.now();
      if (d === 1) {
        warm = now;
        io.err(`fit: the first evaluation took ${duration((now - t0) / 1000)} (cold); the estimate follows the next\n`);
        return;
      }
      const each = (now - warm) / 1000 / (d - 1);
      if (d === 2) io.err(`fit: a warm evaluation takes ${duration(each)}: about ${duration(each * (t - 1))} in all\n`);
      io.err(
        `\rfit: ${d}/${t} evaluations, loss ${loss.toFixed(3)}, about ${duration(each * Math.max(0, t - d))} left   `,
      );
    },
  };
}

/** The fit as the command prints it: each statistic against the archive, the knobs and their intervals. */
function printFit(
  io: CliIo,
  fit: ReturnType<typeof fitToSites>['fit'],
  table: ReturnType<typeof fitTable>,
  own: ReturnType<typeof ownCheck> | null,
  /** Where the fit is not where the threshold was calibrated, the line that says so. */
  calibration: string | null,
): void {
  io.out(`${'statistic'.padEnd(20)} ${'archive'.padStart(9)} ${'twin'.padStart(9)} ${'tolerance'.padStart(9)}  met\n`);
  for (const r of table)
    io.out(
      `${r.stat.padEnd(20)} ${String(r.archive).padStart(9)} ${String(r.twin).padStart(9)} ${String(r.tolerance).padStart(9)}  ${r.met ? 'yes' : 'NO'}\n`,
    );
  io.out(
    `fitted: ${Object.entries(fit.values)
      .map(([k, x]) => `${k} ${x}`)
      .join(', ')}\n`,
  );
  io.out(`restarts: ${fit.restarts.map((r) => r.loss.toFixed(3)).join(', ')} (loss of each search's best)\n`);
  io.out(
    `knob intervals: the ${fit.accepted} points with loss at most ${fit.threshold.toFixed(3)} ` +
      `(the fitted web against itself at other seeds, ${SELF_LOSS_FACTOR} x its conformal 90% bound ` +
      `${fit.selfLoss.toFixed(3)}${
        fit.loss > fit.selfLoss
          ? "; the fit's loss is above it: the generator found nothing as like the archive as itself, " +
            'the intervals are around the best it found'
          : ''
      }):\n`,
  );
  for (const k of fit.knobs)
    io.out(
      `  ${k.path.padEnd(36)} ${String(k.value).padStart(7)}  [${k.lo}, ${k.hi}]  ${k.identified ? 'identified' : 'not identified'}\n`,
    );
  io.out(`${tradesLine(fit.trades)}\n`);
  const loose = looseLine(fit.knobs, fit.accepted, fit.evaluations, fit.threshold);
  if (loose) io.out(`${loose}\n`);
  if (calibration) io.out(`${calibration}\n`);
  if (own)
    io.out(
      `the web's own knobs (${own.web}; sample ${own.values.sample} and scale ${own.values.scale} fitted, ` +
        `${own.evaluations} evaluations): loss ${own.loss}, ${own.within ? 'within' : 'NOT within'} the fit's ` +
        `threshold ${fit.threshold.toFixed(3)}\n`,
    );
}

/**
 * An archive experiment made from --warc and --labels: its sites the hosts with a relevant label
 * whose home page the archive holds (a crawl starts there); at least two, or a usage error.
 */
async function configFromFiles(
  warcs: string,
  labels: string,
  relevant: string | undefined,
  papers: boolean,
  collection: Collection,
  io: CliIo,
): Promise<ReturnType<typeof loadExperiment>> {
  const warc = warcs.split(',').filter(Boolean);
  for (const f of [...warc, labels]) if (!existsSync(resource(f))) usage(`${f}: no such file`);
  const name = basename(warc[0]).replace(/\.warc(\.gz)?$/, '');
  const cfg: ReturnType<typeof loadExperiment> = {
    ...loadExperiment('focused'),
    name,
    archive: {
      ...structuredClone(ARCHIVE_DEFAULTS),
      warc,
      labels,
      relevant: relevant ? relevant.split(',').filter(Boolean) : [],
      relevantDocuments: papers ? [...PAPER_EXTENSIONS] : [],
      collection,
      source: `${warc.join(', ')} with ${labels}`,
    },
  };
  // sites: the hosts with a relevant label whose home page the archive holds (a crawl starts there)
  // strict: a fit to a damaged archive would fit what is left of it; refused, with where the damage is
  const archive = await WarcArchive.open(warc, { strict: true }).catch((e: Error) => usage(e.message));
  io.err(`${readingLine(archive)}\n`);
  // a crawl cut at its page limit is a cut web: said before a fit is made of it (issue #85)
  for (const line of crawlEndWarnings(warc.map((file, i) => ({ file, end: archive.crawlEnds[i] ?? null }))))
    io.err(`${line}\n`);
  const sites = archiveSites(cfg).filter((h) => archive.lookup(`http://${h}/`));
  if (sites.length < 2)
    usage(
      `${name}: ${sites.length} host${sites.length === 1 ? '' : 's'} with a relevant label and an archived home page; a fit needs two or more (name sites ` +
        `and groups in a config)`,
    );
  cfg.archive!.sites = sites;
  await checkArchive(cfg);
  return cfg;
}
