/**
 * An archive experiment's sites as statistics (sim/site-stats.ts, the same a generated web's
 * departments are measured by), and the twin fitted to them: the command `npm run sim:fit --
 * CONFIG` and the twin validation share this.
 */
import { wordsOf } from '../../lib/rules.ts';
import { type SiteStats, type SiteView, webStats } from '../../sim/site-stats.ts';
import { ARCHIVE_DEFAULTS, type ExperimentConfig, loadExperiment } from '../focused/config.ts';
import { archiveEnv, archiveSites, type Env } from '../focused/env.ts';
import { type FitOptions, type FitResult, fitTwin, type TwinSpec } from './fit.ts';

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
      anchors[t].push(...wordsOf(l.anchor));
    }
  }
  const shape = env.archiveShape(site);
  return {
    name: site,
    graph,
    urls,
    anchors,
    linked: shape ? { urls: shape.linkedUrls, holes: shape.holes } : undefined,
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
  return { documents: a.documents, relevantDocuments: a.relevantDocuments, relevantLabels: a.relevant };
}
