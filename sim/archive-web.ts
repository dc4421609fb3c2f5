/**
 * An archive as a web under a stated policy: what a crawler of a replayed archive is offered.
 *
 * A collection such as WebKB is a sample of each site: most in-site links of its pages lead to
 * URLs that were never collected (holes). Two policies, one for every crawler and the oracle:
 *
 * - `open`: the archive as it is. A hole is answered 404 and costs a fetch like any other.
 * - `closed`: the web is the collection's induced graph. A link whose target is neither archived
 *   nor a known document is not offered: the served page carries it as `data-archive-hole=`
 *   instead of `href=` (the anchor text stays, so a page's words do not change), and the
 *   evaluator charges nothing for a hole fetched anyway (an archived redirect into a hole).
 *
 * Known documents: a URL linked from an archived page whose path ends in a document extension
 * (.pdf, .ps, .ps.Z, .ps.gz, .dvi ... configurable) and which the archive lacks is served as a
 * small placeholder of that type, status 200, which says nothing about the text: the 1997
 * departments kept the links to their papers, not the papers. A document is judged by its URL.
 *
 * sim/ never imports the crawler: the links found here are read by a pass of htmlparser2 over
 * <a href> and <area href> resolved against the page URL or its first <base href>, as a
 * browser reads them.
 */
import { gzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { hasExtension } from '../lib/document-types.ts';
import { canonicalUrl } from '../lib/url.ts';
import { archiveKey, type ArchivedResponse, type WarcArchive } from './warc-index.ts';

export type HolePolicy = 'open' | 'closed';
export const HOLE_POLICIES: readonly HolePolicy[] = ['open', 'closed'];
export { DEFAULT_DOCUMENT_EXTENSIONS, PAPER_EXTENSIONS, hasExtension } from '../lib/document-types.ts';

export interface ArchivePolicy {
  holes: HolePolicy;
  /** Extensions that mark a known document; empty: none is served. */
  documents: readonly string[];
}

const TAGGED = /^(a|area|base)$/;

/** Every <a>/<area> href of an HTML page with its position, and the page's base. */
function scanLinks(
  html: string,
  pageUrl: string,
): { base: string; links: { href: string; start: number; end: number }[] } {
  let base = pageUrl;
  let baseSet = false;
  const links: { href: string; start: number; end: number }[] = [];
  const parser: Parser = new Parser(
    {
      onopentag(name, attrs) {
        if (!TAGGED.test(name) || attrs.href === undefined) return;
        if (name === 'base') {
          if (baseSet) return;
          try {
            base = new URL(attrs.href, pageUrl).href;
            baseSet = true;
          } catch {
            /* a bad base is ignored */
          }
          return;
        }
        links.push({ href: attrs.href, start: parser.startIndex, end: parser.endIndex });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return { base, links };
}

/** An absolute key of a link (archiveKey form: lib/url.ts canonicalUrl), or null when it is not http(s). */
function linkKey(href: string, base: string): string | null {
  return canonicalUrl(href.trim(), base);
}

/**
 * The other spellings of a directory a path may stand for, nearest first: "/x" -> "/x/",
 * "/x/index.html", "/x/index.htm"; "/x/" -> its index pages, then "/x"; "/x/index.html" -> "/x/",
 * then "/x". Case-sensitive: a 1997 Unix server answered "INDEX.HTML" with a 404.
 */
export function directorySpellings(path: string): string[] {
  const index = /^(.*\/)index\.html?$/.exec(path);
  const dir = index ? index[1] : path.endsWith('/') ? path : `${path}/`;
  const bare = dir.length > 1 ? dir.slice(0, -1) : null;
  return [dir, `${dir}index.html`, `${dir}index.htm`, ...(bare ? [bare] : [])].filter((p) => p !== path);
}

const headerOf = (r: ArchivedResponse, name: string): string | undefined =>
  r.headers.find(([k]) => k.toLowerCase() === name)?.[1];

export function isHtml(r: ArchivedResponse): boolean {
  const ct = (headerOf(r, 'content-type') ?? '').toLowerCase();
  return (
    ct.startsWith('text/html') ||
    ct.startsWith('application/xhtml') ||
    (!ct && /^\s*</.test(r.body.subarray(0, 64).toString('latin1')))
  );
}

/** Each http(s) link target (archiveKey form) of each archived 2xx HTML page, in archive order. */
async function* linkTargets(archive: WarcArchive): AsyncGenerator<string> {
  for (const url of archive.urls()) {
    const r = await archive.get(url);
    if (!r || r.status < 200 || r.status >= 300 || !isHtml(r)) continue;
    const { base, links } = scanLinks(r.body.toString('latin1'), url);
    for (const l of links) {
      const k = linkKey(l.href, base);
      if (k !== null) yield k;
    }
  }
}

/** The placeholder of a known document: status 200, its type's media type, no text. */
export function placeholder(url: string): ArchivedResponse {
  const path = new URL(url).pathname.toLowerCase();
  const note = `placeholder: the archive kept a link to ${url}, not the document`;
  const inner = (ext: string): { type: string; body: Buffer } =>
    ext === 'pdf'
      ? { type: 'application/pdf', body: Buffer.from(`%PDF-1.0\n% ${note}\n%%EOF\n`, 'latin1') }
      : ext === 'ps'
        ? { type: 'application/postscript', body: Buffer.from(`%!PS-Adobe-2.0\n% ${note}\n%%EOF\n`, 'latin1') }
        : { type: 'application/x-dvi', body: Buffer.from(`% ${note}\n`, 'latin1') };
  const m = /\.(pdf|ps|dvi)(\.(gz|z))?$/.exec(path);
  const doc = inner(m?.[1] ?? 'other');
  const compressed = m?.[3];
  const { type, body } =
    compressed === 'gz'
      ? { type: 'application/gzip', body: gzipSync(doc.body) }
      : compressed === 'z'
        ? { type: 'application/x-compress', body: Buffer.from(`% ${note}\n`, 'latin1') }
        : doc;
  return {
    status: 200,
    headers: [
      ['content-type', type],
      ['x-archive-placeholder', '1'],
    ],
    body,
  };
}

/** A 301 to an archived URL, as a 1997 server sent it for a directory named without its slash. */
function movedTo(url: string): ArchivedResponse {
  return {
    status: 301,
    headers: [
      ['location', url],
      ['content-type', 'text/html'],
    ],
    body: Buffer.from(
      `<HEAD><TITLE>Document moved</TITLE></HEAD>\n<BODY><H1>Document moved</H1>\nThis document has permanently moved <A HREF="${url}">here</A>.<P>\n</BODY>\n`,
      'latin1',
    ),
  };
}

export interface SiteShape {
  /** Archived URLs of the hosts. */
  pages: number;
  /** Distinct in-hosts link targets of archived pages (documents excluded) and how many were not archived. */
  linkedUrls: number;
  holes: number;
  /** Known documents of the hosts (linked, not archived, with a document extension). */
  documents: number;
}

/**
 * The archive under a policy. open() reads every archived HTML page once to learn the known
 * documents and the holes; get() is what the server sends.
 */
export class ArchiveWeb {
  /** Known documents (archiveKey form). */
  private readonly documents = new Set<string>();
  /** Distinct http(s) link targets of archived pages that are neither archived nor documents. */
  private readonly holeTargets = new Set<string>();
  private readonly linkedTargets = new Set<string>();

  private constructor(
    readonly archive: WarcArchive,
    readonly policy: ArchivePolicy,
  ) {}

  /**
   * scan: read every archived HTML page for its links (needed for documents, the closed policy
   * and shape(); on by default when the policy needs it, so a plain replay starts at once).
   */
  static async open(
    archive: WarcArchive,
    policy: Partial<ArchivePolicy> = {},
    opts: { scan?: boolean } = {},
  ): Promise<ArchiveWeb> {
    const w = new ArchiveWeb(archive, { holes: policy.holes ?? 'open', documents: policy.documents ?? [] });
    if (!(opts.scan ?? (w.policy.holes === 'closed' || w.policy.documents.length > 0))) return w;
    for await (const k of linkTargets(archive)) {
      const archived = archive.lookup(k) !== undefined;
      const alias = archived ? null : w.aliasOf(k);
      // an alias and its target are one document: counted once, as the target
      w.linkedTargets.add(alias ?? k);
      if (archived || alias !== null) continue;
      if (w.policy.documents.length && hasExtension(k, w.policy.documents)) w.documents.add(k);
      else w.holeTargets.add(k);
    }
    return w;
  }

  /**
   * The key under which a URL is archived or known as a document, or null. Keys are canonical
   * (lib/url.ts canonicalUrl): percent-escapes in either case, session ids, "#fragments" and
   * user information are one URL to the index, the links and the crawler alike.
   */
  canonical(url: string): string | null {
    const k = archiveKey(url);
    if (k === null) return null;
    return this.archive.lookup(k) || this.documents.has(k) ? k : null;
  }

  /**
   * The archived key a URL that is not archived stands for, as a 1997 web server answered it:
   * a directory named without its trailing slash ("/~rdb/cs372" for "/~rdb/cs372/": the server
   * redirected, and the collection holds 62 such saved redirects) and a directory's index page
   * ("/dir/index.html" and "/dir/" are one document), to a fixed point ("/x" for a collected
   * "/x/index.html", and back; directorySpellings), paths matched case-sensitively as a Unix server
   * matched them ("INDEX.HTML" is not "index.html"). (A URL with a session id is no alias: its key
   * has none, lib/url.ts canonicalUrl.) Null when it stands for none.
   *
   * A saved redirect is never an alias's target (issue #85): "/x" saved as a redirect to "/x/"
   * made the uncollected "/x/" a 301 back to "/x", a loop; a 1997 server would have served the
   * directory page there, which the collection does not hold: a hole.
   */
  aliasOf(url: string): string | null {
    if (this.canonical(url) !== null) return null;
    const k = archiveKey(url);
    if (k === null) return null;
    const u = new URL(k);
    // a URL with a query names no directory (its session ids are gone from the key already)
    if (u.search) return null;
    for (const path of directorySpellings(u.pathname)) {
      u.pathname = path;
      const c = this.canonical(u.href);
      if (c !== null && !this.isSavedRedirect(c)) return c;
    }
    return null;
  }

  /** Whether the archive holds this key as a redirect (a 3xx record: the collection's saved ones). */
  private isSavedRedirect(key: string): boolean {
    const status = this.archive.lookup(key)?.status ?? 0;
    return status >= 300 && status < 400;
  }

  /** Every http(s) URL the archived pages link (archiveKey form, sorted; aliases and holes too): read again, not kept. */
  async linkedUrls(): Promise<string[]> {
    const out = new Set<string>();
    for await (const k of linkTargets(this.archive)) out.add(k);
    return [...out].sort();
  }

  /**
   * The URLs a client visits from `url` by following what get() answers: the URL, then each
   * redirect's Location, until an answer that is no redirect, a hole, `max` steps, or a URL seen
   * before (listed again at the end: a loop).
   */
  async redirectChain(url: string, max = 20): Promise<string[]> {
    let at = archiveKey(url) ?? url;
    const chain = [at];
    for (let i = 0; i < max; i++) {
      const r = await this.get(at);
      const location = r && r.status >= 300 && r.status < 400 ? headerOf(r, 'location') : undefined;
      if (location === undefined) break;
      const next = archiveKey(new URL(location, at).href);
      if (next === null) break;
      chain.push(next);
      if (chain.indexOf(next) < chain.length - 1) break;
      at = next;
    }
    return chain;
  }

  /** Whether the URL is a known document (linked, not archived, with a document extension). */
  isDocument(url: string): boolean {
    const k = this.canonical(url);
    return k !== null && this.documents.has(k);
  }

  /** Known documents, sorted; of one host when given. */
  documentUrls(host?: string): string[] {
    return [...this.documents].filter((k) => !host || new URL(k).host === host).sort();
  }

  /** Whether a fetch of this URL lands on a hole (neither archived, a known document, nor an alias of either). */
  isHole(url: string): boolean {
    return this.canonical(url) === null && this.aliasOf(url) === null;
  }

  /** What links of the hosts' pages lead to: archived pages, documents, holes (distinct targets). */
  shape(hosts: readonly string[]): SiteShape {
    const inHosts = (k: string): boolean => hosts.includes(new URL(k).host);
    let linked = 0;
    let holes = 0;
    for (const k of this.linkedTargets) {
      if (!inHosts(k) || this.documents.has(k)) continue;
      linked++;
      if (this.holeTargets.has(k)) holes++;
    }
    return {
      pages: hosts.reduce((n, h) => n + this.archive.urls(h).length, 0),
      linkedUrls: linked,
      holes,
      documents: this.documentUrls().filter(inHosts).length,
    };
  }

  /** The response served for a URL under the policy; null: a hole (404). */
  async get(url: string): Promise<ArchivedResponse | null> {
    const k = this.canonical(url);
    if (k === null) {
      // an alias: the redirect the server sent (301, as the collection's saved ones)
      const to = this.aliasOf(url);
      return to === null ? null : movedTo(to);
    }
    const r = await this.archive.get(k);
    if (!r) return this.documents.has(k) ? placeholder(k) : null;
    if (this.policy.holes === 'closed' && r.status >= 200 && r.status < 300 && isHtml(r))
      r.body = this.closeHoles(r.body, k);
    return r;
  }

  /** The page with every link to a hole turned into data-archive-hole= (bytes otherwise unchanged). */
  private closeHoles(body: Buffer, url: string): Buffer {
    const html = body.toString('latin1');
    const { base, links } = scanLinks(html, url);
    const cut: number[] = [];
    for (const l of links) {
      const k = linkKey(l.href, base);
      // a link that is not http(s) is no hole: the crawler does not follow it
      if (k !== null && this.isHole(k)) cut.push(l.start, l.end);
    }
    if (!cut.length) return body;
    let out = '';
    let at = 0;
    for (let i = 0; i < cut.length; i += 2) {
      const [s, e] = [cut[i], cut[i + 1]];
      out += html.slice(at, s) + html.slice(s, e + 1).replace(/(\s)href(\s*=)/i, '$1data-archive-hole$2');
      at = e + 1;
    }
    return Buffer.from(out + html.slice(at), 'latin1');
  }
}
