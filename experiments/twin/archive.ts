/**
 * An archive experiment's sites as statistics (sim/site-stats.ts, the same a generated web's
 * departments are measured by), and the twin fitted to them: the command `npm run sim:fit --
 * CONFIG` and the twin validation share this.
 */
import { wordsOf } from '../../lib/rules.ts';
import { graphFromLists } from '../../lib/site-graph.ts';
import { type SiteStats, type SiteView, webStats } from '../../sim/site-stats.ts';
import { ARCHIVE_DEFAULTS, type ExperimentConfig, loadExperiment } from '../focused/config.ts';
import { archiveEnv, archiveSites, type Env } from '../focused/env.ts';
import { type FitOptions, type FitResult, fitTwin, type TwinSpec } from './fit.ts';
import { append } from '../../lib/arrays.ts';

/** Every site of an archive experiment as a crawler meets it under the experiment's hole policy. */
export async function archiveViews(cfg: ExperimentConfig): Promise<SiteView[]> {
  if (!cfg.archive) throw new Error(`${cfg.name}: not an archive experiment (no "archive" section)`);
  const env = await archiveEnv(cfg);
  try {
    return archiveSites(cfg).map((s) => viewOfEnv(env, s));
  } finally {
    await env.close();
  }
}

/** A site of an experiment environment, as its ground-truth graph and the pages a crawler would read. */
export function viewOfEnv(env: Env, site: string): SiteView {
  const { graph, keys } = env.graphOf(site);
  const index = new Map(keys.map((k, i) => [k, i]));
  const urls: string[] = keys.map((k) => (k.includes('://') ? k : ''));
  const anchors: string[][] = keys.map(() => []);
  for (const p of env.training.labelled(site)) {
    const key = env.keyOf(p.url);
    const u = key === null ? undefined : index.get(key);
    if (u !== undefined && !urls[u]) urls[u] = p.url;
    for (const l of p.page.links) {
      const k = env.keyOf(l.url);
      const t = k === null ? undefined : index.get(k);
      if (t === undefined) continue;
      if (!urls[t]) urls[t] = l.url;
      append(anchors[t], wordsOf(l.anchor));
    }
  }
  const shape = env.archiveShape(site);
  const view = {
    name: site,
    graph,
    urls,
    anchors,
    linked: shape ? { urls: shape.linkedUrls, holes: shape.holes } : undefined,
  };
  const { status } = env.graphOf(site);
  return status ? pagesOnly(view, status) : view;
}

/** Hops of saved redirects followed to a page, as a client follows them (then: a dead link). */
const MAX_REDIRECTS = 10;

/**
 * The view with only the archive's pages as nodes (issue #72): a crawl written to a WARC holds its
 * redirects and 404s as records, which are not pages. A link to a saved redirect leads where the
 * redirect leads (as the replay serves it), followed up to MAX_REDIRECTS; a link to a record that
 * is not a page (4xx, 5xx, nothing served) or a redirect that ends in none is a hole, counted as
 * the generator counts a link to a page it does not serve.
 */
export function pagesOnly(view: SiteView, status: readonly number[]): SiteView {
  const g = view.graph;
  const isPage = (u: number): boolean => status[u] >= 200 && status[u] < 300;
  if (status.every((_, u) => isPage(u))) return view;
  const final = (u: number): number => {
    for (let hop = 0; u >= 0 && hop <= MAX_REDIRECTS; hop++) {
      if (isPage(u)) return u;
      if (status[u] < 300 || status[u] >= 400 || g.outStart[u + 1] === g.outStart[u]) return -1;
      u = g.outTarget[g.outStart[u]];
    }
    return -1;
  };
  const kept: number[] = [];
  const index = new Int32Array(g.n).fill(-1);
  for (let u = 0; u < g.n; u++)
    if (isPage(u)) {
      index[u] = kept.length;
      kept.push(u);
    }
  const dead = new Set<number>();
  const lists = kept.map((u) => {
    const out: number[] = [];
    for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
      const t = g.outTarget[e];
      const f = final(t);
      if (f < 0) dead.add(t);
      out.push(f < 0 ? -1 : index[f]);
    }
    return out;
  });
  const start = g.start < 0 ? -1 : final(g.start);
  const anchors = kept.map((u) => [...view.anchors[u]]);
  // a redirect's anchors are its target's: the words of the link a client followed to it
  for (let u = 0; u < g.n; u++) {
    const f = isPage(u) ? -1 : final(u);
    if (f >= 0) append(anchors[index[f]], view.anchors[u]);
  }
  return {
    name: view.name,
    graph: graphFromLists(
      lists,
      start < 0 ? -1 : index[start],
      kept.map((u) => g.relevant[u] === 1),
    ),
    urls: kept.map((u) => view.urls[u]),
    anchors,
    linked: view.linked
      ? { urls: view.linked.urls, holes: view.linked.holes + dead.size }
      : { urls: dead.size, holes: dead.size },
  };
}

/**
 * The twin fitted to the sites other than `heldOut` (null: to every site). The held-out site is
 * left out of everything the fit reads, the rules of the leak statistic included; the twin's
 * departments have the fitted sites' sizes, and one more of their mean size stands in for it.
 */
export function fitToSites(
  name: string,
  views: readonly SiteView[],
  heldOut: string | null,
  spec: TwinSpec,
  opts: FitOptions,
): { fit: FitResult; stats: SiteStats[] } {
  const stats = webStats(views.filter((v) => v.name !== heldOut));
  const sizes = stats.map((s) => s.htmlPages);
  if (heldOut !== null) sizes.push(Math.round(sizes.reduce((a, x) => a + x, 0) / Math.max(1, sizes.length)));
  return { fit: fitTwin(name, stats, sizes, spec, opts), stats };
}

/**
 * The archive experiment that replays a written twin (experiments/twin/writer.ts) as a real
 * archive is replayed: the quick focused experiment with the twin's WARC, labels, sites and start
 * pages, the archive defaults (holes closed) and the given target. `documents` defaults to the
 * archive defaults' known documents.
 */
export function twinExperiment(
  w: { warc: string; labels: string; groups: Record<string, string[]>; starts: Record<string, string> },
  name: string,
  target: Pick<TwinSpec, 'relevantDocuments' | 'relevantLabels'> & { documents?: readonly string[] },
  source = `twin archive ${name}`,
): ExperimentConfig {
  const defaults = structuredClone(ARCHIVE_DEFAULTS);
  return {
    ...loadExperiment('focused', { quick: true }),
    name,
    archive: {
      ...defaults,
      warc: [w.warc],
      labels: w.labels,
      relevant: [...target.relevantLabels],
      relevantDocuments: [...target.relevantDocuments],
      documents: target.documents ? [...target.documents] : defaults.documents,
      sites: [],
      groups: w.groups,
      starts: w.starts,
      source,
    },
  };
}

/** The twin's comparison terms from an archive experiment's config. */
export function specOf(cfg: ExperimentConfig): TwinSpec {
  const a = cfg.archive;
  if (!a) throw new Error(`${cfg.name}: not an archive experiment`);
  return {
    documents: a.documents,
    relevantDocuments: a.relevantDocuments,
    relevantLabels: a.relevant,
    collection: a.collection,
  };
}
