import { describe, expect, it } from 'vitest';
import { compareRankings, kendallExactP, kendallTau, selfTau, type TwinValidation } from './validate.ts';

describe("Kendall's tau and its exact p", () => {
  it('is 1 for the same order, -1 for the reverse, and p is the share of permutations at least as concordant', () => {
    expect(kendallTau([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTau([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    // 4 items: 1 of 24 permutations has tau 1
    expect(kendallExactP([1, 2, 3, 4], [1, 2, 3, 4], 1)).toBeCloseTo(1 / 24, 10);
    expect(kendallExactP([1, 2, 3, 4], [4, 3, 2, 1], -1)).toBe(1);
  });
});

/** Rows of a validation: per site and strategy, the archive's AUC and the twin's. */
function rowsOf(
  archive: Record<string, number[]>,
  twin: Record<string, number[]>,
  sites = ['a', 'b', 'c'],
): TwinValidation['rows'] {
  return sites.flatMap((site, i) =>
    Object.keys(archive).map((strategy) => ({
      strategy,
      site,
      archive: archive[strategy][i],
      twin: twin[strategy][i],
    })),
  );
}

describe('the twin judged against the control (the archive predicting a held-out site by its other sites)', () => {
  // four strategies whose order is the same on every archive site, levels differing by site
  const archive = {
    bfs: [0.1, 0.2, 0.15],
    immediate: [0.2, 0.3, 0.25],
    future: [0.3, 0.4, 0.35],
    adaptive: [0.4, 0.5, 0.45],
    oracle: [0.9, 0.95, 0.92],
  };

  it('a twin that reverses the order: tau -1 per site against a control of 1, and the levels beside', () => {
    const reversed = {
      bfs: [0.4, 0.4, 0.4],
      immediate: [0.3, 0.3, 0.3],
      future: [0.2, 0.2, 0.2],
      adaptive: [0.1, 0.1, 0.1],
      oracle: [0.9, 0.9, 0.9],
    };
    const r = compareRankings(rowsOf(archive, reversed));
    expect(r.tau).toBe(-1);
    expect(r.perSite.map((x) => [x.site, x.twin, x.control])).toEqual([
      ['a', -1, 1],
      ['b', -1, 1],
      ['c', -1, 1],
    ]);
    expect(r.twinTau.mean).toBe(-1);
    expect(r.controlTau.mean).toBe(1);
    expect(r.tauDifference.mean).toBe(-2);
    // the control's miss of bfs at a: |mean of b and c (0.175) - a's 0.1|, and so on
    const bfs = r.strategies.find((s) => s.strategy === 'bfs')!;
    expect(bfs.controlError.mean).toBeCloseTo((0.075 + 0.075 + 0) / 3, 12);
    expect(bfs.twinError.mean).toBeCloseTo((0.3 + 0.2 + 0.25) / 3, 12);
    expect(bfs.difference.mean).toBeCloseTo((0.3 + 0.2 + 0.25) / 3, 12);
    expect(bfs.verdict).toBe('off');
    // the twin misses by more than the control at every site: further, detectably
    expect(bfs.errorDifference.lo).toBeGreaterThan(0);
    expect(bfs.levelVerdict).toBe('further');
    expect(r.strategies.map((s) => s.strategy)).toEqual(['bfs', 'immediate', 'future', 'adaptive', 'oracle']);
  });

  it('a twin as good as the archive itself: the same per-site tau as the control, nothing off', () => {
    const r = compareRankings(rowsOf(archive, archive));
    expect(r.tau).toBe(1);
    expect(r.perSite.every((x) => x.twin === 1 && x.control === 1)).toBe(true);
    expect(r.tauDifference.mean).toBe(0);
    expect(r.strategies.every((s) => s.verdict === 'agrees')).toBe(true);
    // a twin that hits every site exactly: never further than the control, which misses by the sites' spread
    expect(r.strategies.every((s) => s.twinError.mean === 0 && s.levelVerdict !== 'further')).toBe(true);
    expect(r.strategies.find((s) => s.strategy === 'bfs')!.controlError.mean).toBeCloseTo(0.05, 12);
  });

  it("an archive whose sites disagree with each other: the control's tau is low, so is the bar", () => {
    // site c reverses a and b's order: predicting c from a and b fails, as a twin would
    const split = {
      bfs: [0.1, 0.1, 0.4],
      immediate: [0.2, 0.2, 0.3],
      future: [0.3, 0.3, 0.2],
      adaptive: [0.4, 0.4, 0.1],
    };
    const r = compareRankings(rowsOf(split, split));
    expect(r.perSite.find((x) => x.site === 'c')!.control).toBe(-1);
    expect(r.perSite.find((x) => x.site === 'c')!.twin).toBe(1);
    expect(r.controlTau.mean).toBeLessThan(r.twinTau.mean);
  });

  it('leaves out a strategy missing at a site and the oracle from every tau', () => {
    const rows = rowsOf(archive, archive).filter((x) => !(x.strategy === 'future' && x.site === 'b'));
    const r = compareRankings(rows);
    expect(r.strategies.map((s) => s.strategy)).toEqual(['bfs', 'immediate', 'adaptive', 'oracle']);
    // three strategies ranked, the oracle aside: 3 pairs, all concordant
    expect(r.tau).toBe(1);
    expect(r.p).toBeCloseTo(1 / 6, 12);
  });
});

describe('the same-web control: how well the twin ranks like itself at another web seed (issue #72)', () => {
  const archive = { bfs: [0.1, 0.2, 0.15], immediate: [0.2, 0.3, 0.25], future: [0.3, 0.4, 0.35] };
  /** Rows whose twin AUC at each of its web seeds is given per strategy (the same at every site). */
  const withSeeds = (twin: Record<string, number[]>, seeds: Record<string, number[]>) =>
    rowsOf(archive, twin).map((r) => ({ ...r, twinSeeds: seeds[r.strategy] }));
  const same = { bfs: [0.1, 0.2, 0.15], immediate: [0.2, 0.3, 0.25], future: [0.3, 0.4, 0.35] };

  it('is the mean tau over pairs of seeds, and none with one seed', () => {
    expect(
      selfTau([
        [0.1, 0.1, 0.2],
        [0.2, 0.2, 0.3],
        [0.3, 0.3, 0.1],
      ]),
    ).toBeCloseTo((1 - 1 / 3 - 1 / 3) / 3, 12);
    expect(selfTau([[0.1], [0.2]])).toBeNull();
  });

  it('says "as well", "worse" or "cannot tell", by the twin against the web at its other seeds', () => {
    // a web that ranks like itself at every seed (tau 1) and a twin that ranks like the archive
    const steady = { bfs: [0.1, 0.12, 0.11], immediate: [0.2, 0.22, 0.21], future: [0.3, 0.32, 0.31] };
    const good = compareRankings(withSeeds(same, steady));
    expect(good.selfTau?.mean).toBe(1);
    expect(good.verdict).toBe('ranks like the archive as well as the web ranks like itself');
    // the same steady web, but the twin's mean order reversed against the archive's
    const reversed = { bfs: [0.3, 0.3, 0.3], immediate: [0.2, 0.2, 0.2], future: [0.1, 0.1, 0.1] };
    const worse = compareRankings(withSeeds(reversed, steady));
    expect(worse.verdict).toBe('ranks like the archive worse than the web ranks like itself');
    // a web whose seeds disagree with each other: no ranking can show more than its noise
    const noisy = { bfs: [0.1, 0.3, 0.2], immediate: [0.2, 0.1, 0.3], future: [0.3, 0.2, 0.1] };
    const floor = compareRankings(withSeeds(same, noisy));
    expect(floor.verdict).toBe('cannot tell');
    expect(floor.because).toMatch(/noise floor is too high/);
    // a twin right at two sites and reversed at the third: the paired difference's interval is too
    // wide to tell it from a twin that ranked at random
    const mixed = compareRankings(
      withSeeds(same, steady).map((r) =>
        r.site === 'b'
          ? { ...r, twin: ({ bfs: 0.3, immediate: 0.2, future: 0.1 } as Record<string, number>)[r.strategy] }
          : r,
      ),
    );
    expect(mixed.perSite.map((x) => x.twin)).toEqual([1, -1, 1]);
    expect(mixed.verdict).toBe('cannot tell');
    expect(mixed.because).toMatch(
      /would detect a shortfall of [\d.]+ only, not the 1\.000 of a twin that ranked at random/,
    );
    // one seed: no same-web control
    const one = compareRankings(rowsOf(archive, same));
    expect(one.verdict).toBe('cannot tell');
    expect(one.because).toMatch(/one web seed/);
  });

  it("takes the archive's own web as the bar where it is known, not the twin with itself (issue #85)", () => {
    // a twin steady with itself (tau 1 at every pair of seeds) that ranks like the archive at two
    // sites of three; the archive's own web, known, ranks like every site: the twin falls short of it
    const steady = { bfs: [0.1, 0.12, 0.11], immediate: [0.2, 0.22, 0.21], future: [0.3, 0.32, 0.31] };
    const own: Record<string, number> = { bfs: 0.12, immediate: 0.22, future: 0.33 };
    const rows = withSeeds(same, steady).map((r) => ({
      ...r,
      own: own[r.strategy],
      ...(r.site === 'b'
        ? { twin: ({ bfs: 0.3, immediate: 0.2, future: 0.1 } as Record<string, number>)[r.strategy] }
        : {}),
    }));
    const r = compareRankings(rows);
    expect(r.sameWeb).toBe('own web');
    expect(r.perSite.map((x) => x.own)).toEqual([1, 1, 1]);
    expect(r.ownTau?.mean).toBe(1);
    expect(r.selfTau?.mean).toBe(1);
    // the paired difference is twin minus the own web's: -2 at b, 0 elsewhere
    expect(r.selfDifference?.mean).toBeCloseTo(-2 / 3, 12);
    expect(r.because).toMatch(/^twin tau minus the own web's/);
    // an own web that ranks a site in reverse: per-site tau -1 there, by hand
    const flipped = compareRankings(
      rows.map((x) =>
        x.site === 'c'
          ? { ...x, own: ({ bfs: 0.3, immediate: 0.2, future: 0.1 } as Record<string, number>)[x.strategy] }
          : x,
      ),
    );
    expect(flipped.perSite.map((x) => x.own)).toEqual([1, 1, -1]);
    expect(flipped.because).toMatch(/own web at other seeds ranks like the archive with tau 0\.333/);
    // unknown own web: the twin with itself stands in
    const unknown = compareRankings(withSeeds(same, steady));
    expect(unknown.sameWeb).toBe('twin');
    expect(unknown.ownTau).toBeNull();
    expect(unknown.perSite.every((x) => x.own === null)).toBe(true);
  });

  it('gives no level verdict where the strategies span less than the detectable difference', () => {
    // three strategies within 0.01 of each other on the archive; the twin's levels scatter by 0.1
    const close = { bfs: [0.3, 0.31, 0.3], immediate: [0.305, 0.3, 0.31], future: [0.31, 0.305, 0.3] };
    const scatter = { bfs: [0.2, 0.4, 0.31], immediate: [0.4, 0.2, 0.3], future: [0.3, 0.41, 0.2] };
    const r = compareRankings(rowsOf(close, scatter));
    expect(r.strategies.every((s) => s.verdict === 'cannot tell')).toBe(true);
  });
});
