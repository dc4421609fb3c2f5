/**
 * What a parse gives: a page's kind, text and links (crawler/parser.ts makes them, from HTML here
 * and from the synthetic documents in parse-documents.ts; html-page.ts builds their text lazily).
 * Types of their own module, so that the three import them without importing each other.
 */

export interface ParsedLink {
  /** Normalised absolute URL. */
  url: string;
  anchor: string;
  /** Words before and after the link (the context window). */
  around: string;
  /** The same words as a list, when the parser keeps the page's words (around is their join): tokens need no joined text. */
  readonly aroundList?: readonly string[];
  /** Nearest heading (h1-h6) above the link, or the page title. */
  heading: string;
  nofollow: boolean;
}

export type DocKind = 'html' | 'pdf' | 'ps' | 'text' | 'other';

export interface ParsedPage {
  kind: DocKind;
  title: string;
  headings: string[];
  text: string;
  /**
   * The text's words, when the parser keeps them (HTML pages): text is their join with single
   * spaces, so a reader that tokenizes word by word (lib/text.ts tokenizeWords) need not join.
   */
  readonly words?: readonly string[];
  links: ParsedLink[];
  /** meta robots */
  noindex: boolean;
  nofollow: boolean;
  charset: string;
  /** Links dropped for being longer than maxUrlLength, and past maxLinksPerPage or maxLinkBytesPerPage (HTML only). */
  linksTooLong?: number;
  linksCapped?: number;
  /** Links to a scheme other than http(s) (mailto:, javascript:, ftp:, file:, data: ...), refused. */
  linksOtherScheme?: number;
  /** 1 when the page's tags past MAX_NESTING open elements were read flat (every link still read). */
  nestingCut?: number;
  /** 1 when the parser stopped at maxParseTags: the links after that point are not read. */
  linksCut?: number;
  /** 1 when the page's <meta http-equiv="refresh"> named a URL, kept as its last link (followRefresh). */
  refreshLinks?: number;
  /** 1 when the body could not be decoded as its charset says (crawler/charset.ts decodeBody). */
  undecodable?: number;
}
