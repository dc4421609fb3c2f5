/**
 * The oracle: a crawl order computed from ground truth, drawn beside every strategy as the bound
 * a crawler could come near. The evaluator may read ground truth; a crawler never does (this
 * file lives in experiments/).
 *
 * The oracle obeys the one rule every crawler obeys: it can fetch a page only once a fetched page
 * links to it (starting from the site's start page, inside the crawl's scope). Within that rule
 * it is greedy:
 *   1. a discovered relevant document is fetched at once;
 *   2. otherwise it picks the page v that yields the most relevant documents per page spent:
 *      gain(v) / (d(v) + gain(v)), where gain(v) = unfetched relevant documents v links to and
 *      d(v) = pages on the cheapest path of unfetched pages from the fetched set to v
 *      (v included), then fetches that path.
 * It is not the optimum (choosing the best order is a budgeted covering problem), so it is a
 * strong reference, not a proof: a claim it cannot meet is reported INFEASIBLE. Once it has
 * fetched every reachable document its precision is the hard cap no crawler can beat,
 * reachable documents / pages, and the report says so where that holds.
 */

/** A site's link graph as the evaluator knows it: nodes 0..n-1 in CSR form. */
export interface SiteGraph {
  n: number;
  /** Node of the crawl's start page (-1: not in the graph, so nothing is reachable). */
  start: number;
  relevant: Uint8Array;
  outStart: Int32Array;
  outTarget: Int32Array;
}

/** Builds a SiteGraph from adjacency lists (duplicate and self links dropped). */
export function graphFromLists(
  lists: readonly (readonly number[])[],
  start: number,
  relevant: readonly boolean[],
): SiteGraph {
  const n = lists.length;
  const outStart = new Int32Array(n + 1);
  const targets: number[] = [];
  for (let u = 0; u < n; u++) {
    const seen = new Set<number>();
    for (const v of lists[u])
      if (v !== u && v >= 0 && v < n && !seen.has(v)) {
        seen.add(v);
        targets.push(v);
      }
    outStart[u + 1] = targets.length;
  }
  return {
    n,
    start,
    relevant: Uint8Array.from(relevant, (r) => (r ? 1 : 0)),
    outStart,
    outTarget: Int32Array.from(targets),
  };
}

/** Nodes reachable from the start page (the start included). */
export function reachable(g: SiteGraph): Uint8Array {
  return Uint8Array.from(depths(g), (d) => (d >= 0 ? 1 : 0));
}

/** Hops from the start page to every node (breadth-first over the graph); -1: not reachable. */
export function depths(g: SiteGraph): Int32Array {
  const d = new Int32Array(g.n).fill(-1);
  if (g.start < 0) return d;
  const queue = new Int32Array(g.n);
  let head = 0;
  let tail = 0;
  d[g.start] = 0;
  queue[tail++] = g.start;
  while (head < tail) {
    const u = queue[head++];
    for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
      const v = g.outTarget[e];
      if (d[v] < 0) {
        d[v] = d[u] + 1;
        queue[tail++] = v;
      }
    }
  }
  return d;
}

export function reachableRelevant(g: SiteGraph): number {
  const seen = reachable(g);
  let k = 0;
  for (let i = 0; i < g.n; i++) if (seen[i] && g.relevant[i]) k++;
  return k;
}

/**
 * The oracle's fetch order for a budget: node ids, at most `budget` of them (fewer when every
 * reachable relevant document has been fetched: the rest of the budget cannot add recall).
 */
export function oracleOrder(g: SiteGraph, budget: number): number[] {
  const { n, outStart, outTarget, relevant } = g;
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

  const fetched = new Uint8Array(n);
  const discovered = new Uint8Array(n);
  const order: number[] = [];
  const pendingRelevant: number[] = [];
  let nextRelevant = 0;
  const frontier = new Set<number>();
  const discover = (v: number): void => {
    if (discovered[v]) return;
    discovered[v] = 1;
    if (relevant[v]) pendingRelevant.push(v);
    else frontier.add(v);
  };
  const fetch = (u: number): void => {
    fetched[u] = 1;
    frontier.delete(u);
    order.push(u);
    if (relevant[u]) for (let e = inStart[u]; e < inStart[u + 1]; e++) gain[inSource[e]]--;
    for (let e = outStart[u]; e < outStart[u + 1]; e++) discover(outTarget[e]);
  };
  if (g.start < 0 || budget < 1) return order;
  discovered[g.start] = 1;
  fetch(g.start);

  const dist = new Int32Array(n);
  const parent = new Int32Array(n);
  const queue = new Int32Array(n);
  while (order.length < budget) {
    if (nextRelevant < pendingRelevant.length) {
      // documents in the order they were found: the same order every run
      const v = pendingRelevant[nextRelevant++];
      if (!fetched[v]) fetch(v);
      continue;
    }
    // multi-source BFS from the discovered, unfetched pages (each costs one page) through unfetched pages
    dist.fill(-1);
    let head = 0;
    let tail = 0;
    for (const v of [...frontier].sort((a, b) => a - b)) {
      dist[v] = 1;
      parent[v] = -1;
      queue[tail++] = v;
    }
    let best = -1;
    let bestScore = 0;
    while (head < tail) {
      const u = queue[head++];
      if (gain[u] > 0) {
        const score = gain[u] / (dist[u] + gain[u]);
        if (score > bestScore) {
          bestScore = score;
          best = u;
        }
      }
      for (let e = outStart[u]; e < outStart[u + 1]; e++) {
        const v = outTarget[e];
        if (fetched[v] || dist[v] >= 0) continue;
        dist[v] = dist[u] + 1;
        parent[v] = u;
        queue[tail++] = v;
      }
    }
    if (best < 0) break; // every reachable relevant document is fetched
    const path: number[] = [];
    for (let v = best; v >= 0; v = parent[v]) path.push(v);
    for (let i = path.length - 1; i >= 0 && order.length < budget; i--) fetch(path[i]);
  }
  return order;
}
