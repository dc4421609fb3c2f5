/**
 * The web's extra links, added after every site is built (web-builder.ts), by the builder's
 * generator: a department page's navigation bar, and a heavy-tailed number of links per HTML page
 * by attractiveness and community (web config "links").
 */
import { lowerBound } from './web-rng.ts';
import type { WebDraft } from './web-draft.ts';
import { Anchor, Kind, LinkFlag, Target } from './web-kinds.ts';

/**
 * Extra links give every HTML page a heavy-tailed number of links beyond its structure:
 * count ~ extraMin * U^(-1/(outExp-1)); target chosen by attractiveness (Pareto with the
 * in-degree exponent, so in-degree follows the same power law), inside the source's
 * community with probability 1 - mu, otherwise in another community of the site or, with
 * probability crossSiteShare, anywhere.
 */
export function addExtraLinks(g: WebDraft): void {
  const { rng } = g;
  const l = g.w.config.links;
  const n = g.kinds.length;
  const kinds = g.kinds.data;
  const comms = g.comms.data;
  const sites = g.sitesOf.data;
  const weight = new Float64Array(n);
  const aExp = -1 / (l.inDegreeExponent - 1);
  const s = g.w.config.structure;
  for (let i = 0; i < n; i++)
    weight[i] = kinds[i] === Kind.Image || kinds[i] === Kind.Home ? 0 : (1 - rng.next()) ** aExp;
  // relevant documents as targets of extra links: papersFrom.extraWeight times a page's weight
  if (s.papersFrom.extraWeight !== 1)
    for (let i = 0; i < n; i++) if (kinds[i] === Kind.Paper) weight[i] *= s.papersFrom.extraWeight;
  // without the extra-link bypass no extra link lands inside a gap chain either (it would skip the gap)
  if (!s.bypass.extraLinks) for (let i = 0; i < n; i++) if (kinds[i] === Kind.Gap) weight[i] = 0;
  const topical = g.w.communities.map((c) => c.topical);
  // cumulative weights grouped by community, by site and overall (members are contiguous per site)
  const nc = g.w.communities.length;
  const cStart = new Int32Array(nc + 1);
  for (let i = 0; i < n; i++) cStart[comms[i] + 1]++;
  for (let c = 0; c < nc; c++) cStart[c + 1] += cStart[c];
  const members = new Int32Array(n);
  const fill = cStart.slice(0, nc);
  for (let i = 0; i < n; i++) members[fill[comms[i]]++] = i;
  const cCum = new Float64Array(n);
  for (let c = 0; c < nc; c++) {
    let t = 0;
    for (let k = cStart[c]; k < cStart[c + 1]; k++) cCum[k] = t += weight[members[k]];
  }
  const allCum = new Float64Array(n);
  {
    let t = 0;
    for (let i = 0; i < n; i++) allCum[i] = t += weight[i];
  }
  /** Weighted pick in [lo, hi) of a cumulative array; `base` is the cumulative value before lo. */
  const pickIn = (lo: number, hi: number, cum: Float64Array, base: number): number =>
    lowerBound(cum, base + rng.next() * (cum[hi - 1] - base), lo, hi);
  const beforeAll = (lo: number): number => (lo > 0 ? allCum[lo - 1] : 0);
  const outExp = -1 / (l.outDegreeExponent - 1);
  for (let i = 0; i < n; i++) {
    const k = kinds[i];
    if (k === Kind.Paper || k === Kind.Syllabus || k === Kind.Form || k === Kind.Image) continue;
    const count = Math.min(l.extraMax, Math.floor(l.extraMin * (1 - rng.next()) ** outExp));
    const site = g.w.sites[sites[i]];
    // navigation bar of department pages: home, people, research
    if (site.kind === 'department' && k !== Kind.Home) {
      g.link(i, site.first, Anchor.Nav);
      if (s.bypass.navBar) {
        g.link(i, site.sections.get('/people/')!, Anchor.Nav);
        g.link(i, site.sections.get('/research/')!, Anchor.Nav);
      }
    }
    for (let j = 0; j < count; j++) {
      if (rng.chance(l.brokenShare)) {
        g.link(i, Target.Broken, Anchor.Title, LinkFlag.Extra);
        continue;
      }
      let t: number;
      const c = comms[i];
      if (!rng.chance(l.mu)) {
        t = members[pickIn(cStart[c], cStart[c + 1], cCum, 0)];
      } else if (site.kind !== 'department' || rng.chance(l.crossSiteShare)) {
        // single-community sites can only be left by linking elsewhere
        t = pickIn(0, n, allCum, 0);
      } else {
        t = i;
        for (let tries = 0; tries < 4 && (t === i || comms[t] === c); tries++)
          t = pickIn(site.first, site.first + site.count, allCum, beforeAll(site.first));
      }
      if (t === i || weight[t] === 0) continue;
      // without the extra-link bypass no extra link enters another research community of the site
      if (!s.bypass.extraLinks && sites[t] === sites[i] && topical[comms[t]] && comms[t] !== c) continue;
      const redirect = sites[t] === sites[i] && rng.chance(l.redirectShare) ? LinkFlag.Redirect : 0;
      g.link(i, t, Anchor.Title, LinkFlag.Extra | redirect);
    }
  }
}
