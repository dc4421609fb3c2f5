import { afterEach, describe, expect, it } from 'vitest';
import { BfsStrategy, CrawlEngine } from '../crawler/index.ts';
import { RobotsRules } from '../crawler/robots-cache.ts';
import { html, localServer, type LocalServer } from './local-server.ts';

const rules = (txt: string, agent = 'harness-bot'): RobotsRules =>
  RobotsRules.fromResponse('http://h.test/robots.txt', 200, txt, agent);

describe('robots.txt rules (RFC 9309)', () => {
  it('longest match wins, and allow wins a tie', () => {
    const r = rules('User-agent: *\nDisallow: /a/\nAllow: /a/b/\nDisallow: /t\nAllow: /t\n');
    expect(r.isAllowed('http://h.test/a/x')).toBe(false);
    expect(r.isAllowed('http://h.test/a/b/x')).toBe(true);
    expect(r.isAllowed('http://h.test/t')).toBe(true);
    expect(r.isAllowed('http://h.test/other')).toBe(true);
  });
  it('wildcards and end anchors', () => {
    const r = rules('User-agent: *\nDisallow: /*.jpg$\nDisallow: /*?sid=\n');
    expect(r.isAllowed('http://h.test/img/a.jpg')).toBe(false);
    expect(r.isAllowed('http://h.test/img/a.jpg?x=1')).toBe(true);
    expect(r.isAllowed('http://h.test/p?sid=1')).toBe(false);
  });
  it('a group for our agent takes precedence over *', () => {
    const r = rules('User-agent: *\nDisallow: /\n\nUser-agent: harness-bot\nAllow: /\nDisallow: /private\n');
    expect(r.isAllowed('http://h.test/x')).toBe(true);
    expect(r.isAllowed('http://h.test/private/x')).toBe(false);
    expect(RobotsRules.token('harness-bot/0.1 (+https://x)')).toBe('harness-bot');
  });
  it('4xx allows everything, 5xx and errors disallow everything, Crawl-delay is read', () => {
    expect(RobotsRules.fromResponse('http://h.test/robots.txt', 404, '', 'x').isAllowed('http://h.test/a')).toBe(true);
    expect(RobotsRules.fromResponse('http://h.test/robots.txt', 503, '', 'x').isAllowed('http://h.test/a')).toBe(false);
    expect(RobotsRules.unreachable('x').isAllowed('http://h.test/a')).toBe(false);
    expect(rules('User-agent: *\nCrawl-delay: 2\n').crawlDelaySec()).toBe(2);
    // a delay no crawl can keep is kept, so that the host is skipped (issue #50: it was ignored)
    expect(rules('User-agent: *\nCrawl-delay: Infinity\n').crawlDelaySec()).toBe(Number.POSITIVE_INFINITY);
    expect(rules('User-agent: *\nCrawl-delay: 1e999\n').crawlDelaySec()).toBe(Number.POSITIVE_INFINITY);
    expect(rules('User-agent: *\nCrawl-delay: soon\n').crawlDelaySec()).toBeUndefined();
    expect(rules('User-agent: *\nCrawl-delay: -1\n').crawlDelaySec()).toBeUndefined();
  });
});

describe('robots.txt in a crawl', () => {
  let srv: LocalServer | null = null;
  afterEach(async () => {
    await srv?.close();
    srv = null;
  });

  const crawl = async (
    robots: (res: import('node:http').ServerResponse, path: string) => boolean,
    more: object | ((port: number) => object) = {},
  ) => {
    srv = await localServer((req, res) => {
      const path = req.url ?? '/';
      if (robots(res, path)) return;
      html(res, '<a href="/a.html">a</a> <a href="/private/b.html">b</a> <a href="/c.html">c</a>');
    });
    const extra = typeof more === 'function' ? more(srv.port) : more;
    const engine = CrawlEngine.create({
      settings: {
        startUrls: [`http://site.test:${srv.port}/`],
        resolve: [`site.test:${srv.port}:127.0.0.1`],
        delayMs: 0,
        autoThrottle: false,
        retries: 0,
        retryBaseMs: 1,
        robotsRetries: 1,
        maxPages: 20,
        ...extra,
      },
      strategy: new BfsStrategy(),
    });
    const summary = await engine.run();
    return { summary, paths: srv.log.map((l) => l.path) };
  };

  it('obeys Disallow', async () => {
    const { summary, paths } = await crawl((res, p) => {
      if (p !== '/robots.txt') return false;
      res.end('User-agent: *\nDisallow: /private/\n');
      return true;
    });
    expect(paths).not.toContain('/private/b.html');
    expect(paths).toContain('/c.html');
    expect(summary.robotsBlocked).toBe(1);
  });

  it('4xx: everything allowed', async () => {
    const { paths } = await crawl((res, p) => {
      if (p !== '/robots.txt') return false;
      res.writeHead(404).end();
      return true;
    });
    expect(paths).toContain('/private/b.html');
  });

  it('5xx: nothing fetched after the retries fail', async () => {
    const { summary, paths } = await crawl((res, p) => {
      if (p !== '/robots.txt') return false;
      res.writeHead(503).end();
      return true;
    });
    expect(paths.filter((p) => p !== '/robots.txt')).toEqual([]);
    expect(summary.robotsFetches).toBe(2);
    expect(summary.pages).toBe(0);
  });

  it('5xx then success: the retry lifts the block', async () => {
    let n = 0;
    const { paths } = await crawl((res, p) => {
      if (p !== '/robots.txt') return false;
      if (n++ === 0) res.writeHead(500).end();
      else res.end('User-agent: *\nDisallow: /private/\n');
      return true;
    });
    expect(paths).toContain('/a.html');
    expect(paths).not.toContain('/private/b.html');
  });

  it('follows redirects to the rules', async () => {
    const { paths } = await crawl((res, p) => {
      if (p === '/robots.txt') {
        res.writeHead(301, { location: '/r1' }).end();
        return true;
      }
      if (p === '/r1') {
        res.writeHead(302, { location: '/r2.txt' }).end();
        return true;
      }
      if (p === '/r2.txt') {
        res.end('User-agent: *\nDisallow: /private/\n');
        return true;
      }
      return false;
    });
    expect(paths.slice(0, 3)).toEqual(['/robots.txt', '/r1', '/r2.txt']);
    expect(paths).not.toContain('/private/b.html');
  });

  it("follows a redirect to another host in scope, through that host's gate", async () => {
    const { summary, paths } = await crawl(
      (res, p) => {
        if (p === '/robots.txt') {
          res.writeHead(301, { location: `http://rules.test:${srv!.port}/shared-robots.txt` }).end();
          return true;
        }
        if (p === '/shared-robots.txt') {
          res.end('User-agent: *\nDisallow: /private/\n');
          return true;
        }
        return false;
      },
      (port) => ({ scope: [`site.test:${port}`, `rules.test:${port}`], resolve: ['*.test=127.0.0.1'] }),
    );
    expect(paths.slice(0, 2)).toEqual(['/robots.txt', '/shared-robots.txt']);
    expect(srv!.log[1].host).toMatch(/^rules\.test:/);
    expect(paths).toContain('/a.html');
    expect(paths).not.toContain('/private/b.html');
    expect(summary.robotsBlocked).toBe(1);
  });

  it('fails closed: a redirect out of scope skips the host, a redirect to https it cannot reach allows nothing', async () => {
    const out = await crawl((res, p) => {
      if (p === '/robots.txt') {
        res.writeHead(302, { location: 'http://elsewhere.example/robots.txt' }).end();
        return true;
      }
      return false;
    });
    expect(out.paths).toEqual(['/robots.txt']);
    expect(out.summary.skippedHosts[0].reason).toMatch(
      /robots\.txt redirects out of scope to http:\/\/elsewhere\.example\/robots\.txt/,
    );
    await srv?.close();
    srv = null;
    const tls = await crawl((res, p) => {
      if (p === '/robots.txt') {
        res.writeHead(301, { location: `https://site.test:${srv!.port}/robots.txt` }).end();
        return true;
      }
      return false;
    });
    expect(tls.paths.filter((p) => p !== '/robots.txt')).toEqual([]);
    expect(tls.summary.pages).toBe(0);
    expect(tls.summary.robotsBlocked).toBeGreaterThan(0);
  });

  it('429: disallowed and retried like a 5xx, not read as "4xx, allow all"', async () => {
    const always = await crawl((res, p) => {
      if (p !== '/robots.txt') return false;
      res.writeHead(429).end();
      return true;
    });
    expect(always.paths).toEqual(['/robots.txt', '/robots.txt']);
    expect(always.summary.pages).toBe(0);
    await srv?.close();
    srv = null;
    let n = 0;
    const once = await crawl((res, p) => {
      if (p !== '/robots.txt') return false;
      if (n++ === 0) res.writeHead(429).end();
      else res.end('User-agent: *\nDisallow: /private/\n');
      return true;
    });
    expect(once.paths).toContain('/a.html');
    expect(once.paths).not.toContain('/private/b.html');
  });

  it('a robots.txt cut at the size cap: its partial last line is not a rule', async () => {
    // 512 KiB is read (RFC 9309: at least 500 KiB); the cut falls just after "Disallow: /" of
    // the last line, which read as a rule would disallow everything
    const head = 'User-agent: *\nDisallow: /private/\n';
    const last = 'Disallow: /';
    const pad = `${'#'.repeat(512 * 1024 - head.length - last.length - 1)}\n`;
    const { paths } = await crawl(
      (res, p) => {
        if (p !== '/robots.txt') return false;
        res.end(`${head}${pad}${last}tmp/\n`);
        return true;
      },
      { maxBodyBytes: 1024 },
    );
    expect(paths).toContain('/a.html');
    expect(paths).not.toContain('/private/b.html');
  });

  it('honours Crawl-delay as the minimum gap', async () => {
    const { paths } = await crawl(
      (res, p) => {
        if (p !== '/robots.txt') return false;
        res.end('User-agent: *\nCrawl-delay: 0.3\n');
        return true;
      },
      { maxPages: 4 },
    );
    expect(paths.length).toBe(5);
    const t = srv!.log.map((l) => l.t);
    for (let i = 1; i < t.length; i++) expect(t[i] - t[i - 1]).toBeGreaterThanOrEqual(295);
  });

  it('skips and reports a host whose Crawl-delay exceeds the maximum', async () => {
    const { summary, paths } = await crawl((res, p) => {
      if (p !== '/robots.txt') return false;
      res.end('User-agent: *\nCrawl-delay: 60\n');
      return true;
    });
    expect(paths).toEqual(['/robots.txt']);
    expect(summary.skippedHosts).toHaveLength(1);
    expect(summary.skippedHosts[0].reason).toMatch(/Crawl-delay 60 s exceeds the maximum of 30 s/);
  });

  it('skips a host whose Crawl-delay is Infinity', async () => {
    const { summary, paths } = await crawl((res, p) => {
      if (p !== '/robots.txt') return false;
      res.end('User-agent: *\nCrawl-delay: Infinity\n');
      return true;
    });
    expect(paths).toEqual(['/robots.txt']);
    expect(summary.skippedHosts[0].reason).toMatch(/Crawl-delay Infinity s exceeds the maximum of 30 s/);
  });
});
