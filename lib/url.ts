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
