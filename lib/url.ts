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
