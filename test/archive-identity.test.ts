/**
 * Archive URL identity as a 1997 crawler saw it (issue #51 item 1): a directory linked without
 * its trailing slash and a directory's index.html are the archived page (served as the 301 the
 * server sent), not holes; a saved redirect ("WWW Alert: Redirection response...", 78 files of
 * WebKB, verbatim shape below) is converted to a 301 record with its Location and replayed as one,
 * not as a 200 page with headers in its body.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_DEFAULTS, loadExperiment } from '../experiments/focused/config.ts';
import { archiveEnv } from '../experiments/focused/env.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { ArchiveWeb } from '../sim/archive-web.ts';
import { WarcArchive } from '../sim/warc-index.ts';
import { convertFolder, splitHeaderBlock } from '../sim/warc-convert.ts';

const dir = mkdtempSync(join(tmpdir(), 'identity-'));
const src = join(dir, 'webkb');
const HOST = 'www.cs.alpha.edu';

/** A saved redirect as WebKB holds it (staff/cornell/http^^www.tc.cornell.edu^~bruce, host changed). */
const SAVED = (to: string): string =>
  `WWW Alert:  Redirection response from server is not handled by this client\nDate: Wed, ` +
  `19 Feb 1997 16:49:26 GMT\nServer: NCSA/1.5\nLocation: ${to}\nContent-type: ` +
  `text/html\n\n<HEAD><TITLE>Document moved</TITLE></HEAD>\n<BODY><H1>Document ` +
  `moved</H1>\nThis document has permanently moved <!WA0><A HREF="${to}">here</A>.<P>\n</BODY>\n`;

function save(label: string, url: string, text: string): void {
  mkdirSync(join(src, label, 'alpha'), { recursive: true });
  writeFileSync(join(src, label, 'alpha', url.replace(/:/g, '\uF03A').replace(/\//g, '^')), text);
}
const page = (html: string): string =>
  `MIME-Version: 1.0\nDate: Sunday, 01-Dec-96 20:22:13 GMT\nContent-Type: text/html\n\n<html><body>${html}</body></html>`;

let web: ArchiveWeb;
beforeAll(async () => {
  save(
    'department',
    `http://${HOST}/`,
    page(
      '<a href="/~rdb/cs372">a course, no slash</a> <a href="/dept/index.html">dept index</a> <a href="/lab">lab</a> <a href="/gone">gone</a>' +
        ' <a href="/papers/foo.ps">foo</a> <a href="/papers/foo.ps.Z">foo, compressed</a> <a href="/papers/bar.pdf">bar</a>',
    ),
  );
  save('course', `http://${HOST}/~rdb/cs372/`, page('CS 372'));
  save('other', `http://${HOST}/dept/`, page('the department'));
  save('project', `http://${HOST}/lab/index.html`, page('the lab'));
  save('staff', `http://${HOST}/~bruce`, SAVED(`http://${HOST}/~bruce/`));
  const r = await convertFolder(src, join(dir, 'a.warc.gz'), join(dir, 'a.csv'), { labelFrom: 'dir' });
  expect(r.redirects).toBe(1);
  web = await ArchiveWeb.open(await WarcArchive.open([join(dir, 'a.warc.gz')]), { holes: 'closed' }, { scan: true });
});

describe('archive URL identity', () => {
  it('reads a saved redirect: status 301, its Location, the moved page as body', () => {
    const b = splitHeaderBlock(Buffer.from(SAVED('http://h.edu/x/'), 'latin1'));
    expect(b?.status).toBe(301);
    expect(b?.headers).toContainEqual(['Location', 'http://h.edu/x/']);
    expect(b?.body.toString()).toMatch(/^<HEAD><TITLE>Document moved/);
    // without a Location it is no header block
    expect(splitHeaderBlock(Buffer.from('WWW Alert:  Redirection response\n\nbody'))).toBeNull();
  });

  it('a header line with no field name is dropped, and the block keeps its good lines', () => {
    // as a WebKB course page holds it: the whole block once went, and the page was served as octet-stream
    const b = splitHeaderBlock(
      Buffer.from('Date: Mon, 02 Dec 1996 15:04:25 GMT\n: text/html\nContent-Type: text/html\n\n<html>a</html>'),
    );
    expect(b?.headers).toEqual([
      ['Date', 'Mon, 02 Dec 1996 15:04:25 GMT'],
      ['Content-Type', 'text/html'],
    ]);
    expect(b?.body.toString()).toBe('<html>a</html>');
    // a body that merely starts with "word: " is still no header block
    expect(splitHeaderBlock(Buffer.from('Note: this page moved\nsee below\n\n<p>x</p>'))).toBeNull();
  });

  it('replays a saved redirect as a 301, not a 200 page with headers in its body', async () => {
    const r = await web.get(`http://${HOST}/~bruce`);
    expect(r?.status).toBe(301);
    expect(r?.headers).toContainEqual(['location', `http://${HOST}/~bruce/`]);
    expect(r?.body.toString()).not.toMatch(/WWW Alert|Server: NCSA/);
  });

  it('a directory without its slash and an index page are the archived page: a 301 to it, not a hole', async () => {
    for (const [asked, archived] of [
      [`http://${HOST}/~rdb/cs372`, `http://${HOST}/~rdb/cs372/`],
      [`http://${HOST}/dept/index.html`, `http://${HOST}/dept/`],
      [`http://${HOST}/dept/index.htm`, `http://${HOST}/dept/`],
      [`http://${HOST}/lab`, `http://${HOST}/lab/index.html`],
      [`http://${HOST}/lab/`, `http://${HOST}/lab/index.html`],
    ] as const) {
      if (archived === null) continue;
      expect(web.isHole(asked), asked).toBe(false);
      expect(web.aliasOf(asked), asked).toBe(archived);
      const r = await web.get(asked);
      expect(r?.status, asked).toBe(301);
      expect(r?.headers.find(([k]) => k === 'location')?.[1]).toBe(archived);
    }
    // aliases to a fixed point: "/lab" -> "/lab/" -> "/lab/index.html" (issue #66; it was a hole)
    expect(web.isHole(`http://${HOST}/lab`)).toBe(false);
    expect(web.isHole(`http://${HOST}/gone`)).toBe(true);
    // case-sensitive, as a 1997 Unix server: "INDEX.HTML" is not the index page
    expect(web.aliasOf(`http://${HOST}/dept/INDEX.HTML`)).toBeNull();
    expect(web.isHole(`http://${HOST}/dept/INDEX.HTML`)).toBe(true);
    expect(web.aliasOf(`http://${HOST}/~rdb/cs372/`)).toBeNull();
    // a session id, which the crawler strips, names the page without it (the one canonicaliser,
    // lib/url.ts: the page itself, no redirect); other parameters do not
    expect(web.canonical(`http://${HOST}/dept/?sid=9f2c`)).toBe(`http://${HOST}/dept/`);
    expect(web.aliasOf(`http://${HOST}/dept/?sid=9f2c`)).toBeNull();
    expect(web.aliasOf(`http://${HOST}/~rdb/cs372?PHPSESSID=1`)).toBe(`http://${HOST}/~rdb/cs372/`);
    expect(web.aliasOf(`http://${HOST}/dept/?page=2`)).toBeNull();
    // an escaped unreserved character names the page it spells (RFC 3986 6.2.2.2; WebKB links
    // "/%7Escal/scal.html" where "/~scal/scal.html" was collected): the page, as the crawler asks it
    expect(web.canonical(`http://${HOST}/%7Erdb/cs372/`)).toBe(`http://${HOST}/~rdb/cs372/`);
    expect(web.isHole(`http://${HOST}/%7erdb/cs%33%37%32/`)).toBe(false);
  });

  it('closed: links to aliases stay links; links to holes do not', async () => {
    const home = (await web.get(`http://${HOST}/`))!.body.toString('latin1');
    expect(home).toContain('<a href="/~rdb/cs372">');
    expect(home).toContain('<a href="/dept/index.html">');
    expect(home).toContain('<a data-archive-hole="/gone">');
    expect(home).toContain('<a href="/lab">');
    // "/gone", and the three document links: this web is opened without known documents
    expect(web.shape([HOST])).toMatchObject({ holes: 4 });
  });

  it('a paper in two formats is one relevant item, found when either is fetched', async () => {
    const cfg = {
      ...loadExperiment('focused', { quick: true }),
      name: 'formats',
      strategies: ['bfs'],
      budget: 12,
      every: 4,
      archive: {
        ...ARCHIVE_DEFAULTS,
        warc: [join(dir, 'a.warc.gz')],
        labels: join(dir, 'a.csv'),
        relevantDocuments: ['.pdf', '.ps', '.ps.Z'],
        groups: { alpha: [HOST] },
        starts: { alpha: `http://${HOST}/` },
      },
    };
    const env = await archiveEnv(cfg);
    try {
      expect([...env.relevant('alpha')].sort()).toEqual([`http://${HOST}/papers/bar`, `http://${HOST}/papers/foo`]);
      expect(env.itemOf(`http://${HOST}/papers/foo.ps.Z`)).toBe(env.itemOf(`http://${HOST}/papers/foo.ps`));
      expect(env.itemOf(`http://${HOST}/dept/`)).toBe(`http://${HOST}/dept/`);
    } finally {
      await env.close();
    }
    // the crawl fetches all three files: two papers found, not three
    const d = await runExperiment(cfg, { workers: 0, cacheDir: null, replay: false });
    const bfs = d.summaries.find((x) => x.strategy === 'bfs')!;
    expect(bfs).toMatchObject({ relevant_total: 2, relevant_found: 2 });
    expect(d.facts[0].relevant).toBe(2);
  });
});
