/**
 * The deep web under the published conditions (issue #20): record text whose vocabulary grows
 * with the database (Heaps' law), a random dictionary that is general English and not the
 * web's own words, a catalogue that pages through every match, range pairs found by names and
 * confirmed by probing (the catalogue's year range; not the flights' from / to airports), range
 * templates that cover the range with intervals, and typed text inputs found by probing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordDb } from '../sim/deepweb/db.ts';
import { resolveConfig } from '../sim/config.ts';
import { readExperimentJson } from '../experiments/focused/config.ts';
import { readWords, resolveDeepweb } from '../experiments/deepweb/config.ts';
import {
  coverRange,
  confirmRange,
  detectType,
  discoverForms,
  FormClient,
  isit,
  rangeByNames,
  rangeCandidates,
  SurfaceSession,
  typeValues,
  type DiscoveredForm,
} from '../crawler/deepweb/index.ts';
import { SeededRandom } from '../crawler/deepweb/random.ts';
import { startWeb, tinyConfig } from './helpers.ts';
import { runMain } from '../lib/cli.ts';
import type { SimServer } from '../sim/server.ts';

const SITES = [
  { kind: 'jobs', host: 'jobs.search.test', records: 1000 },
  { kind: 'flights', host: 'flights.search.test', records: 1000 },
  { kind: 'catalogue', host: 'catalogue.search.test', records: 3000, topK: 0 },
];

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

describe('on search sites under the published conditions', () => {
  let web: Awaited<ReturnType<typeof startWeb>>;
  let server: SimServer;
  const forms = new Map<string, DiscoveredForm>();
  const clientFor = (host: string): FormClient =>
    new FormClient({
      settings: { startUrls: [`http://${host}/`], delayMs: 0, autoThrottle: false },
      dispatcher: web.http,
    });
  const sessionOn = (kind: string, budget = 2000): SurfaceSession => {
    const d = forms.get(kind)!;
    return new SurfaceSession(clientFor(SITES.find((s) => s.kind === kind)!.host), d.form, d.template, budget);
  };

  beforeAll(async () => {
    web = await startWeb(tinyConfig({ deepweb: { sites: SITES } }), 1, { faults: false });
    server = web.server;
    for (const s of SITES) {
      const c = clientFor(s.host);
      forms.set(s.kind, (await discoverForms(c, `http://${s.host}/`)).forms[0]);
      await c.close();
    }
  });
  afterAll(() => web.close());

  it('pages an uncapped catalogue through every match', async () => {
    const site = server.deepSites.get('catalogue.search.test')!;
    expect(site.topK).toBe(Infinity);
    const s = sessionOn('catalogue');
    const r = await s.query({ year_from: '1970', year_to: '2025' }, 'test');
    expect(r.first!.total).toBe(site.db.n);
    expect(new Set(r.records).size).toBe(site.db.n);
    expect(r.pages).toBe(Math.ceil(site.db.n / site.cfg.pageSize));
    await s.client.close();
  });

  it("finds the catalogue's year range by names and confirms it by probing; rejects the flights' from / to", async () => {
    const cat = rangeCandidates(forms.get('catalogue')!.form.inputs);
    expect(cat.map((c) => [c.lo, c.hi, c.attribute, c.evidence])).toEqual([['year_from', 'year_to', 'year', 'names']]);
    expect(cat[0].values[0]).toBe('1970');
    expect(cat[0].values.at(-1)).toBe('2025');
    const s = sessionOn('catalogue');
    const confirmed = await confirmRange(s, cat[0]);
    expect(confirmed.confirmed).toBe(true);
    expect(confirmed.probe).toMatch(/inverted error/);
    await s.client.close();

    const fl = rangeCandidates(forms.get('flights')!.form.inputs);
    expect(fl.map((c) => [c.lo, c.hi])).toEqual([['from', 'to']]);
    const f = sessionOn('flights');
    expect((await confirmRange(f, fl[0])).confirmed).toBe(false);
    await f.client.close();
  });

  it('covers a range with disjoint intervals under a cap, splitting only what the cap hides', async () => {
    // the capped catalogue of the bench: 200 records per query at most
    const capped = await startWeb(
      tinyConfig({ deepweb: { sites: [{ kind: 'catalogue', host: 'catalogue.search.test', records: 3000 }] } }),
      1,
      { faults: false },
    );
    try {
      const c = new FormClient({
        settings: { startUrls: ['http://catalogue.search.test/'], delayMs: 0, autoThrottle: false },
        dispatcher: capped.http,
      });
      const d = (await discoverForms(c, 'http://catalogue.search.test/')).forms[0];
      const s = new SurfaceSession(c, d.form, d.template, 5000);
      const pair = await confirmRange(s, rangeCandidates(d.form.inputs)[0]);
      const queries = await coverRange(s, pair, {}, 'cover');
      const site = capped.server.deepSites.get('catalogue.search.test')!;
      // every year with at most 200 papers is shown whole; the queries are far fewer than the 1,596 ordered pairs of years
      const years = site.db.year!;
      const perYear = new Map<number, number>();
      for (const y of years) perYear.set(y, (perYear.get(y) ?? 0) + 1);
      const reachable = [...perYear.values()].reduce((a, n) => a + Math.min(n, site.topK), 0);
      const valid = [...s.records.keys()].filter((u) => site.recordOf(new URL(u).pathname) >= 0).length;
      expect(valid).toBeGreaterThanOrEqual(reachable);
      expect(queries).toBeLessThan(2 * 56);
      await c.close();
    } finally {
      await capped.close();
    }
  });

  it('types the flights date input by probing (dates kept, years, numbers and zip codes not)', async () => {
    const d = forms.get('flights')!;
    const input = d.form.inputs.find((i) => i.name === 'date')!;
    expect(input.htmlType).toBe('date');
    expect(typeValues('date', input, '2027-01-01')).toHaveLength(28);
    const s = sessionOn('flights');
    const t = await detectType(s, input, { tau: 0.2, sampleSize: 10, today: '2027-01-01' }, new SeededRandom(1));
    expect(t.type).toBe('date');
    expect(t.tests.filter((x) => x.informative).map((x) => x.type)).toEqual(['date']);
    await s.client.close();
  });

  it('ISIT with range templates needs fewer queries for the catalogue than crossing both ends', async () => {
    const site = server.deepSites.get('catalogue.search.test')!;
    const textValues = { q: ['database', 'learning', 'network'] };
    const plain = await isit(sessionOn('catalogue', 5000), { textValues, testOnly: true });
    const ranged = await isit(sessionOn('catalogue', 5000), { textValues, ranges: true, testOnly: true });
    expect(ranged.ranges.filter((p) => p.confirmed)).toHaveLength(1);
    expect(ranged.chosen.some((t) => t.includes('year_from..year_to'))).toBe(true);
    expect(ranged.chosen.flat()).not.toContain('year_from');
    expect(ranged.queries).toBeLessThan(plain.queries);
    const s = sessionOn('catalogue', 5000);
    await isit(s, { textValues, ranges: true });
    const valid = [...s.records.keys()].filter((u) => site.recordOf(new URL(u).pathname) >= 0).length;
    expect(valid / site.db.n).toBeGreaterThan(0.95);
    await s.client.close();
  });
});
