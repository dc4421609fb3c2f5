/**
 * A broken twin fit is a clear error (the fits themselves are test/twin.full.test.ts, in the full tier).
 */
import { describe, expect, it } from 'vitest';
import { FitError, fitTwin, measureWeb, twinConfig } from '../experiments/twin/fit.ts';
import { resolveConfig } from '../sim/config.ts';
import { webStats } from '../sim/site-stats.ts';

describe('a twin fit', () => {
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
