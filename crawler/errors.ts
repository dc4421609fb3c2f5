/**
 * Every error the crawler raises or records, with a stable code (like undici's and fastify's)
 * and the underlying cause. Codes are what logs and summaries count by; they are rows of the
 * harness's one table of errors (lib/errors.ts), which says what each means.
 */
import { CrawlError } from '../lib/errors.ts';

export { CrawlError, type CrawlErrorCode } from '../lib/errors.ts';

/** Maps any thrown value to a CrawlError (network errors from undici/node become NETWORK or TIMEOUT). */
export function toCrawlError(e: unknown): CrawlError {
  if (e instanceof CrawlError) return e;
  const err = e as { code?: string; message?: string; name?: string };
  const code = err?.code ?? '';
  if (/TIMEOUT|ETIMEDOUT/.test(code) || err?.name === 'TimeoutError')
    return new CrawlError('CRAWL_ERR_TIMEOUT', err.message ?? 'timeout', { cause: e });
  return new CrawlError('CRAWL_ERR_NETWORK', `${code ? `${code}: ` : ''}${err?.message ?? String(e)}`, { cause: e });
}
