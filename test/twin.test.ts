/**
 * The twin's round trip without real data (issue #36 item 4): a web generated with knob values
 * off the defaults, written as an archive (a sample of its pages, as a collection keeps them) with
 * labels, measured through the archive code, fitted: the fit finds the planted values within
 * stated tolerances and meets the statistics; the generator's defaults (the fit switched off) do
 * not. A broken fit is a clear error.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAPER_EXTENSIONS } from '../lib/documents.ts';
import { resolveConfig } from '../sim/config.ts';
import { archiveViews, fitToSites, specOf } from '../experiments/twin/archive.ts';
import {
  FitError,
  fitTable,
  fitTwin,
  type KnobValues,
  lossOf,
  meanStats,
  measureWeb,
  twinConfig,
} from '../experiments/twin/fit.ts';
import { kendallExactP, kendallTau } from '../experiments/twin/validate.ts';
import { webStats } from '../experiments/twin/stats.ts';
import { writeTwinArchive } from '../experiments/twin/writer.ts';
import { twinArchiveExperiment } from './helpers.ts';

const PLANTED: KnobValues = {
  sample: 0.5,
  scale: 1,
  'structure.papersPerFaculty': 30,
  'structure.papersFrom.projectLinks': 4,
  'links.extraMin': 1,
  'structure.gapMin': 2,
  gapSpread: 1,
  'structure.directGroupShare': 0.3,
  'structure.conventions': 0,
  'structure.bypass.navBar': 1,
};
/**
 * How close the fit must come to a planted value: the knobs the statistics identify. Not listed:
 * links.extraMin, which trades against the sample (an induced graph of fewer pages with more links
 * each has the same out-degree: measured 3 for a planted 1 at sample 0.35 for 0.5), and the knobs
 * whose statistics are flat at these sizes (gaps with the bypasses on, directGroupShare).
 */
const RECOVER: Record<string, (got: number, want: number) => boolean> = {
  sample: (g, w) => Math.abs(g - w) <= 0.2,
  'structure.papersPerFaculty': (g, w) => Math.abs(g - w) <= 0.5 * w,
  'structure.conventions': (g, w) => Math.abs(g - w) <= 0.5,
};
const recovered = (values: KnobValues): boolean =>
  Object.entries(RECOVER).every(([k, ok]) => ok(values[k], PLANTED[k]));

describe('a twin fitted to an archive of a generated web', () => {
  it('recovers the planted knobs and meets the statistics; the defaults do not', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twin-'));
    const planted = resolveConfig(twinConfig('planted', [500, 450, 550, 500], PLANTED));
    const w = await writeTwinArchive(planted, 3, PLANTED.sample, join(dir, 'p.warc.gz'), join(dir, 'p.csv'));
    expect(w.records).toBeGreaterThan(1000);
    const cfg = await twinArchiveExperiment(w, 'planted');
    const views = await archiveViews(cfg);
    // faculty per 1,000 pages and papers per faculty member make the papers together (issue #51):
    // the recovery of the others is tested with it held at the planted value (the default, 8)
    const { fit, stats } = fitToSites('rt', views, null, specOf(cfg), {
      budget: 80,
      seed: 1,
      checkSeeds: [1],
      fixed: { 'structure.facultyPerK': 8 },
    });
    const table = fitTable(fit);
    const met = table.filter((r) => r.met).length;
    expect(recovered(fit.values), JSON.stringify(fit.values)).toBe(true);
    expect(met, JSON.stringify(table)).toBeGreaterThanOrEqual(table.length - 3);
    // the archive path and the fitting loop's path measure the same: the planted web, its own seed
    // and sizes, read straight from the generator
    const direct = measureWeb(planted, 3, specOf(cfg), PLANTED.sample);
    expect(lossOf(meanStats(stats), meanStats(direct))).toBeLessThan(0.05);
    // the fit switched off: the generator's defaults
    const sizes = stats.map((s) => s.htmlPages);
    const off: KnobValues = { sample: 1, scale: 1, 'structure.papersPerFaculty': 8, 'structure.conventions': 1 };
    const offStats = measureWeb(resolveConfig(twinConfig('off', sizes, off)), 1, specOf(cfg), 1);
    expect(recovered(off)).toBe(false);
    expect(lossOf(meanStats(stats), meanStats(offStats))).toBeGreaterThan(3 * fit.loss);
  });

  it('the loss it reports is the loss it minimised (every evaluation at every reported seed); the profile brackets each knob', {
    timeout: 60_000,
  }, () => {
    const web = resolveConfig(twinConfig('avg', [400, 400, 400], { 'structure.conventions': 0.5 }));
    const spec = { documents: [...PAPER_EXTENSIONS], relevantDocuments: [...PAPER_EXTENSIONS], relevantLabels: [] };
    const archive = measureWeb(web, 7, spec, 1);
    const losses: number[] = [];
    const fit = fitTwin('avg', archive, [400, 400, 400], spec, {
      budget: 6,
      seed: 1,
      checkSeeds: [1, 2],
      profile: 3,
      onEvaluation: (_d, _t, loss) => losses.push(loss),
    });
    // a search at one seed reported a loss over three that it had never seen (0.86 / 11.59 / 1.29)
    expect(Math.min(...losses.slice(0, 6))).toBeCloseTo(fit.loss, 9);
    expect(fit.twinSites).toHaveLength(6);
    // the papers target searches faculty per 1,000 pages too, within its declared range
    expect(fit.values['structure.facultyPerK']).toBeGreaterThanOrEqual(2);
    expect(fit.knobs.map((k) => k.path)).toContain('structure.facultyPerK');
    for (const k of fit.knobs) {
      expect(k.lo).toBeLessThanOrEqual(k.value);
      expect(k.hi).toBeGreaterThanOrEqual(k.value);
      expect(k.profile.length).toBeGreaterThanOrEqual(2);
    }
    expect(fit.noise).toBeGreaterThan(0);
  });

  it('a fit on one site, or on sites of a few pages, is a clear error', () => {
    const web = resolveConfig(twinConfig('one', [300, 300], { 'structure.conventions': 0 }));
    const spec = { documents: [], relevantDocuments: [], relevantLabels: ['paper'] };
    const stats = measureWeb(web, 1, spec, 1);
    const opts = { budget: 4, seed: 1, checkSeeds: [1] };
    expect(() => fitTwin('x', stats.slice(0, 1), [300], spec, opts)).toThrow(FitError);
    expect(() => fitTwin('x', stats.slice(0, 1), [300], spec, opts)).toThrow(/two sites or more/);
    const tiny = stats.map((s) => ({ ...s, pages: 20 }));
    expect(() => fitTwin('x', tiny, [300, 300], spec, opts)).toThrow(/too few pages/);
    expect(webStats([]).length).toBe(0);
  });
});

describe("Kendall's tau and its exact p", () => {
  it('is 1 for the same order, -1 for the reverse, and p is the share of permutations at least as concordant', () => {
    expect(kendallTau([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTau([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    // 4 items: 1 of 24 permutations has tau 1
    expect(kendallExactP([1, 2, 3, 4], [1, 2, 3, 4], 1)).toBeCloseTo(1 / 24, 10);
    expect(kendallExactP([1, 2, 3, 4], [4, 3, 2, 1], -1)).toBe(1);
  });
});
