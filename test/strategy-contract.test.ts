/**
 * The strategy contract's calls beyond scoring (issue #52 item 2), each on a real crawl of a
 * finite generated web (one process, deterministic, one request at a time, so the fetch order is
 * the frontier's): re-admitting links it discarded, re-ranking the whole frontier when it asks,
 * ending the crawl, and refusals where the contract is broken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlEngine, type PageDecision, type ParsedLink, type Strategy } from '../crawler/index.ts';
import { ownCounters } from '../experiments/focused/meter.ts';
import { SimServer } from '../sim/server.ts';
import { Web } from '../sim/web.ts';
import { DIST_HOSTS, finiteWeb } from './helpers.ts';

let server: SimServer;
beforeAll(async () => {
  server = await SimServer.start(new Web(finiteWeb(), 1), { faults: false });
});
afterAll(async () => server.close());

async function crawl(strategy: Strategy, maxPages = 80): Promise<{ urls: string[]; summary: Record<string, unknown> }> {
  const urls: string[] = [];
  const e = CrawlEngine.create({
    settings: {
      startUrls: [`http://${DIST_HOSTS[0]}/`],
      resolve: [`*.test=127.0.0.1:${server.port}`],
      maxPages,
      concurrency: 1,
      perHostConcurrency: 1,
      delayMs: 0,
      deterministic: true,
    },
    strategy,
    onLog: (l) => {
      if (l.status === 200) urls.push(l.url);
    },
  });
  const summary = (await e.run()) as unknown as Record<string, unknown>;
  return { urls, summary };
}

/** Breadth-first with hooks: `decide` may add to each page's decision. */
function probe(
  decide: (page: number, links: readonly ParsedLink[]) => Partial<PageDecision>,
  extra: Partial<Strategy> = {},
): Strategy {
  let page = 0;
  return {
    name: 'probe',
    seedScore: () => 0,
    onPage: (_p, links) => ({ scores: links.map(() => 0), ...decide(page++, links) }),
    ...extra,
  };
}

describe('the strategy contract: beyond scoring', () => {
  it('re-admits links it discarded: they are fetched; a link it never discarded is not', async () => {
    const discarded: string[] = [];
    const readmitter = (readmit: boolean): Strategy => ({
      name: 'readmitter',
      readmits: true,
      seedScore: () => 0,
      onPage(page, links): PageDecision {
        // the start page keeps its first link and discards the rest; the next page takes three back
        if (page.seq === 0) {
          discarded.push(...links.slice(1).map((l) => l.url));
          return { scores: links.map((_, i) => (i === 0 ? 0 : null)) };
        }
        const back = [...discarded.slice(0, 3).map((url) => ({ url, score: 5 })), { url: NEVER, score: 9 }];
        return { scores: links.map(() => 0), ...(readmit && page.seq === 1 ? { readmit: back } : {}) };
      },
    });
    const NEVER = `http://${DIST_HOSTS[0]}/never-discarded/`;
    const { urls, summary } = await crawl(readmitter(true), 30);
    expect(discarded.length).toBeGreaterThan(3);
    expect(summary.readmitted).toBe(3);
    // the three come next, before any link of page 1 (priority 5 against 0)
    expect(urls.slice(2, 5).sort()).toEqual(discarded.slice(0, 3).sort());
    expect(urls).not.toContain(NEVER);
    // without re-admission the discarded links are never fetched
    discarded.length = 0;
    const plain = await crawl(readmitter(false), 30);
    for (const u of discarded.slice(0, 3)) expect(plain.urls).not.toContain(u);
  });

  it('re-ranks the whole frontier when a decision asks, and only then', async () => {
    let asked = 0;
    let boosted: string[] = [];
    const s = probe((page) => (page === 3 ? { reprioritise: true } : {}), {
      reprioritise(queued) {
        asked++;
        // the deepest-queued last: the last five the frontier holds jump ahead
        boosted = queued.slice(-5).map((q) => q.url);
        return boosted.map((url) => ({ url, score: 10 }));
      },
    });
    const { urls } = await crawl(s, 40);
    expect(asked).toBe(1);
    expect(boosted).toHaveLength(5);
    expect(urls.slice(4, 9).sort()).toEqual([...boosted].sort());
    // the same crawl without the request: another order
    const { urls: plain } = await crawl(
      probe(() => ({})),
      40,
    );
    expect(plain.slice(4, 9).sort()).not.toEqual([...boosted].sort());
  });

  it('ends the crawl when a decision says so, with its reason in the summary', async () => {
    const { urls, summary } = await crawl(
      probe((page) => (page === 9 ? { stop: 'found enough' } : {})),
      200,
    );
    expect(urls).toHaveLength(10);
    expect(summary.stopped).toBe('strategy probe: found enough');
  });

  it('refuses a broken call in one line naming the strategy and the page', async () => {
    await expect(
      crawl(probe((page) => (page === 1 ? { readmit: [{ url: 'http://x.test/', score: 1 }] } : {}))),
    ).rejects.toThrow(
      /strategy "probe" on http:\/\/cs\.alpha-university\.test\/\S*: readmit needs the strategy to say readmits: true/,
    );
    await expect(crawl(probe((page) => (page === 1 ? { stop: '' } : {})))).rejects.toThrow(
      /stop is "" \(a string\) \(expected a reason, a non-empty string\)/,
    );
    await expect(
      crawl(
        probe((page) => (page === 1 ? { reprioritise: true } : {}), {
          reprioritise: () => [{ url: 'u', score: Number.NaN }],
        }),
      ),
    ).rejects.toThrow(
      /strategy "probe" after \S+: reprioritise\(\)\[0\] is .* \(expected \{ url, score \} with a finite score\)/,
    );
    // a start page's score is checked as a link's is (issue #87: a NaN there was accepted)
    for (const [bad, said] of [
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      ['1', '"1" (a string)'],
    ] as const)
      await expect(crawl(probe(() => ({}), { seedScore: () => bad as number }))).rejects.toThrow(
        `strategy "probe": seedScore(http://${DIST_HOSTS[0]}/) returned ${said} (expected a finite number)`,
      );
  });

  it("takes a strategy's own counters to summary.csv by name", () => {
    expect(ownCounters({ linksScored: 4, retrainings: 1, agentsAlive: 3, bonus: 2.5 })).toEqual({
      counter_agentsAlive: 3,
      counter_bonus: 2.5,
    });
  });
});
