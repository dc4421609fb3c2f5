/**
 * The synthetic web's structure: sites, pages (kind, topic, community, owner) and the link
 * graph, generated from a config and a seed into compact typed arrays (CSR adjacency), so a
 * million-page web fits in a few hundred MB. Page text is not stored: content.ts renders it
 * lazily from (seed, page id). This module is the ground truth; crawlers never see it.
 */
import type { WebConfig } from './config.ts';
import { seedNumber } from './web-rng.ts';
import { loadVocab, type Vocab } from './vocab.ts';
import { WebBuilder } from './web-builder.ts';
import type { WebData } from './web-draft.ts';
import { type Community, Kind, type Site } from './web-kinds.ts';

// the ground truth's vocabulary, where its readers have always found it
export {
  Anchor,
  type Community,
  Kind,
  KIND_NAMES,
  type KindId,
  LinkFlag,
  SECTIONS,
  type Site,
  type SiteKind,
  sectionName,
  Target,
} from './web-kinds.ts';

export class Web implements WebData {
  readonly config: WebConfig;
  readonly seed: number;
  readonly vocab: Vocab;
  readonly sites: Site[] = [];
  readonly hosts = new Map<string, Site>();
  readonly communities: Community[] = [];
  // per page
  n = 0;
  kind!: Uint8Array;
  topic!: Uint8Array;
  siteOf!: Uint16Array;
  community!: Int32Array;
  owner!: Int32Array;
  aux!: Int32Array;
  // CSR adjacency
  outStart!: Uint32Array;
  outTarget!: Int32Array;
  outFlags!: Uint8Array;

  constructor(config: WebConfig, seed: number | string) {
    this.config = config;
    this.seed = typeof seed === 'number' ? seed >>> 0 : seedNumber(seed);
    this.vocab = loadVocab(config.text.zipfExponent);
    new WebBuilder(this).run();
  }

  siteByHost(host: string): Site | undefined {
    return this.hosts.get(host);
  }
  local(id: number): number {
    return id - this.sites[this.siteOf[id]].first;
  }
  isRelevant(id: number): boolean {
    return this.kind[id] === Kind.Paper;
  }
  isHtml(id: number): boolean {
    const k = this.kind[id];
    return k !== Kind.Paper && k !== Kind.Syllabus && k !== Kind.Form && k !== Kind.Image;
  }
  *links(id: number): Generator<{ target: number; flags: number }> {
    for (let e = this.outStart[id]; e < this.outStart[id + 1]; e++)
      yield { target: this.outTarget[e], flags: this.outFlags[e] };
  }
}
