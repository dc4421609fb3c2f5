/**
 * The shipped real departments (data/webkb/, issue #34): the paper's experiment config runs on
 * them from the repository alone, under the closed hole policy nobody pays for a hole, and what
 * the report rests on (pages, holes, known papers, their depth) is what the collection holds.
 */
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../experiments/focused/config.ts';
import { archiveEnv } from '../experiments/focused/env.ts';
import { restsOn } from '../experiments/focused/report-setup.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { scaled } from './speed.ts';

describe('the WebKB departments', () => {
  it('webkb-papers runs on the shipped archive: papers by URL, holes closed and charged to no one', {
    timeout: scaled(120_000),
  }, async () => {
    const cfg = {
      ...loadExperiment('webkb-papers', { quick: true }),
      strategies: ['bfs', 'immediate'],
      budget: 100,
      orderSeeds: 1,
    };
    const d = await runExperiment(cfg, { workers: 0, cacheDir: null });
    expect(d.sites).toEqual(['cornell', 'texas', 'washington', 'wisconsin']);
    const facts = Object.fromEntries(d.facts.map((f) => [f.site, f]));
    // what the collection holds (data/webkb/README.md): collected pages, papers known by their links
    expect(Object.values(facts).map((f) => f.archive!.pages)).toEqual([747, 727, 1161, 1134]);
    // papers, each counted once whatever its formats (.ps and .ps.Z of one stem: 1168, 482, 956, 646 files)
    expect(Object.values(facts).map((f) => f.relevant)).toEqual([1151, 442, 887, 644]);
    for (const f of Object.values(facts)) {
      const a = f.archive!;
      expect(a.policy).toBe('closed');
      expect(a.holes / a.linkedUrls).toBeGreaterThan(0.65);
      expect(a.holes / a.linkedUrls).toBeLessThan(0.82);
      expect(a.collected?.[0]).toMatch(/^199[67]-/);
      // no paper within one hop of the home page
      expect(f.depths.slice(0, 2).reduce((x, y) => x + y, 0)).toBe(0);
      expect(f.judgement).toMatchObject({ mode: 'paper-url', precision: 1, recall: 1 });
    }
    for (const s of d.summaries) {
      expect(s.hole_charged, `${s.strategy} ${s.site}`).toBe(0);
      expect(s.pages, `${s.strategy} ${s.site}`).toBe(100);
      // the status columns end at the budget, as the curves do; what was in flight is past_budget (issue #85)
      const counted = s.status_2xx + s.status_3xx + s.status_4xx + s.status_5xx + s.fetch_errors;
      expect(counted, `${s.strategy} ${s.site}`).toBe(100);
      // the server saw them all (and robots.txt, and retries)
      if (s.strategy !== 'oracle')
        expect(s.requests, `${s.strategy} ${s.site}`).toBeGreaterThanOrEqual(counted + s.hole_fetches + s.past_budget);
    }
    // the report bills each department
    const { billBySite } = await import('../experiments/focused/report-setup.ts');
    const bill = billBySite(d);
    expect(bill.filter((l) => /^\| (cornell|texas|washington|wisconsin) \|/.test(l))).toHaveLength(4);
    // the oracle bounds every run, with the same accounting
    for (const s of d.summaries.filter((x) => x.strategy !== 'oracle')) {
      const o = d.summaries.find((x) => x.strategy === 'oracle' && x.site === s.site)!;
      expect(s.relevant_found).toBeLessThanOrEqual(o.relevant_found);
    }
  });

  it('one bill for everyone: the oracle pays for the redirects a crawler is served, the report says by which rule', {
    timeout: scaled(240_000),
  }, async () => {
    const base = { ...loadExperiment('webkb-papers', { quick: true }), orderSeeds: 1 };
    // the graph a crawler is billed for: a link the server redirects ("/x" for the collected "/x/")
    // goes through a node of its own, never relevant, whose one link is the page it leads to
    const env = await archiveEnv(base);
    try {
      const b = env.billedGraphOf('texas');
      const { graph } = env.graphOf('texas');
      expect(b.redirects).toBeGreaterThan(0);
      expect(b.graph.n).toBe(graph.n + b.redirects);
      for (let v = graph.n; v < b.graph.n; v++) {
        expect(b.keys[v]).toBeNull();
        expect(b.graph.relevant[v]).toBe(0);
        expect(b.graph.outStart[v + 1] - b.graph.outStart[v]).toBe(1);
      }
    } finally {
      await env.close();
    }
    const paid = (rows: { strategy: string; status_3xx: number }[], s: string): string => {
      const xs = rows.filter((x) => x.strategy === s);
      const m = Math.round((xs.reduce((t, x) => t + x.status_3xx, 0) / xs.length) * 10) / 10;
      return Number.isInteger(m) ? String(m) : m.toFixed(1);
    };
    for (const budgetCounts of ['requests', 'pages'] as const) {
      const d = await runExperiment(
        { ...base, strategies: ['bfs'], budget: 150, budgetCounts },
        { workers: 0, cacheDir: null, replay: false },
      );
      const line = restsOn(d).find((l) => l.startsWith('- The bill:'))!;
      expect(line).toMatch(budgetCounts === 'requests' ? /every request counts/ : /only 2xx pages count/);
      // the numbers are summary.csv's status_3xx, the oracle's beside the crawler's
      expect(line).toContain(`bfs ${paid(d.summaries, 'bfs')}; oracle ${paid(d.summaries, 'oracle')}`);
      // on the pages' graph (only 2xx count) the oracle never meets a redirect
      if (budgetCounts === 'pages') expect(paid(d.summaries, 'oracle')).toBe('0');
      expect(d.summaries.filter((x) => x.strategy === 'bfs').some((x) => x.status_3xx > 0)).toBe(true);
    }
  });
});
