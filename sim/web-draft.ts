/**
 * The web being built, as the builder's helpers see it (web-links.ts adds the extra links,
 * web-background.ts the background sites; web-builder.ts implements it): the web's data so far,
 * the generator, the per-page lists, and the calls that add pages, links, communities and sites.
 * Apart from the builder so that the builder, its helpers and the web do not import each other.
 */
import type { IntList } from '../lib/typed-arrays.ts';
import type { WebConfig } from './config.ts';
import type { Vocab } from './vocab.ts';
import type { Community, Site } from './web-kinds.ts';
import type { Rng } from './web-rng.ts';

/** The web's data, which the builder fills in (web.ts's Web holds it and reads it). */
export interface WebData {
  readonly config: WebConfig;
  readonly seed: number;
  readonly vocab: Vocab;
  readonly sites: Site[];
  readonly hosts: Map<string, Site>;
  readonly communities: Community[];
  // per page
  n: number;
  kind: Uint8Array;
  topic: Uint8Array;
  siteOf: Uint16Array;
  community: Int32Array;
  owner: Int32Array;
  aux: Int32Array;
  // CSR adjacency
  outStart: Uint32Array;
  outTarget: Int32Array;
  outFlags: Uint8Array;
}

/** A site as its adder gives it: the builder draws the rest (its place, conventions, cues). */
export type NewSite = Omit<
  Site,
  'index' | 'first' | 'count' | 'sections' | 'conventions' | 'docForms' | 'docNames' | 'cues'
>;

export interface WebDraft {
  readonly w: WebData;
  readonly rng: Rng;
  /** each page's kind, site and community so far */
  readonly kinds: IntList;
  readonly sitesOf: IntList;
  readonly comms: IntList;
  /** topic ids: news, and the off-topic ones of life and of everything else */
  readonly news: number;
  readonly lifeTopics: number[];
  readonly offTopics: number[];
  page(kind: number, topic: number, community: number, owner?: number, aux?: number): number;
  link(from: number, to: number, anchor: number, flags?: number): void;
  community(topic: number, topical: boolean): number;
  addSite(s: NewSite): Site;
}
