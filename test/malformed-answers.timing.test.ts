/**
 * Answers a server gets wrong in ways that come back the same on every try (issue #68): a body
 * compressed twice ("Content-Encoding: gzip, gzip") is undone coding by coding, and headers past
 * undici's limit are recorded once, not retried. One local server, routing by Host header, as
 * test/hostile.timing.test.ts's does.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlSettings, LogEntry } from '../crawler/index.ts';
import { crawlLocal, html, localServer, type LocalServer } from './local-server.ts';

const page = (b: string): string => `<!DOCTYPE html><html><head><title>t</title></head><body>${b}</body></html>`;

let srv: LocalServer;
beforeAll(async () => {
  srv = await localServer((req, res) => {
    const host = String(req.headers.host ?? '').split(':')[0];
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/') return html(res, '<a href="/twice">twice</a> <a href="/fat">fat</a> <a href="/fine">fine</a>');
    // two codings, applied in the order listed
    if (host === 'codings.test' && path === '/twice')
      return void res
        .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip, gzip' })
        .end(gzipSync(gzipSync(page('<a href="/w">w</a>'))));
    // headers past undici's limit (16 KiB)
    if (path === '/fat')
      return void res.writeHead(200, { 'content-type': 'text/html', 'x-pad': 'a'.repeat(40_000) }).end('x');
    return html(res, 'fine');
  });
});
afterAll(async () => srv.close());

const crawl = async (settings: Partial<CrawlSettings>): Promise<LogEntry[]> =>
  (await crawlLocal(srv.port, settings)).log;

describe('answers wrong the same way every time', () => {
  it('a body compressed twice is undone from the last coding: its links are read', async () => {
    const log = await crawl({ startUrls: ['http://codings.test/'] });
    const paths = log.map((e) => new URL(e.url).pathname).sort();
    expect(paths).toContain('/w');
    expect(log.find((e) => e.url.endsWith('/twice'))?.status).toBe(200);
  });

  it('an answer whose headers overflow is recorded once, not retried: it would come back the same', async () => {
    const log = await crawl({ startUrls: ['http://fat.test/'], retries: 2 });
    const fat = log.find((e) => e.url.endsWith('/fat'))!;
    expect([fat.status, fat.error, fat.attempts]).toEqual([null, 'CRAWL_ERR_NETWORK', 1]);
    expect(log.find((e) => e.url.endsWith('/fine'))?.status).toBe(200);
  });
});
