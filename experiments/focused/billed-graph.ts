/**
 * The graph a crawler is billed for (Env.billedGraphOf): a redirect costs a request for everyone,
 * so a link the server answers with a redirect goes through a node of its own; and an archive
 * site read as the replay serves it, its pages, links and saved redirects (issue #66).
 */
import { DEFAULT_SETTINGS, type ParseCache } from '../../crawler/index.ts';
import type { LabelledPage } from '../../crawler/focused/index.ts';
import { graphFromLists, type SiteGraph } from '../../lib/site-graph.ts';
import type { ArchiveWeb } from '../../sim/archive-web.ts';
import { append } from '../../lib/arrays.ts';

/** A site's graph as a crawler is billed for it (Env.billedGraphOf): node keys, null for a redirect's. */
export interface BilledGraph {
  graph: SiteGraph;
  keys: (string | null)[];
  /** Redirect nodes in it (the nodes after the pages'). */
  redirects: number;
}

/**
 * Builds the billed graph: the pages' adjacency lists (pushed by the caller) with a node for each
 * redirecting URL after the pages, whose one link is its target.
 */
export class RedirectNodes {
  readonly lists: number[][] = [];
  private readonly nodes = new Map<string, number>();
  private readonly targets: number[] = [];
  constructor(private readonly pages: number) {}

  /** The node of a redirecting URL (made on first use) that leads to `target`. */
  via(url: string, target: number): number {
    let v = this.nodes.get(url);
    if (v === undefined) {
      v = this.pages + this.targets.length;
      this.nodes.set(url, v);
      this.targets.push(target);
    }
    return v;
  }

  graph(start: number, relevant: readonly boolean[], keys: readonly string[]): BilledGraph {
    const lists = [...this.lists, ...this.targets.map((t) => [t])];
    return {
      graph: graphFromLists(lists, start, [...relevant, ...this.targets.map(() => false)]),
      keys: [...keys, ...this.targets.map(() => null)],
      redirects: this.targets.length,
    };
  }
}

/**
 * One site's archived pages and known documents (`keys`), read as served under the policy and
 * parsed once: the labelled pages, each node's out-links (and a saved redirect's Location) in the
 * graph and in the billed graph, each node's status, and the node a URL names.
 */
export async function readArchiveSite(
  web: ArchiveWeb,
  parses: ParseCache,
  keys: readonly string[],
  isRelevant: (url: string) => boolean,
): Promise<{
  pages: LabelledPage[];
  lists: number[][];
  status: number[];
  billed: RedirectNodes;
  nodesOf: (url: string, base: string) => [number, number];
}> {
  const pages: LabelledPage[] = [];
  const index = new Map(keys.map((k, i) => [k, i]));
  const billed = new RedirectNodes(keys.length);
  // a link's node in the graph, and in the billed graph: an alias ("/x" for the archived "/x/")
  // leads where the server's redirect led, through the 301 the crawler is served
  const nodesOf = (url: string, base: string): [number, number] => {
    try {
      const abs = new URL(url, base).href;
      const k = web.canonical(abs);
      if (k !== null) return [index.get(k) ?? -1, index.get(k) ?? -1];
      const alias = web.aliasOf(abs);
      const v = alias === null ? -1 : (index.get(alias) ?? -1);
      return [v, v < 0 ? -1 : billed.via(abs, v)];
    } catch {
      return [-1, -1]; // not a URL
    }
  };
  const lists: number[][] = keys.map(() => []);
  const status: number[] = keys.map(() => 0);
  append(
    billed.lists,
    keys.map(() => []),
  );
  const link = (i: number, url: string, base: string): void => {
    const [v, paid] = nodesOf(url, base);
    lists[i].push(v);
    billed.lists[i].push(paid);
  };
  for (const [i, url] of keys.entries()) {
    const r = await web.get(url);
    if (!r) continue;
    status[i] = r.status;
    const location = r.headers.find(([k]) => k.toLowerCase() === 'location')?.[1];
    if (r.status >= 300 && r.status < 400 && location) link(i, location, url);
    if (r.status < 200 || r.status >= 300) continue;
    const ct = r.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    const page = parses.parse(
      r.body.subarray(0, DEFAULT_SETTINGS.maxBodyBytes),
      ct,
      url,
      DEFAULT_SETTINGS,
      DEFAULT_SETTINGS.aroundWords,
    );
    pages.push({ url, page, relevant: isRelevant(url) });
    for (const l of page.links) link(i, l.url, url);
  }
  return { pages, lists, status, billed, nodesOf };
}
