/**
 * The parser: decodes a response body (crawler/charset.ts: a byte-order mark, the header's
 * charset, a <meta>, else UTF-8 or windows-1252 by the bytes) and extracts, in one streaming pass
 * of htmlparser2, the title, headings, text and every link (<a>, <area>, and the sources of
 * <frame> and <iframe>) with its anchor text, the words around it, its URL's words and the
 * nearest heading before it; honours <base href>, rel=nofollow and meta robots. Also
 * extracts text from the synthetic .pdf/.ps formats (documented in sim/content.ts; plain text
 * lines after the header, or PostScript "(text) show" strings).
 */
import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { DEFAULT_MAX_URL_LENGTH, LinkNormalizer, type NormalizeOptions } from './url.ts';
import { ownCopy } from '../lib/strings.ts';
import { decodeBody } from './charset.ts';
import { parsePdf, parsePs } from './parse-documents.ts';
import { HtmlPage, LazyLink, lazyWords, type Words } from './html-page.ts';
import type { ParsedLink, ParsedPage } from './parsed.ts';

export { MAX_WORDS } from './html-page.ts';

export type { DocKind, ParsedLink, ParsedPage } from './parsed.ts';

/**
 * Elements open at once past which tags are read flat (libxml2 stops at 256): with htmlparser2's
 * open-tag stack (kept with unshift) 200,000 nested <div> (1.2 MB) took 43 s to parse, the crawl
 * doing nothing else; flat past 512, a fraction of a second, the links below the cut kept. */
export const MAX_NESTING = 512;

export interface ContentType {
  readonly mime: string;
  readonly charset?: string;
}

const NO_TYPE: ContentType = Object.freeze({ mime: '' });
/** Headers seen, parsed: a crawl meets a handful of distinct Content-Types, each twice per response. */
const contentTypes = new Map<string, ContentType>();
const CONTENT_TYPES_MAX = 1024;

/** Media type (lowercase, no parameters) and charset parameter of a Content-Type header (a shared, frozen object). */
export function contentTypeOf(header: string | undefined): ContentType {
  if (!header) return NO_TYPE;
  let t = contentTypes.get(header);
  if (t) return t;
  const [mime, ...params] = header.split(';');
  const cs = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('charset='));
  t = Object.freeze({
    mime: mime.trim().toLowerCase(),
    charset: cs ? cs.slice(8).replace(/["']/g, '').trim().toLowerCase() : undefined,
  });
  if (contentTypes.size >= CONTENT_TYPES_MAX) contentTypes.clear();
  // a copy as the key: a header string may be a slice of a larger one (lib/strings.ts)
  contentTypes.set(ownCopy(header), t);
  return t;
}

/** Words of a URL: host labels and path segments split on non-alphanumerics (lower-case). */
export function urlWords(url: string): string[] {
  return url
    .replace(/^https?:\/\//, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !/^\d+$/.test(w));
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const SKIP = new Set(['script', 'style', 'noscript', 'template']);

/** An <a> or <area> as the tokenizer met it: its href and the text chunks of its anchor. */
interface RawLink {
  href: string;
  start: number;
  end: number;
  heading: string;
  nofollow: boolean;
}

/** What a page says about its links: its <base> (the first good one) and its meta robots. */
interface Directives {
  base: string;
  baseSet: boolean;
  noindex: boolean;
  nofollow: boolean;
  /** The URL of the page's first <meta http-equiv="refresh">, as written; null: none. */
  refresh: string | null;
}

/**
 * The URL a refresh names ("5; url=/next", "0;URL='/x'", a Refresh header's value), or null when
 * it names none (a refresh of the page itself).
 */
export function refreshTarget(content: string): string | null {
  const m = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(["']?)([^"']*)\1\s*$/i.exec(content);
  const url = m?.[2].trim();
  return url ? url : null;
}

/** Reads a <base>, <meta name="robots"> or <meta http-equiv="refresh"> into `said`; any other tag is none of these. */
function readDirective(name: string, attrs: Record<string, string>, maxUrl: number, said: Directives): void {
  if (name === 'base' && attrs.href && !said.baseSet) {
    // a bad base is ignored, and so is one past the URL limit (every link under it would be too)
    try {
      const b = new URL(attrs.href, said.base).href;
      if (b.length <= maxUrl) {
        said.base = b;
        said.baseSet = true;
      }
    } catch {
      /* ignored */
    }
  } else if (name === 'meta' && said.refresh === null && (attrs['http-equiv'] ?? '').toLowerCase() === 'refresh') {
    said.refresh = refreshTarget(attrs.content ?? '');
  } else if (name === 'meta' && (attrs.name ?? '').toLowerCase() === 'robots') {
    const c = (attrs.content ?? '').toLowerCase();
    if (/\b(noindex|none)\b/.test(c)) said.noindex = true;
    if (/\b(nofollow|none)\b/.test(c)) said.nofollow = true;
  }
}

/**
 * What the tokenizer's events say about a page, collected as they come: its title, headings, text
 * (as raw chunks), links (as chunk positions) and directives, and whether a budget cut it short.
 */
class PageCollector {
  // Text is kept as the parser's raw chunks and split into words only when something reads it
  // (the page's text, a link's anchor or context): a breadth-first crawl never does, and splitting
  // every text node was a fifth of the parse (docs/benchmarks.md). Links remember chunk positions.
  readonly chunks: string[] = [];
  readonly headings: string[] = [];
  readonly raw: RawLink[] = [];
  title = '';
  nestingCut = 0;
  linksCut = 0;
  readonly said: Directives;
  private inTitle = false;
  private skipDepth = 0;
  private heading: string | null = null;
  private lastHeading = '';
  private open: RawLink | null = null;
  private tags = 0;
  /** the parser that feeds this collector (it reads the parser's stack and pauses it), from onparserinit */
  private parser: Parser | null = null;

  constructor(
    pageUrl: string,
    // the parse budget, in tags (work, not the clock: the same page gives the same links on any machine)
    private readonly maxTags: number,
    private readonly maxUrl: number,
  ) {
    this.said = { base: pageUrl, baseSet: false, noindex: false, nofollow: false, refresh: null };
  }

  onparserinit(parser: Parser): void {
    this.parser = parser;
  }

  onopentagname(): void {
    // past MAX_NESTING a tag is read flat (off htmlparser2's unshift-kept stack at once): a linear parse
    const parser = this.parser as Parser;
    const open = (parser as unknown as { stack: string[] }).stack;
    if (open.length > MAX_NESTING) {
      open.shift();
      this.nestingCut = 1;
    }
    if (++this.tags > this.maxTags && !this.linksCut) {
      this.linksCut = 1;
      parser.pause();
    }
  }

  onopentag(name: string, attrs: Record<string, string>): void {
    if (SKIP.has(name)) {
      this.skipDepth++;
      return;
    }
    if (name === 'title') this.inTitle = true;
    else if (HEADINGS.has(name)) this.heading = '';
    else if ((name === 'a' || name === 'area') && attrs.href !== undefined) this.openLink(name, attrs);
    else if ((name === 'frame' || name === 'iframe') && attrs.src !== undefined) {
      // a frameset's frames (and an iframe) are links a 1997 browser followed: no anchor text
      const at = this.chunks.length;
      this.raw.push({ href: attrs.src, start: at, end: at, heading: this.lastHeading, nofollow: false });
    } else readDirective(name, attrs, this.maxUrl, this.said);
  }

  ontext(text: string): void {
    if (this.skipDepth) return;
    if (this.inTitle) {
      this.title += text;
      return;
    }
    if (this.heading !== null) this.heading += text;
    this.chunks.push(text);
  }

  onclosetag(name: string): void {
    if (SKIP.has(name)) {
      this.skipDepth = Math.max(0, this.skipDepth - 1);
      return;
    }
    if (name === 'title') this.inTitle = false;
    else if (HEADINGS.has(name) && this.heading !== null) {
      const h = this.heading.replace(/\s+/g, ' ').trim();
      if (h) {
        this.headings.push(h);
        this.lastHeading = h;
      }
      this.heading = null;
    } else if (name === 'a') this.closeLink();
  }

  /** An <a> opens an anchor (closing one left open: anchors do not nest); an <area> is a link with no text. */
  private openLink(name: string, attrs: Record<string, string>): void {
    this.closeLink();
    const at = this.chunks.length;
    const nofollow = attrs.rel !== undefined && /\bnofollow\b/i.test(attrs.rel);
    this.open = { href: attrs.href, start: at, end: at, heading: this.lastHeading, nofollow };
    if (name === 'area') this.closeLink();
  }

  /** Ends the open anchor's text here, at a </a>, the next anchor or the end of the page. */
  closeLink(): void {
    if (!this.open) return;
    this.open.end = this.chunks.length;
    this.raw.push(this.open);
    this.open = null;
  }
}

export function parseHtml(
  html: string,
  pageUrl: string,
  norm: NormalizeOptions,
  aroundWords: number,
  charset = 'utf-8',
): ParsedPage {
  const maxTags = norm.maxParseTags ?? Number.POSITIVE_INFINITY;
  const c = new PageCollector(pageUrl, maxTags, norm.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH);
  const parser = new Parser(c, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  c.closeLink();
  const { said, chunks, raw } = c;
  // a refresh is a link a browser follows (Scrapy, Heritrix and Nutch follow it too): the page's last, no anchor
  const refresh = said.refresh !== null && norm.followRefresh !== false ? 1 : 0;
  if (refresh)
    raw.push({ href: said.refresh as string, start: chunks.length, end: chunks.length, heading: '', nofollow: false });
  const title = c.title.replace(/\s+/g, ' ').trim();
  const words = lazyWords(chunks);
  const found = said.nofollow ? noLinks() : resolveLinks(raw, said.base, norm, title, words, aroundWords);
  const cuts = { nestingCut: c.nestingCut, linksCut: c.linksCut, refresh };
  return new HtmlPage(title, c.headings, words, found, said, charset, cuts);
}

const noLinks = (): ReturnType<typeof resolveLinks> => ({ links: [], capped: 0, tooLong: 0, schemes: 0 });

/** A page's links resolved against its base, normalised and capped (by count, URL length, URL bytes). */
function resolveLinks(
  raw: readonly RawLink[],
  base: string,
  norm: NormalizeOptions,
  title: string,
  words: () => Words,
  aroundWords: number,
): { links: ParsedLink[]; capped: number; tooLong: number; schemes: number } {
  const maxUrl = norm.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
  const maxLinks = norm.maxLinksPerPage ?? Infinity;
  const maxLinkBytes = norm.maxLinkBytesPerPage ?? Infinity;
  const links: ParsedLink[] = [];
  let capped = 0;
  let schemes = 0;
  let tooLong = 0;
  let linkBytes = 0;
  let normalizer: LinkNormalizer | undefined;
  for (let i = 0; i < raw.length; i++) {
    const l = raw[i];
    if (links.length >= maxLinks) {
      capped = raw.length - i;
      break;
    }
    // a raw href past the limit cannot shrink below it by resolving: skip it before any work
    if (l.href.length > maxUrl) {
      tooLong++;
      continue;
    }
    const href = l.href.trim();
    const url = (normalizer ??= new LinkNormalizer(base, norm)).normalize(href);
    if (!url) {
      if (otherScheme(href, base)) schemes++;
      continue;
    }
    if (url.length > maxUrl) {
      tooLong++;
      continue;
    }
    // a budget of URL characters per page: 10,000 links under an 8 KB <base> are 80 MB of URLs
    if (linkBytes + url.length > maxLinkBytes) {
      capped = raw.length - i;
      break;
    }
    linkBytes += url.length;
    links.push(new LazyLink(url, l.start, l.end, l.heading || title, l.nofollow, words, aroundWords));
  }
  return { links, capped, tooLong, schemes };
}

/** Whether a link resolves to a URL of a scheme other than http(s): refused, and counted. */
export function otherScheme(href: string, base: string | URL | undefined): boolean {
  try {
    const p = (base === undefined ? new URL(href) : new URL(href, base)).protocol;
    return p !== 'http:' && p !== 'https:';
  } catch {
    return false;
  }
}

/** Parses any response body by its media type (and, for unknown types, by its first bytes). */
/** Most bytes a gzipped document may expand to (a gzip bomb is cut, not followed). */
export const MAX_GUNZIP_BYTES = 8 * 1024 * 1024;

export function parseBody(
  body: Buffer,
  contentTypeHeader: string | undefined,
  pageUrl: string,
  norm: NormalizeOptions,
  aroundWords: number,
  gunzipped = false,
): ParsedPage {
  const { mime, charset } = contentTypeOf(contentTypeHeader);
  const head = body.subarray(0, 16).toString('latin1');
  // a gzipped file (.ps.gz as departments served papers): the document inside, its type sniffed;
  // one level only (a gzip quine decompresses to itself)
  if (
    !gunzipped &&
    (mime === 'application/gzip' ||
      mime === 'application/x-gzip' ||
      (head.charCodeAt(0) === 0x1f && head.charCodeAt(1) === 0x8b && !mime.startsWith('text/')))
  ) {
    let inner: Buffer;
    try {
      inner = gunzipSync(body, { maxOutputLength: MAX_GUNZIP_BYTES });
    } catch {
      return {
        kind: 'other',
        title: '',
        headings: [],
        text: '',
        links: [],
        noindex: false,
        nofollow: false,
        charset: '',
      };
    }
    return parseBody(inner, undefined, pageUrl, norm, aroundWords, true);
  }
  if (mime === 'application/pdf' || (!mime && head.startsWith('%PDF-'))) return parsePdf(body);
  if (mime === 'application/postscript' || (!mime && head.startsWith('%!PS'))) return parsePs(body);
  if (mime === 'text/html' || mime === 'application/xhtml+xml' || (!mime && /^\s*</.test(head))) {
    const { text, charset: cs, undecodable } = decodeBody(body, charset);
    const page = parseHtml(text, pageUrl, norm, aroundWords, cs);
    if (undecodable) page.undecodable = 1;
    return page;
  }
  if (mime.startsWith('text/')) {
    const { text, charset: cs, undecodable } = decodeBody(body, charset ?? 'utf-8');
    const page: ParsedPage = {
      kind: 'text',
      title: '',
      headings: [],
      text,
      links: [],
      noindex: false,
      nofollow: false,
      charset: cs,
    };
    return undecodable ? { ...page, undecodable: 1 } : page;
  }
  return { kind: 'other', title: '', headings: [], text: '', links: [], noindex: false, nofollow: false, charset: '' };
}
