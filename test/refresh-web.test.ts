/**
 * Generated pages that move on by refresh (issue #84, `faults.refreshRate`): a share of HTML pages
 * gives its first link only as a meta refresh or a Refresh header. The web's graph does not change
 * (the rate moves nothing else); a crawler that follows refreshes (the default) fetches those
 * targets from those pages, one with `followRefresh` off never does.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BfsStrategy, CrawlEngine, type LogEntry } from '../crawler/index.ts';
import { Renderer } from '../sim/content.ts';
import type { WebConfig } from '../sim/config.ts';
import { SimServer } from '../sim/server.ts';
import { Web } from '../sim/web.ts';
import { tinyConfig } from './helpers.ts';

const HOST = 'cs.alpha-university.test';
const withRate = (rate: number): WebConfig => {
  const c = tinyConfig();
  return { ...c, faults: { ...c.faults, refreshRate: rate, transientErrorRate: 0, slowRate: 0, retryAfterSec: 0 } };
};

/** Each page of the department that refreshes: its URL -> [the refresh target's URL, by header?]. */
function refreshPages(web: Web): Map<string, [string, boolean]> {
  const r = new Renderer(web);
  const site = web.siteByHost(HOST);
  if (!site) throw new Error(HOST);
  const out = new Map<string, [string, boolean]>();
  for (let id = site.first; id < site.first + site.count; id++) {
    const page = r.render(id);
    if (!page.contentType.startsWith('text/html')) continue;
    const meta = String(page.body).includes('http-equiv="refresh"');
    if (meta || page.refresh) out.set(r.url(id), [r.linkUrl(id, web.outStart[id]), Boolean(page.refresh)]);
  }
  return out;
}

describe('faults.refreshRate', () => {
  let server: SimServer;
  let web: Web;
  beforeAll(async () => {
    web = new Web(withRate(0.3), 1);
    server = await SimServer.start(web);
  });
  afterAll(async () => server.close());

  it('moves nothing but the chosen pages: same graph, the other pages byte for byte', () => {
    const plain = new Web(withRate(0), 1);
    expect(Array.from(web.outTarget)).toEqual(Array.from(plain.outTarget));
    const chosen = refreshPages(web);
    const [a, b] = [new Renderer(web), new Renderer(plain)];
    const site = web.siteByHost(HOST);
    if (!site) throw new Error(HOST);
    let html = 0;
    for (let id = site.first; id < site.first + site.count; id++) {
      const page = a.render(id);
      if (page.contentType.startsWith('text/html')) html++;
      if (chosen.has(a.url(id))) continue;
      expect(String(page.body)).toBe(String(b.render(id).body));
      expect(page.refresh).toBeUndefined();
    }
    // about 30% of the HTML pages (129 of 411 here), by meta tag and by header both
    const byHeader = [...chosen.values()].filter(([, h]) => h).length;
    expect(chosen.size / html).toBeGreaterThan(0.2);
    expect(chosen.size / html).toBeLessThan(0.4);
    expect(byHeader).toBeGreaterThan(0);
    expect(chosen.size - byHeader).toBeGreaterThan(0);
    expect(refreshPages(plain).size).toBe(0);
  });

  it('is followed by default and counted; with followRefresh off its targets are never reached from it', async () => {
    const chosen = refreshPages(web);
    const crawl = async (followRefresh: boolean) => {
      server.reset();
      const dir = mkdtempSync(join(tmpdir(), 'refresh-'));
      const e = CrawlEngine.create({
        settings: {
          startUrls: [`http://${HOST}/`],
          scope: [HOST],
          maxPages: 300,
          deterministic: true,
          concurrency: 4,
          perHostConcurrency: 4,
          delayMs: 0,
          autoThrottle: false,
          followRefresh,
          resolve: [`*.test=127.0.0.1:${server.port}`],
        },
        strategy: new BfsStrategy(),
        outDir: dir,
      });
      const summary = await e.run();
      const log = readFileSync(join(dir, 'crawl.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as LogEntry);
      // fetched through a refresh: the parent refreshes to it
      const via = log.filter((x) => x.parent !== null && chosen.get(x.parent)?.[0] === x.url);
      return { summary, via };
    };
    const on = await crawl(true);
    const off = await crawl(false);
    expect(on.summary.refreshLinks).toBeGreaterThan(0);
    expect(on.via.length).toBeGreaterThan(0);
    expect(new Set(on.via.map((x) => chosen.get(x.parent ?? '')?.[1]))).toEqual(new Set([true, false]));
    expect(off.summary.refreshLinks).toBe(0);
    expect(off.via).toEqual([]);
  });
});
