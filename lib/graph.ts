/**
 * The first pages a crawl of a large site meets: breadth-first from the start page over a CSR link
 * graph, by hops and then page index, kept to the nodes [lo, hi). The replay draws a large site by
 * them (experiments/focused/replay.ts) and training reads them (experiments/training.ts).
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
