/**
 * OPIC, online page importance computation (Abiteboul, Preda & Cobena, WWW 2003): the
 * non-topical order of Nutch-style crawlers. Every URL holds cash; the seeds start with 1 each.
 * When a page is fetched its cash is shared equally among its distinct out-links, and a queued
 * URL's priority is the cash it holds, so URLs that many important pages link to come first.
 * Shares sent to URLs already fetched or out of scope are dropped (OPIC accumulates them as
 * history for re-crawling, which a one-pass crawl does not do), and so is the cash of a page
 * without links (OPIC's virtual page). Cash that reaches a queued URL raises its priority in the
 * frontier (PageDecision.updates).
 */
import type { ParsedLink } from '../parser.ts';
import { defineStrategy, LINKS_SCORED, type PageDecision, type PageView, type Strategy } from '../strategy.ts';

export class OpicStrategy implements Strategy {
  readonly name = 'opic';
  /** Cash of every URL queued by this strategy and not fetched yet. */
  private readonly cash = new Map<string, number>();
  private readonly counters = { linksScored: 0, priorityUpdates: 0 };

  seedScore(url: string): number {
    this.cash.set(url, 1);
    return 1;
  }

  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    const own = this.cash.get(page.url) ?? page.score;
    this.cash.delete(page.url);
    const out = new Set<string>();
    for (const l of page.links) if (l.url !== page.url) out.add(l.url);
    const share = out.size ? own / out.size : 0;
    const fresh = new Set(candidates.map((l) => l.url));
    const updates: { url: string; score: number }[] = [];
    for (const u of out) {
      const c = this.cash.get(u);
      if (c !== undefined && !fresh.has(u)) {
        this.cash.set(u, c + share);
        updates.push({ url: u, score: c + share });
      }
    }
    for (const u of fresh) this.cash.set(u, share);
    this.counters.linksScored += candidates.length;
    this.counters.priorityUpdates += updates.length;
    return { scores: candidates.map(() => share), updates };
  }

  stats(): Record<string, number> {
    return { ...this.counters };
  }
}

export const OPIC = defineStrategy({
  name: 'opic',
  rank: 30,
  summary: 'OPIC (Abiteboul et al. 2003): cash flows along links, the richest URL first',
  counters: { ...LINKS_SCORED, priorityUpdates: 'queued URLs re-ranked as cash reached them' },
  reads: 'nothing',
  settings: [],
  style: ['#E69F00', [8, 3, 2, 3]],
  make: () => new OpicStrategy(),
});
