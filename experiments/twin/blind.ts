/**
 * The blind round trip (issue #51 item 4): webs whose knob values are drawn at random from the
 * declared ranges (TWIN_KNOBS, seeded: nobody chose them), each written as an archive at a web seed
 * the fit never measures, fitted back, and judged on two things:
 * - every knob the fit calls identified holds the drawn value within its interval;
 * - the fit's loss is within the web's own seed-to-seed noise: at most the 90th percentile of what
 *   the drawn values themselves score against the same archive at TRUTH_SEEDS, each alone (the
 *   truth is a candidate the fit could have found; what it scores is what a fit can be held to).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../sim/config.ts';
import { makeRng } from '../../sim/web-rng.ts';
import { archiveViews, twinExperiment } from './archive.ts';
import { type SiteStats, webStats } from '../../sim/site-stats.ts';
import {
  ACCEPT_QUANTILE,
  FitError,
  type FitOptions,
  type FitResult,
  fitTwin,
  type KnobValues,
  lossOf,
  mean,
  meanStats,
  measureWeb,
  TWIN_KNOBS,
  type TwinSpec,
  twinConfig,
} from './fit.ts';
import { writeTwinArchive } from './writer.ts';
import { conformalBound, quantile, wilson } from '../intervals.ts';

/** Web seeds the drawn values are measured at against their own archive. */
const TRUTH_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

export interface BlindOptions {
  /** Webs drawn. */
  webs: number;
  /** The draw's seed. */
  seed: number;
  /** HTML pages each department's archive should hold (one department each). */
  sizes: readonly number[];
  /** The web seed the archive is written at (the fit measures at its own check seeds). */
  archiveSeed: number;
  spec: TwinSpec;
  /** The fit's options (its seed, budget, restarts, check seeds, profile). */
  fit: Omit<FitOptions, 'onEvaluation' | 'fixed'>;
  /** The knobs searched (default every knob); the others are held at their drawn values. */
  free?: readonly string[];
  /** Values set instead of drawn (e.g. conventions 0: departments without heterogeneity). */
  set?: KnobValues;
  /**
   * Through a WARC and the archive reader (as a real archive is read), or straight from the
   * generator (the two measure the same: test/twin.full.test.ts).
   */
  viaArchive?: boolean;
}

export interface BlindKnob {
  path: string;
  drawn: number;
  fitted: number;
  lo: number;
  hi: number;
  identified: boolean;
  /** The drawn value lies in the interval (only a promise for an identified knob). */
  covered: boolean;
}

export interface BlindWeb {
  /** The drawn values, scale as the fit reads it (relative to the archive's HTML pages). */
  drawn: KnobValues;
  fit: FitResult;
  knobs: BlindKnob[];
  /** The drawn values' own loss against the archive at each of TRUTH_SEEDS alone. */
  truthLosses: number[];
  /** fit.loss <= the ACCEPT_QUANTILE of truthLosses: within the web's own seed-to-seed noise. */
  lossWithinNoise: boolean;
  /**
   * The web the archive came from, accepted by the fit (issue #85): how many of truthLosses (the
   * drawn values at each of TRUTH_SEEDS alone) are at most the fit's threshold. A threshold that
   * holds its own web accepts it at about the rate it promises (90%).
   */
  ownAccepted: number;
}

/** Values drawn uniformly from each knob's declared range (whole numbers where the knob is). */
export function drawKnobs(seed: number, index: number): KnobValues {
  const rng = makeRng(`twin-blind:${seed}:${index}`);
  const out: KnobValues = {};
  for (const k of TWIN_KNOBS) {
    const x = k.min + rng.next() * (k.max - k.min);
    out[k.path] = k.integer ? Math.round(x) : Math.round(x * 1000) / 1000;
  }
  return out;
}

/**
 * The webs of the draw, fitted back one after the other. A drawn web the fit cannot take (a
 * department with too few pages or relevant items at its sample) is skipped, said through onSkip,
 * and left out: one such draw once stopped a bench after 35 webs and lost them all.
 */
export async function blindRoundTrip(
  opts: BlindOptions,
  onWeb?: (i: number, web: BlindWeb) => void,
  onSkip?: (i: number, why: string) => void,
): Promise<BlindWeb[]> {
  const out: BlindWeb[] = [];
  for (let i = 0; i < opts.webs; i++) {
    const web = await blindWebTask({ opts, index: i });
    if ('skipped' in web) {
      onSkip?.(i, web.skipped);
      continue;
    }
    onWeb?.(i, web);
    out.push(web);
  }
  return out;
}

/** A drawn web the fit could not take, and why (FitError's line). */
export interface SkippedWeb {
  index: number;
  skipped: string;
}

/** blindWeb for a pool process (experiments/pool.ts: one argument): npm run bench:twin; a web the fit cannot take is skipped. */
export async function blindWebTask(t: { opts: BlindOptions; index: number }): Promise<BlindWeb | SkippedWeb> {
  try {
    return await blindWeb(t.opts, t.index);
  } catch (e) {
    if (e instanceof FitError) return { index: t.index, skipped: e.message };
    throw e;
  }
}

/** Web `i` of the draw: drawn, written as an archive, fitted back, judged. */
export async function blindWeb(opts: BlindOptions, i: number): Promise<BlindWeb> {
  const drawn = { ...drawKnobs(opts.seed, i), ...opts.set };
  const name = `blind-${opts.seed}-${i}`;
  const config = resolveConfig(twinConfig(name, opts.sizes, drawn));
  let stats: SiteStats[];
  if (opts.viaArchive) {
    const dir = mkdtempSync(join(tmpdir(), 'twin-blind-'));
    try {
      const w = await writeTwinArchive(
        config,
        opts.archiveSeed,
        drawn.sample,
        join(dir, 'b.warc.gz'),
        join(dir, 'b.csv'),
      );
      const cfg = twinExperiment(w, name, opts.spec, `blind web ${i} of draw ${opts.seed}`);
      stats = webStats(await archiveViews(cfg));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else stats = measureWeb(config, opts.archiveSeed, opts.spec, drawn.sample);
  // the fit sizes its departments by the archive's HTML pages (TwinKnob scale): the drawn scale in
  // those terms is the one it can come back to
  const sizes = stats.map((x) => x.htmlPages);
  const truth: KnobValues = {
    ...drawn,
    scale: Math.round(((drawn.scale * mean(opts.sizes)) / mean(sizes)) * 1000) / 1000,
  };
  const free = opts.free;
  const fit = fitTwin(name, stats, sizes, opts.spec, {
    ...opts.fit,
    ...(free ? { fixed: Object.fromEntries(Object.entries(truth).filter(([k]) => !free.includes(k))) } : {}),
  });
  const archive = meanStats(stats);
  const truthLosses = TRUTH_SEEDS.map((s) =>
    lossOf(archive, meanStats(measureWeb(config, s, opts.spec, drawn.sample))),
  );
  const knobs = fit.knobs.map((k) => ({
    path: k.path,
    drawn: truth[k.path],
    fitted: k.value,
    lo: k.lo,
    hi: k.hi,
    identified: k.identified,
    covered: k.lo <= truth[k.path] && truth[k.path] <= k.hi,
  }));
  const web = {
    drawn: truth,
    fit,
    knobs,
    truthLosses,
    lossWithinNoise: fit.loss <= quantile(truthLosses, ACCEPT_QUANTILE),
    ownAccepted: truthLosses.filter((l) => l <= fit.threshold).length,
  };
  return web;
}

/** Per knob over blind webs: how often it was identified, how often those intervals held the drawn value. */
export interface KnobCoverage {
  path: string;
  webs: number;
  identified: number;
  /** Identified and the drawn value inside the interval. */
  covered: number;
  /** Not identified: the interval spans more than IDENTIFIED_SHARE of the range. */
  flat: number;
  /** Mean share of the knob's range its interval spans. */
  width: number;
}

/** The coverage of identified intervals, per knob and in all (npm run bench:twin). */
export function coverageOf(webs: readonly BlindWeb[]): { knobs: KnobCoverage[]; all: KnobCoverage } {
  const range = new Map(TWIN_KNOBS.map((k) => [k.path, k.max - k.min]));
  const rows = new Map<string, KnobCoverage>();
  const all: KnobCoverage = { path: 'all knobs', webs: 0, identified: 0, covered: 0, flat: 0, width: 0 };
  for (const w of webs)
    for (const k of w.knobs) {
      const r = rows.get(k.path) ?? { path: k.path, webs: 0, identified: 0, covered: 0, flat: 0, width: 0 };
      rows.set(k.path, r);
      for (const x of [r, all]) {
        x.webs++;
        if (k.identified) x.identified++;
        else x.flat++;
        if (k.identified && k.covered) x.covered++;
        x.width += (k.hi - k.lo) / (range.get(k.path) ?? 1);
      }
    }
  for (const x of [...rows.values(), all]) x.width = x.webs ? x.width / x.webs : 0;
  return { knobs: [...rows.values()], all };
}

/**
 * The own-web acceptance rate over blind webs (issue #85): (web, seed) pairs whose drawn values the
 * fit's threshold accepts, of all, with a Wilson interval; and the webs whose own values it
 * accepts at no seed.
 */
export function ownAcceptance(webs: readonly BlindWeb[]): {
  accepted: number;
  pairs: number;
  lo: number;
  hi: number;
  never: number;
} {
  const accepted = webs.reduce((a, w) => a + w.ownAccepted, 0);
  const pairs = webs.reduce((a, w) => a + w.truthLosses.length, 0);
  const [lo, hi] = wilson(accepted, pairs);
  return { accepted, pairs, lo, hi, never: webs.filter((w) => w.ownAccepted === 0).length };
}

/**
 * The calibration of the fit's threshold (issue #85): the least factor on its self-loss bound
 * (steps of 0.05 from 1) under which the drawn values of `webs` score within the threshold in at
 * least `rate` of their (web, seed) pairs, the threshold taken as the fit takes it (the factor
 * times the self-loss bound, or the fit's loss plus its noise when that is larger). Read on draws
 * the recorded bench does not use (bench/twin.ts --calibrate).
 */
export function acceptanceFactor(
  webs: readonly BlindWeb[],
  rate = ACCEPT_QUANTILE,
): { factor: number; accepted: number; pairs: number } {
  const pairs = webs.reduce((a, w) => a + w.truthLosses.length, 0);
  const count = (c: number): number =>
    webs.reduce((a, w) => {
      const bound = conformalBound(w.fit.selfLosses, ACCEPT_QUANTILE);
      const threshold = Math.max(c * bound, w.fit.loss + Math.max(0.01, w.fit.noise));
      return a + w.truthLosses.filter((l) => l <= threshold).length;
    }, 0);
  for (let i = 0; i <= 80; i++) {
    const c = Math.round((1 + 0.05 * i) * 100) / 100;
    if (count(c) >= rate * pairs) return { factor: c, accepted: count(c), pairs };
  }
  return { factor: Infinity, accepted: count(5), pairs };
}
