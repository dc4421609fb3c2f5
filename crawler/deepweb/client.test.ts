/**
 * The form client's promise: failures are results, never thrown; closing it while a request waits
 * (here, robots.txt's retry back-off after a 503) is one of them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient } from './client.ts';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(req.url === '/robots.txt' ? 503 : 200, { 'content-type': 'text/html' }).end('<p>x</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('FormClient', () => {
  it('closed while robots.txt waits to be retried, its requests end as CRAWL_ERR_STOPPED results', async () => {
    const client = new FormClient({
      settings: {
        startUrls: [`http://a.test:${port}/`],
        resolve: [`*.test=127.0.0.1:${port}`],
        delayMs: 0,
        autoThrottle: false,
        retryBaseMs: 60_000,
      },
    });
    const out = [1, 2].map((k) => client.fetch({ method: 'GET', url: `http://a.test:${port}/p${k}` }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.close();
    // before the polite client was shared, the robots.txt back-off's stop was thrown out of fetch()
    expect((await Promise.all(out)).map((o) => [o.status, o.error])).toEqual([
      [null, 'CRAWL_ERR_STOPPED'],
      [null, 'CRAWL_ERR_STOPPED'],
    ]);
    expect(client.requests).toBe(0);
  });
});
