import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_EXTENSIONS } from '../lib/document-types.ts';
import { tinyConfig } from '../test/helpers.ts';
import { Renderer } from './content.ts';
import { type Collection, viewOfWeb } from './site-stats.ts';
import { Web } from './web.ts';

const web = new Web(tinyConfig(), 1);
const renderer = new Renderer(web);
const host = 'cs.alpha-university.test';
const view = (collection: Collection) =>
  viewOfWeb(web, renderer, host, {
    sample: 1,
    documents: DEFAULT_DOCUMENT_EXTENSIONS,
    relevant: () => false,
    collection,
  });

/** The department's distinct in-site link URLs from HTML pages: moved pages' old URLs, broken links, files. */
function linkedKinds(): { old: number; broken: number; files: number } {
  const site = web.siteByHost(host)!;
  const old = new Set<string>();
  const broken = new Set<string>();
  const files = new Set<string>();
  for (let id = site.first; id < site.first + site.count; id++) {
    if (!web.isHtml(id)) continue;
    for (let e = web.outStart[id]; e < web.outStart[id + 1]; e++) {
      const t = web.outTarget[e];
      const url = renderer.linkUrl(id, e);
      if (t >= 0 && (t < site.first || t >= site.first + site.count)) continue;
      if (t < 0) broken.add(url);
      else if (url.includes('/old/')) old.add(url);
      if (t >= 0 && !web.isHtml(t)) files.add(url);
    }
  }
  return { old: old.size, broken: broken.size, files: files.size };
}

describe('a twin department as its archive would hold it (issue #72)', () => {
  it("reads a moved page's old URL as a hole in a collection of pages, as a URL leading to it in a crawl", () => {
    const kinds = linkedKinds();
    expect(kinds.old).toBeGreaterThan(10);
    expect(kinds.files).toBeGreaterThan(10);
    const pages = view('pages');
    const crawl = view('crawl');
    // a crawl's WARC holds every file the pages link: more nodes, every non-HTML target among them
    expect(crawl.graph.n).toBeGreaterThan(pages.graph.n);
    // the calendar, the loop and the broken links are holes in both readings; old URLs only read as pages
    expect(crawl.linked!.holes).toBe(kinds.broken);
    expect(pages.linked!.holes).toBeGreaterThanOrEqual(kinds.broken + kinds.old);
    // and the crawl's linked URLs count its files and old URLs as URLs of their own
    expect(crawl.linked!.urls).toBeGreaterThan(pages.linked!.urls + kinds.old);
  });
});
