/**
 * The crawler against hostile servers: one local server that routes by Host header and plays a
 * different adversary per host (a body that drips, a giant <base href>, a 503 storm, addresses
 * no crawler should reach), and the crawl CLI where the outcome is a process's (SIGINT during a
 * drip, every seed unreachable). Each case names the issue #17 item it holds the crawler to;
 * docs/crawler.md's "Hostile servers" table lists them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BfsStrategy, CrawlEngine, type CrawlSettings, DEFAULT_SETTINGS, type LogEntry } from '../crawler/index.ts';
import { addressAllowed, classifyAddress, type AddressClass } from '../crawler/net.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { crawlLocal, html, localServer, type LocalServer } from './local-server.ts';
import { scaled } from './speed.ts';
import { program } from './helpers.ts';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'hostile-'));
const CLI = program('experiments/cli/crawl.ts');

/** Writes one byte every `everyMs` until the client goes away. */
function drip(res: ServerResponse, type: string, everyMs = 100): void {
  res.writeHead(200, { 'content-type': type });
  res.write(type.startsWith('text/html') ? '<html><body>' : 'User-agent: *\n');
  const t = setInterval(() => res.write('.'), everyMs);
  res.on('close', () => clearInterval(t));
}

const BIG_BASE = `/${'b'.repeat(100_000)}/`;
const MEGA_BASE = `/${'m'.repeat(1_000_000)}/`;

let srv: LocalServer;
let storm = 0;
beforeAll(async () => {
  srv = await localServer((req, res) => {
    const host = String(req.headers.host ?? '').split(':')[0];
    const path = req.url ?? '/';
    if (host === 'drip-robots.test') return path === '/robots.txt' ? drip(res, 'text/plain') : html(res, 'never');
    if (host === 'gzip.test') {
      // issue #38 item 5: robots.txt and pages compressed though the crawler never asked
      const send = (type: string, coding: 'gzip' | 'deflate', body: Buffer): void =>
        void res.writeHead(200, { 'content-type': type, 'content-encoding': coding }).end(body);
      const page = (b: string): string => `<!DOCTYPE html><html><head><title>t</title></head><body>${b}</body></html>`;
      if (path === '/robots.txt') return send('text/plain', 'gzip', gzipSync('User-agent: *\nDisallow: /blocked\n'));
      if (path === '/')
        return send(
          'text/html',
          'gzip',
          gzipSync(
            page('<a href="/blocked">b</a> <a href="/ok">ok</a> <a href="/raw">raw</a> <a href="/bomb">bomb</a>'),
          ),
        );
      if (path === '/raw') return send('text/html', 'deflate', deflateRawSync(page('<a href="/z">z</a>')));
      // 64 MB of spaces in about 64 KB: cut at the body cap, not held whole
      if (path === '/bomb') return send('text/html', 'gzip', gzipSync(Buffer.alloc(64 * 2 ** 20, 32)));
      return html(res, 'ok');
    }
    if (path === '/robots.txt' && host !== 'origins.test') return void res.writeHead(404).end();
    if (host === 'drip.test') {
      if (path === '/') return html(res, '<a href="/slow">slow</a> <a href="/fine">fine</a>');
      if (path === '/slow') return drip(res, 'text/html; charset=utf-8');
      return html(res, 'fine');
    }
    if (host === 'base.test') {
      // case 2 of issue #17: a 100 KB <base> path and 6,000 relative links (209 KB); a 1 MB <base>;
      // a link of 100 KB
      const links = Array.from({ length: 6000 }, (_, i) => `<a href="p${i}.html">${i}</a>`).join('');
      if (path === '/')
        return html(
          res,
          `<base href="${BIG_BASE}">${links}<a href="/mega">mega</a> <a href="/${'l'.repeat(100_000)}">long</a>`,
        );
      if (path === '/mega') return html(res, `<base href="${MEGA_BASE}"><a href="x.html">x</a>`);
      return html(res, 'leaf');
    }
    if (host === 'origins.test') {
      // issue #38 item 4: http://origins.test/robots.txt disallows /blocked; https is another origin
      if (path === '/robots.txt')
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /blocked\n');
      if (path === '/')
        return html(
          res,
          '<a href="/blocked">b</a> <a href="https://origins.test/blocked">tls</a> <a href="/ok">ok</a>',
        );
      return html(res, 'ok');
    }
    if (host === 'schemes.test') {
      // issue #38 item 9: links and redirects to schemes no HTTP crawler fetches
      const to = { '/r-file': 'file:///etc/passwd', '/r-data': 'data:text/html,hi', '/r-ftp': 'ftp://x.test/a' };
      const loc = to[path as keyof typeof to];
      if (loc) return void res.writeHead(302, { location: loc }).end();
      if (path === '/')
        return html(
          res,
          '<a href="file:///etc/passwd">f</a> <a href="data:text/html,x">d</a> <a href="javascript:alert(1)">j</a> ' +
            '<a href="ftp://ftp.x.test/pub/">ftp</a> <a href="mailto:a@x.test">m</a> <a href="/ok">ok</a> ' +
            '<a href="/r-file">1</a> <a href="/r-data">2</a> <a href="/r-ftp">3</a>',
        );
      return html(res, 'ok');
    }
    if (host === 'interim.test') {
      // issue #38 item 10: interim responses nobody asked for, and a Location in raw UTF-8
      if (path === '/') {
        res.writeContinue();
        return html(res, '<a href="/next">next</a>');
      }
      if (path === '/next') {
        res.writeContinue();
        res.writeProcessing();
        // the two bytes of "é" in UTF-8, written as they are (Node writes header strings as Latin-1)
        return void res.writeHead(302, { location: '/caf\u00c3\u00a9' }).end();
      }
      return html(res, decodeURIComponent(path));
    }
    if (host === 'links.test') {
      // issue #38 item 2: an 8,028-character <base> (under the URL limit) and 10,000 relative links on every page
      // the base differs from page to page, so every page's 10,000 URLs are new
      let tag = 0;
      for (let i = 0; i < path.length; i++) tag = (Math.imul(tag, 31) + path.charCodeAt(i)) >>> 0;
      const base = `/${tag.toString(36)}${'d'.repeat(8000)}/`;
      const links = Array.from({ length: 10_000 }, (_, i) => `<a href="p${i}.html">${i}</a>`).join('');
      return html(res, `<base href="${base}">${links}`);
    }
    if (host === 'storm.test') {
      storm++;
      return void res.writeHead(503).end();
    }
    html(res, 'ok');
  });
});
afterAll(async () => srv.close());

const crawl = (settings: Partial<CrawlSettings>, outDir?: string) => crawlLocal(srv.port, settings, outDir);

const pathsOf = (log: LogEntry[]): string[] => log.map((e) => new URL(e.url).pathname);

describe('a body that drips (item 1)', () => {
  it('is cut at the total deadline, logged CRAWL_ERR_DEADLINE and not retried; the crawl goes on', async () => {
    const t0 = performance.now();
    const { summary, log } = await crawl({
      startUrls: ['http://drip.test/'],
      maxResponseMs: 800,
      bodyTimeoutMs: 5000,
      retries: 2,
    });
    expect(performance.now() - t0).toBeLessThan(scaled(5000));
    const slow = log.find((e) => e.url.endsWith('/slow'))!;
    expect([slow.status, slow.error, slow.attempts]).toEqual([null, 'CRAWL_ERR_DEADLINE', 1]);
    expect(pathsOf(log).sort()).toEqual(['/', '/fine', '/slow']);
    expect(summary.errors.CRAWL_ERR_DEADLINE).toBe(1);
  });

  it('a dripping robots.txt is cut once and disallows the host (fail closed), without three deadlines', async () => {
    const t0 = performance.now();
    const { summary, log } = await crawl({
      startUrls: ['http://drip-robots.test/'],
      maxResponseMs: 800,
      robotsRetries: 2,
    });
    expect(performance.now() - t0).toBeLessThan(2500);
    expect([log.length, summary.robotsFetches, summary.robotsBlocked]).toEqual([0, 1, 1]);
  });

  it('SIGINT during a drip ends the CLI within the deadline, with the summary written', async () => {
    const out = tmp();
    const child = spawn(
      process.execPath,
      [
        ...CLI,
        '--start',
        'http://drip.test/slow',
        '--resolve',
        `*.test=127.0.0.1:${srv.port}`,
        '--max-response-ms',
        '3000',
        '--timeout-ms',
        '20000',
        '--delay-ms',
        '0',
        '--quiet',
        '--out',
        out,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    // SIGINT once the dripping response is on the wire (the CLI takes a while to start under load)
    const before = srv.log.length;
    for (let i = 0; i < 200 && !srv.log.slice(before).some((l) => l.path === '/slow'); i++)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(performance.now() - t0).toBeLessThan(3500);
    expect(stderr).toMatch(/stopping/);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { errors: Record<string, number> };
    expect(summary.errors.CRAWL_ERR_DEADLINE).toBe(1);
    // the only seed was cut: the crawl says so and fails
    expect(code).toBe(1);
    expect(stderr).toMatch(/no seed could be fetched: http:\/\/drip\.test\/slow: CRAWL_ERR_DEADLINE/);
  });
});

describe('bounded everything (item 2)', () => {
  it('the page of a 100 KB <base> and 6,000 links, a 1 MB <base> and a 100 KB link: no crash, counted, resumable', async () => {
    const out = tmp();
    const rss0 = process.memoryUsage().rss;
    const { summary, log } = await crawl(
      { startUrls: ['http://base.test/'], maxPages: 40, concurrency: 8, perHostConcurrency: 8 },
      out,
    );
    expect(process.memoryUsage().rss - rss0).toBeLessThan(300 * 1024 * 1024);
    expect(summary.pages).toBe(40);
    // the bases are past the URL limit, so ignored: the links resolve against the page
    expect(log.filter((e) => /\/p\d+\.html$/.test(e.url)).length).toBeGreaterThan(30);
    expect(log.every((e) => e.url.length < 100)).toBe(true);
    expect(summary.urlTooLong).toBe(1);
    const journal = readFileSync(join(out, 'frontier.log'), 'utf8');
    expect(journal.split('\n').length).toBeGreaterThan(6000);
    // --resume reads it back and continues
    const again = CrawlEngine.create({
      settings: { maxPages: 60 },
      strategy: new BfsStrategy(),
      outDir: out,
      resume: true,
    });
    const s2 = await again.run();
    expect(s2.pages).toBe(60);
    expect(s2.urlTooLong).toBe(1);
  });

  it('pages of an 8 KB <base> and 10,000 links each: a budget of URL characters per page keeps memory bounded (issue #38)', {
    timeout: scaled(60_000),
  }, async () => {
    const out = tmp();
    const rss0 = process.memoryUsage().rss;
    const { summary } = await crawl(
      { startUrls: ['http://links.test/'], maxPages: 200, concurrency: 8, perHostConcurrency: 8 },
      out,
    );
    expect(summary.pages).toBe(200);
    // 10,000 links of about 8 KB each are 80 MB of URLs a page; 1 MiB of them is about 128 links
    const kept = Math.floor(DEFAULT_SETTINGS.maxLinkBytesPerPage / 8048);
    expect(summary.linksCapped).toBeGreaterThanOrEqual(200 * (10_000 - kept - 1));
    expect(statSync(join(out, 'frontier.log')).size).toBeLessThan(200 * DEFAULT_SETTINGS.maxLinkBytesPerPage * 1.1);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(1024 ** 3);
  });

  it('keeps maxLinksPerPage links of a page, in page order, and counts the rest', async () => {
    const { summary, log } = await crawl({
      startUrls: ['http://base.test/'],
      maxPages: 200,
      maxLinksPerPage: 100,
      concurrency: 8,
      perHostConcurrency: 8,
    });
    expect(summary.linksCapped).toBe(6002 - 100);
    expect(log.slice(1).every((e) => /\/p\d+\.html$/.test(e.url) && Number(/p(\d+)/.exec(e.url)![1]) < 100)).toBe(true);
  });

  it('reads robots.txt and pages sent gzip- or deflate-encoded unasked, and cuts a compression bomb at the cap (issue #38)', async () => {
    const { summary, log } = await crawl({ startUrls: ['http://gzip.test/'], maxPages: 20 });
    expect(log.map((e) => new URL(e.url).pathname).sort()).toEqual(['/', '/bomb', '/ok', '/raw', '/z']);
    expect(summary.robotsBlocked).toBe(1);
    const bomb = log.find((e) => e.url.endsWith('/bomb'))!;
    expect(bomb.status).toBe(200);
    expect(bomb.truncated).toBe(true);
    expect(bomb.bytes).toBeLessThanOrEqual(DEFAULT_SETTINGS.maxBodyBytes);
  });

  it('skips 100 and 102 interim responses it did not ask for, and reads a raw UTF-8 Location as UTF-8 (issue #38)', async () => {
    const { summary, log } = await crawl({ startUrls: ['http://interim.test/'], maxPages: 10, retries: 0 });
    expect(log.map((e) => [e.status, e.url])).toEqual([
      [200, 'http://interim.test/'],
      [302, 'http://interim.test/next'],
      [200, 'http://interim.test/caf%C3%A9'],
    ]);
    expect(summary.errors).toEqual({});
  });

  it('robots.txt applies to its origin: https://h/ is not ruled by http://h/robots.txt, and fails closed here (issue #38)', async () => {
    const { summary, log } = await crawl({
      startUrls: ['http://origins.test/'],
      scope: ['origins.test'],
      maxPages: 20,
      robotsRetries: 0,
    });
    // the https origin's robots.txt cannot be read (this server speaks no TLS): nothing there is allowed
    expect(log.map((e) => e.url).sort()).toEqual(['http://origins.test/', 'http://origins.test/ok']);
    expect(summary.robotsBlocked).toBe(2);
  });

  it('refuses links and redirects to file:, data:, javascript:, ftp: and mailto:, and counts each (issue #38)', async () => {
    const { summary, log } = await crawl({ startUrls: ['http://schemes.test/'], maxPages: 20 });
    // five links of other schemes on the page, three redirects to them
    expect(summary.outOfScope.scheme).toBe(8);
    expect(pathsOf(log).sort()).toEqual(['/', '/ok', '/r-data', '/r-file', '/r-ftp']);
    expect(log.every((e) => e.url.startsWith('http://schemes.test/'))).toBe(true);
  });

  it('refuses a seed longer than the URL limit with a code', async () => {
    const { summary, log } = await crawl({ startUrls: [`http://base.test/${'s'.repeat(10_000)}`] });
    expect(log).toEqual([]);
    expect(summary.seedFailures[0]).toMatch(/CRAWL_ERR_URL_TOO_LONG \(10017 > 8192 characters\)/);
  });
});

describe('the address policy (item 4)', () => {
  const REFUSED: [string, string][] = [
    ['::ffff:0:0', 'unspecified'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a9fe:a9fe::', 'metadata'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'metadata'],
    ['::a9fe:a9fe', 'metadata'],
    ['64:ff9b::7f00:1', 'private'],
    ['2002:0a00:0001::1', 'private'],
    ['fec0::1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    // issue #38: the IANA special-purpose ranges, and the IPv4-translated form of link-local metadata
    ['::ffff:0:169.254.169.254', 'metadata'],
    ['::ffff:0:a9fe:a9fe', 'metadata'],
    ['192.0.0.192', 'reserved'],
    ['192.0.0.170', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['100::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:10::1', 'reserved'],
  ];
  it('classifies the IPv6 forms that embed refused IPv4 addresses, site-local, multicast and broadcast', () => {
    for (const [ip, c] of REFUSED) expect(classifyAddress(ip), ip).toBe(c);
    for (const [ip, c] of [
      ['127.0.0.1', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['93.184.216.34', 'public'],
      ['2606:2800:220:1::', 'public'],
    ]) {
      expect(classifyAddress(ip), ip).toBe(c);
    }
  });

  it("with --scope '*' no connection is attempted to any of them, and each is counted", async () => {
    const hrefs = REFUSED.map(([ip]) => `http://${ip.includes(':') ? `[${ip}]` : ip}:${srv.port}/x`);
    const page = await localServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      html(res, hrefs.map((h) => `<a href="${h}">x</a>`).join(' '));
    });
    try {
      const before = srv.log.length;
      const { summary, log } = await crawl({
        startUrls: [`http://127.0.0.1:${page.port}/`],
        scope: ['*'],
        maxPages: 30,
      });
      expect(log.map((e) => e.url)).toEqual([`http://127.0.0.1:${page.port}/`]);
      expect(summary.outOfScope.address).toBe(REFUSED.length);
      expect(srv.log.length).toBe(before);
      // --allow-private lifts private, link-local and metadata, never these
      for (const [ip, c] of REFUSED)
        if (['unspecified', 'multicast', 'broadcast', 'reserved'].includes(c))
          expect(addressAllowed(c as AddressClass, true), ip).toBe(false);
    } finally {
      await page.close();
    }
  });

  it('a hostname that resolves to one is refused at connect time: logged with its code, counted under its own key', async () => {
    const { summary, log } = await crawl({
      startUrls: ['http://evil.test/'],
      resolve: ['evil.test=[64:ff9b::a9fe:a9fe]'],
      retries: 1,
      robotsRetries: 1,
    });
    expect(log.map((e) => e.error)).toEqual(['CRAWL_ERR_ADDRESS_REFUSED']);
    expect([summary.addressRefused, summary.robotsBlocked, summary.robotsFetches]).toEqual([1, 0, 1]);
  });

  it('so is a name mapped with --resolve to an IANA special-purpose address (issue #38)', async () => {
    for (const to of ['192.0.0.170', '192.0.2.1', '[2001:db8::1]', '[::ffff:0:169.254.169.254]']) {
      const { summary, log } = await crawl({
        startUrls: ['http://doc.test/'],
        resolve: [`doc.test=${to}`],
        retries: 1,
      });
      expect(
        log.map((e) => e.error),
        to,
      ).toEqual(['CRAWL_ERR_ADDRESS_REFUSED']);
      expect(summary.addressRefused, to).toBe(1);
    }
  });
});

describe('honest outcomes (item 5)', () => {
  it('a crawl whose every seed is unreachable exits 1 with the reason, its errors counted', async () => {
    const out = tmp();
    // in this process (test/cli-inprocess.ts): the exit code is the CLI's own, the crawl ends by itself
    const err = await runCliInProcess('experiments/cli/crawl.ts', [
      '--start',
      'http://a.test/',
      '--start',
      'http://b.test/',
      '--resolve',
      '*.test=127.0.0.1:1',
      '--retries',
      '0',
      '--retry-base-ms',
      '20',
      '--delay-ms',
      '0',
      '--quiet',
      '--out',
      out,
    ]);
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(
      new RegExp(
        String.raw`^error: no seed could be fetched: http://a\.test/: robots\.txt gave no rules ` +
          String.raw`\(CRAWL_ERR_NETWORK: ECONNREFUSED.*\), so nothing is allowed; http://b\.test/: `,
        'm',
      ),
    );
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      seedsFetched: number;
      robotsBlocked: number;
      robotsErrors: Record<string, number>;
    };
    expect([summary.seedsFetched, summary.robotsBlocked]).toEqual([0, 2]);
    expect(summary.robotsErrors).toEqual({ CRAWL_ERR_NETWORK: 6 }); // 2 hosts x (1 + 2 retries)
  });
});

describe('a 503 storm without Retry-After (item 6)', () => {
  it('backs the whole host off exponentially, instead of one request per gap', async () => {
    storm = 0;
    const t0 = performance.now();
    const seeds = Array.from({ length: 8 }, (_, i) => `http://storm.test/${i}`);
    const { summary } = await crawl({
      startUrls: seeds,
      delayMs: 50,
      retries: 0,
      retryBaseMs: 50,
      hostBackoffMaxMs: 400,
      concurrency: 4,
      perHostConcurrency: 4,
    });
    const gaps = srv.log
      .filter((l) => l.host.startsWith('storm.test') && l.path !== '/robots.txt')
      .map((l) => l.t)
      .map((t, i, a) => (i ? t - a[i - 1] : 0))
      .slice(1);
    expect(storm).toBe(8);
    // holds of 50, 100, 200, 400, 400 ... ms after each 503 in a row (a busy machine adds a little)
    const holds = [50, 100, 200, 400, 400, 400, 400];
    expect(gaps.length).toBe(holds.length);
    gaps.forEach((g, i) => {
      expect(g, `gap ${i}`).toBeGreaterThanOrEqual(holds[i] - 2);
      expect(g, `gap ${i}`).toBeLessThan(holds[i] + 90);
    });
    expect(summary.hostBackoffs).toBe(8);
    // a plain 50 ms gap would have sent the 8 requests in 0.35 s
    expect(performance.now() - t0).toBeGreaterThan(1750);
  });
});
