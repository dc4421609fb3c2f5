/**
 * The learnt leak probe (lib/leak-probe.ts, issue #66): its measures on hand-made scores, and on a
 * generated web whose generator marks papers (fixed headings by page kind, paper titles longer
 * than other documents' as anchors): the probe must catch the marks, and must not find a target
 * that is not there (labels shuffled).
 */
import { describe, expect, it } from 'vitest';
import {
  breakEven,
  breakEvenAtRate,
  type LinkContext,
  leaveOneSiteOut,
  linkContextTokens,
  rocAuc,
} from '../lib/leak-probe.ts';
import { Renderer } from '../sim/content.ts';
import { loadConfig } from '../sim/config.ts';
import { topicStems, webLinkContexts } from '../sim/web-leak.ts';
import { Kind, Web } from '../sim/web.ts';
import { scaledWeb } from './helpers.ts';

describe('the learnt leak probe', () => {
  it('measures: ROC AUC with ties counted half, the break-even of precision and recall', () => {
    expect(rocAuc([0.9, 0.8, 0.1, 0.2], [true, true, false, false])).toBe(1);
    expect(rocAuc([0.1, 0.2, 0.9, 0.8], [true, true, false, false])).toBe(0);
    expect(rocAuc([0.5, 0.5, 0.5, 0.5], [true, false, true, false])).toBe(0.5);
    expect(rocAuc([1, 2], [true, true])).toBeNaN();
    // 3 positives; at the top two: P 1, R 2/3; at the top four: P 3/4, R 1 -> the best min is 3/4
    expect(breakEven([0.9, 0.8, 0.7, 0.6, 0.1], [true, true, false, true, false])).toBe(0.75);
    // at a common share of positives: the same 3 positives and 2 negatives (60%) read as if 10% of
    // links were positive, each negative weighing (3 / 2) x 0.9 / 0.1 = 13.5: at the top two, P 1 and
    // R 2/3 (the best); at the top four, P 3 / (3 + 13.5) = 0.182
    const s5 = [0.9, 0.8, 0.7, 0.6, 0.1];
    const l5 = [true, true, false, true, false];
    expect(breakEvenAtRate(s5, l5, 0.1)).toBeCloseTo(2 / 3, 12);
    // at the sample's own share it is the plain break-even
    expect(breakEvenAtRate(s5, l5, 0.6)).toBeCloseTo(breakEven(s5, l5), 12);
    // a lower share of positives never raises it (precision only falls)
    expect(breakEvenAtRate([0.9, 0.8, 0.7, 0.6], [true, false, true, false], 0.05)).toBeLessThan(
      breakEven([0.9, 0.8, 0.7, 0.6], [true, false, true, false]),
    );
    expect(breakEvenAtRate([1, 1], [false, false], 0.1)).toBe(0);
  });

  const linksOf = (cues: number): { sites: LinkContext[][]; stems: Set<string> } => {
    const config = loadConfig(scaledWeb('data/webs/small.json', 0.5));
    const web = new Web({ ...config, structure: { ...config.structure, cues } }, 1);
    const renderer = new Renderer(web);
    const hosts = web.sites.filter((s) => s.kind === 'department').map((s) => s.host);
    const sites = hosts.map((h) => webLinkContexts(web, renderer, h, (id) => web.kind[id] === Kind.Paper));
    return { sites, stems: topicStems(web) };
  };

  it('catches the marks of a generator that sets cues by page kind, and finds nothing in shuffled labels', () => {
    // structure.cues 0: the former generator, fixed headings by kind and longer paper titles
    const { sites, stems } = linksOf(0);
    const marked = leaveOneSiteOut(sites, (t) => stems.has(t));
    for (const s of marked) {
      expect(s.probe.positives).toBeGreaterThan(10);
      expect(s.probe.auc).toBeGreaterThan(0.85);
      // the one marked cue alone: the heading above the link, read by the heading rule
      expect(s.heading.auc).toBeGreaterThan(0.65);
    }
    // drawn cues (the default): the probe finds less in every department taken together
    const drawn = linksOf(1);
    const mean = (xs: { probe: { minPR: number } }[]): number => xs.reduce((a, x) => a + x.probe.minPR, 0) / xs.length;
    expect(mean(leaveOneSiteOut(drawn.sites, (t) => drawn.stems.has(t)))).toBeLessThan(mean(marked) - 0.1);
    // the same links with labels drawn at random (seeded, the same share): nothing to find
    let x = 12345;
    const coin = (p: number): boolean => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x / 2 ** 32 < p;
    };
    const shuffled: LinkContext[][] = sites.map((links) => {
      const share = links.filter((l) => l.positive).length / links.length;
      return links.map((l) => ({ ...l, positive: coin(share) }));
    });
    for (const s of leaveOneSiteOut(shuffled, (t) => stems.has(t))) {
      expect(s.probe.auc).toBeGreaterThan(0.4);
      expect(s.probe.auc).toBeLessThan(0.6);
    }
  });

  it('draws no URL word that marks papers among documents where cues are drawn (a folder or a prefix)', () => {
    // the URL words in most of a department's paper links, and the share of its other document
    // links that carry the rarest of them: 0 is a word only papers have (the papers' own folder
    // "/techreports/", the paper prefix "tr-"), which a learner reads with no topic
    const rarest = (cues: number): number[] => {
      const config = loadConfig(scaledWeb('data/webs/small.json', 0.5));
      const web = new Web({ ...config, structure: { ...config.structure, cues } }, 1);
      const renderer = new Renderer(web);
      const stems = topicStems(web);
      const words = (l: LinkContext): Set<string> =>
        new Set(linkContextTokens(l, (t) => stems.has(t)).filter((t) => t.startsWith('u:')));
      const share = (xs: Set<string>[], t: string): number => xs.filter((x) => x.has(t)).length / xs.length;
      return web.sites
        .filter((s) => s.kind === 'department')
        .map((s) => {
          const linksTo = (kinds: number[]): Set<string>[] =>
            webLinkContexts(web, renderer, s.host, (id) => kinds.includes(web.kind[id]))
              .filter((l) => l.positive)
              .map(words);
          const papers = linksTo([Kind.Paper]);
          const others = linksTo([Kind.Syllabus, Kind.Form]);
          const common = [...new Set(papers.flatMap((p) => [...p]))].filter((t) => share(papers, t) >= 0.5);
          return Math.min(1, ...common.map((t) => share(others, t)));
        });
    };
    expect(Math.min(...rarest(0))).toBe(0);
    for (const r of rarest(1)) expect(r).toBeGreaterThan(0.1);
  });
});
