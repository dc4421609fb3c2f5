/** URL basics both sides use. */

/**
 * The host (with port, lowercase) of an absolute http(s) URL, by string search: the frontier and
 * the engine call it per link, where `new URL()` would cost more than the rest of the step.
 */
export function hostOf(url: string): string {
  const i = url.indexOf('//') + 2;
  let j = i;
  while (j < url.length && url[j] !== '/' && url[j] !== '?' && url[j] !== '#') j++;
  return url.slice(i, j).toLowerCase();
}

/**
 * The text of an absolute URL before its path: scheme, user information, host and port (null
 * without a "://" or a path). It holds the whole authority, so its origin is the URL's; callers
 * key memories by it to parse a URL once per origin rather than once per URL.
 */
export function headOf(url: string): string | null {
  const i = url.indexOf('://');
  const j = i < 0 ? -1 : url.indexOf('/', i + 3);
  return j < 0 ? null : url.slice(0, j);
}

/**
 * Query parameters that carry a session id: the same page under every value. The crawler strips
 * them by default (crawler/settings.ts stripParams) and an archive's URL identity does the same
 * (canonicalUrl), so both see one page where a site hands out a session per visit.
 */
export const SESSION_PARAMS: readonly string[] = ['sid', 'sessionid', 'jsessionid', 'phpsessid', 'aspsessionid'];

/**
 * What canonicalUrl strips by default: session ids and the common tracking parameters (a trailing
 * "*" matches a prefix). The crawler's default stripParams, and the only rule an archive's index,
 * its links and its labels are read under.
 */
export const DEFAULT_STRIP_PARAMS: readonly string[] = [...SESSION_PARAMS, 'utm_*', 'fbclid', 'gclid'];

const matcherCache = new WeakMap<readonly string[], (name: string) => boolean>();
function paramMatcher(list: readonly string[]): (name: string) => boolean {
  let m = matcherCache.get(list);
  if (!m) {
    const exact = new Set(list.filter((p) => !p.endsWith('*')).map((p) => p.toLowerCase()));
    const prefixes = list.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1).toLowerCase());
    m = (name: string): boolean => {
      const n = name.toLowerCase();
      return exact.has(n) || prefixes.some((p) => n.startsWith(p));
    };
    matcherCache.set(list, m);
  }
  return m;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The one URL canonicaliser (issue #84): the crawler's URL identity (crawler/url.ts), an
 * archive's index and lookups (sim/warc-index.ts archiveKey), the links an archive's pages carry
 * (sim/archive-web.ts) and its labels (sim/labels.ts), so that a page is one page to all of them.
 * The WHATWG URL parser (lowercase scheme and host, default port dropped, dot segments resolved)
 * and what crawlers add: fragment and user information removed, ";jsessionid=" path parameters
 * and `stripParams` query parameters removed, percent-escapes as RFC 3986 6.2.2 normalises them,
 * an empty query dropped. Null when the URL is not http(s) or cannot be parsed.
 */
export function canonicalUrl(
  raw: string,
  base?: string | URL,
  stripParams: readonly string[] = DEFAULT_STRIP_PARAMS,
): string | null {
  let u: URL;
  try {
    u = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (raw.includes('#')) u.hash = ''; // the setter re-serialises the URL: only when there is one
  if (u.username || u.password) {
    u.username = '';
    u.password = '';
  }
  let path = u.pathname;
  if (path.includes(';')) path = path.replace(/;(jsessionid|phpsessid|sid)=[^/?]*/gi, '');
  // escaped unreserved characters decoded, other escapes upper-cased (RFC 3986 6.2.2)
  if (path.includes('%')) path = normalizePercent(path);
  if (path !== u.pathname) u.pathname = path;
  if (u.search.includes('%')) {
    const q = normalizePercent(u.search);
    if (q !== u.search) u.search = q;
  }
  if (u.search) {
    const strip = paramMatcher(stripParams);
    const parts = u.search.slice(1).split('&');
    const kept = parts.filter((p) => p !== '' && !strip(decodeSafe(p.split('=')[0])));
    if (kept.length !== parts.length) u.search = kept.length ? `?${kept.join('&')}` : '';
  }
  let s = u.href;
  if (s.endsWith('?')) s = s.slice(0, -1);
  return s;
}

/** Whether a byte is an RFC 3986 unreserved character: ALPHA, DIGIT, "-", ".", "_", "~". */
const unreserved = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x30 && c <= 0x39) ||
  c === 0x2d ||
  c === 0x2e ||
  c === 0x5f ||
  c === 0x7e;

/**
 * Percent-escapes as RFC 3986 6.2.2 normalises them: an escaped unreserved character decoded
 * ("/%7Euser" is "/~user", "/%61bc" is "/abc": 6.2.2.2), every other escape upper-cased ("%2f" is
 * "%2F": 6.2.2.1). The crawler's URL identity and an archive's lookups both use it, so a page
 * written two ways is one page to both.
 */
export function normalizePercent(s: string): string {
  if (!s.includes('%')) return s;
  return s.replace(/%([0-9a-f]{2})/gi, (m: string, h: string) => {
    const c = Number.parseInt(h, 16);
    return unreserved(c) ? String.fromCharCode(c) : m.toUpperCase();
  });
}
