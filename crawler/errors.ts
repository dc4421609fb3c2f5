/**
 * Every error the crawler raises or records, with a stable code (like undici's and fastify's)
 * and the underlying cause. Codes are what logs and summaries count by; they are rows of the
 * harness's one table of errors (lib/errors.ts), which says what each means.
 */
import { CrawlError } from '../lib/errors.ts';

export { CrawlError, type CrawlErrorCode } from '../lib/errors.ts';

/**
 * undici's errors for an answer that breaks HTTP: its parser's (HTTPParserError, which carries no
 * HPE_ code for most of them: undici looks the code up the wrong way round), headers past its
 * limit, a body longer or shorter than its Content-Length. The same bytes come back on a retry.
 */
const MALFORMED_NAMES = new Set(['HTTPParserError', 'HeadersOverflowError', 'ResponseContentLengthMismatchError']);
function isMalformed(err: { code?: string; name?: string }): boolean {
  return MALFORMED_NAMES.has(err.name ?? '') || (err.code ?? '').startsWith('HPE_');
}

/**
 * Maps any thrown value to a CrawlError: network errors from undici/node become NETWORK or
 * TIMEOUT, an answer that breaks HTTP MALFORMED.
 */
export function toCrawlError(e: unknown): CrawlError {
  if (e instanceof CrawlError) return e;
  const err = e as { code?: string; message?: string; name?: string };
  const code = err?.code ?? '';
  if (err && isMalformed(err))
    return new CrawlError('CRAWL_ERR_MALFORMED', `${code || err.name}: ${err.message ?? String(e)}`, { cause: e });
  if (/TIMEOUT|ETIMEDOUT/.test(code) || err?.name === 'TimeoutError')
    return new CrawlError('CRAWL_ERR_TIMEOUT', err.message ?? 'timeout', { cause: e });
  return new CrawlError('CRAWL_ERR_NETWORK', `${code ? `${code}: ` : ''}${err?.message ?? String(e)}`, { cause: e });
}
