/**
 * Ground truth for the evaluator: every URL's kind, topic and relevance, the relevant
 * documents of each site and their link distance from the site's homepage. Crawlers never
 * import this (crawler/ cannot import sim/); experiments/ joins it to crawl logs.
 */
import { stringify } from 'csv-stringify/sync';
import { hopsFrom } from '../lib/graph.ts';
import { Renderer } from './content.ts';
import { KIND_NAMES, Kind, type Web } from './web.ts';

export interface PageTruth {
  url: string;
  host: string;
  kind: string;
  topic: string;
  relevant: boolean;
  /** Shortest link distance from the site's homepage over same-site links (-1: unreachable). */
  distance: number;
}

export class GroundTruth {
  readonly web: Web;
  readonly renderer: Renderer;
  private distances = new Map<number, Int32Array>();

  constructor(web: Web, renderer = new Renderer(web)) {
    this.web = web;
    this.renderer = renderer;
  }

  /** Hops from the homepage of a site over links that stay on the site (lib/graph.ts). Indexed by local id. */
  siteDistances(siteIndex: number): Int32Array {
    const hit = this.distances.get(siteIndex);
    if (hit) return hit;
    const site = this.web.sites[siteIndex];
    const dist = hopsFrom(this.web, site.first, site.first, site.first + site.count);
    this.distances.set(siteIndex, dist);
    return dist;
  }

  /** Page id of a URL as a crawler saw it (query strings such as session ids ignored), or -1. */
  idOf(url: string): number {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return -1;
    }
    try {
      return this.renderer.resolve(u.hostname, decodeURIComponent(u.pathname));
    } catch {
      return -1;
    }
  }

  isRelevantUrl(url: string): boolean {
    const id = this.idOf(url);
    return id >= 0 && this.web.isRelevant(id);
  }

  /** Global ids of the relevant documents of a site. */
  relevantOf(host: string): number[] {
    const site = this.web.siteByHost(host);
    if (!site) return [];
    const out: number[] = [];
    for (let id = site.first; id < site.first + site.count; id++) if (this.web.isRelevant(id)) out.push(id);
    return out;
  }

  page(id: number): PageTruth {
    const w = this.web;
    const site = w.sites[w.siteOf[id]];
    return {
      url: this.renderer.url(id),
      host: site.host,
      kind: KIND_NAMES[w.kind[id]],
      topic: w.vocab.topics[w.topic[id]].key,
      relevant: w.kind[id] === Kind.Paper,
      distance: this.siteDistances(site.index)[id - site.first],
    };
  }

  /**
   * All pages as CSV (url,label,host,kind,topic,relevant,distance); label is the kind in lower
   * case, so the file is also a labels CSV for an archive of this web (npm run crawl -- --warc).
   */
  csv(): string {
    const rows: (PageTruth & { label: string })[] = [];
    for (let id = 0; id < this.web.n; id++) {
      const p = this.page(id);
      rows.push({ ...p, label: p.kind.toLowerCase() });
    }
    return stringify(rows, {
      header: true,
      columns: ['url', 'label', 'host', 'kind', 'topic', 'relevant', 'distance'],
      cast: { boolean: (b) => (b ? '1' : '0') },
    });
  }
}
