/**
 * npm run bench:journal : a crawl directory whose frontier.log is over 1 GB (135,000 queued URLs of
 * 8 KB, as a crawl with --max-url-length 1048576 can leave behind; issue #38), resumed: the time and
 * resident memory to read it back and crawl on. BENCH_JOURNAL_MB changes the size.
 */
import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BfsStrategy, CrawlEngine } from '../crawler/index.ts';
import { type CliIo, parseCommand, runAsProcess } from '../lib/cli.ts';

const USAGE = `Usage: npm run bench:journal   (BENCH_JOURNAL_MB=N, default 1100)\n`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {});
  if (!p) return 0;

  const MB = Number(process.env.BENCH_JOURNAL_MB ?? 1100);
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>leaf</body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'bench-journal-'));
  const settings = {
    startUrls: ['http://j.test/'],
    resolve: [`*.test=127.0.0.1:${port}`],
    delayMs: 0,
    autoThrottle: false,
    maxUrlLength: 1024 * 1024,
  };
  await CrawlEngine.create({ settings: { ...settings, maxPages: 1 }, strategy: new BfsStrategy(), outDir: dir }).run();
  // queued URLs from the seed (parent -1), 8 KB each, appended in 64 MiB writes
  const pad = 'q'.repeat(8000);
  const perWrite = 8000;
  let i = 0;
  while (statSync(join(dir, 'frontier.log')).size < MB * 2 ** 20) {
    const lines: string[] = [];
    for (let k = 0; k < perWrite; k++, i++) lines.push(`${i + 10}\t0\t1\t0\t-1\thttp://j.test/${pad}/${i}`);
    appendFileSync(join(dir, 'frontier.log'), `${lines.join('\n')}\n`);
  }
  const size = statSync(join(dir, 'frontier.log')).size;
  const t0 = performance.now();
  const summary = await CrawlEngine.create({
    settings: { maxPages: 101 },
    strategy: new BfsStrategy(),
    outDir: dir,
    resume: true,
  }).run();
  const ms = performance.now() - t0;
  io.out(
    `frontier.log ${(size / 2 ** 30).toFixed(2)} GB (${i} queued URLs of 8 KB): resumed and ` +
      `crawled to ${summary.pages} pages in ${(ms / 1000).toFixed(1)} ` +
      `s, ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB resident\n`,
  );
  server.close();
  rmSync(dir, { recursive: true, force: true });
  return 0;
}

await runAsProcess(main, import.meta);
