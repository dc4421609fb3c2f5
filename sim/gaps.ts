/**
 * The gaps between a department's research communities: the fewest off-topic pages a crawler must
 * fetch from one community to reach another (by the labels, or by the topic keywords' cosine as
 * the paper's crawler would judge the pages). Part of the structural diagnostics (structure.ts).
 */
import type { Renderer } from './content.ts';
import { counts, tokenize } from '../lib/text.ts';
import type { Web } from './web.ts';

/**
 * Research communities a site's gaps are measured from, at most. Each source costs a search of the
 * whole site, and sites grow their communities with their pages, so measuring from every one grew
 * with the square of the site (npm run bench:scale, docs/benchmarks.md). A site with more is
 * measured from GAP_SOURCES of them evenly spaced by index, to every other; every shipped
 * experiment's sites have at most 8 and are measured whole.
 */
export const GAP_SOURCES = 16;

/**
 * Fewest off-topic pages from each research community of a site (at most GAP_SOURCES of them) to
 * every other. Off-topic: a page of no research community (the labels), or, given `offTopic`, a
 * page it marks (the keywords).
 */
export function communityGaps(
  web: Web,
  first: number,
  count: number,
  offTopic?: Uint8Array,
): { groups: number; gaps: (number | null)[] } {
  const topical = web.communities.map((c) => c.topical);
  const comms = new Set<number>();
  for (let id = first; id < first + count; id++) if (topical[web.community[id]]) comms.add(web.community[id]);
  const list = [...comms].sort((a, b) => a - b);
  const sources =
    list.length <= GAP_SOURCES
      ? list
      : Array.from({ length: GAP_SOURCES }, (_, i) => list[Math.round((i * (list.length - 1)) / (GAP_SOURCES - 1))]);
  const gaps: (number | null)[] = [];
  const dist = new Int32Array(count);
  // a page may be queued again when a cheaper path reaches it (at most once per in-link)
  const queue = new Int32Array(2 * count + 2);
  for (const a of sources) {
    // every page of community a is a source at 0; an off-topic page costs 1; BFS order keeps
    // distances non-decreasing, and another research community ends a path
    dist.fill(-1);
    const best = new Map<number, number>();
    // a 0-1 BFS: a page costs 1 when off-topic, 0 when the keywords see it on topic; a deque
    // (from the middle of a double-size buffer) keeps distances non-decreasing
    let head = count;
    let tail = count;
    for (let id = first; id < first + count; id++)
      if (web.community[id] === a) {
        dist[id - first] = 0;
        queue[tail++] = id;
      }
    while (head < tail) {
      const u = queue[head++];
      const du = dist[u - first];
      for (let e = web.outStart[u]; e < web.outStart[u + 1]; e++) {
        const v = web.outTarget[e];
        if (v < first || v >= first + count) continue;
        const cv = web.community[v];
        if (cv === a) continue;
        if (topical[cv]) {
          if (!best.has(cv) || best.get(cv)! > du) best.set(cv, du);
          continue;
        }
        const cost = offTopic ? offTopic[v - first] : 1;
        const dv = du + cost;
        const seen = dist[v - first];
        if (seen >= 0 && seen <= dv) continue;
        dist[v - first] = dv;
        if (cost === 0) queue[--head] = v;
        else queue[tail++] = v;
      }
    }
    for (const b of list) if (b !== a) gaps.push(best.get(b) ?? null);
  }
  return { groups: list.length, gaps };
}

/**
 * Marks the pages of a site whose keyword cosine is below r1, as the topic's immediate value would
 * score them after a crawl of the whole site: the page's text (tags removed), tf = 1 + ln n,
 * idf = ln((N + 1) / (df + 1)) + 1 over the site's HTML pages, q = the keywords' tf x idf. Pages
 * that are not HTML are marked off-topic (documents are leaves: no path crosses them).
 */
export function keywordOffTopic(
  web: Web,
  renderer: Renderer,
  first: number,
  count: number,
  keywords: readonly string[],
  r1: number,
): Uint8Array {
  const kw = new Map<string, number>();
  for (const [w, n] of counts(keywords.flatMap((k) => tokenize(k)))) kw.set(w, 1 + Math.log(n));
  const docs: (Map<string, number> | null)[] = [];
  const df = new Map<string, number>();
  let n = 0;
  for (let id = first; id < first + count; id++) {
    if (!web.isHtml(id)) {
      docs.push(null);
      continue;
    }
    const body = renderer.render(id).body;
    const html = typeof body === 'string' ? body : Buffer.from(body).toString('latin1');
    const c = counts(tokenize(html.replace(/<[^>]*>/g, ' ')));
    for (const w of c.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    docs.push(c);
    n++;
  }
  const idf = (w: string): number => Math.log((n + 1) / ((df.get(w) ?? 0) + 1)) + 1;
  let qn = 0;
  kw.forEach((tf, w) => {
    qn += (tf * idf(w)) ** 2;
  });
  qn = Math.sqrt(qn);
  const off = new Uint8Array(count).fill(1);
  docs.forEach((c, i) => {
    if (!c) return;
    let dot = 0;
    let dn = 0;
    // forEach, not entry arrays (same order, same sums)
    c.forEach((k, w) => {
      const x = (1 + Math.log(k)) * idf(w);
      dn += x * x;
      const q = kw.get(w);
      if (q !== undefined) dot += q * idf(w) * x;
    });
    if (dn > 0 && qn > 0 && dot / (qn * Math.sqrt(dn)) >= r1) off[i] = 0;
  });
  return off;
}
