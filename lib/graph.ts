/**
 * Hops from `start` to every node of [lo, hi) over a CSR link graph, by breadth-first search over
 * links that stay in the range; indexed by node - lo, -1 where not reachable. The one graph search
 * of the harness: a site's depths (lib/site-graph.ts) and a generated department's ground-truth
 * distances (sim/truth.ts) are both this.
 */
export function hopsFrom(
  g: { outStart: ArrayLike<number>; outTarget: ArrayLike<number> },
  start: number,
  lo = 0,
  hi = g.outStart.length - 1,
): Int32Array {
  const d = new Int32Array(hi - lo).fill(-1);
  if (start < lo || start >= hi) return d;
  const queue = new Int32Array(hi - lo);
  let head = 0;
  let tail = 0;
  d[start - lo] = 0;
  queue[tail++] = start;
  while (head < tail) {
    const u = queue[head++];
    const du = d[u - lo];
    for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
      const v = g.outTarget[e];
      if (v < lo || v >= hi || d[v - lo] >= 0) continue;
      d[v - lo] = du + 1;
      queue[tail++] = v;
    }
  }
  return d;
}

/**
 * The first pages a crawl of a large site meets: breadth-first from the start page over a CSR link
 * graph, by hops and then page index, kept to the nodes [lo, hi). The replay draws a large site by
 * them (experiments/focused/page-replay.ts) and training reads them (experiments/web-training.ts).
 */
export function breadthFirstPrefix(
  g: { outStart: ArrayLike<number>; outTarget: ArrayLike<number> },
  start: number,
  limit: number,
  lo = 0,
  hi = g.outStart.length - 1,
): number[] {
  const order: number[] = [start];
  const seen = new Uint8Array(hi - lo);
  seen[start - lo] = 1;
  for (let h = 0; h < order.length && order.length < limit; h++) {
    const u = order[h];
    const next: number[] = [];
    for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
      const v = g.outTarget[e];
      if (v < lo || v >= hi || seen[v - lo]) continue;
      seen[v - lo] = 1;
      next.push(v);
    }
    next.sort((a, b) => a - b);
    for (const v of next) if (order.length < limit) order.push(v);
  }
  return order;
}

/**
 * A sample of a large site that keeps what learning from it needs (experiments/web-training.ts): the
 * pages on a shortest path from the start page to each of up to a quarter of `limit` target pages
 * (evenly spaced by index), every target those path pages link, and then the site's first pages in
 * breadth-first order until `limit`; returned in breadth-first order. A breadth-first prefix alone
 * missed the targets of a deep site (a 475,000-page department's first 20,000 pages held no
 * paper, and the adaptive crawler's thresholds, calibrated on them, discarded every link).
 */
export function pathSample(
  g: { outStart: ArrayLike<number>; outTarget: ArrayLike<number> },
  start: number,
  limit: number,
  isTarget: (node: number) => boolean,
  lo = 0,
  hi = g.outStart.length - 1,
): number[] {
  // breadth-first over the whole site, by hops and then index, with each page's parent
  const order = breadthFirstPrefix(g, start, hi - lo, lo, hi);
  const rank = new Int32Array(hi - lo).fill(-1);
  order.forEach((v, i) => {
    rank[v - lo] = i;
  });
  const parent = new Int32Array(hi - lo).fill(-1);
  for (const u of order)
    for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
      const v = g.outTarget[e];
      if (v < lo || v >= hi || v === start) continue;
      // the parent is the first page in breadth-first order that links it from one hop nearer
      if (parent[v - lo] < 0 && rank[v - lo] > rank[u - lo]) parent[v - lo] = u;
    }
  const kept = new Uint8Array(hi - lo);
  let n = 0;
  const keep = (v: number): void => {
    if (n < limit && !kept[v - lo]) {
      kept[v - lo] = 1;
      n++;
    }
  };
  keep(start);
  const targets = order.filter(isTarget);
  const want = Math.min(targets.length, Math.floor(limit / 4));
  for (let i = 0; i < want && n < limit; i++) {
    const t = targets[Math.floor((i * targets.length) / want)];
    const path: number[] = [];
    for (let v = t; v >= 0 && !kept[v - lo]; v = parent[v - lo]) path.push(v);
    for (const v of path.reverse()) {
      keep(v);
      for (let e = g.outStart[v]; e < g.outStart[v + 1]; e++) {
        const w = g.outTarget[e];
        if (w >= lo && w < hi && isTarget(w)) keep(w);
      }
    }
  }
  for (const v of order) if (n < limit) keep(v);
  return order.filter((v) => kept[v - lo]);
}
