/**
 * Readings of the paper and the baselines' own noise (issue #67), end to end on a small web: the
 * adaptive crawler's sub-crawl shares the request budget, and link orders (orderSeeds) give each
 * strategy crawls of its own, told apart by the `order` column, order 1 being the page's order.
 */
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../experiments/focused/config.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { scaledWeb } from './helpers.ts';
import { scaled } from './speed.ts';

/** small.json's departments at a quarter of their size. */
const WEB = scaledWeb('data/webs/small.json', 0.25);
const SITE = 'cs.alpha-university.test';

describe('readings end to end', () => {
  it('the sub-crawl reading shares the budget: no run sends more requests than it', {
    timeout: scaled(120_000),
  }, async () => {
    const base = loadExperiment('focused', { quick: true });
    const budget = 250;
    const d = await runExperiment(
      {
        ...base,
        web: WEB,
        strategies: ['adaptive'],
        budget,
        every: 50,
        adaptive: { ...base.adaptive, tunnel: 'subcrawl', threadPages: 20, scope: 'link' },
      },
      { workers: 0, cacheDir: null, replay: false },
    );
    const runs = d.summaries.filter((s) => s.strategy === 'adaptive');
    expect(runs.length).toBeGreaterThan(1);
    for (const r of runs) {
      // requests: the server's count, robots.txt included (one per host)
      const fetched = r.status_2xx + r.status_3xx + r.status_4xx + r.status_5xx + r.fetch_errors;
      expect(fetched).toBeLessThanOrEqual(budget);
      expect(r.pages).toBeLessThanOrEqual(budget);
    }
    // the sub-crawls ran: pages came through them
    expect(runs.reduce((n, r) => n + (r.counter_threadFetched ?? 0), 0)).toBeGreaterThan(0);
    expect(runs.reduce((n, r) => n + (r.counter_threadsOpened ?? 0), 0)).toBeGreaterThan(0);
  });

  it('orderSeeds: order 1 is the default crawl; another order gives BFS another crawl', {
    timeout: scaled(120_000),
  }, async () => {
    const cfg = {
      ...loadExperiment('focused', { quick: true }),
      web: WEB,
      strategies: ['bfs'],
      sites: [SITE],
      budget: 200,
      every: 50,
    };
    const one = await runExperiment(cfg, { workers: 0, cacheDir: null, replay: false });
    const two = await runExperiment({ ...cfg, orderSeeds: 2 }, { workers: 0, cacheDir: null, replay: false });
    const bfs = (rows: typeof one.summaries, order: number) =>
      rows.filter((r) => r.strategy === 'bfs' && r.order === order).map(({ order: _, ...r }) => r);
    expect(one.summaries.every((r) => r.order === 1)).toBe(true);
    // order 1 of two orders is the crawl of one order, row for row
    expect(bfs(two.summaries, 1)).toEqual(bfs(one.summaries, 1));
    expect(bfs(two.summaries, 2)).toHaveLength(1);
    // a seeded order of each page's links: BFS fetches other pages by the budget
    const curve = (order: number) =>
      two.curves.filter((c) => c.strategy === 'bfs' && c.order === order).map((c) => c.recall);
    expect(curve(2)).not.toEqual(curve(1));
    // the oracle has a partner row for each order; a second run of the same orders is the same
    expect(two.summaries.filter((r) => r.strategy === 'oracle').map((r) => r.order)).toEqual([1, 2]);
    const again = await runExperiment({ ...cfg, orderSeeds: 2 }, { workers: 0, cacheDir: null, replay: false });
    expect(again.curves).toEqual(two.curves);
  });

  it('random draws anew at every order, and firstOrder runs another set of the same draws (issue #85)', {
    timeout: scaled(120_000),
  }, async () => {
    const cfg = {
      ...loadExperiment('focused', { quick: true }),
      web: WEB,
      strategies: ['random'],
      sites: [SITE],
      budget: 200,
      every: 50,
    };
    const three = await runExperiment({ ...cfg, orderSeeds: 3 }, { workers: 0, cacheDir: null, replay: false });
    const curve = (rows: typeof three.curves, order: number) =>
      rows.filter((c) => c.strategy === 'random' && c.order === order).map((c) => [c.pages, c.recall]);
    // before: random hashed URLs by the web seed alone, and every order gave the same crawl
    expect(curve(three.curves, 2)).not.toEqual(curve(three.curves, 1));
    expect(curve(three.curves, 3)).not.toEqual(curve(three.curves, 2));
    // orders 2-3 run on their own are the same draws, row for row
    const later = await runExperiment(
      { ...cfg, orderSeeds: 2, firstOrder: 2 },
      { workers: 0, cacheDir: null, replay: false },
    );
    expect([...new Set(later.summaries.map((r) => r.order))]).toEqual([2, 3]);
    for (const order of [2, 3]) expect(curve(later.curves, order)).toEqual(curve(three.curves, order));
  });
});
