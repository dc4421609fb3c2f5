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
 * (sim/archive-web.ts), so both see one page where a site hands out a session per visit.
 */
export const SESSION_PARAMS: readonly string[] = ['sid', 'sessionid', 'jsessionid', 'phpsessid', 'aspsessionid'];

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
