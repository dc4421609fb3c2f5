/**
 * The structure of a site as a crawler meets it, measured the same way on an archive (under its
 * hole policy: the graph the replay server serves) and on a generated web, so that a synthetic
 * twin can be fitted to an archive and checked against it (issue #36).
 *
 * A site is a SiteView: its link graph from the start page (lib/site-graph.ts SiteGraph, the
 * ground truth every experiment scores against), each node's URL, and the anchor words of the
 * links into it. Two adapters build views: viewOfWeb here (a generated web straight from its
 * graph and renderer, for sim:stats and the twin's fitting loop, which may not render every page
 * of every candidate) and experiments/twin/archive.ts viewOfEnv (any experiment environment: an
 * archive's parsed pages, or a generated web's rendered ones). The statistics:
 *
 * - pages, relevant items and their share; the share reachable from the start page;
 * - out-degree (mean, 90th percentile over pages with links) and in-degree (90th percentile);
 * - depth of the relevant items from the start page (fewest links), as a histogram and a mean;
 * - topical locality: the share of pages that link a relevant item (hubs), relevant links per
 *   hub, and the share of a hub's other links that lead to a relevant item;
 * - the share of links whose target URL names a document file (lib/document-types.ts);
 * - the share of linked in-site URLs the collection does not hold (holes): what a collection
 *   kept, which the induced graph alone confounds with how many links a page has;
 * - the directory depth of URLs (folders in the path);
 * - gaps between relevant regions: hubs joined by a direct link form a region; the fewest
 *   non-hub pages from one region to the next (ordered pairs), as a histogram and a mean;
 * - the learnt transfer leak (transferLeak, which sim/structure.ts reports too, over the same
 *   link targets: rules over URL folders, file words, extension and anchor words, learnt on the
 *   other sites, scored on this one) and the anchor
 *   words on links to relevant items shared with the other sites (mean Jaccard).
 */
import { DEFAULT_DOCUMENT_EXTENSIONS, hasExtension } from '../lib/document-types.ts';
import {
  learnAlternatives,
  type RuleExample,
  type RuleList,
  type Score,
  scoreRules,
  targetFeatures,
  wordsOf,
} from '../lib/rules.ts';
import { depths, graphFromLists, type SiteGraph } from '../lib/site-graph.ts';
import type { Renderer } from './content.ts';
import { unit } from './web-rng.ts';
import type { Web } from './web.ts';
import { append } from '../lib/arrays.ts';

export interface SiteView {
  name: string;
  graph: SiteGraph;
  /** URL of each node (absolute). */
  urls: string[];
  /** Anchor words of every link into each node. */
  anchors: string[][];
  /**
   * Distinct in-site URLs the site's pages link (known documents aside) and how many of them the
   * collection does not hold (holes), as sim/archive-web.ts shape() counts them; absent: no holes.
   */
  linked?: { urls: number; holes: number };
}

export interface SiteStats {
  site: string;
  pages: number;
  /** Nodes whose URL names no document file. */
  htmlPages: number;
  relevant: number;
  relevantShare: number;
  reachableShare: number;
  outMean: number;
  outP90: number;
  inP90: number;
  /** Relevant items by fewest links from the start page: "1".."5", "6+" and "none". */
  depthHistogram: Record<string, number>;
  depthMean: number;
  hubShare: number;
  relevantPerHub: number;
  hubPrecision: number;
  documentLinkShare: number;
  /** Holes over the distinct in-site URLs linked (what the collection missed; 0 on a whole web). */
  holeShare: number;
  dirDepth: number;
  gapHistogram: Record<string, number>;
  gapMean: number;
  gapZeroShare: number;
  leakPrecision: number;
  leakRecall: number;
  anchorOverlap: number;
}

const round = (x: number, d = 3): number => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : 0);

function quantile(xs: number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** Gaps between relevant regions: fewest non-hub pages from a region to another (ordered pairs). */
function regionGaps(g: SiteGraph, hub: Uint8Array): number[] {
  // regions: hubs joined by a direct link (either direction), by union-find
  const parent = Int32Array.from({ length: g.n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (let u = 0; u < g.n; u++)
    if (hub[u])
      for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
        const v = g.outTarget[e];
        if (hub[v]) parent[find(u)] = find(v);
      }
  const regionOf = new Int32Array(g.n).fill(-1);
  const ids = new Map<number, number>();
  for (let u = 0; u < g.n; u++)
    if (hub[u]) {
      const r = find(u);
      if (!ids.has(r)) ids.set(r, ids.size);
      regionOf[u] = ids.get(r)!;
    }
  const gaps: number[] = [];
  const dist = new Int32Array(g.n);
  // a multi-source BFS per region; at most 60 regions so that a site of many small regions stays cheap
  const regions = Math.min(ids.size, 60);
  for (let a = 0; a < regions; a++) {
    dist.fill(-1);
    const q: number[] = [];
    for (let u = 0; u < g.n; u++)
      if (regionOf[u] === a) {
        dist[u] = 0;
        q.push(u);
      }
    const best = new Map<number, number>();
    for (let h = 0; h < q.length; h++) {
      const u = q[h];
      for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
        const v = g.outTarget[e];
        const rv = regionOf[v];
        if (rv === a) continue;
        if (rv >= 0) {
          if (!best.has(rv)) best.set(rv, dist[u]);
          continue;
        }
        if (dist[v] < 0) {
          dist[v] = dist[u] + 1;
          q.push(v);
        }
      }
    }
    for (const d of best.values()) gaps.push(d);
  }
  return gaps;
}

/** Link targets with what a classifier could read of them, and whether they are relevant. */
export function targetsOf(v: SiteView): RuleExample[] {
  const out: RuleExample[] = [];
  for (let u = 0; u < v.graph.n; u++)
    if (v.anchors[u].length || u !== v.graph.start)
      out.push({
        features: targetFeatures(pathOf(v.urls[u]), new Set(v.anchors[u])),
        positive: v.graph.relevant[u] === 1,
      });
  return out;
}

/**
 * The transfer leak at site i: every rule list a learner (lib/rules.ts) finds on the other sites'
 * link targets that fits them as well as the best, scored on site i's, best first. 1.0 / 1.0
 * means a classifier trained elsewhere knows this site's relevant links without reading a topic.
 */
export function transferLeak(
  targets: readonly (readonly RuleExample[])[],
  i: number,
): { list: RuleList; score: Score }[] {
  const others = targets.filter((_, j) => j !== i).flat();
  if (!others.some((t) => t.positive)) return [];
  return learnAlternatives(others)
    .map((list) => ({ list, score: scoreRules(list, targets[i]) }))
    .sort((a, b) => b.score.f1 - a.score.f1);
}

/** Anchor words on links to relevant items. */
function relevantAnchorWords(v: SiteView): Set<string> {
  const s = new Set<string>();
  for (let u = 0; u < v.graph.n; u++) if (v.graph.relevant[u]) for (const w of v.anchors[u]) s.add(w);
  return s;
}

/** The statistics of every site of a web (the leak and anchor overlap compare each with the others). */
export function webStats(views: readonly SiteView[]): SiteStats[] {
  const targets = views.map(targetsOf);
  const anchorSets = views.map(relevantAnchorWords);
  return views.map((v, i) => {
    const g = v.graph;
    // whether each item is a document, read once per item rather than once per link to it
    const isDoc = v.urls.map((u) => hasExtension(u, DEFAULT_DOCUMENT_EXTENSIONS));
    const c = countLinks(g, isDoc);
    const relevant = g.relevant.reduce((a, x) => a + x, 0);
    const { depthHistogram, reach, depthSum } = relevantDepths(g);
    const hubs = c.hub.reduce((a, x) => a + x, 0);
    const gaps = regionGaps(g, c.hub);
    const gapHistogram: Record<string, number> = {};
    for (const x of gaps) {
      const k = x >= 5 ? '5+' : String(x);
      gapHistogram[k] = (gapHistogram[k] ?? 0) + 1;
    }
    let dirs = 0;
    for (const u of v.urls) dirs += Math.max(0, pathOf(u).split('/').length - 2);
    const held = transferLeak(targets, i)[0]?.score ?? { precision: 0, recall: 0 };
    return {
      site: v.name,
      pages: g.n,
      htmlPages: isDoc.filter((x) => !x).length,
      relevant,
      relevantShare: round(relevant / Math.max(1, g.n)),
      reachableShare: round(reach / Math.max(1, relevant)),
      outMean: round(c.outs.reduce((a, x) => a + x, 0) / Math.max(1, c.outs.length), 2),
      outP90: quantile(c.outs, 0.9),
      inP90: quantile([...c.indeg], 0.9),
      depthHistogram,
      depthMean: round(depthSum / Math.max(1, reach), 2),
      hubShare: round(hubs / Math.max(1, g.n)),
      relevantPerHub: round(c.relLinks / Math.max(1, hubs), 2),
      hubPrecision: round(c.relLinks / Math.max(1, c.hubLinks)),
      documentLinkShare: round(c.docLinks / Math.max(1, c.links)),
      holeShare: round((v.linked?.holes ?? 0) / Math.max(1, v.linked?.urls ?? 0)),
      dirDepth: round(dirs / Math.max(1, v.urls.length), 2),
      gapHistogram,
      gapMean: round(gaps.reduce((a, x) => a + x, 0) / Math.max(1, gaps.length), 2),
      gapZeroShare: round(gaps.filter((x) => x === 0).length / Math.max(1, gaps.length)),
      leakPrecision: round(held.precision),
      leakRecall: round(held.recall),
      anchorOverlap: round(anchorOverlap(anchorSets, i) / Math.max(1, views.length - 1)),
    };
  });
}

/**
 * A site's links: in-degrees, out-degrees (of pages with links), links to documents, and its hubs
 * (pages linking a relevant item) with how many of their links are relevant.
 */
function countLinks(g: SiteView['graph'], isDoc: readonly boolean[]) {
  const indeg = new Int32Array(g.n);
  const outs: number[] = [];
  const hub = new Uint8Array(g.n);
  let docLinks = 0;
  let links = 0;
  let relLinks = 0;
  let hubLinks = 0;
  for (let u = 0; u < g.n; u++) {
    const k = g.outStart[u + 1] - g.outStart[u];
    if (k > 0) outs.push(k);
    for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
      const t = g.outTarget[e];
      indeg[t]++;
      links++;
      if (isDoc[t]) docLinks++;
      if (g.relevant[t]) hub[u] = 1;
    }
    if (hub[u])
      for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
        hubLinks++;
        if (g.relevant[g.outTarget[e]]) relLinks++;
      }
  }
  return { indeg, outs, hub, docLinks, links, relLinks, hubLinks };
}

/** How far the relevant items are from the start page: a histogram of hops, how many are reached, and their sum. */
function relevantDepths(g: SiteView['graph']): {
  depthHistogram: Record<string, number>;
  reach: number;
  depthSum: number;
} {
  const d = depths(g);
  const depthHistogram: Record<string, number> = {};
  let reach = 0;
  let depthSum = 0;
  for (let u = 0; u < g.n; u++) {
    if (!g.relevant[u]) continue;
    const k = d[u] < 0 ? 'none' : d[u] >= 6 ? '6+' : String(d[u]);
    depthHistogram[k] = (depthHistogram[k] ?? 0) + 1;
    if (d[u] >= 0) {
      reach++;
      depthSum += d[u];
    }
  }
  return { depthHistogram, reach, depthSum };
}

/** The sum over the other sites of the Jaccard overlap of site i's anchor words for relevant items with theirs. */
function anchorOverlap(anchorSets: readonly Set<string>[], i: number): number {
  let overlap = 0;
  for (let j = 0; j < anchorSets.length; j++) {
    if (j === i) continue;
    const a = anchorSets[i];
    const b = anchorSets[j];
    let inter = 0;
    for (const w of a) if (b.has(w)) inter++;
    overlap += inter / Math.max(1, a.size + b.size - inter);
  }
  return overlap;
}

/**
 * How a twin's department is turned into a site like an archive's: the collection kept each HTML
 * page with probability `sample` (decided by a hash of the web seed and the page, the home page
 * always), and the graph is what the closed-hole policy serves of such a collection: the kept
 * pages, the documents they link whose URL has one of `documents`' extensions (known documents,
 * as sim/archive-web.ts serves them; with `documents` empty, every page they link that is not
 * HTML), and the links among those. `relevant` is the experiment's target for a page id and URL.
 * `collection` is how the archive was made (Collection); "crawl" keeps every file the kept pages
 * link, whatever `documents` says.
 */
export interface TwinSampling {
  sample: number;
  documents: readonly string[];
  relevant: (id: number, url: string) => boolean;
  collection?: Collection;
}

/**
 * How an archive was made, which decides what a twin's link to a moved page or a file reads as.
 * "pages" (the default; WebKB): a collection of HTML pages, documents known by their extension
 * only, the redirects its crawler met lost (WebKB kept 42 among about 8,000 pages), so a link to a
 * moved page's old URL is a hole. "crawl": a crawler's WARC, every response a record: a redirect
 * leads to its page, as the replay follows it, and every linked file was fetched.
 */
export type Collection = 'pages' | 'crawl';
export const COLLECTIONS: readonly Collection[] = ['pages', 'crawl'];

/** Whether the collection kept HTML page id (see TwinSampling). */
export function kept(web: Web, id: number, sample: number): boolean {
  const site = web.sites[web.siteOf[id]];
  return web.isHtml(id) && (id === site.first || sample >= 1 || unit(web.seed, id, 77) < sample);
}

/** A department of a generated web as its archive would be (no page rendered: links from the graph). */
export function viewOfWeb(
  web: Web,
  renderer: Renderer,
  host: string,
  sampling: TwinSampling = { sample: 1, documents: [], relevant: (id) => web.isRelevant(id) },
  /** Count the holes (renders every link's URL; the structure diagnostics need none). */
  holes = true,
): SiteView {
  const site = web.siteByHost(host);
  if (!site) throw new Error(`no site ${host}`);
  const first = site.first;
  // each in-site page's node, -1 for none: typed arrays, a site may hold half a million pages
  const node = new Int32Array(site.count).fill(-1);
  const ids: number[] = [];
  const add = (id: number): void => {
    if (node[id - first] < 0) {
      node[id - first] = ids.length;
      ids.push(id);
    }
  };
  const inSite = (t: number): boolean => t >= first && t < first + site.count;
  const crawled = sampling.collection === 'crawl';
  // whether a document of the site is one the sampling keeps (1 yes, 2 no), read once per document
  const keptDoc = new Uint8Array(site.count);
  const isKeptDoc = (t: number): boolean => {
    if (!keptDoc[t - first])
      keptDoc[t - first] =
        crawled || sampling.documents.length === 0 || hasExtension(renderer.url(t), sampling.documents) ? 1 : 2;
    return keptDoc[t - first] === 1;
  };
  for (let id = first; id < first + site.count; id++) if (kept(web, id, sampling.sample)) add(id);
  const pages = ids.length;
  for (let k = 0; k < pages; k++) {
    const id = ids[k];
    for (let e = web.outStart[id]; e < web.outStart[id + 1]; e++) {
      const t = web.outTarget[e];
      if (!inSite(t) || web.isHtml(t)) continue;
      if (isKeptDoc(t)) add(t);
    }
  }
  const urls = ids.map((id) => renderer.url(id));
  const lists: number[][] = ids.map(() => []);
  const anchors: string[][] = ids.map(() => []);
  for (let k = 0; k < pages; k++) {
    const id = ids[k];
    for (let e = web.outStart[id]; e < web.outStart[id + 1]; e++) {
      const t = web.outTarget[e];
      const v = inSite(t) ? node[t - first] : -1;
      if (v < 0) continue;
      lists[k].push(v);
      append(anchors[v], wordsOf(renderer.anchorText(id, e, t, web.outFlags[e])));
    }
  }
  return {
    name: host,
    graph: graphFromLists(
      lists,
      0,
      ids.map((id, k) => sampling.relevant(id, urls[k])),
    ),
    urls,
    anchors,
    linked: holes ? linkedUrls(web, renderer, site, ids, pages, node, urls, sampling) : undefined,
  };
}

/**
 * The distinct in-site URLs the kept pages link, known documents aside, and how many of them are
 * holes, keyed as the archive of the rendered pages keys them (sim/archive-web.ts): a link named
 * without its directory's slash is its target; a moved page's old URL, a broken link, the calendar
 * and the loop are holes. A crawl's collection (Collection "crawl") holds its redirects and files
 * as records of their own URLs: a link to an old URL, a slashless one or a file is a URL linked, a
 * hole only when it leads to no kept page (as experiments/twin/archive.ts pagesOnly reads a WARC).
 */
function linkedUrls(
  web: Web,
  renderer: Renderer,
  site: { first: number; count: number },
  ids: readonly number[],
  pages: number,
  node: Int32Array,
  urls: readonly string[],
  sampling: TwinSampling,
): { urls: number; holes: number } {
  const inSite = (t: number): boolean => t >= site.first && t < site.first + site.count;
  const crawled = sampling.collection === 'crawl';
  const linked = new Set<string>();
  const holes = new Set<string>();
  const sampledName = new Map<string, boolean>();
  const isSampledName = (url: string): boolean => {
    let k = sampledName.get(url);
    if (k === undefined)
      sampledName.set(url, (k = sampling.documents.length === 0 || hasExtension(url, sampling.documents)));
    return k;
  };
  for (let k = 0; k < pages; k++) {
    const id = ids[k];
    for (let e = web.outStart[id]; e < web.outStart[id + 1]; e++) {
      const t = web.outTarget[e];
      if (!(t < 0 || inSite(t))) continue;
      const url = renderer.linkUrl(id, e);
      const knownDocument = !crawled && t >= 0 && !web.isHtml(t) && isSampledName(url);
      if (knownDocument) continue;
      const v = t >= 0 ? node[t - site.first] : -1;
      const own = v < 0 ? null : urls[v];
      const key = !crawled && own !== null && `${url}/` === own ? own : url;
      linked.add(key);
      if (own === null || (key !== own && !crawled)) holes.add(key);
    }
  }
  return { urls: linked.size, holes: holes.size };
}

/** The statistics of every site, a line each (sim:stats). */
export function formatSiteStats(stats: readonly SiteStats[]): string[] {
  const cols: [string, (s: SiteStats) => string | number][] = [
    ['pages', (s) => s.pages],
    ['relevant', (s) => s.relevant],
    ['reach', (s) => s.reachableShare],
    ['depth', (s) => s.depthMean],
    ['out', (s) => s.outMean],
    ['inP90', (s) => s.inP90],
    ['hubs', (s) => s.hubShare],
    ['rel/hub', (s) => s.relevantPerHub],
    ['hubPrec', (s) => s.hubPrecision],
    ['docLinks', (s) => s.documentLinkShare],
    ['holes', (s) => s.holeShare],
    ['gap', (s) => s.gapMean],
    ['leak P/R', (s) => `${s.leakPrecision}/${s.leakRecall}`],
    ['anchors', (s) => s.anchorOverlap],
  ];
  const width = Math.max(4, ...stats.map((s) => s.site.length));
  return [
    `${'site'.padEnd(width)} ${cols.map(([h]) => h.padStart(9)).join('')}`,
    ...stats.map((s) => `${s.site.padEnd(width)} ${cols.map(([, f]) => String(f(s)).padStart(9)).join('')}`),
  ];
}
