/**
 * Every error the crawler raises or records, with a stable code (like undici's and fastify's)
 * and the underlying cause. Codes are what logs and summaries count by.
 */
export type CrawlErrorCode =
  | 'CRAWL_ERR_SETTINGS'
  | 'CRAWL_ERR_URL'
  | 'CRAWL_ERR_OUT_OF_SCOPE'
  | 'CRAWL_ERR_ADDRESS_REFUSED'
  | 'CRAWL_ERR_ROBOTS'
  | 'CRAWL_ERR_TIMEOUT'
  | 'CRAWL_ERR_DEADLINE'
  | 'CRAWL_ERR_URL_TOO_LONG'
  | 'CRAWL_ERR_NETWORK'
  | 'CRAWL_ERR_HTTP'
  | 'CRAWL_ERR_TOO_LARGE'
  | 'CRAWL_ERR_REDIRECT_LOOP'
  | 'CRAWL_ERR_TOO_MANY_REDIRECTS'
  | 'CRAWL_ERR_RESUME'
  /** The crawl stopped before the request was sent: not a result, the URL stays queued for --resume. */
  | 'CRAWL_ERR_STOPPED';

export class CrawlError extends Error {
  readonly code: CrawlErrorCode;
  constructor(code: CrawlErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CrawlError';
    this.code = code;
  }
}

/** Maps any thrown value to a CrawlError (network errors from undici/node become NETWORK or TIMEOUT). */
export function toCrawlError(e: unknown): CrawlError {
  if (e instanceof CrawlError) return e;
  const err = e as { code?: string; message?: string; name?: string };
  const code = err?.code ?? '';
  if (/TIMEOUT|ETIMEDOUT/.test(code) || err?.name === 'TimeoutError')
    return new CrawlError('CRAWL_ERR_TIMEOUT', err.message ?? 'timeout', { cause: e });
  return new CrawlError('CRAWL_ERR_NETWORK', `${code ? `${code}: ` : ''}${err?.message ?? String(e)}`, { cause: e });
}
