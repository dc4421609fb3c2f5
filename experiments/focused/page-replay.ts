/**
 * Crawl replay data for the interactive results page: for one run (the first seed's first
 * site), the site's pages from ground truth (community, relevance) laid out once with
 * ForceAtlas2 over the link graph, and the order in which each strategy (and the oracle)
 * fetched them. Recorded by the evaluator (run-one.ts), never seen by a crawler; the layout is
 * deterministic (fixed start positions, fixed iterations), so the same run gives the same file.
 */
import { createRequire } from 'node:module';
import { UndirectedGraph } from 'graphology';
import type { SiteGraph } from '../../lib/site-graph.ts';
import { breadthFirstPrefix } from '../../lib/graph.ts';

/** The parts of graphology-layout-forceatlas2 used here (a CommonJS module without ESM types). */
interface ForceAtlas2 {
  assign(graph: UndirectedGraph, opts: { iterations: number; settings: Record<string, unknown> }): void;
  inferSettings(graph: UndirectedGraph): Record<string, unknown>;
}
const forceAtlas2 = createRequire(import.meta.url)('graphology-layout-forceatlas2') as ForceAtlas2;

/** What a job records for the replay (plain arrays: it crosses the worker IPC as JSON). */
export interface ReplayRun {
  site: string;
  seed: number;
  n: number;
  start: number;
  /** CSR of the site's links (ground truth). */
  outStart: number[];
  outTarget: number[];
  /** Indices of the relevant documents. */
  relevant: number[];
  /** Community (or label group) of each page, 0..k-1; all 0 when the web has none. */
  groups: number[];
  /** Page indices in fetch order, per strategy (pages outside the graph left out). */
  orders: Record<string, number[]>;
  /** The layout, when the job computed it (layoutXY): it depends on the graph alone. */
  xy?: number[];
}

/** What the page draws: the run without its links, with positions in [0, 1000). */
export interface ReplayView {
  site: string;
  seed: number;
  n: number;
  start: number;
  xy: number[];
  relevant: number[];
  groups: number[];
  orders: Record<string, number[]>;
}

/** Iterations of ForceAtlas2 at most: 3.6 s for a 6,000-page department on this machine. */
const ITERATIONS = 100;
/** ... and at least: fewer leave the start spiral visible. */
const MIN_ITERATIONS = 10;
/**
 * Layout work a replay may spend per fetch of its job's crawls, in units of one page's share of
 * one iteration (n log2 n a Barnes-Hut iteration): measured, a unit costs about 0.48 us and a
 * fetch of the default experiment about 214 us (node --cpu-prof, issue #70), so 200 units keep
 * the layout under half of the crawls it shows, at any site size and budget.
 */
const WORK_PER_FETCH = 200;

/**
 * The iterations a layout of `n` pages gets beside crawls of `fetches` requests in all: as many as
 * the work bound allows, between MIN_ITERATIONS and ITERATIONS. At the default experiment (6,000
 * pages, 7 strategies x 2,000 requests) 37 iterations: the layout had cost more than the job's crawls.
 */
export function layoutIterations(n: number, fetches: number): number {
  const perIteration = n * Math.log2(Math.max(2, n));
  return Math.max(MIN_ITERATIONS, Math.min(ITERATIONS, Math.floor((WORK_PER_FETCH * fetches) / perIteration)));
}

/**
 * Pages the replay draws at most. A larger site is drawn by its first REPLAY_PAGES pages in
 * breadth-first order from the start page (by hops, then page index), with the links among them:
 * the part every crawl meets first; fetches of other pages are left out of the drawing. The layout
 * costs about its iterations times n log n, so drawing a large department whole would cost more
 * than crawling it; every site of the shipped experiments is smaller and is drawn whole.
 */
export const REPLAY_PAGES = 10_000;

/**
 * The replay of a site and, for a site larger than `limit`, the index of each graph node in it
 * (-1: not drawn); null when every node is drawn as itself.
 */
export function replayRun(
  site: string,
  seed: number,
  graph: SiteGraph,
  groups: number[],
  limit = REPLAY_PAGES,
): ReplayRun & { indexOf: Int32Array | null } {
  let indexOf: Int32Array | null = null;
  let g = graph;
  let kept = groups;
  if (graph.n > limit && graph.start >= 0) {
    // breadth-first from the start page: the first `limit` pages met
    const order = breadthFirstPrefix(graph, graph.start, limit);
    indexOf = new Int32Array(graph.n).fill(-1);
    order.forEach((v, i) => {
      indexOf![v] = i;
    });
    const outStart = new Int32Array(order.length + 1);
    const targets: number[] = [];
    for (let i = 0; i < order.length; i++) {
      const u = order[i];
      for (let e = graph.outStart[u]; e < graph.outStart[u + 1]; e++)
        if (indexOf[graph.outTarget[e]] >= 0) targets.push(indexOf[graph.outTarget[e]]);
      outStart[i + 1] = targets.length;
    }
    g = {
      n: order.length,
      start: 0,
      relevant: Uint8Array.from(order, (v) => graph.relevant[v]),
      outStart,
      outTarget: Int32Array.from(targets),
    };
    kept = order.map((v) => groups[v]);
  }
  const relevant: number[] = [];
  for (let i = 0; i < g.n; i++) if (g.relevant[i]) relevant.push(i);
  return {
    site,
    seed,
    n: g.n,
    start: g.start,
    outStart: [...g.outStart],
    outTarget: [...g.outTarget],
    relevant,
    groups: kept,
    orders: {},
    indexOf,
  };
}

/**
 * Positions of the run's pages in [0, 1000) (undirected ForceAtlas2 with Barnes-Hut over the
 * links). The job that records the replay computes them before its crawls, so the seconds of the
 * layout run beside the other jobs rather than after all of them; it gives `iterations` as
 * layoutIterations says for its crawls.
 */
export function layoutXY(r: Pick<ReplayRun, 'n' | 'outStart' | 'outTarget'>, iterations = ITERATIONS): number[] {
  const g = new UndirectedGraph<{ x: number; y: number }>({ multi: false, allowSelfLoops: false });
  // start on a golden-angle spiral, so the layout depends on nothing but the graph
  for (let i = 0; i < r.n; i++)
    g.addNode(i, { x: Math.sqrt(i + 1) * Math.cos(i * 2.399963), y: Math.sqrt(i + 1) * Math.sin(i * 2.399963) });
  for (let i = 0; i < r.n; i++) {
    for (let e = r.outStart[i]; e < r.outStart[i + 1]; e++) if (r.outTarget[e] !== i) g.mergeEdge(i, r.outTarget[e]);
  }
  if (r.n > 1)
    forceAtlas2.assign(g, {
      iterations,
      settings: { ...forceAtlas2.inferSettings(g), barnesHutOptimize: r.n > 1000 },
    });
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  g.forEachNode((_, a) => {
    x0 = Math.min(x0, a.x);
    y0 = Math.min(y0, a.y);
    x1 = Math.max(x1, a.x);
    y1 = Math.max(y1, a.y);
  });
  const span = Math.max(x1 - x0, y1 - y0) || 1;
  const xy: number[] = new Array(2 * r.n);
  g.forEachNode((k, a) => {
    const i = Number(k);
    xy[2 * i] = Math.min(999, Math.round(((a.x - x0) / span) * 999));
    xy[2 * i + 1] = Math.min(999, Math.round(((a.y - y0) / span) * 999));
  });
  return xy;
}

/** The run as the page draws it: positions (computed now unless the job did), no links. */
export function layoutReplay(r: ReplayRun): ReplayView {
  const xy = r.xy ?? layoutXY(r);
  return {
    site: r.site,
    seed: r.seed,
    n: r.n,
    start: r.start,
    xy,
    relevant: r.relevant,
    groups: r.groups,
    orders: r.orders,
  };
}
