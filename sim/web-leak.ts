/**
 * The learnt leak probe on a generated web (lib/leak-probe.ts), straight from the generator: each
 * department's links as a crawler meets them on its HTML pages (the heading above them, the
 * anchor, the target's URL, their place on the page), labelled by whether the target is a
 * paper. The topic words left out are every topic vocabulary's words, stemmed.
 */
import { type LinkContext, leaveOneSiteOut, namesDocument, type ProbeScore } from '../lib/leak-probe.ts';
import { tokenize } from '../lib/text.ts';
import type { Renderer } from './content.ts';
import { Kind, type Web } from './web.ts';

/** Kinds rendered as something other than an HTML page (content.ts render()). */
const NOT_HTML = new Set<number>([Kind.Paper, Kind.Syllabus, Kind.Form, Kind.Image]);

/** A department's in-site links from its HTML pages, labelled by `isTarget(target)`. */
export function webLinkContexts(
  web: Web,
  renderer: Renderer,
  host: string,
  isTarget: (id: number) => boolean,
): LinkContext[] {
  const site = web.siteByHost(host);
  if (!site) throw new Error(`no site ${host}`);
  const out: LinkContext[] = [];
  for (let id = site.first; id < site.first + site.count; id++) {
    if (NOT_HTML.has(web.kind[id])) continue;
    const from = web.outStart[id];
    const to = web.outStart[id + 1];
    const urls: string[] = [];
    let documentLinks = 0;
    for (let e = from; e < to; e++) {
      urls.push(renderer.linkUrl(id, e));
      if (namesDocument(urls[e - from])) documentLinks++;
    }
    const heading = renderer.heading(id);
    for (let e = from; e < to; e++) {
      const t = web.outTarget[e];
      if (t < site.first || t >= site.first + site.count) continue;
      out.push({
        heading,
        anchor: renderer.anchorText(id, e, t, web.outFlags[e]),
        url: urls[e - from],
        position: e - from,
        links: to - from,
        documentLinks,
        positive: isTarget(t),
      });
    }
  }
  return out;
}

/**
 * The generator's topic words and topic names ("graphics and vision" names a group's folder),
 * stemmed: what the probe leaves out.
 */
export function topicStems(web: Web): Set<string> {
  const s = new Set<string>();
  for (const t of web.vocab.topics)
    if (t.computing)
      for (const w of [...t.words, t.label, t.key.replace(/[^A-Za-z0-9]+/g, ' ')])
        for (const x of tokenize(w)) s.add(x);
  return s;
}

/** The probe and the heading rule at each department (papers the target), each trained on the others. */
export function webLeak(web: Web, renderer: Renderer): { site: string; probe: ProbeScore; heading: ProbeScore }[] {
  const hosts = web.sites.filter((s) => s.kind === 'department').map((s) => s.host);
  const stems = topicStems(web);
  const scores = leaveOneSiteOut(
    hosts.map((h) => webLinkContexts(web, renderer, h, (id) => web.kind[id] === Kind.Paper)),
    (t) => stems.has(t),
  );
  return hosts.map((site, i) => ({ site, ...scores[i] }));
}
