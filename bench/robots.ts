/**
 * npm run bench:robots : the time of one URL check against a hostile robots.txt ("Allow: /" and
 * 500,000 "*" then "z", issue #38) and against an ordinary one, for a 4,000-character path: the
 * harness's RFC 9309 matcher (lib/robots-rules.ts) beside robots-parser (which the crawler used
 * before), runs alternated; then a crawl of a normal host alone and beside a host with that file.
 */
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { BfsStrategy, CrawlEngine } from '../crawler/index.ts';
import { parseRobots } from '../lib/robots-rules.ts';
import { type CliIo, parseCommand, runAsProcess } from '../lib/cli.ts';

const USAGE = `Usage: npm run bench:robots\n`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {});
  if (!p) return 0;

  const robotsParser = createRequire(import.meta.url)('robots-parser') as (
    url: string,
    text: string,
  ) => { isAllowed(url: string, ua?: string): boolean | undefined };

  const FILES = {
    hostile: `User-agent: *\nDisallow: /\nAllow: /${'*'.repeat(500_000)}z\n`,
    ordinary: `User-agent: *\nDisallow: /admin/\nDisallow: /*.php$\nAllow: /admin/public/\nDisallow: /tmp\n`,
  };
  const url = `http://h.test/${'a'.repeat(4000)}y`;
  const ms = (f: () => void, n: number): number => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f();
    return (performance.now() - t0) / n;
  };
  for (const [name, text] of Object.entries(FILES)) {
    const ours = parseRobots('http://h.test/robots.txt', text);
    const theirs = robotsParser('http://h.test/robots.txt', text);
    const rows: string[] = [];
    for (let round = 0; round < 3; round++) {
      const a = ms(() => ours.isAllowed(url, 'bench'), name === 'hostile' ? 200 : 20_000);
      const b = ms(() => theirs.isAllowed(url, 'bench'), name === 'hostile' ? 1 : 20_000);
      rows.push(`lib/robots-rules.ts ${a.toFixed(4)} ms, robots-parser ${b.toFixed(4)} ms`);
    }
    io.out(`${name} robots.txt, one check of a 4,000-character path:\n  ${rows.join('\n  ')}\n`);
  }

  /**
   * A crawl of a normal host alone, and beside a host whose robots.txt is the hostile file above:
   * the normal host's pages/s (issue #38: one robots.txt used to stall the whole crawl). Runs alternated.
   */

  const PAGES = 2000;
  const server = createServer((req, res) => {
    const host = String(req.headers.host ?? '').split(':')[0];
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      if (host === 'wild.test') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(FILES.hostile);
      return void res.writeHead(404).end();
    }
    const n = Number(/\d+/.exec(path)?.[0] ?? 0);
    // every page links to the next ten, with long paths so that the wildcard has something to chew
    const pad = 'p'.repeat(host === 'wild.test' ? 4000 : 10);
    const links = Array.from({ length: 10 }, (_, i) => `<a href="/${pad}/${n * 10 + i + 1}">x</a>`).join('');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  async function normalPagesPerSec(beside: boolean): Promise<number> {
    let first = 0;
    let last = 0;
    let normal = 0;
    await CrawlEngine.create({
      settings: {
        startUrls: ['http://normal.test/', ...(beside ? ['http://wild.test/'] : [])],
        scope: ['normal.test', 'wild.test'],
        resolve: [`*.test=127.0.0.1:${port}`],
        maxPages: beside ? 2 * PAGES : PAGES,
        maxPagesPerHost: PAGES,
        delayMs: 0,
        autoThrottle: false,
        concurrency: 16,
        perHostConcurrency: 8,
      },
      strategy: new BfsStrategy(),
      onLog: (e) => {
        if (!e.url.startsWith('http://normal.test/')) return;
        const now = performance.now();
        if (!normal++) first = now;
        last = now;
      },
    }).run();
    return normal / ((last - first) / 1000);
  }
  const rows: string[] = [];
  for (let round = 0; round < 3; round++) {
    const alone = await normalPagesPerSec(false);
    const beside = await normalPagesPerSec(true);
    rows.push(
      `alone ${alone.toFixed(0)} pages/s, beside the hostile host ${beside.toFixed(0)} pages/s (${((beside / alone) * 100).toFixed(0)}%)`,
    );
  }
  io.out(`crawl of a normal host, ${PAGES} pages:\n  ${rows.join('\n  ')}\n`);
  server.close();
  return 0;
}

await runAsProcess(main, import.meta);
