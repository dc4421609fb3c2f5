/**
 * How dense with its target a site of an experiment environment is, as a crawler's ground truth
 * holds it (issue #83): the target's items by fewest hops from the start page, and the figures
 * data/webkb/figures.json keeps for the WebKB departments (papers per faculty member, the median
 * hops to a paper, the share 4 or more hops away, the papers' share of the document files). The
 * generated web's own count (sim/web-stats.ts density) reads the generator's page kinds instead;
 * test/webkb-figures.full.test.ts checks the two agree on a generated web.
 */
import { hasExtension } from '../../lib/document-types.ts';
import { DEFAULT_DOCUMENT_EXTENSIONS } from '../../lib/document-types.ts';
import { depths, type SiteGraph } from '../../lib/site-graph.ts';
import { type DensityRow, density } from '../../sim/web-stats.ts';
import type { Env } from './env.ts';

/** Each relevant item at the fewest hops of any of its nodes (a paper in two formats is one item); unreachable ones left out. */
export function itemHops(
  graph: SiteGraph,
  keys: readonly string[],
  itemOf: (key: string) => string,
): Map<string, number> {
  const hops = depths(graph);
  const nearest = new Map<string, number>();
  for (let i = 0; i < graph.n; i++)
    if (graph.relevant[i] && hops[i] >= 0) {
      const item = itemOf(keys[i]);
      nearest.set(item, Math.min(nearest.get(item) ?? hops[i], hops[i]));
    }
  return nearest;
}

/** Reachable items by hops: index = hops, value = items (the sites.csv relevant_by_depth column). */
export function itemsByHops(nearest: ReadonlyMap<string, number>): number[] {
  const byDepth: number[] = [];
  for (const d of nearest.values()) byDepth[d] = (byDepth[d] ?? 0) + 1;
  return Array.from(byDepth, (x) => x ?? 0);
}

/** The figures sim:stats and data/webkb/figures.json print (DensityRow), with the document-file URLs counted. */
export interface SiteDensity extends DensityRow {
  /** Document-file URLs of the site (by extension); documentShare is the relevant share of them. */
  documents: number;
}

/**
 * A site's density: its relevant items (env.relevant), their hops from the start page, its
 * document-file URLs and the relevant share of them, per `faculty` members (counted by the caller:
 * an archive's labels, a generated web's page kinds).
 */
export function siteDensity(env: Env, site: string, faculty: number): SiteDensity {
  const { graph, keys } = env.graphOf(site);
  const hist = Object.fromEntries(itemsByHops(itemHops(graph, keys, env.itemOf)).entries());
  let documents = 0;
  let relevantDocuments = 0;
  for (let i = 0; i < graph.n; i++)
    if (hasExtension(keys[i], DEFAULT_DOCUMENT_EXTENSIONS)) {
      documents++;
      if (graph.relevant[i]) relevantDocuments++;
    }
  const papers = env.relevant(site).size;
  const d = density(hist, papers, faculty, documents);
  return {
    site,
    ...d,
    papers,
    documents,
    documentShare: documents ? round2(relevantDocuments / documents) : Number.NaN,
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
