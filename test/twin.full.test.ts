/**
 * The twin's round trip without real data (issues #36 item 4, #51 item 4): a web generated with
 * knob values off the defaults, written as an archive (a sample of its pages, as a collection keeps
 * them) with labels, measures as the generator does; webs drawn blind from the knobs' ranges are
 * fitted back and come back within the fit's stated intervals and their own noise. A broken fit
 * is a clear error.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAPER_EXTENSIONS } from '../lib/document-types.ts';
import { resolveConfig } from '../sim/config.ts';
import { archiveViews, specOf } from '../experiments/twin/archive.ts';
import { blindRoundTrip } from '../experiments/twin/blind.ts';
import { fitTwin, type KnobValues, lossOf, meanStats, measureWeb, twinConfig } from '../experiments/twin/fit.ts';
import { webStats } from '../sim/site-stats.ts';
import { writeTwinArchive } from '../experiments/twin/writer.ts';
import { twinArchiveExperiment } from './helpers.ts';
import { scaled } from './speed.ts';

const mean = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;

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
describe('a twin fitted to an archive of a generated web', () => {
  it('the archive path and the generator path measure the same; the defaults are far off', {
    timeout: scaled(60_000),
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twin-'));
    const planted = resolveConfig(twinConfig('planted', [500, 450, 550, 500], PLANTED));
    const w = await writeTwinArchive(planted, 3, PLANTED.sample, join(dir, 'p.warc.gz'), join(dir, 'p.csv'));
    expect(w.records).toBeGreaterThan(1000);
    const cfg = await twinArchiveExperiment(w, 'planted');
    const stats = webStats(await archiveViews(cfg));
    // the planted web, its own seed and sizes, read straight from the generator as the fit reads it
    const direct = measureWeb(planted, 3, specOf(cfg), PLANTED.sample);
    expect(lossOf(meanStats(stats), meanStats(direct))).toBeLessThan(0.05);
    // the generator's defaults against the planted values, both at another seed
    const sizes = stats.map((s) => s.htmlPages);
    const at = (v: KnobValues) =>
      lossOf(
        meanStats(stats),
        meanStats(measureWeb(resolveConfig(twinConfig('x', sizes, v)), 1, specOf(cfg), v.sample)),
      );
    const off: KnobValues = { sample: 1, scale: 1, 'structure.papersPerFaculty': 8, 'structure.conventions': 1 };
    expect(at(off)).toBeGreaterThan(3 * at({ ...PLANTED, scale: (PLANTED.scale * 500) / mean(sizes) }));
  });

  it("blind: webs drawn from the knobs' ranges come back, each identified knob within its interval", {
    timeout: scaled(480_000),
  }, async () => {
    // nobody chose these webs: every knob drawn uniformly from its range (seeded); the first is
    // read through its WARC as a real archive is. Papers by URL, as webkb-papers.
    const spec = { documents: [...PAPER_EXTENSIONS], relevantDocuments: [...PAPER_EXTENSIONS], relevantLabels: [] };
    const common = { seed: 1, sizes: [400, 400, 400], archiveSeed: 101, spec };
    const webs = [
      ...(await blindRoundTrip({
        ...common,
        webs: 1,
        viaArchive: true,
        // two evaluations re-optimising the others at each profile point (npm run bench:twin uses 6):
        // with eleven knobs free the profile is most of the cost, and this web's check is that
        // nothing is called identified that misses
        fit: { seed: 1, budget: 48, restarts: 2, checkSeeds: [1], profile: 3, profileSteps: 2 },
      })),
      // departments without heterogeneity (conventions 0) and two knobs free: there the statistics
      // identify both, so the check below cannot pass by calling everything flat
      ...(await blindRoundTrip({
        ...common,
        seed: 2,
        webs: 1,
        set: { 'structure.conventions': 0 },
        free: ['sample', 'structure.papersPerFaculty'],
        fit: { seed: 1, budget: 30, restarts: 2, checkSeeds: [1], profile: 5 },
      })),
    ];
    for (const [i, w] of webs.entries()) {
      const what = `web ${i}: ${JSON.stringify(w.knobs)} loss ${w.fit.loss} truth ${w.truthLosses}`;
      // within the web's own seed-to-seed noise: no worse than the drawn values do at other seeds
      expect(w.lossWithinNoise, what).toBe(true);
      for (const k of w.knobs) {
        expect(k.lo, what).toBeLessThanOrEqual(k.fitted);
        expect(k.hi, what).toBeGreaterThanOrEqual(k.fitted);
        if (k.identified) expect(k.covered, `${k.path} ${what}`).toBe(true);
      }
      expect(w.fit.accepted).toBeGreaterThanOrEqual(1);
    }
    // every knob free at the collection's size: the departments' own variation leaves all of them
    // flat (docs/twin.md); without it the share sampled is identified, and comes back. Papers per
    // faculty member was "identified" too while its profile held the sample at the fit; with the
    // sample re-optimised at each point it fits from 60.5 to 90.25 of 1-120, and the profile's
    // grid (5 points) widens that past half its range (issue #72)
    expect(webs[0].knobs.filter((k) => k.identified).map((k) => k.path)).toEqual([]);
    expect(webs[1].knobs.filter((k) => k.identified).map((k) => k.path)).toEqual(['sample']);
  });

  it('the loss it reports is the loss it minimised (every evaluation at every reported seed); intervals bracket the fit', {
    timeout: scaled(180_000),
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
      // one evaluation re-optimising the others at each profile point: the path is run, its cost
      // (11 knobs x 3 points x 7 at the default, at two seeds) was most of this test's time
      profileSteps: 1,
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
    // the acceptance threshold is what the fitted web scores against itself, or just above the fit
    expect(fit.threshold).toBeGreaterThanOrEqual(fit.selfLoss);
    expect(fit.threshold).toBeGreaterThan(fit.loss);
    expect(fit.restarts).toHaveLength(1);
  });
});
