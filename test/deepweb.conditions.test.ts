/**
 * The deep web under the published conditions (issue #20): record text whose vocabulary grows
 * with the database (Heaps' law), a random dictionary that is general English and not the
 * web's own words, a catalogue that pages through every match, range pairs found by names and
 * confirmed by probing (the catalogue's year range; not the flights' from / to airports), range
 * templates that cover the range with intervals, and typed text inputs found by probing.
 */
import { describe, expect, it } from 'vitest';
import { RecordDb } from '../sim/deepweb/db.ts';
import { resolveConfig } from '../sim/config.ts';
import { readExperimentJson } from '../experiments/focused/config.ts';
import { readWords, resolveDeepweb } from '../experiments/deepweb/config.ts';
import { rangeByNames } from '../crawler/deepweb/index.ts';
import { runMain } from '../lib/cli.ts';

describe('record vocabulary', () => {
  it("grows with the database as Heaps' law says: more distinct words at ten times the size, beta in (0, 1)", () => {
    for (const kind of ['catalogue', 'jobs'] as const) {
      const small = new RecordDb(kind, 1000, 1, `${kind}.search.test`);
      const large = new RecordDb(kind, 10_000, 1, `${kind}.search.test`);
      const hs = small.heaps()!;
      const hl = large.heaps()!;
      expect(large.dict.length, kind).toBeGreaterThan(2 * small.dict.length);
      // sublinear: ten times the text, far fewer than ten times the words
      expect(large.dict.length, kind).toBeLessThan(8 * small.dict.length);
      for (const h of [hs, hl]) {
        expect(h.beta).toBeGreaterThan(0.3);
        expect(h.beta).toBeLessThan(1);
        expect(h.points.at(-1)!.distinct).toBeGreaterThan(h.points[0].distinct);
      }
    }
    expect(new RecordDb('flights', 1000, 1, 'flights.search.test').heaps()).toBeNull();
  });

  it("gives the random policy a general English dictionary, not the web's vocabulary", () => {
    const { raw } = readExperimentJson('deepweb-conditions');
    const cfg = resolveDeepweb(raw as Record<string, unknown>, 'deepweb-conditions');
    const dictionary = readWords(cfg.dictionary);
    const db = new RecordDb('catalogue', 10_000, 1, 'catalogue.search.test');
    const vocab = new Set(db.dict);
    const hits = dictionary.filter((w) => vocab.has(w)).length;
    expect(dictionary.length).toBeGreaterThan(200_000);
    // most dictionary words never occur in the catalogue, and the catalogue has words the dictionary lacks
    expect(hits / dictionary.length).toBeLessThan(0.25);
    const inDict = new Set(dictionary);
    expect(db.dict.filter((w) => !inDict.has(w)).length).toBeGreaterThan(0);
    // the bench's dictionary is the synthetic web's own words: almost all of it occurs
    const own = readWords(
      resolveDeepweb(readExperimentJson('deepweb').raw as Record<string, unknown>, 'deepweb').dictionary,
    );
    expect(own.filter((w) => vocab.has(w)).length / own.length).toBeGreaterThan(hits / dictionary.length);
  });

  it('ships the word lists data/deepweb/build.ts makes (npm run deepweb:words -- --check)', async () => {
    // the generic list was built from an older generator and no longer matched until 2026-12-04
    const { main } = await import('../data/deepweb/build.ts');
    let out = '';
    const code = await runMain(main, ['--check'], { out: (t) => void (out += t), err: (t) => void (out += t) });
    expect(out).toContain('the word lists match build.ts');
    expect(code).toBe(0);
  });

  it('rejects a dictionary package that is not installed, naming the field', () => {
    const { raw } = readExperimentJson('deepweb-conditions');
    expect(() => resolveDeepweb({ ...(raw as object), dictionary: 'npm:no-such-word-list' }, 'x')).toThrow(
      /dictionary: package "no-such-word-list" is not installed/,
    );
    expect(() => resolveDeepweb({ ...(raw as object), isit: { ranges: 'yes' } }, 'x')).toThrow(
      /isit.ranges: expected true or false/,
    );
    expect(() =>
      resolveConfig({ deepweb: { sites: [{ kind: 'catalogue', host: 'c.search.test', topK: -1 }] } }),
    ).toThrow(/deepweb.sites\[0\].topK/);
  });
});

describe('range pairs by names', () => {
  it('pairs inputs that differ only in a low / high token', () => {
    expect(rangeByNames('year_from', 'year_to')).toBe('year');
    expect(rangeByNames('minPrice', 'maxPrice')).toBe('price');
    expect(rangeByNames('price-low', 'price-high')).toBe('price');
    expect(rangeByNames('from', 'to')).toBe('');
    expect(rangeByNames('year_to', 'year_from')).toBeNull();
    expect(rangeByNames('subject', 'year')).toBeNull();
    expect(rangeByNames('from_year', 'to_month')).toBeNull();
  });
});
