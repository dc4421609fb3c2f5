import { describe, expect, it } from 'vitest';
import { acceptanceFactor, type BlindWeb, coverageOf, ownAcceptance } from './blind.ts';

const knob = (path: string, identified: boolean, covered: boolean, lo: number, hi: number) => ({
  path,
  drawn: 0,
  fitted: 0,
  lo,
  hi,
  identified,
  covered,
});

describe('coverage of identified intervals (npm run bench:twin)', () => {
  it('counts per knob and in all: identified, covering, flat, width', () => {
    const webs = [
      { knobs: [knob('sample', true, true, 0.5, 0.8), knob('links.extraMin', false, true, 0, 10)] },
      { knobs: [knob('sample', true, false, 0.1, 0.3), knob('links.extraMin', true, true, 0, 2)] },
    ] as unknown as BlindWeb[];
    const { knobs, all } = coverageOf(webs);
    const sample = knobs.find((k) => k.path === 'sample')!;
    expect(sample).toMatchObject({ webs: 2, identified: 2, covered: 1, flat: 0 });
    // the sample's range is 0.05-1: intervals of 0.3 and 0.2
    expect(sample.width).toBeCloseTo((0.3 / 0.95 + 0.2 / 0.95) / 2, 9);
    // a flat knob that holds the drawn value is not counted as covering: coverage is a promise of identified ones
    expect(knobs.find((k) => k.path === 'links.extraMin')).toMatchObject({ identified: 1, covered: 1, flat: 1 });
    expect(all).toMatchObject({ webs: 4, identified: 3, covered: 2, flat: 1 });
  });
});

describe("the web an archive came from, within the fit's threshold (issue #85)", () => {
  it('counts (web, seed) pairs accepted, with a Wilson interval, and the webs never accepted', () => {
    const webs = [
      { truthLosses: [0.1, 0.2, 0.3, 0.4], ownAccepted: 2 },
      { truthLosses: [0.5, 0.6, 0.7, 0.8], ownAccepted: 0 },
    ] as unknown as BlindWeb[];
    const r = ownAcceptance(webs);
    expect(r).toMatchObject({ accepted: 2, pairs: 8, never: 1 });
    // Wilson's interval for 2 of 8, by hand: centre (0.25 + z^2/16) / (1 + z^2/8), z = 1.96
    expect(r.lo).toBeCloseTo(0.0715, 3);
    expect(r.hi).toBeCloseTo(0.5907, 3);
  });
});

describe('the calibration of the threshold: the least factor on the self-loss bound that accepts 90% (issue #85)', () => {
  // nine self-losses 1..9: the conformal bound at 90% is the 9th smallest, 9
  const selfLosses = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  const web = (truthLosses: number[], loss = 0.5, noise = 0.1) =>
    ({ truthLosses, fit: { selfLosses, loss, noise } }) as unknown as BlindWeb;

  it('is 1 when the bound already holds 90% of the pairs', () => {
    expect(acceptanceFactor([web(Array(10).fill(8))])).toEqual({ factor: 1, accepted: 10, pairs: 10 });
  });

  it('is the first step of 0.05 whose threshold holds 90%, by hand', () => {
    // 9 of 10 pairs must be accepted: the 9th smallest truth loss is 12, 12 / 9 = 1.333: factor 1.35
    const r = acceptanceFactor([web([1, 2, 3, 4, 5, 6, 7, 8, 12, 100])]);
    expect(r).toEqual({ factor: 1.35, accepted: 9, pairs: 10 });
  });

  it("counts the fit's loss plus its noise where that is the larger threshold", () => {
    // the floor 20 + 1 accepts every pair below 21 at any factor
    expect(acceptanceFactor([web(Array(10).fill(20.5), 20, 1)]).factor).toBe(1);
  });

  it('says Infinity when no factor up to 5 holds 90%', () => {
    expect(acceptanceFactor([web(Array(10).fill(1000))]).factor).toBe(Infinity);
  });
});

describe('a drawn web the fit cannot take is skipped, not the end of the bench', () => {
  it('says why and goes on', async () => {
    const { blindRoundTrip, blindWebTask } = await import('./blind.ts');
    const spec = { documents: ['.pdf'], relevantDocuments: ['.pdf'], relevantLabels: [] };
    // departments of 30 HTML pages: fewer than a fit takes
    const opts = {
      webs: 2,
      seed: 1,
      sizes: [30, 30, 30],
      set: { sample: 0.05, scale: 0.1 },
      archiveSeed: 101,
      spec,
      fit: { seed: 1, budget: 8, restarts: 1, checkSeeds: [1] },
    };
    const r = await blindWebTask({ opts, index: 0 });
    expect(r).toMatchObject({ index: 0, skipped: expect.stringMatching(/^too few pages to fit: /) });
    const skipped: number[] = [];
    expect(await blindRoundTrip(opts, undefined, (i) => skipped.push(i))).toEqual([]);
    expect(skipped).toEqual([0, 1]);
  });
});

describe("a fit says when it is not where the threshold's factor was calibrated", () => {
  it('is silent at 3 departments of about 400 HTML pages and one check seed, and names the gap elsewhere', async () => {
    const { calibrationLine } = await import('./fit.ts');
    expect(calibrationLine([380, 420, 410], 1)).toBeNull();
    // WebKB: four departments of 800-1,900 pages
    const line = calibrationLine([867, 1215, 1652, 1926], 1);
    expect(line).toMatch(/^note: the threshold's factor \(1\.25\) was calibrated blind at 3 departments of 400 HTML/);
    expect(line).toMatch(/this fit has 4 of about 1415 and 1: .*not measured here/);
    expect(line).toMatch(/\(npm run bench:twin -- --departments 4 --pages 1415 --check-seeds 1\)$/);
    expect(calibrationLine([400, 400, 400], 3)).toMatch(/and 3: /);
  });
});
