/**
 * Answers a server gets wrong in ways that come back the same on every try (issue #68): a body
 * compressed twice ("Content-Encoding: gzip, gzip") is undone coding by coding, and headers past
 * undici's limit are recorded once, not retried; pages of 200,000 nested tags are read (their
 * links followed) and a SIGTERM among them stops the crawl. One local server, routing by Host
 * header, as test/hostile.timing.test.ts's does.
 */
import { scaled } from './speed.ts';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlSettings, LogEntry } from '../crawler/index.ts';
import { niced, programArgs } from './helpers.ts';
import { crawlLocal, html, localServer, type LocalServer } from './local-server.ts';

/** 200,000 nested elements (1.2 MB, under the 2 MiB body cap) with a link at the bottom. */
const DEEP = '<div>'.repeat(200_000);

const page = (b: string): string => `<!DOCTYPE html><html><head><title>t</title></head><body>${b}</body></html>`;

let srv: LocalServer;
beforeAll(async () => {
  srv = await localServer((req, res) => {
    const host = String(req.headers.host ?? '').split(':')[0];
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(404).end();
    // a page whose bytes are not the UTF-8 it declares, and one of a charset nobody knows
    if (host === 'bytes.test' && path === '/')
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(Buffer.concat([Buffer.from(page('<a href="/x">x</a> ')), Buffer.from([0xc3, 0x28])]));
    if (host === 'bytes.test' && path === '/x')
      return void res.writeHead(200, { 'content-type': 'text/html; charset=x-unheard-of' }).end(page('x'));
    // a chain of deep pages: /deep/N links to /deep/N+1 under 200,000 open elements
    if (host === 'deep.test') return html(res, `${DEEP}<a href="/deep/${Number(path.split('/').pop()) + 1}">on</a>`);
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
    expect([fat.status, fat.error, fat.attempts]).toEqual([null, 'CRAWL_ERR_MALFORMED', 1]);
    expect(log.find((e) => e.url.endsWith('/fine'))?.status).toBe(200);
  });

  it('bodies that cannot be decoded as declared are read as well as can be, and counted', async () => {
    const { log, summary } = await crawlLocal(srv.port, { startUrls: ['http://bytes.test/'] });
    expect(log.map((e) => [new URL(e.url).pathname, e.status])).toEqual([
      ['/', 200],
      ['/x', 200],
    ]);
    expect(summary.undecodable).toBe(2);
  });

  it('a page of 200,000 nested tags is read: the page logged, its link followed, the flattening counted', async () => {
    const { log, summary } = await crawlLocal(srv.port, { startUrls: ['http://deep.test/deep/0'], maxPages: 2 });
    expect(log.map((e) => [new URL(e.url).pathname, e.status])).toEqual([
      ['/deep/0', 200],
      ['/deep/1', 200],
    ]);
    expect(summary.truncated).toBeGreaterThanOrEqual(2);
  });

  it('SIGTERM among deep pages stops the crawl, recorded in summary.json', { timeout: scaled(60_000) }, async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'deep-')), 'crawl');
    const p = niced(
      spawn(
        process.execPath,
        programArgs([
          'experiments/cli/crawl.ts',
          '--start',
          'http://deep.test/deep/0',
          '--resolve',
          `*.test=127.0.0.1:${srv.port}`,
          '--delay-ms',
          '0',
          '--max-pages',
          '100000',
          '--quiet',
          '--out',
          out,
        ]),
        { stdio: 'ignore' },
      ),
    );
    const ended = new Promise<number | null>((r) => p.on('exit', r));
    const log = join(out, 'crawl.jsonl');
    while (!existsSync(log) || statSync(log).size === 0) await new Promise((r) => setTimeout(r, 20));
    p.kill('SIGTERM');
    expect(await ended).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.stopped).toBe('SIGTERM');
    expect(summary.pages).toBeLessThan(100_000);
  });
});
