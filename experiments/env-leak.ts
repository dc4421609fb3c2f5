/**
 * The learnt leak probe (lib/leak-probe.ts) on any experiment's web as a crawler parses it: each
 * site's labelled pages (what every environment gives training: a generated web's rendered pages,
 * an archive's collected ones), their links from HTML pages to labelled pages, and the
 * experiment's topic keywords left out. Computed once per environment and keyword list.
 */
import type { LabelledPage } from '../crawler/focused/index.ts';
import { type LinkContext, leaveOneSiteOut, namesDocument, type ProbeScore } from '../lib/leak-probe.ts';
import { tokenize } from '../lib/text.ts';
import type { TrainingData } from './web-training.ts';

export interface LeakScores {
  probe: ProbeScore;
  heading: ProbeScore;
}

/** A site's links from its HTML pages to its labelled pages, labelled by the target's relevance. */
export function pageLinkContexts(pages: readonly LabelledPage[]): LinkContext[] {
  const relevant = new Map(pages.map((p) => [p.url, p.relevant]));
  // a site's pages link the same URLs many times: each URL's path read once
  const isDocument = new Map<string, boolean>();
  const out: LinkContext[] = [];
  for (const p of pages) {
    if (p.page.kind !== 'html') continue;
    const links = p.page.links;
    let documentLinks = 0;
    for (const l of links) {
      let d = isDocument.get(l.url);
      if (d === undefined) isDocument.set(l.url, (d = namesDocument(l.url)));
      if (d) documentLinks++;
    }
    links.forEach((l, position) => {
      const positive = relevant.get(l.url);
      if (positive === undefined) return; // a hole, or another site's page
      out.push({
        heading: l.heading,
        anchor: l.anchor,
        url: l.url,
        position,
        links: links.length,
        documentLinks,
        positive,
      });
    });
  }
  return out;
}

const computed = new WeakMap<TrainingData, Map<string, Map<string, LeakScores>>>();

/** The probe and the heading rule at `site`, trained on the environment's other sites (null: one site only). */
export function siteLeak(training: TrainingData, keywords: readonly string[], site: string): LeakScores | null {
  if (training.hosts.length < 2 || !training.hosts.includes(site)) return null;
  const key = keywords.join('\n');
  const byKeywords = computed.get(training) ?? new Map<string, Map<string, LeakScores>>();
  computed.set(training, byKeywords);
  let bySite = byKeywords.get(key);
  if (!bySite) {
    const stems = new Set(keywords.flatMap((k) => tokenize(k)));
    const scores = leaveOneSiteOut(
      training.hosts.map((h) => pageLinkContexts(training.labelled(h))),
      (t) => stems.has(t),
    );
    bySite = new Map(training.hosts.map((h, i) => [h, scores[i]]));
    byKeywords.set(key, bySite);
  }
  return bySite.get(site) ?? null;
}
