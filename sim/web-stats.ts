/**
 * Statistics of a generated web next to their target bands (config.targets, taken from the
 * literature, as docs/web.md lists): degree distributions and power-law
 * fits, mixing mu, topical locality, relevant documents per site and their depth, anchor quality,
 * and the structural diagnostics of sim/structure.ts.
 */
import { Renderer } from './content.ts';
import { makeRng } from './web-rng.ts';
import { GroundTruth } from './truth.ts';
import { Anchor, Kind, LinkFlag, type Web } from './web.ts';
import {
  formatStructure,
  KEYWORD_GAP_R1,
  structureStats,
  type StructureOptions,
  type StructureStats,
} from './structure.ts';
import { RecordDb } from './deepweb/db.ts';

export interface Check {
  name: string;
  value: number;
  target: string;
  ok: boolean;
}

export interface SearchSiteStats {
  host: string;
  kind: string;
  records: number;
  /** Most records one query shows (0: every match). */
  topK: number;
  distinctWords: number;
  /** Heaps' law V = K n^beta over growing prefixes of the database (null: no record text). */
  heapsK: number | null;
  heapsBeta: number | null;
}

/** Each search site's database built as the server builds it, and its vocabulary's Heaps fit. */
function searchSiteStats(web: Web): SearchSiteStats[] {
  return web.config.deepweb.sites.map((cfg) => {
    const db = new RecordDb(cfg.kind, cfg.records, web.seed, cfg.host);
    const h = db.heaps();
    return {
      host: cfg.host,
      kind: cfg.kind,
      records: db.n,
      topK: cfg.topK,
      distinctWords: db.dict.length,
      heapsK: h && round(h.K),
      heapsBeta: h && round(h.beta),
    };
  });
}

/** A department as its ground truth reaches it: hops from the homepage to its relevant documents. */
export interface DepartmentReach {
  host: string;
  pages: number;
  relevant: number;
  unreachableRelevant: number;
  meanDistance: number;
  maxDistance: number;
  distanceHistogram: Record<string, number>;
  /**
   * How dense with papers the department is, counted as data/webkb/figures.json counts the WebKB
   * departments (issue #83): faculty home pages, relevant documents per faculty member (students'
   * and groups' papers included, as WebKB's papers are counted whoever links them), the median
   * hops to a paper and the share 4 or more hops away (of the reachable ones), and the papers'
   * share of the department's document files (papers, teaching documents, CVs, talks, forms).
   */
  faculty: number;
  perFaculty: number;
  medianDistance: number;
  deepShare: number;
  documentShare: number;
}

export interface WebStats {
  pages: number;
  sites: number;
  links: number;
  htmlPages: number;
  meanOutDegree: number;
  outDegreeTailExponent: number;
  inDegreeExponent: number;
  inDegreeKmin: number;
  maxInDegree: number;
  muExtra: number;
  muAll: number;
  topicalLocality: number;
  localityBaseline: number;
  anchorNamesTopic: number;
  departments: DepartmentReach[];
  /** Structural diagnostics of the departments (sim/structure.ts). */
  structure: StructureStats;
  /** The search sites behind forms: database, cap and the vocabulary of their record text (Heaps' law). */
  searchSites: SearchSiteStats[];
  checks: Check[];
}

/**
 * Discrete power-law fit (Clauset, Shalizi & Newman 2009): alpha = 1 + n / sum ln(k / (kmin - 0.5)),
 * kmin chosen to minimise the Kolmogorov-Smirnov distance between data and fit.
 */
function fitPowerLaw(values: ArrayLike<number>, minTail = 50): { alpha: number; kmin: number; ks: number } {
  const xs = Array.from(values)
    .filter((v) => v > 0)
    .sort((a, b) => a - b);
  const candidates = [...new Set(xs)].filter((k) => xs.length - lowerIndex(xs, k) >= minTail).slice(0, 60);
  let best = { alpha: NaN, kmin: 1, ks: Infinity };
  for (const kmin of candidates) {
    const tail = xs.slice(lowerIndex(xs, kmin));
    let s = 0;
    for (const k of tail) s += Math.log(k / (kmin - 0.5));
    const alpha = 1 + tail.length / s;
    // KS distance between the empirical CCDF and the fitted one (continuous approximation)
    let ks = 0;
    for (let i = 0; i < tail.length; i++) {
      if (i > 0 && tail[i] === tail[i - 1]) continue;
      const emp = 1 - i / tail.length;
      const fit = ((tail[i] - 0.5) / (kmin - 0.5)) ** (1 - alpha);
      ks = Math.max(ks, Math.abs(emp - fit));
    }
    if (ks < best.ks) best = { alpha, kmin, ks };
  }
  return best;
}

function lowerIndex(sorted: number[], k: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (sorted[m] < k) lo = m + 1;
    else hi = m;
  }
  return lo;
}

const round = (x: number, d = 3): number => Math.round(x * 10 ** d) / 10 ** d;

/** Link counts over the whole web: degrees, and how often non-navigational links leave a community or keep a topic. */
interface LinkCounts {
  indeg: Int32Array;
  /** out-degree of each HTML page */
  outdeg: number[];
  links: number;
  html: number;
  /** random (extra) links, and those of them that leave their community */
  extra: number;
  extraLeave: number;
  /** non-navigational links, those that leave their community, those that keep their topic */
  nonNav: number;
  leave: number;
  sameTopic: number;
}

function countLinks(web: Web): LinkCounts {
  const c: LinkCounts = {
    indeg: new Int32Array(web.n),
    outdeg: [],
    links: 0,
    html: 0,
    extra: 0,
    extraLeave: 0,
    nonNav: 0,
    leave: 0,
    sameTopic: 0,
  };
  for (let i = 0; i < web.n; i++) {
    const d = web.outStart[i + 1] - web.outStart[i];
    if (web.isHtml(i)) {
      c.html++;
      c.outdeg.push(d);
    }
    c.links += d;
    for (let e = web.outStart[i]; e < web.outStart[i + 1]; e++) {
      const t = web.outTarget[e];
      if (t < 0) continue;
      c.indeg[t]++;
      const f = web.outFlags[e];
      if ((f & 7) === Anchor.Nav) continue;
      c.nonNav++;
      const differs = web.community[t] !== web.community[i];
      if (differs) c.leave++;
      if (web.topic[t] === web.topic[i]) c.sameTopic++;
      if (f & LinkFlag.Extra) {
        c.extra++;
        if (differs) c.extraLeave++;
      }
    }
  }
  return c;
}

/** Topical locality of random pairs: the sum over topics of p_t^2. */
function randomPairLocality(web: Web): number {
  const topicCount = new Map<number, number>();
  for (let i = 0; i < web.n; i++) topicCount.set(web.topic[i], (topicCount.get(web.topic[i]) ?? 0) + 1);
  let baseline = 0;
  for (const c of topicCount.values()) baseline += (c / web.n) ** 2;
  return baseline;
}

/** The measured figures the targets of the web's config are checked against. */
interface Measured {
  inAlpha: number;
  meanOut: number;
  outAlpha: number;
  muExtra: number;
  /** topical locality over its random-pair baseline */
  lift: number;
  anchorRate: number;
  departments: DepartmentReach[];
}

function targetChecks(web: Web, m: Measured): Check[] {
  const tg = web.config.targets;
  const mu = web.config.links.mu;
  const inRange = (v: number, [lo, hi]: [number, number]): boolean => v >= lo && v <= hi;
  return [
    {
      name: 'in-degree power-law exponent',
      value: round(m.inAlpha),
      target: `[${tg.inDegreeExponent.join(', ')}] (Broder et al.: 2.1)`,
      ok: inRange(m.inAlpha, tg.inDegreeExponent),
    },
    {
      name: 'mean out-degree (HTML pages)',
      value: round(m.meanOut, 2),
      target: `[${tg.meanOutDegree.join(', ')}] (published 8-15)`,
      ok: inRange(m.meanOut, tg.meanOutDegree),
    },
    {
      name: 'out-degree tail exponent',
      value: round(m.outAlpha),
      target: `[${tg.outDegreeTailExponent.join(', ')}] (reference 2.4-2.7)`,
      ok: inRange(m.outAlpha, tg.outDegreeTailExponent),
    },
    {
      name: 'mixing mu of random links',
      value: round(m.muExtra),
      target: `${mu} +- ${tg.muTolerance}`,
      ok: Math.abs(m.muExtra - mu) <= tg.muTolerance,
    },
    {
      name: 'topical locality lift over random pairs',
      value: round(m.lift, 2),
      target: `>= ${tg.localityLift} (Davison 2000)`,
      ok: m.lift >= tg.localityLift,
    },
    {
      name: 'anchor text names the target topic',
      value: round(m.anchorRate),
      target: `[${tg.anchorNamesTopic.join(', ')}]`,
      ok: inRange(m.anchorRate, tg.anchorNamesTopic),
    },
    {
      name: 'relevant documents unreachable from their homepage',
      value: m.departments.reduce((a, d) => a + d.unreachableRelevant, 0),
      target: '0',
      ok: m.departments.every((d) => d.unreachableRelevant === 0),
    },
  ];
}

export function computeStats(
  web: Web,
  truth = new GroundTruth(web),
  structure: StructureOptions = { keywordR1: KEYWORD_GAP_R1 },
): WebStats {
  const c = countLinks(web);
  const baseline = randomPairLocality(web);
  const inFit = fitPowerLaw(c.indeg);
  const outFit = fitPowerLaw(c.outdeg);
  const r = new Renderer(web);
  const anchors = anchorsNamingTopic(web, r);
  const departments = departmentDistances(web, truth);
  const meanOut = c.outdeg.reduce((a, b) => a + b, 0) / Math.max(1, c.outdeg.length);
  const muExtra = c.extra ? c.extraLeave / c.extra : 0;
  const locality = c.nonNav ? c.sameTopic / c.nonNav : 0;
  const anchorRate = anchors.sampled ? anchors.named / anchors.sampled : 0;
  const measured = { inAlpha: inFit.alpha, meanOut, outAlpha: outFit.alpha, muExtra, anchorRate, departments };
  const checks = targetChecks(web, { ...measured, lift: locality / baseline });
  let maxIn = 0;
  for (let i = 0; i < web.n; i++) if (c.indeg[i] > maxIn) maxIn = c.indeg[i];
  return {
    pages: web.n,
    sites: web.sites.length,
    links: c.links,
    htmlPages: c.html,
    meanOutDegree: round(meanOut, 2),
    outDegreeTailExponent: round(outFit.alpha),
    inDegreeExponent: round(inFit.alpha),
    inDegreeKmin: inFit.kmin,
    maxInDegree: maxIn,
    muExtra: round(muExtra),
    muAll: round(c.nonNav ? c.leave / c.nonNav : 0),
    topicalLocality: round(locality),
    localityBaseline: round(baseline),
    anchorNamesTopic: round(anchorRate),
    departments,
    structure: structureStats(web, r, structure),
    searchSites: searchSiteStats(web),
    checks,
  };
}

export function formatStats(s: WebStats): string {
  const lines = [
    `pages ${s.pages}  sites ${s.sites}  links ${s.links}  html pages ${s.htmlPages}`,
    `out-degree: mean ${s.meanOutDegree}, tail exponent ${s.outDegreeTailExponent} (reference 2.4-2.7)`,
    `in-degree: exponent ${s.inDegreeExponent} (k >= ${s.inDegreeKmin}), max ${s.maxInDegree}`,
    `mixing: mu of random links ${s.muExtra}, share of all non-navigation links leaving their community ${s.muAll}`,
    `topical locality: ${s.topicalLocality} of links join pages of one topic (random pairs: ${s.localityBaseline})`,
    `anchor text names the target's topic: ${s.anchorNamesTopic}`,
    '',
    'department             pages  relevant  unreachable  mean dist  max dist  distance histogram',
    ...s.departments.map(
      (d) =>
        `${d.host.padEnd(26)} ${String(d.pages).padStart(5)} ${String(d.relevant).padStart(9)} ` +
        `${String(d.unreachableRelevant).padStart(12)} ${String(d.meanDistance).padStart(10)} ` +
        `${String(d.maxDistance).padStart(9)}  ${Object.entries(d.distanceHistogram)
          .map(([k, v]) => `${k}:${v}`)
          .join(' ')}`,
    ),
    '',
    ...formatStructure(s.structure),
    '',
    ...(s.searchSites.length
      ? [
          "search site                  kind        records   top-k  distinct words  Heaps' K  Heaps' beta",
          ...s.searchSites.map(
            (x) =>
              `${x.host.padEnd(28)} ${x.kind.padEnd(10)} ${String(x.records).padStart(8)} ` +
              `${(x.topK ? String(x.topK) : 'all').padStart(7)} ${String(x.distinctWords).padStart(15)} ` +
              `${String(x.heapsK ?? '-').padStart(9)} ${String(x.heapsBeta ?? '-').padStart(12)}`,
          ),
          '',
        ]
      : []),
    'check                                                  value   target',
    ...s.checks.map(
      (c) => `${c.ok ? 'ok  ' : 'OFF '} ${c.name.padEnd(50)} ${String(c.value).padStart(6)}   ${c.target}`,
    ),
  ];
  return lines.join('\n');
}

/** Anchor quality on a fixed sample of up to 5,000 Title links into computing pages (people aside). */
function anchorsNamingTopic(web: Web, r: Renderer): { named: number; sampled: number } {
  const n = web.n;
  const rng = makeRng(`stats:${web.seed}`);
  let named = 0;
  let sampled = 0;
  const topicWordSets = web.vocab.topics.map((t) => new Set(t.words));
  for (let tries = 0; sampled < 5000 && tries < 200_000; tries++) {
    const src = rng.int(n);
    const deg = web.outStart[src + 1] - web.outStart[src];
    if (deg === 0) continue;
    const e = web.outStart[src] + rng.int(deg);
    const t = web.outTarget[e];
    const f = web.outFlags[e];
    if (t < 0 || (f & 7) !== Anchor.Title || web.topic[t] >= web.vocab.computingCount) continue;
    if (web.kind[t] === Kind.Faculty || web.kind[t] === Kind.Student) continue;
    sampled++;
    const words = r
      .anchorText(src, e, t, f)
      .toLowerCase()
      .split(/[^a-z0-9-]+/);
    if (words.some((x) => topicWordSets[web.topic[t]].has(x))) named++;
  }
  return { named, sampled };
}

/** Each department's relevant documents by hops from its homepage (unreachable ones counted apart). */
function departmentDistances(web: Web, truth: GroundTruth): DepartmentReach[] {
  return web.sites
    .filter((s) => s.kind === 'department')
    .map((s) => {
      const dist = truth.siteDistances(s.index);
      let rel = 0;
      let unreach = 0;
      let sum = 0;
      let max = 0;
      let faculty = 0;
      let documents = 0;
      const hist: Record<string, number> = {};
      for (let id = s.first; id < s.first + s.count; id++) {
        const k = web.kind[id];
        if (k === Kind.Faculty) faculty++;
        if (k === Kind.Paper || k === Kind.Syllabus || k === Kind.Form) documents++;
        if (!web.isRelevant(id)) continue;
        rel++;
        const d = dist[id - s.first];
        if (d < 0) {
          unreach++;
          continue;
        }
        sum += d;
        max = Math.max(max, d);
        hist[d] = (hist[d] ?? 0) + 1;
      }
      return {
        host: s.host,
        pages: s.count,
        relevant: rel,
        unreachableRelevant: unreach,
        meanDistance: round(sum / Math.max(1, rel - unreach), 2),
        maxDistance: max,
        distanceHistogram: hist,
        ...density(hist, rel, faculty, documents),
      };
    });
}

/**
 * Papers per faculty member, the median hops to a paper and the share 4 or more hops away (of the
 * reachable ones: hops -> count), and the papers' share of the document files: the figures
 * data/webkb/figures.json gives for the WebKB departments, computed alike.
 */
export function density(
  hist: Readonly<Record<string, number>>,
  papers: number,
  faculty: number,
  documents: number,
): Pick<DepartmentReach, 'perFaculty' | 'medianDistance' | 'deepShare' | 'documentShare' | 'faculty'> {
  const byHops = Object.entries(hist)
    .map(([h, n]) => [Number(h), n] as const)
    .sort((a, b) => a[0] - b[0]);
  const reached = byHops.reduce((a, [, n]) => a + n, 0);
  let median = Number.NaN;
  let seen = 0;
  for (const [h, n] of byHops) {
    seen += n;
    // the lower median: the hops at which half of the reachable papers are reached
    if (2 * seen >= reached) {
      median = h;
      break;
    }
  }
  const deep = byHops.filter(([h]) => h >= 4).reduce((a, [, n]) => a + n, 0);
  return {
    faculty,
    perFaculty: faculty ? round(papers / faculty, 1) : Number.NaN,
    medianDistance: median,
    deepShare: reached ? round(deep / reached, 2) : Number.NaN,
    documentShare: documents ? round(papers / documents, 2) : Number.NaN,
  };
}

/** A department's density figures as data/webkb/figures.json keeps the WebKB departments'. */
export interface DensityRow {
  site: string;
  faculty: number;
  papers: number;
  perFaculty: number;
  medianDistance: number;
  deepShare: number;
  documentShare: number;
}

/**
 * The departments' density of papers beside another web's (the WebKB departments'): one row a
 * department and a pooled row a web (papers over faculty, all departments together).
 */
export function formatDensity(webs: readonly { name: string; rows: readonly DensityRow[] }[]): string[] {
  const cell = (x: number, w: number, d = 0): string =>
    (Number.isNaN(x) ? 'n/a' : d ? x.toFixed(d) : String(x)).padStart(w);
  const line = (name: string, r: Partial<DensityRow>): string =>
    `${name.padEnd(34)}${cell(r.faculty ?? Number.NaN, 8)}${cell(r.papers ?? Number.NaN, 8)}` +
    `${cell(r.perFaculty ?? Number.NaN, 12, 1)}${r.medianDistance === undefined ? '' : cell(r.medianDistance, 12)}` +
    `${r.deepShare === undefined ? '' : cell(r.deepShare, 9, 2)}${r.documentShare === undefined ? '' : cell(r.documentShare, 18, 2)}`;
  const out = [
    `${'papers per faculty member'.padEnd(34)} faculty  papers  per faculty  median hops  4+ hops  share of documents`,
  ];
  for (const w of webs) {
    for (const r of w.rows) out.push(line(`${w.name} ${r.site}`, r));
    const faculty = w.rows.reduce((a, r) => a + r.faculty, 0);
    const papers = w.rows.reduce((a, r) => a + r.papers, 0);
    const per = w.rows.map((r) => r.perFaculty);
    out.push(
      `${line(`${w.name}, pooled`, { faculty, papers, perFaculty: faculty ? round(papers / faculty, 1) : Number.NaN })}` +
        `   (departments ${Math.min(...per).toFixed(1)}-${Math.max(...per).toFixed(1)})`,
    );
  }
  return out;
}
