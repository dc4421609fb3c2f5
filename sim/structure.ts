/**
 * Structural diagnostics of the departments: the properties that decide a focused-crawling race
 * before it starts, measured on the generated graph, so that a report can say what its result
 * rests on (printed by sim:stats and by every focused report on a synthetic web).
 *
 * - gaps (gaps.ts): for every ordered pair of research communities (groups) of a site, the fewest
 *   off-topic pages a crawler must fetch to get from one to the other (BFS from every page of
 *   the source community, an off-topic page costing 1; another community ends the path);
 * - where relevant documents are linked from: share of HTML pages with a direct link to one,
 *   share of links to them that come from outside the document's community;
 * - conventions across sites: Jaccard similarity of the sites' URL templates (paths with logins,
 *   numbers and slugs abstracted) and total-variation distance of the anchor words on links to
 *   relevant documents and to the pages that list them;
 * - the transfer leak: the rules a learner (lib/rules.ts: a decision list of conjunctions over
 *   URL folders, file-name words, extension and anchor words) finds on the other sites for
 *   telling links to relevant items, scored on the held-out one; not a fixed family of rules, so
 *   it cannot miss a leak the family does not contain. 1.0 / 1.0 means a classifier trained
 *   elsewhere knows this site's relevant links without reading a topic;
 * - the anchor words (other than the items' own titles) that link to relevant items in every
 *   department, and the share of such links carrying one of them.
 */
import { readFileSync } from 'node:fs';
import type { Renderer } from './content.ts';
import { DEFAULT_DOCUMENT_EXTENSIONS } from '../lib/document-types.ts';
import { formatRules, type RuleExample, wordsOf } from '../lib/rules.ts';
import { targetsOf, transferLeak, viewOfWeb } from './site-stats.ts';
import { shipped } from '../lib/paths.ts';
import { readKeywords } from '../lib/text.ts';
import { Anchor, type Site, type Web } from './web.ts';
import { communityGaps, keywordOffTopic } from './gaps.ts';

export { GAP_SOURCES } from './gaps.ts';

/**
 * The keyword threshold of the keyword gaps: a page whose keyword cosine is below it counts as
 * off-topic. A condition: the r1 the adaptive crawler's calibration chose on paper.json's training
 * departments lay between 0.108 and 0.124 (docs/reproduction.md), so 0.12 is where the
 * paper's crawler stops exploiting a page.
 */
export const KEYWORD_GAP_R1 = 0.12;
const KEYWORDS = shipped('data/vocab/computing.txt');

export interface SiteStructure {
  host: string;
  groups: number;
  /** Ordered pairs of research communities by fewest off-topic pages between them ("none": unreachable). */
  gapHistogram: Record<string, number>;
  gapMin: number | null;
  /** Share of HTML pages with a direct link to a relevant document. */
  directLinkShare: number;
  /** Share of links to relevant documents whose source is outside the document's community. */
  relevantLinksFromOutside: number;
  /** The rules a learner finds on the other sites (lib/rules.ts), as text; scored on this site below. */
  transferRule: string;
  transferPrecision: number;
  transferRecall: number;
  /**
   * Share of links to relevant items (title anchors left out) whose anchor has a word that links
   * to relevant items in every department.
   */
  sharedAnchorShare: number;
  /**
   * A rule with no topic and no training, "the link's URL names a document file" (.pdf, .ps, ...:
   * lib/document-types.ts), scored over the site's link targets: what a documents-first crawler knows.
   */
  documentPrecision: number;
  documentRecall: number;
  /**
   * A rule with no topic and no training that reads a file name's shape (lib/rules.ts fileShape):
   * "a document-like URL (a document extension, or a CGI's bare number) whose file name is not a
   * word of 4+ letters, a dash and a number". On the generator before issue #52 it found the papers
   * with precision 0.98-0.99 and recall 1.00: non-papers were all named WORD-N.
   */
  shapePrecision: number;
  shapeRecall: number;
  /**
   * Research communities apart as the topic keywords see them: fewest pages whose keyword cosine
   * (tf-idf, idf over the site's pages) is below r1 between one community and the next (null
   * when keywords were not asked for).
   */
  keywordGapHistogram: Record<string, number> | null;
  keywordGapMin: number | null;
}

export interface StructureStats {
  sites: SiteStructure[];
  /** Over every site: the gap histogram and its minimum. */
  gapHistogram: Record<string, number>;
  gapMin: number | null;
  /** Mean over pairs of sites. */
  templateJaccard: number;
  anchorDistance: number;
  transferPrecision: number;
  transferRecall: number;
  sharedAnchorShare: number;
  /** Anchor words that link to relevant items in every department. */
  sharedAnchorWords: string[];
  documentPrecision: number;
  documentRecall: number;
  shapePrecision: number;
  shapeRecall: number;
  /** The keyword gaps over every site, and the threshold (null: not measured). */
  keywordGapHistogram: Record<string, number> | null;
  keywordGapMin: number | null;
  keywordGapR1: number | null;
}

export interface StructureOptions {
  /** Measure the keyword gaps with this threshold (renders and tokenizes every page of the departments). */
  keywordR1?: number;
  /** Keyword list (default data/vocab/computing.txt). */
  keywords?: readonly string[];
}

const round = (x: number, d = 3): number => Math.round(x * 10 ** d) / 10 ** d;

/** A path abstracted to its template: logins, numbers and slugged names replaced. */
export function template(path: string): string {
  return path
    .replace(/[a-z]+\d+(?=\/|$)/g, 'LOGIN')
    .replace(/[a-z0-9-]+-\d+(\.[a-z]+)?$/, 'X$1')
    .replace(/[a-z0-9-]+-\d+\//g, 'X/')
    .replace(/\d+/g, '#');
}

/** Extensions (as targetsOf writes them) of the URLs that name a document file. */
const DOCUMENT_EXT = new Set(DEFAULT_DOCUMENT_EXTENSIONS.map((e) => e.replace(/^\./, '').toLowerCase()));

/** Anchor words of links to relevant documents and to the pages that link to them, as a distribution. */
function anchorMix(web: Web, renderer: Renderer, first: number, count: number): Map<string, number> {
  const listsRelevant = new Uint8Array(count);
  for (let u = first; u < first + count; u++)
    for (let e = web.outStart[u]; e < web.outStart[u + 1]; e++) {
      const v = web.outTarget[e];
      if (v >= 0 && web.isRelevant(v)) {
        listsRelevant[u - first] = 1;
        break;
      }
    }
  const mix = new Map<string, number>();
  let total = 0;
  for (let u = first; u < first + count; u++)
    for (let e = web.outStart[u]; e < web.outStart[u + 1]; e++) {
      const v = web.outTarget[e];
      if (v < first || v >= first + count || !(web.isRelevant(v) || listsRelevant[v - first])) continue;
      const f = web.outFlags[e];
      // a title anchor is the target's own title: its class, not its words, is the convention
      const word = (f & 7) === Anchor.Title ? '(title)' : renderer.anchorText(u, e, v, f).toLowerCase();
      mix.set(word, (mix.get(word) ?? 0) + 1);
      total++;
    }
  for (const [k, x] of mix) mix.set(k, x / Math.max(1, total));
  return mix;
}

/** Anchor words of a department's links to its relevant items (title anchors, the items' own titles, left out). */
function relevantAnchorWords(web: Web, renderer: Renderer, first: number, count: number): string[][] {
  const out: string[][] = [];
  for (let u = first; u < first + count; u++)
    for (let e = web.outStart[u]; e < web.outStart[u + 1]; e++) {
      const v = web.outTarget[e];
      // a title anchor is the item's own title (topic words, shared by design): its words are left out
      if (v >= first && v < first + count && web.isRelevant(v) && (web.outFlags[e] & 7) !== Anchor.Title)
        out.push(wordsOf(renderer.anchorText(u, e, v, web.outFlags[e])));
    }
  return out;
}

/** Over every pair of departments: the Jaccard of their URL templates and the total variation of their anchor mixes, summed. */
function conventionDistances(
  templates: readonly Set<string>[],
  mixes: readonly Map<string, number>[],
): { jac: number; tv: number; pairs: number } {
  let jac = 0;
  let tv = 0;
  let pairs = 0;
  for (let i = 0; i < templates.length; i++)
    for (let j = i + 1; j < templates.length; j++) {
      const a = templates[i];
      const b = templates[j];
      let inter = 0;
      for (const t of a) if (b.has(t)) inter++;
      jac += inter / Math.max(1, a.size + b.size - inter);
      let d = 0;
      for (const k of new Set([...mixes[i].keys(), ...mixes[j].keys()]))
        d += Math.abs((mixes[i].get(k) ?? 0) - (mixes[j].get(k) ?? 0));
      tv += d / 2;
      pairs++;
    }
  return { jac, tv, pairs };
}

/** Where several rule lists fit the other sites equally well: how many, and how the worst scores here. */
function worstOf(scored: readonly { score: { precision: number; recall: number } }[]): string {
  const worst = scored[scored.length - 1].score;
  return (
    ` (best here of ${scored.length} rule lists that fit the others equally well; the worst scores ` +
    `${round(worst.precision)} / ${round(worst.recall)})`
  );
}

export function structureStats(web: Web, renderer: Renderer, options: StructureOptions = {}): StructureStats {
  const depts = web.sites.filter((s) => s.kind === 'department');
  const r1 = options.keywordR1;
  const keywords = r1 === undefined ? [] : (options.keywords ?? readKeywords(readFileSync(KEYWORDS, 'utf8')));
  // every in-site link target of each site, with what a link classifier could read of it (the
  // folders of its path, its file name's words, its extension, the anchor words of the links to
  // it), measured as an archive's site is (sim/site-stats.ts)
  const targets = depts.map((s) => targetsOf(viewOfWeb(web, renderer, s.host, undefined, false)));
  const templates = depts.map((s) => {
    const t = new Set<string>();
    for (let id = s.first; id < s.first + s.count; id++) t.add(`${web.kind[id]}:${template(renderer.path(id))}`);
    return t;
  });
  const mixes = depts.map((s) => anchorMix(web, renderer, s.first, s.count));
  // anchor words of every link to a relevant item, per department, and the words all departments use
  const relevantAnchors = depts.map((s) => relevantAnchorWords(web, renderer, s.first, s.count));
  const everywhere = wordsEverywhere(relevantAnchors);
  const ctx: SiteContext = {
    web,
    renderer,
    targets,
    relevantAnchors,
    everywhere,
    hist: {},
    keywordHist: r1 === undefined ? null : {},
    keywords,
    r1,
  };
  const sites = depts.map((s, i) => siteStructure(ctx, s, i));
  const { jac, tv, pairs } = conventionDistances(templates, mixes);
  const finite = sites.map((s) => s.gapMin).filter((g): g is number => g !== null);
  const keywordMins = sites.map((s) => s.keywordGapMin).filter((g): g is number => g !== null);
  const mean = (
    k:
      | 'transferPrecision'
      | 'transferRecall'
      | 'sharedAnchorShare'
      | 'documentPrecision'
      | 'documentRecall'
      | 'shapePrecision'
      | 'shapeRecall',
  ): number => round(sites.reduce((a, s) => a + s[k], 0) / Math.max(1, sites.length));
  return {
    sites,
    gapHistogram: ctx.hist,
    gapMin: finite.length ? Math.min(...finite) : null,
    templateJaccard: round(pairs ? jac / pairs : 1),
    anchorDistance: round(pairs ? tv / pairs : 0),
    transferPrecision: mean('transferPrecision'),
    transferRecall: mean('transferRecall'),
    sharedAnchorShare: mean('sharedAnchorShare'),
    sharedAnchorWords: [...everywhere].sort(),
    documentPrecision: mean('documentPrecision'),
    documentRecall: mean('documentRecall'),
    shapePrecision: mean('shapePrecision'),
    shapeRecall: mean('shapeRecall'),
    keywordGapHistogram: ctx.keywordHist,
    keywordGapMin: keywordMins.length ? Math.min(...keywordMins) : null,
    keywordGapR1: r1 ?? null,
  };
}

/** The words of links to relevant items that every department uses. */
function wordsEverywhere(relevantAnchors: string[][][]): Set<string> {
  const everywhere = new Set(relevantAnchors[0]?.flat() ?? []);
  for (const links of relevantAnchors.slice(1)) {
    const here = new Set(links.flat());
    for (const w of everywhere) if (!here.has(w)) everywhere.delete(w);
  }
  return everywhere;
}

/** What every department's measure reads, and the web-wide gap histograms they add to. */
interface SiteContext {
  web: Web;
  renderer: Renderer;
  targets: ReturnType<typeof targetsOf>[];
  relevantAnchors: string[][][];
  everywhere: Set<string>;
  hist: Record<string, number>;
  keywordHist: Record<string, number> | null;
  keywords: readonly string[];
  r1: number | undefined;
}

/** One department's structure: its community gaps, what free rules and transferred rules find, shared anchors. */
function siteStructure(ctx: SiteContext, s: Site, i: number): SiteStructure {
  const { web, targets } = ctx;
  const { groups, gaps } = communityGaps(web, s.first, s.count);
  const h: Record<string, number> = {};
  for (const g of gaps) {
    const k = g === null ? 'none' : String(g);
    h[k] = (h[k] ?? 0) + 1;
    ctx.hist[k] = (ctx.hist[k] ?? 0) + 1;
  }
  const finite = gaps.filter((g): g is number => g !== null);
  const { keywordGapHistogram, keywordGapMin } = keywordGaps(ctx, s);
  const free = freeRules(targets[i]);
  const links = relevantLinkShares(web, s.first, s.count);
  // the transfer leak: the rules a learner finds on the other sites, scored here
  // (every list that fits the other sites as well as the best: the leak is the best of them here)
  const scored = transferLeak(targets, i);
  const rules = scored[0]?.list ?? { rules: [], f1: 0 };
  const held = scored[0]?.score ?? { precision: 0, recall: 0, f1: 0 };
  const relevantLinks = ctx.relevantAnchors[i];
  const shared = relevantLinks.filter((ws) => ws.some((w) => ctx.everywhere.has(w))).length;
  return {
    host: s.host,
    groups,
    gapHistogram: h,
    gapMin: finite.length ? Math.min(...finite) : null,
    directLinkShare: links.directLinkShare,
    relevantLinksFromOutside: links.relevantLinksFromOutside,
    transferRule: `${formatRules(rules)}${scored.length > 1 ? worstOf(scored) : ''}`,
    transferPrecision: round(held.precision),
    transferRecall: round(held.recall),
    sharedAnchorShare: round(shared / Math.max(1, relevantLinks.length)),
    ...free,
    keywordGapHistogram,
    keywordGapMin,
  };
}

/** A department's gaps between keyword-judged communities (when a keyword threshold r1 is given). */
function keywordGaps(
  ctx: SiteContext,
  s: Site,
): { keywordGapHistogram: Record<string, number> | null; keywordGapMin: number | null } {
  const { web, renderer, keywordHist, keywords, r1 } = ctx;
  if (r1 === undefined || !keywordHist) return { keywordGapHistogram: null, keywordGapMin: null };
  const off = keywordOffTopic(web, renderer, s.first, s.count, keywords, r1);
  const histogram: Record<string, number> = {};
  let min: number | null = null;
  for (const g of communityGaps(web, s.first, s.count, off).gaps) {
    const k = g === null ? 'none' : String(g);
    histogram[k] = (histogram[k] ?? 0) + 1;
    keywordHist[k] = (keywordHist[k] ?? 0) + 1;
    if (g !== null && (min === null || g < min)) min = g;
  }
  return { keywordGapHistogram: histogram, keywordGapMin: min };
}

/** Lines for sim:stats and reports. */
export function formatStructure(s: StructureStats): string[] {
  const hist = (h: Record<string, number>): string =>
    Object.entries(h)
      .sort(([a], [b]) => (a === 'none' ? 1 : b === 'none' ? -1 : Number(a) - Number(b)))
      .map(([k, v]) => `${k}:${v}`)
      .join(' ');
  return [
    `off-topic pages between research communities (ordered pairs): ${hist(s.gapHistogram)}; fewest ${s.gapMin ?? 'n/a'}`,
    ...(s.keywordGapHistogram
      ? [
          `  as the topic keywords see them (a page below cosine ${s.keywordGapR1} is off-topic): ` +
            `${hist(s.keywordGapHistogram)}; fewest ${s.keywordGapMin ?? 'n/a'}`,
        ]
      : []),
    `a rule with no topic and no training, "the URL names a document file": precision ${s.documentPrecision}, recall ${s.documentRecall}`,
    `a rule with no topic and no training, "a document file not named WORD-N": precision ${s.shapePrecision}, recall ${s.shapeRecall}`,
    `conventions across departments: URL templates Jaccard ${s.templateJaccard}, anchor words ` +
      `on links to relevant documents and their lists, total-variation distance ${s.anchorDistance}`,
    `transfer leak (rules learnt on the other departments from URL folders, file words, ` +
      `file-name shapes, extension and anchor words; lib/rules.ts): ` +
      `precision ${s.transferPrecision}, recall ${s.transferRecall}`,
    `anchor words linking to relevant items in every department: ` +
      `${s.sharedAnchorWords.slice(0, 20).join(', ') || 'none'}${s.sharedAnchorWords.length > 20 ? ` (+${s.sharedAnchorWords.length - 20})` : ''}; ` +
      `links to relevant items with one of them: ${s.sharedAnchorShare}`,
    '',
    'department                 groups  gap pairs (hops:count)        fewest  direct-link ' +
      'share  links from outside  shared anchors  held-out precision / recall of the rules ' +
      'learnt on the others',
    ...s.sites.flatMap((d) => [
      `${d.host.padEnd(26)} ${String(d.groups).padStart(6)}  ${hist(d.gapHistogram).padEnd(28)} ` +
        `${String(d.gapMin ?? 'n/a').padStart(6)} ${String(d.directLinkShare).padStart(18)} ` +
        `${String(d.relevantLinksFromOutside).padStart(19)} ${String(d.sharedAnchorShare).padStart(15)} ` +
        ` ${d.transferPrecision} / ${d.transferRecall}`,
      `  rules learnt on the others: ${d.transferRule}`,
      `  document-file rule: precision ${d.documentPrecision}, recall ${d.documentRecall}; ` +
        `file-name shape rule: precision ${d.shapePrecision}, recall ` +
        `${d.shapeRecall}${d.keywordGapHistogram ? `; gap pairs as the keywords see them: ${hist(d.keywordGapHistogram)}` : ''}`,
    ]),
  ];
}

/**
 * The rules no one has to learn, on a department's link targets: a link whose URL names a document
 * file, and the same with a bare number's or a non-WORD-N file name (issue #52's shape rule).
 */
function freeRules(targets: readonly RuleExample[]): {
  documentPrecision: number;
  documentRecall: number;
  shapePrecision: number;
  shapeRecall: number;
} {
  let dtp = 0,
    dfp = 0,
    dfn = 0;
  let stp = 0,
    sfp = 0,
    sfn = 0;
  for (const t of targets) {
    const doc = t.features.some((f) => f.startsWith('ext:') && DOCUMENT_EXT.has(f.slice(4)));
    if (doc && t.positive) dtp++;
    else if (doc) dfp++;
    else if (t.positive) dfn++;
    const shaped = doc || (t.features.includes('ext:none') && t.features.includes('shape:9'));
    const byShape = shaped && !t.features.includes('shape:W-9');
    if (byShape && t.positive) stp++;
    else if (byShape) sfp++;
    else if (t.positive) sfn++;
  }
  return {
    documentPrecision: round(dtp / Math.max(1, dtp + dfp)),
    documentRecall: round(dtp / Math.max(1, dtp + dfn)),
    shapePrecision: round(stp / Math.max(1, stp + sfp)),
    shapeRecall: round(stp / Math.max(1, stp + sfn)),
  };
}

/**
 * Of a department's HTML pages, the share that links a relevant item directly; of the links to
 * relevant items, the share from outside the item's community.
 */
function relevantLinkShares(
  web: Web,
  first: number,
  count: number,
): { directLinkShare: number; relevantLinksFromOutside: number } {
  let html = 0,
    direct = 0,
    toRel = 0,
    outside = 0;
  for (let u = first; u < first + count; u++) {
    let has = false;
    for (let e = web.outStart[u]; e < web.outStart[u + 1]; e++) {
      const v = web.outTarget[e];
      if (v < first || v >= first + count || !web.isRelevant(v)) continue;
      has = true;
      toRel++;
      if (web.community[u] !== web.community[v]) outside++;
    }
    if (web.isHtml(u)) {
      html++;
      if (has) direct++;
    }
  }
  return {
    directLinkShare: round(direct / Math.max(1, html)),
    relevantLinksFromOutside: round(outside / Math.max(1, toRel)),
  };
}
