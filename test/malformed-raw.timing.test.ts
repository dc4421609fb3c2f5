/**
 * Answers that break HTTP, written byte by byte on a raw socket (issue #84): each is recorded
 * once as CRAWL_ERR_MALFORMED and not retried (the same bytes would come back), and a status
 * outside 100-599 is malformed too, not a server error to retry. Before, undici's parser errors
 * carried no HPE_ code and every one was tried three times.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlLocal } from './local-server.ts';

/** The raw bytes each path is answered with. */
const ANSWERS: Record<string, string> = {
  '/bad-chunk':
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  '/two-lengths': 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello',
  '/length-and-chunked':
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
  '/folded': 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Long: a\r\n  folded\r\nContent-Length: 5\r\n\r\nhello',
  '/bare-lf': 'HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: 5\n\nhello',
  '/no-content-with-body': 'HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello',
  '/status-099': 'HTTP/1.1 099 Odd\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello',
  '/http-09': '<html>no status line at all</html>',
  '/status-999': 'HTTP/1.1 999 Unknown\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello',
  '/status-600': 'HTTP/1.1 600 Unknown\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello',
};

/** Pages of refresh.test: a meta refresh, a Refresh header, and where they lead. */
const ok = (body: string, extra = ''): string =>
  `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n${extra}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
const REFRESH: Record<string, string> = {
  '/': ok('<html><body><a href="/meta">m</a> <a href="/header">h</a></body></html>'),
  '/meta': ok('<html><head><meta http-equiv="Refresh" content="9; URL=/after-meta"></head><body>moved</body></html>'),
  '/header': ok('<html><body>moved</body></html>', 'Refresh: 0; url=/after-header\r\n'),
  '/after-meta': ok('<html><body>here</body></html>'),
  '/after-header': ok('<html><body>here</body></html>'),
};

const asked = new Map<string, number>();
let server: Server;
let port = 0;

function answer(sock: Socket): void {
  let head = '';
  sock.on('data', (b: Buffer) => {
    head += b.toString('latin1');
    if (!head.includes('\r\n\r\n')) return;
    const path = head.split(' ')[1] ?? '/';
    const refreshHost = /\r\nhost: refresh\.test/i.test(head);
    head = '';
    if (refreshHost)
      return void sock.end(REFRESH[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    asked.set(path, (asked.get(path) ?? 0) + 1);
    if (path === '/robots.txt')
      return void sock.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    const raw = ANSWERS[path];
    if (raw) return void sock.end(raw);
    const links = Object.keys(ANSWERS)
      .map((p) => `<a href="${p}">${p}</a>`)
      .join(' ');
    const body = `<!DOCTYPE html><html><head><title>t</title></head><body>${links}</body></html>`;
    sock.end(
      `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  sock.on('error', () => {});
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => new Promise<void>((r) => server.close(() => r())));

describe('answers that break HTTP, on a raw socket', () => {
  it('each is recorded once as CRAWL_ERR_MALFORMED, not retried', async () => {
    const { log, summary } = await crawlLocal(port, { startUrls: ['http://raw.test/'], retries: 2 });
    const by = Object.fromEntries(log.map((e) => [new URL(e.url).pathname, e]));
    for (const path of Object.keys(ANSWERS)) {
      expect([path, by[path]?.status, by[path]?.error, by[path]?.attempts]).toEqual([
        path,
        null,
        'CRAWL_ERR_MALFORMED',
        1,
      ]);
      expect([path, asked.get(path)]).toEqual([path, 1]);
    }
    expect(summary.errors.CRAWL_ERR_MALFORMED).toBe(Object.keys(ANSWERS).length);
  });

  it('a page past the tag budget: what was read kept, its later links counted and logged linksCut', async () => {
    // the start page holds 10 links (20 tags after html, head, title and body): 12 tags read 4 of them
    const { log, summary } = await crawlLocal(port, { startUrls: ['http://cut.test/'], maxParseTags: 12 });
    expect(summary.linksCut).toBe(1);
    expect(log[0]).toMatchObject({ url: 'http://cut.test/', status: 200, linksCut: true });
    expect(log.length).toBeLessThan(1 + Object.keys(ANSWERS).length);
  });

  it('a meta refresh and a Refresh header are links of their page, counted; followRefresh false leaves them', async () => {
    const paths = (l: { url: string }[]): string[] => l.map((e) => new URL(e.url).pathname).sort();
    const on = await crawlLocal(port, { startUrls: ['http://refresh.test/'] });
    expect(paths(on.log)).toEqual(['/', '/after-header', '/after-meta', '/header', '/meta']);
    expect(on.summary.refreshLinks).toBe(2);
    const off = await crawlLocal(port, { startUrls: ['http://refresh.test/'], followRefresh: false });
    expect(paths(off.log)).toEqual(['/', '/header', '/meta']);
    expect(off.summary.refreshLinks).toBe(0);
  });
});
