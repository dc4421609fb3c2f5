/**
 * The Q-value of a crawled page as the adaptive crawler's retraining reads it: the discounted
 * count of relevant pages within `horizon` links of it over the crawled graph, sum of gamma^k over
 * the relevant pages at k links (the page itself at 0), added in the order the pages were crawled.
 *
 * localValue() searches the page's neighbourhood at every retraining. Its cost per retraining
 * grows with the crawl: the top-K pages' link targets are thousands of pages, each scanned link by
 * link against an index of every crawled URL (docs/benchmarks.md, "Experiments at web scale").
 * HorizonOne keeps the same values for horizon 1, the default, as pages are crawled: each page's
 * count of relevant crawled pages it links to, those crawled before it and after it apart, so that
 * the sum is added in the same order and equals localValue's to the last bit (tested).
 */

export interface GraphPage {
  readonly links: readonly string[];
  readonly relevant: boolean;
}

/**
 * stateValues (crawler/focused/qvalue.ts) at one page, by breadth-first search to `horizon` links
 * over the crawled pages (index: URL -> page): the documents within reach, each gamma^distance,
 * summed in crawl order as stateValues sums them.
 */
export function localValue(
  nodes: readonly GraphPage[],
  index: ReadonlyMap<string, number>,
  v: number,
  gamma: number,
  horizon: number,
): number {
  const dist = new Map<number, number>([[v, 0]]);
  let frontier = [v];
  for (let k = 0; k < horizon && frontier.length; k++) {
    const next: number[] = [];
    for (const u of frontier)
      for (const l of nodes[u].links) {
        const w = index.get(l);
        if (w === undefined || dist.has(w)) continue;
        dist.set(w, k + 1);
        next.push(w);
      }
    frontier = next;
  }
  let x = 0;
  const documents = [...dist].filter(([d]) => nodes[d].relevant).sort((a, b) => a[0] - b[0]);
  for (const [, k] of documents) x += gamma ** k;
  return x;
}

/**
 * localValue at horizon 1, kept as pages are crawled: add() every page in crawl order (its number
 * the next one), after its URL is in the index; replace() a page crawled again.
 */
export class HorizonOne {
  /** Per page: relevant pages it links to that were crawled before it, and after it. */
  private readonly before: number[] = [];
  private readonly after: number[] = [];
  /** URLs linked from crawled pages and not crawled yet: the pages linking to each (one or several). */
  private readonly waiting = new Map<string, number | number[]>();
  /** A page was crawled again (its links or judgement may differ): counted afresh at the next value(). */
  private stale = false;

  constructor(
    private readonly nodes: readonly GraphPage[],
    private readonly urls: readonly string[],
    private readonly index: ReadonlyMap<string, number>,
  ) {}

  /** Page i (nodes[i], urls[i]), just crawled. */
  add(i: number): void {
    if (this.stale) return;
    const { nodes, index, waiting } = this;
    let before = 0;
    let after = 0;
    const seen = new Set<string>();
    for (const l of nodes[i].links) {
      if (seen.has(l)) continue;
      seen.add(l);
      const w = index.get(l);
      if (w === undefined) {
        const held = waiting.get(l);
        if (held === undefined) waiting.set(l, i);
        else if (typeof held === 'number') waiting.set(l, [held, i]);
        else held.push(i);
      } else if (w !== i && nodes[w].relevant) {
        // crawled after this page only when counting afresh: every page is in the index then
        if (w < i) before++;
        else after++;
      }
    }
    this.before[i] = before;
    this.after[i] = after;
    const linking = waiting.get(this.urls[i]);
    if (linking === undefined) return;
    waiting.delete(this.urls[i]);
    if (!nodes[i].relevant) return;
    if (typeof linking === 'number') this.after[linking]++;
    else for (const u of linking) this.after[u]++;
  }

  /** A page crawled again: its links and judgement are read afresh. */
  replace(): void {
    this.stale = true;
  }

  /** localValue(nodes, index, v, gamma, 1), in the same order of additions. */
  value(v: number, gamma: number): number {
    if (this.stale) this.recount();
    let x = 0;
    for (let k = 0; k < this.before[v]; k++) x += gamma;
    if (this.nodes[v].relevant) x += 1;
    for (let k = 0; k < this.after[v]; k++) x += gamma;
    return x;
  }

  private recount(): void {
    this.stale = false;
    this.waiting.clear();
    this.before.length = 0;
    this.after.length = 0;
    for (let i = 0; i < this.nodes.length; i++) this.add(i);
  }
}
