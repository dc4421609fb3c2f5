import { describe, expect, it } from 'vitest';
import { graphFromLists } from '../../lib/site-graph.ts';
import { pagesOnly } from './archive.ts';

describe("an archive's pages, as the twin measures them (issue #72)", () => {
  it('follows saved redirects to their pages and counts links to dead records as holes', () => {
    // 0 home -> 1 (301 -> 2), 3 (404), 4 (302 -> 5, a 404), 6 (302 -> 7, a 302 -> 2); 2 relevant
    const lists = [[1, 3, 4, 6], [2], [0], [], [5], [], [7], [2]];
    const status = [200, 301, 200, 404, 302, 404, 302, 302];
    const view = {
      name: 's',
      graph: graphFromLists(lists, 0, [false, false, true, false, false, false, false, false]),
      urls: lists.map((_, i) => `http://s/${i}`),
      anchors: lists.map((_, i) => [`w${i}`]),
      linked: { urls: 10, holes: 1 },
    };
    const v = pagesOnly(view, status);
    expect(v.graph.n).toBe(2);
    expect(v.urls).toEqual(['http://s/0', 'http://s/2']);
    expect([...v.graph.outTarget]).toEqual([1, 0]);
    expect(v.graph.start).toBe(0);
    expect([...v.graph.relevant]).toEqual([0, 1]);
    // the redirects' link words are their target's
    expect(v.anchors[1].sort()).toEqual(['w1', 'w2', 'w6', 'w7']);
    // 3 (404) and 4 (a redirect to a 404): two more holes
    expect(v.linked).toEqual({ urls: 10, holes: 3 });
    // an archive of pages only is its own view
    expect(
      pagesOnly(
        view,
        status.map(() => 200),
      ),
    ).toBe(view);
  });
});
