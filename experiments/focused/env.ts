/**
 * Where an experiment's crawls run and how they are judged: the synthetic web of one seed
 * (ground truth from the generator), or a replayed web archive (ground truth from a labels CSV).
 * Both serve over HTTP on loopback with the same politeness audit, and both give the focused
 * strategies labelled pages of the other sites for leave-one-site-out training.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { ParseCache } from '../../crawler/index.ts';
import type { LabelledPage } from '../../crawler/focused/index.ts';
import type { HostAudit } from '../../sim/audit.ts';
import { loadConfig } from '../../sim/config.ts';
import { ArchiveWeb, type HolePolicy, type SiteShape } from '../../sim/archive-web.ts';
import { hasExtension } from '../../lib/document-types.ts';
import { resource } from '../../lib/paths.ts';
import { ReplayServer } from '../../sim/archive-server.ts';
import { SimServer } from '../../sim/server.ts';
import { GroundTruth } from '../../sim/truth.ts';
import { WarcArchive } from '../../sim/warc-index.ts';
import { readLabels } from '../../sim/labels.ts';
import { KIND_NAMES, LinkFlag, Web } from '../../sim/web.ts';
import { effectiveRobots } from '../../sim/robots-profiles.ts';
import { parseRobots } from '../../lib/robots-rules.ts';
import { structureStats, type StructureStats } from '../../sim/structure.ts';
import { ExperimentConfigError, type ExperimentConfig } from './config.ts';
import { graphFromLists, type SiteGraph } from '../../lib/site-graph.ts';
import { sitePages, TrainingData, webKey } from '../web-training.ts';
import { type BilledGraph, readArchiveSite, RedirectNodes } from './billed-graph.ts';

export interface Env {
  port: number;
  /** Key under which a fetched URL counts (page id, normalised URL); null: not a page. */
  keyOf(url: string): string | null;
  /** The site's relevant items (itemOf of its relevant keys). */
  relevant(site: string): Set<string>;
  /**
   * The item a key counts as for recall: itself, but on an archive whose target is documents by
   * URL, a paper's formats are one item (".ps" and ".ps.Z" of one stem: found when any is fetched).
   */
  itemOf(key: string): string;
  startUrl(site: string): string;
  /** Hosts in scope when crawling a site (empty: the start URL's origin). */
  scopeOf(site: string): string[];
  /**
   * The site's link graph from ground truth (evaluator only), and each node's key (as keyOf); for
   * an archive, each node's archived status too (0: nothing served), so that a reader of the site's
   * shape can tell pages from saved redirects and dead records (experiments/twin/archive.ts).
   */
  graphOf(site: string): { graph: SiteGraph; keys: string[]; status?: readonly number[] };
  /**
   * The same graph as a crawler is billed for it: a link that the server answers with a redirect
   * goes through a node of its own (the redirecting URL: never relevant, key null) before its
   * target, so an oracle on it pays for the 3xx a crawler pays for.
   */
  billedGraphOf(site: string): BilledGraph;
  /** Community of each node of graphOf(site), numbered 0..k-1 (all 0 for an archive): for the replay. */
  groupsOf(site: string): number[];
  training: TrainingData;
  /**
   * Pages parsed once per environment: by training (every page of the departments) and by every
   * crawl that parses them the same way (crawler/parse-cache.ts keys the options).
   */
  parses: ParseCache;
  /** Identifies the web for the model cache. */
  cacheKey: string;
  /** Whether a fetch of this URL lands on an archive hole (never on a synthetic web). */
  isHole(url: string): boolean;
  /** An archive's hole policy (null: a synthetic web, which has no holes). */
  holes: HolePolicy | null;
  /** What an archive site rests on (pages, holes, documents, collection dates); null on a synthetic web. */
  archiveShape(site: string): ArchiveShape | null;
  /** Structural diagnostics of a synthetic web (computed once), or null for an archive. */
  structure(): StructureStats | null;
  /**
   * The site's spider traps, in words (sites.csv's traps column): a URL space no budget exhausts,
   * whether its robots.txt keeps a polite crawler out; "" when it has none (an archive is finite).
   */
  traps(site: string): string;
  reset(): void;
  audit(): Record<string, HostAudit>;
  close(): Promise<void>;
}

/** What an archive site rests on, for the report. */
export interface ArchiveShape extends SiteShape {
  site: string;
  policy: HolePolicy;
  /** Pages with a relevant label, and relevant documents by URL (archived or known). */
  relevantLabelled: number;
  relevantDocuments: number;
  /** First and last capture date of the site's pages (null: the archive carries none). */
  collected: [string, string] | null;
}

/**
 * Parsed pages an environment keeps: above the departments' pages of the shipped webs (23,507 on
 * paper.json), which training holds anyway; the crawls' other responses come and go.
 */
const PARSES_KEPT = 65_536;

/**
 * Bytes of generated pages a synthetic web's server keeps (sim/page-cache.ts; the server's own
 * default is 64 MiB): above the departments' pages of the shipped webs (116 MB on paper.json), so
 * that the pages training reads are still there when the crawls fetch them.
 */
const PAGE_BYTES_KEPT = 256 * 2 ** 20;

/**
 * An environment's caches: kept (parsed pages shared by training and the crawls, generated pages
 * kept ready to send), or none, so that every page costs what it costs when no crawl before it
 * fetched it (npm run bench:scale -- --no-caches).
 */
export type Caches = 'kept' | 'none';

/**
 * The caches an experiment's environments keep unless told: none when a run's budget exceeds what
 * the parse cache holds. The strategies of a job crawl one after another, so a page one of them
 * parsed is wanted again by the next about a budget of pages later; a first-in-first-out cache
 * smaller than that has dropped it by then and only holds memory, and at 10^6 pages its collection
 * cost more than its hits saved (docs/benchmarks.md, "Experiments at web scale").
 */
export function cachesFor(cfg: Pick<ExperimentConfig, 'budget'>): Caches {
  return cfg.budget <= PARSES_KEPT ? 'kept' : 'none';
}

export async function simEnv(cfg: ExperimentConfig, seed: number, caches = cachesFor(cfg)): Promise<Env> {
  const web = new Web(loadConfig(cfg.web), seed);
  const parses = new ParseCache(caches === 'kept' ? PARSES_KEPT : 0);
  const server = await SimServer.start(web, {
    faults: cfg.faults,
    cacheBytes: caches === 'kept' ? PAGE_BYTES_KEPT : 0,
  });
  // training reads the pages the server keeps ready to send: rendered once for both
  const served = { render: (id: number) => server.page(id), url: (id: number) => server.renderer.url(id) };
  const truth = new GroundTruth(web);
  const hosts = web.sites.filter((s) => s.kind === 'department').map((s) => s.host);
  let structure: StructureStats | null = null;
  // the experiment's target: page kinds of the generator
  const kinds = new Set(cfg.target.kinds);
  const isTarget = (id: number): boolean => kinds.has(KIND_NAMES[web.kind[id]].toLowerCase());
  const relevantOf = (host: string): Set<string> => {
    const site = web.siteByHost(host);
    const out = new Set<string>();
    if (site) for (let id = site.first; id < site.first + site.count; id++) if (isTarget(id)) out.add(String(id));
    return out;
  };
  return {
    port: server.port,
    keyOf: (url) => {
      const id = truth.idOf(url);
      return id >= 0 ? String(id) : null;
    },
    relevant: relevantOf,
    itemOf: (key) => key,
    startUrl: (site) => `http://${site}/`,
    scopeOf: () => [],
    isHole: () => false,
    holes: null,
    archiveShape: () => null,
    graphOf: (site) => simGraph(web, site, isTarget, false),
    billedGraphOf: (site) => simGraph(web, site, isTarget, true).billed!,
    groupsOf: (site) => {
      const s = web.siteByHost(site)!;
      const ids = new Map<number, number>();
      const out: number[] = [];
      for (let id = s.first; id < s.first + s.count; id++) {
        const c = web.community[id];
        if (!ids.has(c)) ids.set(c, ids.size);
        out.push(ids.get(c)!);
      }
      return out;
    },
    training: new TrainingData((h) => sitePages(web, h, isTarget, served, parses), hosts, cfg.future),
    parses,
    cacheKey: `${webKey(web)}:${seed}:${[...kinds].join('+')}`,
    structure: () => (structure ??= structureStats(web, truth.renderer)),
    traps: (site) => syntheticTraps(web, site),
    reset: () => server.reset(),
    audit: () => server.audit(),
    close: () => server.close(),
  };
}

/**
 * A department's links within its host (the crawl's scope), from the generator's CSR graph; billed,
 * a link written in a form that redirects (LinkFlag.Redirect) goes through its target's redirecting
 * URL (one per target: the generator writes a target's redirect one way, sim/content.ts place()).
 */
function simGraph(
  web: Web,
  host: string,
  isTarget: (id: number) => boolean,
  bill: boolean,
): { graph: SiteGraph; keys: string[]; billed: BilledGraph | null } {
  const site = web.siteByHost(host);
  if (!site) throw new Error(`no site ${host}`);
  const lists: number[][] = [];
  const billed = new RedirectNodes(site.count);
  const relevant: boolean[] = [];
  const keys: string[] = [];
  for (let id = site.first; id < site.first + site.count; id++) {
    const out: number[] = [];
    const paid: number[] = [];
    for (let e = web.outStart[id]; e < web.outStart[id + 1]; e++) {
      const t = web.outTarget[e];
      if (t < site.first || t >= site.first + site.count) continue;
      out.push(t - site.first);
      if (bill) paid.push(web.outFlags[e] & LinkFlag.Redirect ? billed.via(`${t}`, t - site.first) : t - site.first);
    }
    lists.push(out);
    if (bill) billed.lists.push(paid);
    relevant.push(isTarget(id));
    keys.push(String(id));
  }
  return {
    graph: graphFromLists(lists, 0, relevant),
    keys,
    billed: bill ? billed.graph(0, relevant, keys) : null,
  };
}

/** Sites of an archive experiment: the groups, else the configured hosts, else every host with a relevant label. */
export function archiveSites(cfg: ExperimentConfig): string[] {
  const a = cfg.archive!;
  if (Object.keys(a.groups).length) return Object.keys(a.groups).sort();
  if (a.sites.length) return a.sites;
  const labels = readLabels(a.labels);
  const hosts = new Set<string>();
  // a target of documents only: every labelled host
  for (const [url, label] of labels) if (!a.relevant.length || a.relevant.includes(label)) hosts.add(new URL(url).host);
  return [...hosts].sort();
}

/**
 * An archive's target: a key is relevant by its label or, for documents by URL, by its extension;
 * a relevant document counts once per paper (itemOf: its URL without the document extension, so
 * ".ps" and ".ps.Z" of one stem are one item).
 */
function archiveTarget(
  a: NonNullable<ExperimentConfig['archive']>,
  labels: ReadonlyMap<string, string>,
): { isRelevant: (key: string) => boolean; itemOf: (key: string) => string } {
  const isRelevant = (key: string): boolean =>
    a.relevant.includes(labels.get(key) ?? '') ||
    (a.relevantDocuments.length > 0 && hasExtension(key, a.relevantDocuments));
  const extensions = [...a.relevantDocuments].sort((x, y) => y.length - x.length);
  const itemOf = (key: string): string => {
    const ext = extensions.find((e) => key.toLowerCase().endsWith(e.toLowerCase()));
    return ext && isRelevant(key) ? key.slice(0, -ext.length) : key;
  };
  return { isRelevant, itemOf };
}
/**
 * Checks an archive experiment against its archive before anything runs: every group host and
 * start URL is in the archive, every relevant label occurs in the labels, every site has a
 * relevant page. Throws an ExperimentConfigError naming the first problem.
 */
export async function checkArchive(cfg: ExperimentConfig): Promise<void> {
  const a = cfg.archive!;
  const bad = (m: string): never => {
    throw new ExperimentConfigError(`${cfg.name}: ${m}`);
  };
  // a damaged WARC is refused: results must not rest on an archive read only in part
  const archive = await WarcArchive.open(a.warc, { strict: true }).catch((e: Error) =>
    bad(`archive.warc: ${e.message.split('\n')[0]}`),
  );
  const hosts = new Set(archive.hosts());
  const labels = readLabels(a.labels);
  const present = new Set(labels.values());
  for (const l of a.relevant)
    if (!present.has(l))
      bad(`archive.relevant: no page of ${a.labels} is labelled "${l}" (labels: ${[...present].sort().join(', ')})`);
  // sites left to the default are the labelled hosts the archive holds: a labels file may name
  // hosts of other archives (issue #53); the resolved list is recorded, so the config reruns as run
  if (!Object.keys(a.groups).length && !a.sites.length) {
    const labelled = archiveSites(cfg);
    a.sites = labelled.filter((h) => hosts.has(h));
    if (!a.sites.length && labelled.length)
      bad(
        `none of the ${labelled.length} labelled hosts of ${a.labels} ` +
          `(${labelled.slice(0, 3).join(', ')}${labelled.length > 3 ? ', ...' : ''}) is in the ` +
          `archive; name the sites to crawl in archive.sites`,
      );
  }
  const sites = archiveSites(cfg);
  let web: ArchiveWeb | undefined;
  if (!sites.length) bad(`no host of ${a.labels} has a label in ${a.relevant.join(', ')}`);
  for (const site of sites) {
    const group = a.groups[site] ?? [site];
    for (const h of group)
      if (!hosts.has(h))
        bad(
          `archive: host ${h} (site ${site}) is not in the archive (it holds ${hosts.size} hosts; name the sites to crawl in archive.sites or archive.groups)`,
        );
    const start = a.starts[site] ?? `http://${group[0]}/`;
    if (!archive.lookup(start)) bad(`archive.starts.${site}: ${start} is not in the archive`);
    const relevant = group.flatMap((h) => archive.urls(h)).filter((u) => a.relevant.includes(labels.get(u) ?? ''));
    if (a.relevantDocuments.length) {
      // documents by URL: archived ones, or known ones (linked from archived pages, served as placeholders)
      web ??= await ArchiveWeb.open(archive, { holes: a.holes, documents: a.documents }, { scan: true });
      for (const h of group)
        relevant.push(
          ...[...archive.urls(h), ...web.documentUrls(h)].filter((u) => hasExtension(u, a.relevantDocuments)),
        );
    }
    if (!relevant.length)
      bad(
        `archive: site ${site} has no relevant page ` +
          `(${[
            ...(a.relevant.length ? [`labels ${a.relevant.join(', ')}`] : []),
            ...(a.relevantDocuments.length ? [`documents ${a.relevantDocuments.join(', ')}`] : []),
          ].join('; ')})`,
      );
  }
}

export async function archiveEnv(cfg: ExperimentConfig, caches = cachesFor(cfg)): Promise<Env> {
  const a = cfg.archive!;
  const archive = await WarcArchive.open(a.warc, { strict: true });
  // one policy for every crawler and the oracle: what the server offers is what the graph holds
  const web = await ArchiveWeb.open(archive, { holes: a.holes, documents: a.documents }, { scan: true });
  const server = await ReplayServer.start(web);
  const parses = new ParseCache(caches === 'kept' ? PARSES_KEPT : 0);
  const labels = readLabels(a.labels);
  const sites = archiveSites(cfg);
  const hostsOf = (site: string): string[] => a.groups[site] ?? [site];
  const { isRelevant, itemOf } = archiveTarget(a, labels);
  // labelled pages of each site (archived pages and known documents), read as served under the
  // policy and parsed once; their links (and archived redirects) form the site's link graph
  const pages = new Map<string, LabelledPage[]>();
  const graphs = new Map<string, { graph: SiteGraph; keys: string[]; status: number[]; billed: BilledGraph }>();
  const shapes = new Map<string, ArchiveShape>();
  for (const site of sites) {
    const keys = hostsOf(site).flatMap((h) => [...archive.urls(h), ...web.documentUrls(h)]);
    const read = await readArchiveSite(web, parses, keys, isRelevant);
    pages.set(site, read.pages);
    const start = read.nodesOf(a.starts[site] ?? `http://${hostsOf(site)[0]}/`, 'http://invalid/')[0];
    const relevant = keys.map(isRelevant);
    graphs.set(site, {
      graph: graphFromLists(read.lists, start, relevant),
      keys,
      status: read.status,
      billed: read.billed.graph(start, relevant, keys),
    });
    const shape = web.shape(hostsOf(site));
    const dates = hostsOf(site)
      .flatMap((h) => archive.urls(h))
      .map((u) => archive.lookup(u)?.date ?? '')
      .filter((d) => d && !d.startsWith('1970') && !d.startsWith('2000-01-01'))
      .sort();
    shapes.set(site, {
      site,
      policy: a.holes,
      ...shape,
      relevantLabelled: keys.filter((k) => a.relevant.includes(labels.get(k) ?? '')).length,
      relevantDocuments: a.relevantDocuments.length
        ? keys.filter((k) => hasExtension(k, a.relevantDocuments)).length
        : 0,
      collected: dates.length ? [dates[0].slice(0, 10), dates[dates.length - 1].slice(0, 10)] : null,
    });
  }
  const stamp =
    a.warc.map((f) => `${f}:${statSync(resource(f)).size}:${statSync(resource(f)).mtimeMs}`).join('|') +
    readFileSync(resource(a.labels), 'utf8') +
    `|relevant:${a.relevant.join('+')}|docs:${a.relevantDocuments.join('+')}|holes:${a.holes}|known:${a.documents.join('+')}`;
  return {
    port: server.port,
    keyOf: (url) => web.canonical(url),
    isHole: (url) => web.isHole(url),
    holes: a.holes,
    archiveShape: (site) => shapes.get(site) ?? null,
    relevant: (site) => new Set(graphs.get(site)!.keys.filter(isRelevant).map(itemOf)),
    itemOf,
    startUrl: (site) => a.starts[site] ?? `http://${hostsOf(site)[0]}/`,
    scopeOf: (site) => (a.groups[site] ? hostsOf(site) : []),
    graphOf: (site) => graphs.get(site)!,
    billedGraphOf: (site) => graphs.get(site)!.billed,
    groupsOf: (site) => graphs.get(site)!.keys.map(() => 0),
    structure: () => null,
    traps: () => '',
    training: new TrainingData((h) => pages.get(h) ?? [], sites, cfg.future),
    parses,
    cacheKey: createHash('sha256').update(stamp).digest('hex').slice(0, 16),
    reset: () => server.reset(),
    audit: () => server.audit(),
    close: () => server.close(),
  };
}

/**
 * A generated department's traps (sim/content.ts): the calendar at /events/calendar/, linked from
 * the news index, whose every month links the next (unbounded: a budget of 60,000 on a 203-page
 * department once fetched 59,958 pages), blocked by the robots profiles that disallow /events/;
 * and session ids in internal links, which multiply every URL. Background sites have no calendar.
 */
function syntheticTraps(web: Web, host: string): string {
  const site = web.siteByHost(host);
  if (!site) return '';
  const traps: string[] = [];
  if (site.kind === 'department') {
    // the rules a compliant crawler ends up with (a redirected file followed, an erroring one: none allowed)
    const robots = effectiveRobots(site.robots);
    const blocked =
      robots.disallowAll ||
      parseRobots(`http://${host}/robots.txt`, robots.body).isDisallowed(
        `http://${host}/events/calendar/2026/11/`,
        'crawler-harness',
      ) === true;
    traps.push(`calendar: unbounded${blocked ? ', disallowed by robots.txt' : ''}`);
  }
  if (site.sessionIds) traps.push('session ids: every URL in variants');
  return traps.join('; ');
}
