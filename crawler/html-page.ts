/**
 * A parsed HTML page as the crawler keeps it (crawler/parser.ts makes it): its text and words
 * split when first read, and each link's anchor and around-words made from them on demand.
 */
import type { ParsedLink, ParsedPage } from './parsed.ts';

/** Words kept per page for scoring and link contexts; giant pages add links, not more text. */
export const MAX_WORDS = 20_000;

/**
 * A parsed HTML page whose text and words are made when first read. A class, with the getters on
 * its prototype: as an object literal with getters, every parsed page (its words, chunks and
 * HTML) survived the young-generation collections and was promoted, 122 of 292 MB allocated when
 * parsing 18,240 department pages; as a class, 0.2 MB (docs/benchmarks.md). JSON.stringify gives
 * the fields; a spread ({ ...page }) does not copy text and words, which live on the prototype.
 */
export class HtmlPage implements ParsedPage {
  readonly kind = 'html' as const;
  private joined: string | undefined;
  readonly links: ParsedLink[];
  readonly noindex: boolean;
  readonly nofollow: boolean;
  readonly linksTooLong: number;
  readonly linksCapped: number;
  readonly linksOtherScheme: number;
  readonly nestingCut: number;
  /** 1 when the parse stopped at maxParseTags. */
  readonly linksCut: number;
  /** 1 when a meta refresh named a URL (its last link). */
  readonly refreshLinks: number;
  constructor(
    readonly title: string,
    readonly headings: string[],
    private readonly split: () => Words,
    found: { links: ParsedLink[]; capped: number; tooLong: number; schemes: number },
    said: { noindex: boolean; nofollow: boolean },
    readonly charset: string,
    cuts: { nestingCut: number; linksCut: number; refresh: number },
  ) {
    this.links = found.links;
    this.linksTooLong = found.tooLong;
    this.linksCapped = found.capped;
    this.linksOtherScheme = found.schemes;
    this.noindex = said.noindex;
    this.nofollow = said.nofollow;
    this.nestingCut = cuts.nestingCut;
    this.linksCut = cuts.linksCut;
    this.refreshLinks = cuts.refresh;
  }
  /** Set by parseBody: the body could not be decoded as declared. */
  undecodable = 0;
  get text(): string {
    this.joined ??= this.split().words.join(' ');
    return this.joined;
  }
  get words(): readonly string[] {
    return this.split().words;
  }
  toJSON(): ParsedPage {
    const { kind, title, headings, text, words, links, noindex, nofollow, charset } = this;
    const { linksTooLong, linksCapped, linksOtherScheme } = this;
    return {
      kind,
      title,
      headings,
      text,
      words,
      links,
      noindex,
      nofollow,
      charset,
      linksTooLong,
      linksCapped,
      linksOtherScheme,
      ...(this.nestingCut ? { nestingCut: this.nestingCut } : {}),
      ...(this.linksCut ? { linksCut: this.linksCut } : {}),
      ...(this.refreshLinks ? { refreshLinks: this.refreshLinks } : {}),
      ...(this.undecodable ? { undecodable: this.undecodable } : {}),
    };
  }
}

export interface Words {
  words: string[];
  /** Index of the first word of chunk i (and, at chunks.length, the number of words). */
  at: Int32Array;
}

/**
 * The page's words, split from its text chunks on first use: whitespace-separated, in page order,
 * at most MAX_WORDS (a chunk that starts below the limit is kept whole).
 */
export function lazyWords(from: readonly string[]): () => Words {
  let w: Words | undefined;
  let source: readonly string[] | null = from;
  return () => {
    if (w) return w;
    const chunks = source!;
    source = null; // the words replace the chunks: a kept page (training data) holds its text once
    const words: string[] = [];
    const at = new Int32Array(chunks.length + 1);
    for (let i = 0; i < chunks.length; i++) {
      at[i] = words.length;
      if (words.length >= MAX_WORDS) continue;
      for (const x of chunks[i].split(/\s+/)) if (x) words.push(x);
    }
    at[chunks.length] = words.length;
    w = { words, at };
    return w;
  };
}

/**
 * A link whose anchor and context are joined from the page's words when first read. One object
 * per link (getters on the prototype, not closures per link); JSON.stringify gives the fields.
 */
export class LazyLink implements ParsedLink {
  private anchorText: string | undefined;
  private aroundText: string | undefined;
  constructor(
    readonly url: string,
    private readonly startChunk: number,
    private readonly endChunk: number,
    readonly heading: string,
    readonly nofollow: boolean,
    private readonly words: () => Words,
    private readonly aroundWords: number,
  ) {}
  get anchor(): string {
    if (this.anchorText === undefined) {
      const w = this.words();
      this.anchorText = w.words.slice(w.at[this.startChunk], w.at[this.endChunk]).join(' ');
    }
    return this.anchorText;
  }
  get around(): string {
    this.aroundText ??= this.aroundList.join(' ');
    return this.aroundText;
  }
  /** Made on each read (two slices of the page's words), not kept: a kept page's links stay small. */
  get aroundList(): readonly string[] {
    const n = this.aroundWords;
    if (!n) return [];
    const w = this.words();
    const start = w.at[this.startChunk];
    const end = w.at[this.endChunk];
    return w.words.slice(Math.max(0, start - n), start).concat(w.words.slice(end, end + n));
  }
  toJSON(): ParsedLink {
    const { url, anchor, around, heading, nofollow } = this;
    return { url, anchor, around, heading, nofollow };
  }
}
