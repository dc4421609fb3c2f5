/**
 * Deep-web crawling on search sites under the published conditions (issue #20; full tier): a
 * catalogue paged through every match, range pairs found by names and confirmed by probing,
 * ranges covered with intervals under a cap, typed inputs found by probing, and ISIT with range
 * templates. The record vocabulary and the range pairs by names are test/deepweb.conditions.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coverRange,
  confirmRange,
  detectType,
  discoverForms,
  FormClient,
  isit,
  rangeCandidates,
  SurfaceSession,
  typeValues,
  type DiscoveredForm,
} from '../crawler/deepweb/index.ts';
import { SeededRandom } from '../crawler/deepweb/random.ts';
import { startWeb, tinyConfig } from './helpers.ts';
import type { SimServer } from '../sim/server.ts';

const SITES = [
  { kind: 'jobs', host: 'jobs.search.test', records: 1000 },
  { kind: 'flights', host: 'flights.search.test', records: 1000 },
  { kind: 'catalogue', host: 'catalogue.search.test', records: 3000, topK: 0 },
];

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
