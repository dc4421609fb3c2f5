/**
 * A site's link graph as an evaluator knows it (ground truth: which nodes are relevant), in CSR
 * form, and the searches every consumer of it shares: hops from the start page, what is
 * reachable. The oracle (experiments/focused/oracle.ts), the replay, the site statistics of a
 * generated web or an archive (sim/site-stats.ts) and the environments build on it.
 */
import { hopsFrom } from './graph.ts';

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

/** Hops from the start page to every node (lib/graph.ts hopsFrom); -1: not reachable. */
export function depths(g: SiteGraph): Int32Array {
  return hopsFrom(g, g.start, 0, g.n);
}

export function reachableRelevant(g: SiteGraph): number {
  const seen = reachable(g);
  let k = 0;
  for (let i = 0; i < g.n; i++) if (seen[i] && g.relevant[i]) k++;
  return k;
}
