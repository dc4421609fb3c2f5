import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BfsStrategy, CrawlEngine, type CrawlSettings, type LogEntry } from '../crawler/index.ts';
import { resolveConfig } from '../sim/config.ts';
import { html, localServer } from './local-server.ts';
import { startWeb } from './helpers.ts';

async function crawl(
  settings: Partial<CrawlSettings>,
): Promise<{ summary: Awaited<ReturnType<CrawlEngine['run']>>; log: LogEntry[] }> {
  const log: LogEntry[] = [];
  const engine = CrawlEngine.create({
    settings: { delayMs: 0, autoThrottle: false, retryBaseMs: 5, ...settings },
    strategy: new BfsStrategy(),
    onLog: (e) => log.push(e),
  });
  const summary = await engine.run();
  return { summary, log };
}

describe('faults on a local server', () => {
  it('timeouts, slow bodies, connection resets, 5xx with retries, 429 with Retry-After, malformed and oversized pages', async () => {
    let flaky = 0;
    let limited = 0;
    const srv = await localServer((req, res) => {
      switch (req.url) {
        case '/robots.txt':
          res.writeHead(404).end();
          return;
        case '/':
          return html(
            res,
            ['/hang', '/slow-body', '/reset', '/flaky', '/always500', '/limited', '/malformed', '/big']
              .map((p) => `<a href="${p}">${p}</a>`)
              .join(' '),
          );
        case '/hang':
          return; // never answers
        case '/slow-body':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.write('<html><body>');
          return; // body never ends
        case '/reset':
          req.socket.destroy();
          return;
        case '/flaky':
          if (flaky++ < 1) {
            res.writeHead(502).end();
            return;
          }
          return html(res, 'ok now');
        case '/always500':
          res.writeHead(500).end();
          return;
        case '/limited':
          if (limited++ < 1) {
            res.writeHead(429, { 'retry-after': '1' }).end();
            return;
          }
          return html(res, 'fine');
        case '/malformed':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<HTML><BODY><P>unclosed <A HREF=/from-malformed>x</A><div><span><a href="/from-malformed2">');
          return;
        case '/big':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(`<a href="/from-big">x</a>${'y'.repeat(300_000)}`);
          return;
        default:
          return html(res, 'leaf');
      }
    });
    try {
      const t0 = performance.now();
      const { summary, log } = await crawl({
        startUrls: [`http://f.test:${srv.port}/`],
        resolve: [`f.test:${srv.port}:127.0.0.1`],
        maxPages: 50,
        retries: 1,
        headersTimeoutMs: 300,
        bodyTimeoutMs: 300,
        maxBodyBytes: 100_000,
        concurrency: 4,
        perHostConcurrency: 4,
      });
      const by = Object.fromEntries(log.map((e) => [new URL(e.url).pathname, e]));
      expect(by['/hang'].error).toBe('CRAWL_ERR_TIMEOUT');
      expect(by['/slow-body'].error).toBe('CRAWL_ERR_TIMEOUT');
      expect(by['/reset'].error).toBe('CRAWL_ERR_NETWORK');
      expect(by['/flaky'].status).toBe(200);
      expect(by['/flaky'].attempts).toBe(2);
      expect(by['/always500'].status).toBe(500);
      expect(by['/always500'].attempts).toBe(2);
      expect(by['/limited'].status).toBe(200);
      expect(by['/big'].truncated).toBe(true);
      expect(by['/from-big']).toBeDefined(); // links of a truncated page are still followed
      expect(by['/from-malformed']).toBeDefined();
      expect(by['/from-malformed2']).toBeDefined();
      expect(summary.errors.CRAWL_ERR_TIMEOUT).toBe(2);
      expect(summary.errors.CRAWL_ERR_NETWORK).toBe(1);
      expect(summary.errors.HTTP_500).toBe(1);
      expect(summary.truncated).toBe(1);
      expect(performance.now() - t0).toBeGreaterThan(1000); // waited for Retry-After
    } finally {
      await srv.close();
    }
  });
});

describe('faults of the synthetic web', () => {
  let env: Awaited<ReturnType<typeof startWeb>>;
  beforeAll(async () => {
    env = await startWeb(
      resolveConfig({
        name: 'faulty',
        departments: [{ host: 'cs.trap.test', name: 'Trap', pages: 500, groups: 2, sessionIds: true }],
        background: { sites: 0 },
        faults: {
          transientErrorRate: 0.01,
          slowRate: 0.02,
          slowMs: 50,
          malformedRate: 0.1,
          oversizedRate: 0.01,
          oversizedBytes: 300_000,
        },
      }),
      2,
    );
  });
  afterAll(async () => env.close());

  it('finishes despite traps, session ids, redirect loops, 5xx, slow and oversized pages, and counts each', async () => {
    const { summary, log } = await crawl({
      startUrls: ['http://cs.trap.test/'],
      resolve: [`*.test=127.0.0.1:${env.server.port}`],
      maxPages: 5000,
      maxDepth: 12,
      concurrency: 4,
      perHostConcurrency: 2,
      delayMs: 0,
      retries: 2,
      maxBodyBytes: 100_000,
    });
    const urls = log.map((e) => e.url);
    expect(summary.pages).toBeLessThan(5000); // finished: the trap is cut by the depth limit
    expect(summary.depthLimited).toBeGreaterThan(0);
    expect(summary.frontierLeft).toBe(0);
    expect(urls.some((u) => u.includes('/events/calendar/'))).toBe(true);
    expect(urls.every((u) => !u.includes('sid='))).toBe(true); // session ids normalised away
    expect(new Set(urls).size).toBe(urls.length);
    expect(summary.redirectLoops).toBe(1);
    expect(summary.truncated).toBeGreaterThan(0);
    expect(summary.statuses['404']).toBeGreaterThan(0);
    const audit = env.server.audit()['cs.trap.test'];
    expect(audit.sent5xx).toBeGreaterThan(0);
    expect(audit.maxConcurrent).toBeLessThanOrEqual(2);
    expect(audit.disallowed).toBe(0);
    // every page the crawler logged as fetched came back 2xx, 3xx or 404, not a fault
    expect(log.filter((e) => e.status !== null && (e.status === 429 || e.status >= 500))).toEqual([]);
  });
});

describe('scope guard', () => {
  it('never fetches private, link-local or metadata addresses, other hosts or other ports', async () => {
    const hits: string[] = [];
    const other = await localServer((req, res) => {
      hits.push(String(req.url));
      html(res, 'other');
    });
    const srv = await localServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/') {
        return html(
          res,
          [
            'http://10.0.0.1/x',
            'http://169.254.169.254/latest/meta-data/',
            'http://192.168.1.1/',
            'http://[fe80::1]/',
            'http://0.0.0.0/',
            'http://elsewhere.example/',
            `http://s.test:${other.port}/other-port`,
            'http://s.test.evil.example/',
            '/ok.html',
            'mailto:a@b.test',
          ]
            .map((u) => `<a href="${u}">x</a>`)
            .join(' '),
        );
      }
      html(res, 'fine');
    });
    try {
      const { summary, log } = await crawl({
        startUrls: [`http://s.test:${srv.port}/`],
        resolve: [`*.test=127.0.0.1`, `*.example=127.0.0.1:${other.port}`],
        maxPages: 50,
      });
      expect(log.map((e) => new URL(e.url).pathname).sort()).toEqual(['/', '/ok.html']);
      expect(hits).toEqual([]);
      expect(summary.outOfScope.address).toBe(5);
      expect(summary.outOfScope.host).toBe(2);
      expect(summary.outOfScope.port).toBe(1);
      // even when put in scope, private and metadata addresses are refused at connect time:
      // logged with their code, counted under their own key, never robots-blocked
      const { log: log2, summary: s2 } = await crawl({
        startUrls: [`http://meta.test:${srv.port}/`],
        scope: [`*.test:${srv.port}`],
        resolve: ['meta.test=169.254.169.254'],
        maxPages: 5,
        retries: 0,
        robotsRetries: 0,
      });
      expect(log2.map((e) => [e.status, e.error])).toEqual([[null, 'CRAWL_ERR_ADDRESS_REFUSED']]);
      expect([s2.addressRefused, s2.robotsBlocked, s2.seedsFetched, s2.errors.CRAWL_ERR_ADDRESS_REFUSED]).toEqual([
        1, 0, 0, 1,
      ]);
      const { log: log3 } = await crawl({
        startUrls: ['http://10.0.0.1/'],
        scope: ['10.0.0.1'],
        maxPages: 5,
        retries: 0,
        robotsRetries: 0,
      });
      expect(log3.map((e) => e.error)).toEqual(['CRAWL_ERR_ADDRESS_REFUSED']);
      expect(hits).toEqual([]);
    } finally {
      await srv.close();
      await other.close();
    }
  });
});
