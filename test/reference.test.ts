/**
 * The paper's crawlers against a second implementation written from the paper's text
 * (test/reference/paper-crawlers.ts): the same web, seed and model state, the literal reading of
 * the adaptive crawler (each link by its own immediate value against r1, then its own Q against
 * r2; a thread for every tunnelling link).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AdaptiveStrategy, DEFAULT_ADAPTIVE } from '../crawler/focused/adaptive.ts';
import { loadKeywords, Topic } from '../crawler/focused/topic.ts';
import { type AdaptiveTrace, compareWithReference, literalConfig, type Row } from './reference/compare.ts';
import { route } from './reference/paper-crawlers.ts';
import { scaledWeb } from './helpers.ts';
import { scaled } from './speed.ts';

/** small.json's departments at a quarter of their size (300-400 pages each). */
const WEB = scaledWeb('data/webs/small.json', 0.25);

describe("the paper's crawlers against the reference implementation", () => {
  let rows: Row[] = [];
  let traces: AdaptiveTrace[] = [];
  beforeAll(async () => {
    // a checkpoint every request: the runner's AUC and the reference's over the same points
    const cfg = { ...literalConfig(WEB, 1, 400), every: 1 };
    // retrained every 50 pages: the routing compared under six classifiers, not only the offline one
    cfg.adaptive = { ...cfg.adaptive, retrainEvery: 50 };
    // one request at a time, as the reference crawls (the engine's window of 8 in flight moves
    // immediate value's AUC by up to 0.13 on paper.json: a property of the engine, not of the strategy)
    cfg.crawl = { ...cfg.crawl, concurrency: 1 };
    ({ rows, traces } = await compareWithReference(cfg));
  }, scaled(180_000));

  it('route: steps (2)-(4) for one link', () => {
    expect(route(0.5, 0, 0.4, 1)).toBe('exploit');
    expect(route(0.3, 1, 0.4, 1)).toBe('tunnel');
    expect(route(0.3, 0.9, 0.4, 1)).toBe('discard');
    expect(route(0.3, 0.9, 0.4, 1, true)).toBe('tunnel');
  });

  it('for the same pages and model state, the shipped crawler routes every link as the reference does', () => {
    const keywords = loadKeywords();
    let links = 0;
    const routed = { exploit: 0, tunnel: 0, discard: 0 };
    for (const t of traces) {
      const o = t.options;
      const shipped = new AdaptiveStrategy(new Topic(keywords), t.model, t.examples, {
        ...DEFAULT_ADAPTIVE,
        ...{ r1: o.r1, r2: o.r2, retrainEvery: o.retrainEvery, topK: o.topK, gamma: o.gamma, horizon: o.horizon },
        ...{ offlineSample: o.offlineSample, sourceWeight: o.sourceWeight, threadPages: o.threadPages },
        scope: 'link',
        tunnel: 'subcrawl',
      });
      const mismatches: string[] = [];
      for (const v of t.visits) {
        shipped.onPage(v.page, v.candidates);
        shipped.lastRoutes.forEach((r, i) => {
          if (r !== v.routes[i])
            mismatches.push(`${t.site} page ${v.page.seq} ${v.candidates[i].url}: ${r} / ${v.routes[i]}`);
        });
        for (const r of v.routes) routed[r]++;
        links += v.routes.length;
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
      // the replay went through retrainings: the retrained classifiers route alike too
      expect(shipped.stats().retrainings).toBeGreaterThan(0);
    }
    // every branch was taken, on links enough to tell
    expect(links).toBeGreaterThan(900);
    expect(Math.min(routed.exploit, routed.tunnel, routed.discard)).toBeGreaterThan(100);
  });

  it('immediate and future value: the same recall AUC (the same crawl, request for request)', () => {
    const rest = rows.filter((x) => x.strategy !== 'adaptive');
    expect(rest).toHaveLength(8);
    // the runner rounds to six decimals
    for (const r of rest) expect(Math.abs(r.shipped - r.reference), `${r.site} ${r.strategy}`).toBeLessThan(1e-5);
  });

  it('the adaptive crawler: recall AUC within 0.05 per department, threads opened', () => {
    // 0.05: what scheduling alone moves (the engine fetches a turn's thread links best Q first, the
    // reference thread by thread); measured on paper.json seed 1 at most 0.026 (0.038 on paper-sparse.json; docs/reproduction.md),
    // a quarter of the 0.21 between the two readings that prompted the check
    const adaptive = rows.filter((x) => x.strategy === 'adaptive');
    expect(adaptive).toHaveLength(4);
    for (const r of adaptive) expect(Math.abs(r.shipped - r.reference), r.site).toBeLessThan(0.05);
    expect(traces.every((t) => t.threadsOpened > 0)).toBe(true);
  });
});
