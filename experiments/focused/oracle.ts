/**
 * The oracle: a crawl order computed from ground truth, drawn beside every strategy as the bound
 * a crawler could come near. The evaluator may read ground truth; a crawler never does (this
 * file lives in experiments/).
 *
 * The oracle obeys the one rule every crawler obeys: it can fetch a page only once a fetched page
 * links to it (starting from the site's start page, inside the crawl's scope). Within that rule
 * it is greedy:
 *   1. a discovered relevant document is fetched at once (one file of each item: a paper's other
 *      formats count for nothing once it is found, as the target counts papers, issue #85);
 *   2. otherwise it picks the page v that yields the most relevant documents per page spent:
 *      gain(v) / (d(v) + gain(v)), where gain(v) = unfetched relevant documents v links to and
 *      d(v) = pages on the cheapest path of unfetched pages from the fetched set to v
 *      (v included), then fetches that path.
 * It is not the optimum (choosing the best order is a budgeted covering problem), so it is a
 * strong reference, not a proof: a claim it cannot meet is reported INFEASIBLE. Once it has
 * fetched every reachable document its precision is the hard cap no crawler can beat,
 * reachable documents / pages, and the report says so where that holds.
 */
import type { SiteGraph } from '../../lib/site-graph.ts';

/**
 * The oracle's fetch order for a budget: node ids, at most `budget` of them (fewer when every
 * reachable relevant document has been fetched: the rest of the budget cannot add recall).
 *
 * Ties between pages of the same yield go to the nearer page, then the lower node id; the path
 * fetched is the chain of the links by which the page's distance was last shortened. Distances
 * are kept up to date as pages are fetched rather than found again by a search over the site
 * before every choice (that cost a breadth-first search of the unfetched site per choice, so the
 * oracle's time grew with the site times the budget): fetching a page makes every page it links
 * discovered (distance 1), so no distance ever grows, and each fetch only shortens distances
 * downstream of the pages it discovers. `onChoice` sees each page chosen by yield (tests).
 */
export function oracleOrder(
  g: SiteGraph,
  budget: number,
  onChoice?: (page: number, score: number, fetchedSoFar: readonly number[]) => void,
  items?: Int32Array,
): number[] {
  const walk = new OracleWalk(g, relevantLinks(g, items), items);
  const { order, fetched, dist, gain, parent, heap } = walk;
  if (g.start < 0 || budget < 1) return order;
  walk.discovered[g.start] = 1;
  walk.fetch(g.start);
  while (order.length < budget) {
    const v = walk.nextFoundRelevant();
    if (v >= 0) {
      walk.fetch(v);
      continue;
    }
    const best = heap.popBest(fetched, dist, gain);
    if (best < 0) break; // every reachable relevant document is fetched
    onChoice?.(best, gain[best] / (dist[best] + gain[best]), order);
    const path: number[] = [];
    for (let v = best; v >= 0; v = parent[v]) path.push(v);
    for (let i = path.length - 1; i >= 0 && order.length < budget; i--) if (!fetched[path[i]]) walk.fetch(path[i]);
  }
  return order;
}

/** The relevant documents' in-links, indexed, and each page's gain: how many relevant documents it links to. */
interface RelevantLinks {
  relevant: Uint8Array;
  /** item -> its relevant files (a paper's .ps beside its .ps.Z) */
  sameItem: Map<number, number[]>;
  /** the pages linking to relevant document u: inSource[inStart[u] .. inStart[u + 1]) */
  inStart: Int32Array;
  inSource: Int32Array;
  gain: Int32Array;
}

function relevantLinks(g: SiteGraph, items: Int32Array | undefined): RelevantLinks {
  const { n, outStart, outTarget } = g;
  // items: node -> the relevant item it is a file of (-1: none). Once one file of an item is
  // fetched its other files (a paper's .ps beside its .ps.Z) add nothing, as the target counts
  // papers, not files (issue #85): they stop being relevant to the order, and to every gain.
  const relevant = Uint8Array.from(g.relevant);
  const sameItem = new Map<number, number[]>();
  if (items)
    for (let u = 0; u < n; u++)
      if (relevant[u] && items[u] >= 0) {
        const list = sameItem.get(items[u]);
        if (list) list.push(u);
        else sameItem.set(items[u], [u]);
      }
  // in-links of relevant documents, to keep gain() current as documents are fetched
  const inCount = new Int32Array(n + 1);
  for (let u = 0; u < n; u++)
    for (let e = outStart[u]; e < outStart[u + 1]; e++) if (relevant[outTarget[e]]) inCount[outTarget[e] + 1]++;
  for (let i = 0; i < n; i++) inCount[i + 1] += inCount[i];
  const inStart = inCount.slice();
  const inSource = new Int32Array(inCount[n]);
  const fill = inCount.slice(0, n);
  for (let u = 0; u < n; u++)
    for (let e = outStart[u]; e < outStart[u + 1]; e++) if (relevant[outTarget[e]]) inSource[fill[outTarget[e]]++] = u;
  const gain = new Int32Array(n);
  for (let u = 0; u < n; u++) for (let e = outStart[u]; e < outStart[u + 1]; e++) gain[u] += relevant[outTarget[e]];
  return { relevant, sameItem, inStart, inSource, gain };
}

const FAR = 0x3fffffff;

/** The oracle's walk: what is fetched and found, and the cheapest unfetched path to every page. */
class OracleWalk {
  readonly order: number[] = [];
  readonly fetched: Uint8Array;
  readonly discovered: Uint8Array;
  // pages on the cheapest path of unfetched pages from the fetched set (the page included), and
  // the page before it on that path (-1: a discovered page, the path's first)
  readonly dist: Int32Array;
  readonly parent: Int32Array;
  readonly gain: Int32Array;
  readonly heap = new YieldHeap();
  private readonly relevant: Uint8Array;
  // breadth-first from pages whose distance just shortened, through unfetched pages
  private readonly queue: Int32Array;
  private readonly pendingRelevant: number[] = [];
  private nextRelevant = 0;
  private readonly found: number[] = [];

  constructor(
    private readonly g: SiteGraph,
    private readonly links: RelevantLinks,
    private readonly items: Int32Array | undefined,
  ) {
    const { n } = g;
    this.fetched = new Uint8Array(n);
    this.discovered = new Uint8Array(n);
    this.dist = new Int32Array(n).fill(FAR);
    this.parent = new Int32Array(n).fill(-1);
    this.queue = new Int32Array(n);
    this.relevant = links.relevant;
    this.gain = links.gain;
  }

  /** The next relevant document found and still worth fetching, in the order found (the same every run); -1: none. */
  nextFoundRelevant(): number {
    while (this.nextRelevant < this.pendingRelevant.length) {
      const v = this.pendingRelevant[this.nextRelevant++];
      // a file of an item already found is relevant no more: not fetched for itself
      if (!this.fetched[v] && this.relevant[v]) return v;
    }
    return -1;
  }

  fetch(u: number): void {
    const { outStart, outTarget } = this.g;
    const { fetched, found, dist, parent, relevant, items } = this;
    fetched[u] = 1;
    this.order.push(u);
    if (relevant[u]) {
      this.spend(u);
      const files = items && items[u] >= 0 ? this.links.sameItem.get(items[u]) : undefined;
      if (files) for (const w of files) if (relevant[w]) this.spend(w);
    }
    found.length = 0;
    for (let e = outStart[u]; e < outStart[u + 1]; e++) this.discover(outTarget[e]);
    for (const v of found) {
      if (dist[v] === 1) continue;
      dist[v] = 1;
      parent[v] = -1;
      this.offer(v);
      this.shorten(v);
    }
  }

  private offer(v: number): void {
    if (this.gain[v] > 0) this.heap.push(v, this.dist[v], this.gain[v]);
  }

  private shorten(from: number): void {
    const { outStart, outTarget } = this.g;
    const { queue, fetched, dist, parent } = this;
    let head = 0;
    let tail = 0;
    queue[tail++] = from;
    while (head < tail) {
      const u = queue[head++];
      const d = dist[u] + 1;
      for (let e = outStart[u]; e < outStart[u + 1]; e++) {
        const v = outTarget[e];
        if (fetched[v] || dist[v] <= d) continue;
        dist[v] = d;
        parent[v] = u;
        this.offer(v);
        queue[tail++] = v;
      }
    }
  }

  private discover(v: number): void {
    if (this.discovered[v]) return;
    this.discovered[v] = 1;
    if (this.relevant[v]) this.pendingRelevant.push(v);
    else if (!this.fetched[v]) this.found.push(v);
  }

  /** A relevant node that stops counting: its in-links gain nothing more. */
  private spend(u: number): void {
    this.relevant[u] = 0;
    // its queued entries now overstate it: the heap re-files an entry whose gain has changed
    const { inStart, inSource } = this.links;
    for (let e = inStart[u]; e < inStart[u + 1]; e++) this.gain[inSource[e]]--;
  }
}

/**
 * Pages by yield gain / (dist + gain), highest first, then the nearer, then the lower id. Entries
 * are filed with the distance and gain they had; an entry whose page has been fetched or has come
 * nearer since (a newer entry was filed then) is dropped when it surfaces, and one whose gain has
 * fallen is filed again with its gain now: a page's yield only rises by coming nearer, which files
 * an entry, so the top entry that survives is the best page.
 */
class YieldHeap {
  private page: number[] = [];
  private dist: number[] = [];
  private gain: number[] = [];

  /** Whether entry i comes before entry j. */
  private before(i: number, j: number): boolean {
    // gi / (di + gi) > gj / (dj + gj), in integers: gi * dj > gj * di
    const a = this.gain[i] * this.dist[j];
    const b = this.gain[j] * this.dist[i];
    if (a !== b) return a > b;
    if (this.dist[i] !== this.dist[j]) return this.dist[i] < this.dist[j];
    return this.page[i] < this.page[j];
  }

  private swap(i: number, j: number): void {
    const { page, dist, gain } = this;
    const p = page[i];
    page[i] = page[j];
    page[j] = p;
    const d = dist[i];
    dist[i] = dist[j];
    dist[j] = d;
    const g = gain[i];
    gain[i] = gain[j];
    gain[j] = g;
  }

  push(page: number, dist: number, gain: number): void {
    let i = this.page.length;
    this.page.push(page);
    this.dist.push(dist);
    this.gain.push(gain);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.before(i, up)) break;
      this.swap(i, up);
      i = up;
    }
  }

  private pop(): void {
    const last = this.page.length - 1;
    this.swap(0, last);
    this.page.pop();
    this.dist.pop();
    this.gain.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.page.length && this.before(l, m)) m = l;
      if (r < this.page.length && this.before(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  /** The best unfetched page with something to gain (-1: none). */
  popBest(fetched: Uint8Array, dist: Int32Array, gain: Int32Array): number {
    while (this.page.length) {
      const v = this.page[0];
      const d = this.dist[0];
      const g = this.gain[0];
      this.pop();
      if (fetched[v] || d !== dist[v] || gain[v] <= 0) continue;
      if (g !== gain[v]) {
        this.push(v, d, gain[v]);
        continue;
      }
      return v;
    }
    return -1;
  }
}
