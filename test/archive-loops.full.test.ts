/**
 * The WebKB archive read without redirect loops (issue #85): the collection saved 78 redirects
 * ("/homes/gaetano" to "/homes/gaetano/"), and the alias rule used to serve the uncollected
 * "/homes/gaetano/" as a 301 back to the saved redirect: 59 of the 78 looped (40 of the 42 on the
 * departments' own hosts), and 25 more linked URLs, which crawlers paid for and the oracle did
 * not. Every redirect chain from every archived URL and every linked URL must end without
 * revisiting a URL (the test fails with the former rule, checked).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_EXTENSIONS } from '../lib/document-types.ts';
import { ArchiveWeb } from '../sim/archive-web.ts';
import { WarcArchive } from '../sim/warc-index.ts';
import { scaled } from './speed.ts';

describe('the WebKB archive', () => {
  it('has no redirect chain that revisits a URL, from any archived or linked URL', {
    timeout: scaled(60_000),
  }, async () => {
    const archive = await WarcArchive.open(['data/webkb/webkb.warc.gz']);
    const web = await ArchiveWeb.open(archive, { holes: 'closed', documents: DEFAULT_DOCUMENT_EXTENSIONS });
    const starts = [...new Set([...archive.urls(), ...(await web.linkedUrls())])];
    let redirects = 0;
    const loops: string[][] = [];
    for (const url of starts) {
      const chain = await web.redirectChain(url);
      if (chain.length > 1) redirects++;
      if (new Set(chain).size < chain.length) loops.push(chain);
    }
    expect(loops.slice(0, 3)).toEqual([]);
    // the collection's saved redirects and the aliases served as 301s were walked
    expect(redirects).toBeGreaterThan(70);
    // a saved redirect into an uncollected directory ends on a hole, as a 1997 server's would on a page the collection lacks
    const saved = archive.urls().filter((u) => (archive.lookup(u)?.status ?? 0) === 301);
    expect(saved.length).toBeGreaterThan(50);
  });
});
