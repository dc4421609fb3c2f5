import { errors } from 'undici';
import { describe, expect, it } from 'vitest';
import { toCrawlError } from './errors.ts';

describe('toCrawlError', () => {
  it("maps undici's errors for an answer that breaks HTTP to MALFORMED by their class, the rest by code", () => {
    const malformed = [
      new errors.HTTPParserError('Invalid status code'),
      new errors.HeadersOverflowError(),
      new errors.ResponseContentLengthMismatchError(),
      Object.assign(new Error('bad chunk'), { code: 'HPE_INVALID_CHUNK_SIZE' }),
    ];
    for (const e of malformed) expect(toCrawlError(e).code, e.name).toBe('CRAWL_ERR_MALFORMED');
    expect(toCrawlError(new errors.HeadersTimeoutError()).code).toBe('CRAWL_ERR_TIMEOUT');
    expect(toCrawlError(new errors.SocketError('other side closed')).code).toBe('CRAWL_ERR_NETWORK');
    expect(toCrawlError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })).code).toBe('CRAWL_ERR_NETWORK');
  });
});
