import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { Fetcher } from './fetcher.ts';

const opts = { userAgent: 't', headersTimeoutMs: 1000, bodyTimeoutMs: 1000, maxResponseMs: 2000, maxBodyBytes: 1000 };

describe('Fetcher without a server', () => {
  it('a dispatcher that throws settles the request with a network error, at once', async () => {
    const throwing = {
      dispatch: () => {
        throw new Error('no dispatch');
      },
    } as unknown as Dispatcher;
    await expect(new Fetcher(throwing, opts).fetch('http://a.test/')).rejects.toMatchObject({
      code: 'CRAWL_ERR_NETWORK',
      message: expect.stringContaining('no dispatch'),
    });
  });

  it('a URL that is not http(s) is refused before any dispatch', async () => {
    let dispatched = 0;
    const counting = { dispatch: () => dispatched++ } as unknown as Dispatcher;
    await expect(new Fetcher(counting, opts).fetch('ftp://a.test/x')).rejects.toMatchObject({
      code: 'CRAWL_ERR_NETWORK',
    });
    expect(dispatched).toBe(0);
  });
});
