import { crawlEndWarnings } from '../lib/crawl-end.ts';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARCParser, WARCRecord, WARCSerializer } from 'warcio';
import { createReadStream } from 'node:fs';
import { BfsStrategy, CrawlEngine, type CrawlSettings, type LogEntry } from '../crawler/index.ts';
import { WarcWriter } from '../crawler/warc-writer.ts';
import { startSyntheticWeb, type StartedWeb } from '../experiments/focused/start-web.ts';
import { ReplayServer } from '../sim/archive-server.ts';
import { WarcArchive } from '../sim/warc-index.ts';
import { convertFolder } from '../sim/warc-convert.ts';
import { readLabels } from '../sim/labels.ts';
import { LOOPBACK_CRAWL } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'warc-'));
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

async function handMadeWarc(file: string, gzip: boolean): Promise<void> {
  const recs = [
    WARCRecord.create(
      {
        url: 'http://old.example/',
        date: '2020-01-01T00:00:00Z',
        type: 'response',
        statusline: 'HTTP/1.1 200 OK',
        httpHeaders: { 'Content-Type': 'text/html; charset=utf-8', 'X-Archived': 'yes' },
      },
      [enc('<html><body><a href="/paper.pdf">paper</a> <a href="/moved">moved</a></body></html>')],
    ),
    WARCRecord.create(
      {
        url: 'http://old.example/moved',
        date: '2020-01-01T00:00:01Z',
        type: 'response',
        statusline: 'HTTP/1.1 301 Moved Permanently',
        httpHeaders: { Location: 'http://old.example/' },
      },
      [],
    ),
    WARCRecord.create(
      {
        url: 'http://old.example/paper.pdf',
        date: '2020-01-01T00:00:02Z',
        type: 'response',
        statusline: 'HTTP/1.1 200 OK',
        httpHeaders: { 'Content-Type': 'application/pdf' },
      },
      [enc('%PDF-1.4\nTitle: T\nAbstract: a\nReferences\n%%EOF\n')],
    ),
    WARCRecord.create(
      {
        url: 'http://old.example/again',
        date: '2020-01-01T00:00:03Z',
        type: 'response',
        statusline: 'HTTP/1.1 200 OK',
        httpHeaders: { 'Content-Type': 'text/plain' },
      },
      [enc('first capture')],
    ),
    WARCRecord.create(
      {
        url: 'http://old.example/again',
        date: '2021-01-01T00:00:00Z',
        type: 'revisit',
        statusline: 'HTTP/1.1 200 OK',
        httpHeaders: { 'Content-Type': 'text/plain', 'X-Revisit': '1' },
        refersToUrl: 'http://old.example/again',
        refersToDate: '2020-01-01T00:00:03Z',
      },
      [],
    ),
  ];
  writeFileSync(file, '');
  for (const r of recs) writeFileSync(file, await WARCSerializer.serialize(r, { gzip }), { flag: 'a' });
}

async function get(
  d: Dispatcher,
  url: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const r = await request(url, { dispatcher: d });
  return { status: r.statusCode, headers: r.headers, body: await r.body.text() };
}

describe('WARC replay', () => {
  it.each([
    ['plain', false],
    ['gzip', true],
  ])('serves archived status, headers and body (%s), revisits, and 404 for the rest', async (_, gzip) => {
    const file = join(dir, `hand.warc${gzip ? '.gz' : ''}`);
    await handMadeWarc(file, gzip as boolean);
    const archive = await WarcArchive.open([file]);
    expect(archive.size).toBe(4);
    const server = await ReplayServer.start(archive);
    const d = server.dispatcher();
    try {
      const home = await get(d, 'http://old.example/');
      expect(home.status).toBe(200);
      expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(home.headers['x-archived']).toBe('yes');
      expect(home.body).toContain('href="/paper.pdf"');
      const moved = await get(d, 'http://old.example/moved');
      expect(moved.status).toBe(301);
      expect(moved.headers.location).toBe('http://old.example/');
      expect((await get(d, 'http://old.example/paper.pdf')).headers['content-type']).toBe('application/pdf');
      const again = await get(d, 'http://old.example/again');
      expect(again.headers['x-revisit']).toBe('1');
      expect(again.body).toBe('first capture');
      expect((await get(d, 'http://old.example/not-archived')).status).toBe(404);
      expect((await get(d, 'http://other.example/')).status).toBe(404);
      expect(server.audit()['old.example'].requests).toBe(5);
    } finally {
      await d.close();
      await server.close();
    }
  });
});

describe('crawl to WARC and back', () => {
  let web: StartedWeb;
  beforeAll(async () => {
    web = await startSyntheticWeb('data/webs/small.json', 1, { faults: false });
  });
  afterAll(async () => web.close());
  const settings: Partial<CrawlSettings> = LOOPBACK_CRAWL;

  it('a crawl written to WARC and replayed gives the same pages', async () => {
    const file = join(dir, 'crawl.warc.gz');
    const first: LogEntry[] = [];
    await CrawlEngine.create({
      settings: {
        ...settings,
        startUrls: ['http://cs.beta-university.test/'],
        resolve: [`*.test=127.0.0.1:${web.port}`],
      },
      strategy: new BfsStrategy(),
      warc: new WarcWriter(file),
      onLog: (e) => first.push(e),
    }).run();
    const archive = await WarcArchive.open([file]);
    // warcinfo, then request + response for robots.txt and each page, then how the crawl ended
    expect(archive.records).toBe(1 + 2 * (200 + 1) + 1);
    // the crawl stopped at its page limit with links left: the archive says so, and sim:fit warns (issue #85)
    const end = archive.crawlEnds[0];
    expect(end).toMatchObject({ pages: 200, maxPages: 200, maxDepth: null });
    expect(end?.frontierLeft).toBeGreaterThan(0);
    expect(crawlEndWarnings([{ file, end: end ?? null }])).toEqual([
      expect.stringMatching(
        /crawl\.warc\.gz: the crawl behind it stopped with \d+ URLs left .* after 200 pages \(max pages 200\)/,
      ),
    ]);
    // a WARC that says nothing of its crawl (another crawler's): said too
    const silent = join(dir, 'silent.warc.gz');
    await new WarcWriter(silent).close();
    const other = await WarcArchive.open([silent]);
    expect(other.crawlEnds).toEqual([null]);
    expect(crawlEndWarnings([{ file: silent, end: null }])[0]).toMatch(/does not say how its crawl ended/);
    // what standard tools rely on: dates, target URIs, digests, request/response pairing
    const seen: string[] = [];
    for await (const rec of new WARCParser(createReadStream(file))) {
      if (rec.warcType === 'response') {
        expect(rec.warcTargetURI).toMatch(/^http:\/\/cs\.beta-university\.test\//);
        expect(rec.warcDate).toMatch(/^\d{4}-\d\d-\d\dT/);
        expect(rec.warcPayloadDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
        seen.push(String(rec.warcHeader('WARC-Record-ID')));
      } else if (rec.warcType === 'request') {
        expect(rec.warcHeader('WARC-Concurrent-To')).toMatch(/^<urn:uuid:/);
      }
      await rec.skipFully();
    }
    expect(seen).toHaveLength(201);
    const replay = await ReplayServer.start(archive);
    try {
      const second: LogEntry[] = [];
      await CrawlEngine.create({
        settings: {
          ...settings,
          startUrls: ['http://cs.beta-university.test/'],
          resolve: [`*.test=127.0.0.1:${replay.port}`],
        },
        strategy: new BfsStrategy(),
        onLog: (e) => second.push(e),
      }).run();
      const view = (l: LogEntry[]): string[] => l.map((e) => `${e.status} ${e.bytes} ${e.type} ${e.url}`);
      expect(view(second)).toEqual(view(first));
      expect(replay.audit()['cs.beta-university.test'].disallowed).toBe(0);
    } finally {
      await replay.close();
    }
  });

  it('a WARC written by a crawler that keeps session ids (wget) reads as the web the crawl met (issue #84)', async () => {
    // gamma hands out ?sid= links; this crawler strips them, wget does not (stripParams: [] here)
    const host = 'cs.gamma-university.test';
    const base = { ...settings, startUrls: [`http://${host}/`], scope: [host] };
    const files = { own: join(dir, 'own.warc.gz'), wget: join(dir, 'wget.warc.gz') };
    const live: string[] = [];
    await CrawlEngine.create({
      settings: { ...base, resolve: [`*.test=127.0.0.1:${web.port}`], maxPages: 300 },
      strategy: new BfsStrategy(),
      warc: new WarcWriter(files.own),
      onLog: (e) => live.push(e.url),
    }).run();
    const wgetUrls: string[] = [];
    await CrawlEngine.create({
      settings: { ...base, resolve: [`*.test=127.0.0.1:${web.port}`], maxPages: 600, stripParams: [] },
      strategy: new BfsStrategy(),
      warc: new WarcWriter(files.wget),
      onLog: (e) => wgetUrls.push(e.url),
    }).run();
    expect(wgetUrls.filter((u) => /[?&]sid=/.test(u)).length).toBeGreaterThan(300);
    const own = await WarcArchive.open([files.own]);
    const wget = await WarcArchive.open([files.wget]);
    // one canonicaliser (lib/url.ts): the 600 captures are 358 pages, every page of the own crawl among them
    expect(wget.urls().filter((u) => u.includes('sid='))).toEqual([]);
    expect(wget.size).toBeLessThan(400);
    expect(own.urls().filter((u) => wget.lookup(u) === undefined)).toEqual([]);
    // replayed, both archives give the crawl the same pages, statuses and bytes, in the order the live crawl met them
    const replayed: string[][] = [];
    for (const archive of [own, wget]) {
      const server = await ReplayServer.start(archive);
      const log: string[] = [];
      try {
        await CrawlEngine.create({
          settings: { ...base, resolve: [`*.test=127.0.0.1:${server.port}`], maxPages: 300 },
          strategy: new BfsStrategy(),
          onLog: (e) => log.push(`${e.status} ${e.bytes} ${e.url}`),
        }).run();
      } finally {
        await server.close();
      }
      replayed.push(log);
    }
    expect(replayed[1]).toEqual(replayed[0]);
    expect(replayed[1].map((l) => l.split(' ')[2])).toEqual(live);
  });
});

describe('saved pages to WARC', () => {
  it('converts a folder with a manifest and header blocks into a WARC and a labels CSV', async () => {
    const src = join(dir, 'saved');
    mkdirSync(join(src, 'pages'), { recursive: true });
    writeFileSync(
      join(src, 'pages', 'a.html'),
      'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=iso-8859-1\r\nServer: old\r\n\r\n<html><body>caf\u00e9 <a href="b.html">b</a></body></html>',
      'latin1',
    );
    writeFileSync(join(src, 'pages', 'b.html'), '<html><body>no header block</body></html>');
    writeFileSync(join(src, 'pages', 'gone.html'), 'HTTP/1.0 404 Not Found\nContent-Type: text/html\n\ngone');
    writeFileSync(join(src, 'pages', 'stray.html'), 'not in the manifest');
    writeFileSync(
      join(src, 'manifest.csv'),
      'file,url,label,course\npages/a.html,http://dept.example/a.html,faculty,cs1\n' +
        'pages/b.html,http://dept.example/b.html,student,\npages/gone.html,http://dept.example/gone.html,,\n',
    );
    const warc = join(dir, 'saved.warc.gz');
    const labelsFile = join(dir, 'saved-labels.csv');
    const r = await convertFolder(src, warc, labelsFile);
    expect(r.records).toBe(3);
    expect(r.labelled).toBe(2);
    expect(r.skipped).toEqual([{ file: join('pages', 'stray.html'), reason: 'not in manifest.csv' }]);
    expect(readFileSync(labelsFile, 'utf8')).toBe(
      'url,label,course\nhttp://dept.example/a.html,faculty,cs1\nhttp://dept.example/b.html,student,\n',
    );
    expect(readLabels(labelsFile).get('http://dept.example/a.html')).toBe('faculty');
    const server = await ReplayServer.start(await WarcArchive.open([warc]));
    const d = server.dispatcher();
    try {
      const a = await request('http://dept.example/a.html', { dispatcher: d });
      expect(a.headers['content-type']).toBe('text/html; charset=iso-8859-1');
      expect(a.headers.server).toBe('old');
      expect(Buffer.from(await a.body.arrayBuffer()).includes(Buffer.from('caf\u00e9', 'latin1'))).toBe(true);
      const b = await request('http://dept.example/b.html', { dispatcher: d });
      expect(b.headers['content-type']).toBe('text/html');
      await b.body.text();
      const g = await request('http://dept.example/gone.html', { dispatcher: d });
      expect(g.statusCode).toBe(404);
      expect(await g.body.text()).toBe('gone');
    } finally {
      await d.close();
      await server.close();
    }
  });

  it('takes URLs from WebKB-style file names and labels from directories', async () => {
    const src = join(dir, 'webkb');
    mkdirSync(join(src, 'course'), { recursive: true });
    mkdirSync(join(src, 'faculty'), { recursive: true });
    writeFileSync(join(src, 'course', 'http:^^www.cs.example.edu^cs101^'), '<html>course</html>');
    writeFileSync(join(src, 'faculty', 'http:^^www.cs.example.edu^~smith^index.html'), '<html>smith</html>');
    const r = await convertFolder(src, join(dir, 'webkb.warc'), join(dir, 'webkb.csv'), { labelFrom: 'dir' });
    expect(r.records).toBe(2);
    expect(readFileSync(join(dir, 'webkb.csv'), 'utf8')).toBe(
      'url,label\nhttp://www.cs.example.edu/cs101/,course\nhttp://www.cs.example.edu/~smith/index.html,faculty\n',
    );
    expect((await WarcArchive.open([join(dir, 'webkb.warc')])).urls()).toEqual([
      'http://www.cs.example.edu/cs101/',
      'http://www.cs.example.edu/~smith/index.html',
    ]);
  });
});
