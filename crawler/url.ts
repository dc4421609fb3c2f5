/**
 * URL normalisation and 64-bit fingerprints for dedupe. Normalisation is lib/url.ts canonicalUrl,
 * the one canonicaliser the archive side uses too (WHATWG parsing, fragment and user information
 * removed, session-id and tracking parameters removed, ";jsessionid=" path parameters removed,
 * percent-escapes normalised, an empty query dropped), under the crawl's stripParams.
 */

import { ownCopy } from '../lib/strings.ts';
import { canonicalUrl, headOf } from '../lib/url.ts';

export interface NormalizeOptions {
  /** Parameter names to remove; a trailing "*" matches a prefix ("utm_*"). Case-insensitive. */
  stripParams: readonly string[];
  /** Links longer than this are dropped and counted (default DEFAULT_MAX_URL_LENGTH). */
  maxUrlLength?: number;
  /** Links kept per page, in page order (default: all). */
  maxLinksPerPage?: number;
  /** Characters of link URLs kept per page, in page order (default: all). */
  maxLinkBytesPerPage?: number;
  /** Tags the parser reads of one HTML page; past it the page is kept as read, linksCut (default: no limit). */
  maxParseTags?: number;
  /** Whether a meta refresh's URL is a link of the page (default: yes). */
  followRefresh?: boolean;
}

/** 8 KiB: what common servers accept in a request line (nginx and Apache default to 8 KiB). */
export const DEFAULT_MAX_URL_LENGTH = 8192;

/**
 * Normalised absolute URL, or null when it is not http(s) or cannot be parsed: the one
 * canonicaliser (lib/url.ts canonicalUrl) under the crawl's stripParams.
 */
export function normalizeUrl(raw: string, base: string | URL | undefined, opts: NormalizeOptions): string | null {
  return canonicalUrl(raw, base, opts.stripParams);
}

/** Links already normalised: per stripParams list, per base scheme and authority, per href. */
const linkMemo = new WeakMap<readonly string[], Map<string, Map<string, string | null>>>();
/** Every per-list memory of linkMemo, to clear them all at once. */
const linkMemos = new Set<Map<string, Map<string, string | null>>>();
let linkMemoSize = 0;
/** Hrefs remembered in all (past it the memory is cleared, as Scope's is). */
const LINK_MEMO_MAX = 65_536;

/**
 * normalizeUrl() of the links of one page (one base), remembered where the answer depends on the
 * href and the base's scheme and authority alone: an absolute http(s) href, or one that starts
 * with "/" (a path from the root, or "//host/..."). The pages of a site repeat their links
 * (menus, lists: 55 links a page on the synthetic departments, a few thousand distinct targets),
 * and one URL parse per link was the largest part of the crawler's own parse (docs/benchmarks.md).
 * Other hrefs (relative to the page's folder, a query or a fragment alone) are normalised each time.
 */
export class LinkNormalizer {
  private readonly byHead: Map<string, Map<string, string | null>>;
  /** Hrefs from the root, by this base's scheme and authority (null: a base without a path). */
  private rooted: Map<string, string | null> | null = null;
  private readonly head: string | null;
  constructor(
    private readonly base: string,
    private readonly opts: NormalizeOptions,
  ) {
    let byHead = linkMemo.get(opts.stripParams);
    if (!byHead) {
      byHead = new Map();
      linkMemo.set(opts.stripParams, byHead);
      linkMemos.add(byHead);
    }
    this.byHead = byHead;
    this.head = headOf(base);
  }

  normalize(raw: string): string | null {
    let key: string;
    if (raw.charCodeAt(0) === 47 /* / */) {
      if (this.head === null) return normalizeUrl(raw, this.base, this.opts);
      key = this.head;
    } else if (raw.startsWith('http://') || raw.startsWith('https://')) key = '';
    else return normalizeUrl(raw, this.base, this.opts);
    let memo = key === '' ? this.byHead.get('') : (this.rooted ??= this.memoOf(key));
    if (!memo) this.byHead.set('', (memo = new Map()));
    let url = memo.get(raw);
    if (url === undefined) {
      url = normalizeUrl(raw, this.base, this.opts);
      if (linkMemoSize >= LINK_MEMO_MAX) {
        for (const m of linkMemos) m.clear();
        linkMemoSize = 0;
        this.rooted = null;
        memo = new Map();
        this.byHead.set(key, memo);
      }
      // a copy of the href as the key: the parser's strings are slices of the whole page, which
      // a kept key would hold in memory
      memo.set(ownCopy(raw), url);
      linkMemoSize++;
    }
    return url;
  }

  private memoOf(head: string): Map<string, string | null> {
    let m = this.byHead.get(head);
    if (!m) this.byHead.set(head, (m = new Map()));
    return m;
  }
}

/** Two independent 32-bit hashes of a string: together a 64-bit fingerprint. */
export function fingerprint(s: string): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h2 ^= h2 >>> 16;
  h2 = Math.imul(h2, 0xc2b2ae35);
  h2 ^= h2 >>> 16;
  return [h1 >>> 0, h2 >>> 0];
}

/**
 * A set of 64-bit fingerprints in open addressing over two Uint32Arrays: 8 bytes a slot, at
 * most 70% full, so about 12 to 23 bytes per URL seen (benchmarked by npm run bench:frontier).
 */
export class FingerprintSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private mask: number;
  size = 0;

  constructor(initialCapacity = 1 << 16) {
    let cap = 1;
    while (cap < initialCapacity) cap <<= 1;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.mask = cap - 1;
  }

  /** Adds the fingerprint of s; true if it was new. */
  add(s: string): boolean {
    const [a, b0] = fingerprint(s);
    return this.addPair(a, b0);
  }

  has(s: string): boolean {
    const [a, b0] = fingerprint(s);
    const b = a === 0 && b0 === 0 ? 1 : b0;
    let i = (a ^ Math.imul(b, 0x9e3779b1)) & this.mask;
    while (this.hi[i] !== 0 || this.lo[i] !== 0) {
      if (this.hi[i] === a && this.lo[i] === b) return true;
      i = (i + 1) & this.mask;
    }
    return false;
  }

  addPair(a: number, b0: number): boolean {
    const b = a === 0 && b0 === 0 ? 1 : b0; // (0, 0) marks an empty slot
    let i = (a ^ Math.imul(b, 0x9e3779b1)) & this.mask;
    while (this.hi[i] !== 0 || this.lo[i] !== 0) {
      if (this.hi[i] === a && this.lo[i] === b) return false;
      i = (i + 1) & this.mask;
    }
    this.hi[i] = a;
    this.lo[i] = b;
    if (++this.size > this.hi.length * 0.7) this.grow();
    return true;
  }

  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength;
  }

  private grow(): void {
    const { hi, lo } = this;
    this.hi = new Uint32Array(hi.length * 2);
    this.lo = new Uint32Array(lo.length * 2);
    this.mask = this.hi.length - 1;
    this.size = 0;
    for (let i = 0; i < hi.length; i++) if (hi[i] !== 0 || lo[i] !== 0) this.addPair(hi[i], lo[i]);
  }
}
