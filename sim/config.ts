/**
 * Web configuration: the one place where the synthetic web's parameters, their defaults and
 * their allowed ranges live. A config file (JSON under data/webs/) overrides any subset of
 * DEFAULTS; validate() checks the merged result and names the first bad field.
 *
 * Where a default comes from the literature, the comment says which figure (docs/web.md
 * lists them with their sources); a default that no source gives is
 * called a condition.
 */
import { readFileSync } from 'node:fs';
import { DEEP_KINDS } from './deepweb/db.ts';
import type { DeepSiteConfig } from './deepweb/site.ts';
import { resource } from '../lib/paths.ts';
import { checkNumbers, getPath, numberDefaults, numberProblem, type NumberField } from '../lib/fields.ts';

export type RobotsProfile =
  | 'standard'
  | 'trap-blocked'
  | 'tricky'
  | 'crawl-delay'
  | 'crawl-delay-long'
  | 'missing'
  | 'error'
  | 'redirect';
export type BackgroundKind = 'offtopic' | 'mixed' | 'directory' | 'conference' | 'publisher' | 'personal';
export type Charset = 'utf-8' | 'iso-8859-1' | 'windows-1252';

export interface DepartmentConfig {
  /** Hostname; must end in .test. */
  host: string;
  /** Display name, e.g. "Alpha University". */
  name: string;
  /** Approximate number of pages (the generator lands within a few percent). */
  pages: number;
  /** Number of research groups (topical communities). */
  groups: number;
  robots: RobotsProfile;
  charset: Charset;
  /** Session ids appended to internal links (a spider trap of URL variants). */
  sessionIds: boolean;
  /** Server-side rate limit: requests closer together than this get 429 + Retry-After. 0 = none. */
  minGapMs: number;
}

export interface WebConfig {
  name: string;
  departments: DepartmentConfig[];
  background: {
    sites: number;
    pagesMin: number;
    pagesMax: number;
    /** Share of background sites of each kind (normalised). */
    kinds: Record<BackgroundKind, number>;
    /** Share of background hosts with each robots profile (normalised). */
    robots: Partial<Record<RobotsProfile, number>>;
    /** Share of background hosts that rate-limit (429) at minGapMs. */
    rateLimitedShare: number;
    minGapMs: number;
  };
  structure: {
    /** Faculty per 1,000 department pages. */
    facultyPerK: number;
    studentsPerK: number;
    coursesPerK: number;
    newsPerK: number;
    adminPerK: number;
    /** Mean research papers per faculty member (each also has a publication list). */
    papersPerFaculty: number;
    /** Share of students with their own publication list. */
    studentPublishShare: number;
    papersPerStudent: number;
    /** Share of papers served as .ps (the rest .pdf). */
    postscriptShare: number;
    /** Off-topic pages (hops) between the research index and a group: uniform in [min, max]. */
    gapMin: number;
    gapMax: number;
    /** Share of groups also linked straight from the research index (no gap): a bypass of the gap. */
    directGroupShare: number;
    /**
     * Site conventions (sim/conventions.ts: home directories, paper folders, publication list
     * names, titles and headings, generic paper anchors, the .pdf/.ps mix): 0 = every department
     * the same template, 1 = every department draws its own. Default 1: real departments differ
     * (the four WebKB departments use four URL layouts), and with one template a link classifier
     * trained on three departments knows the fourth perfectly.
     */
    conventions: number;
    /**
     * Share of departments that draw their own document forms (sim/conventions.ts DOC_FORMS:
     * gzipped PostScript, HTML abstract pages in front of the files); 0 = none, the former
     * template. Default 0, a condition: kept off so the calibrated web stays as measured; a sweep
     * dials it.
     */
    documentForms: number;
    /** Where relevant documents are linked from, besides their owner's publication list. */
    papersFrom: {
      /** Share of a faculty member's papers also linked from the home page ("selected papers"). */
      ownerHomeShare: number;
      /** The group's publication page lists up to 60 of its members' papers. */
      groupList: boolean;
      /** Papers linked from each project page. */
      projectLinks: number;
      /**
       * A relevant document's weight as the target of extra (random) links, relative to other
       * pages: 1 = like any page (75% of links to papers were such extras), 0 = never. Default
       * 0.1, a condition: papers are linked from their lists, seldom from news or lecture pages;
       * no published figure gives this share. sim:stats measures the resulting share.
       */
      extraWeight: number;
    };
    /**
     * Shortcuts between research communities that bypass the off-topic gap chains: the nav bar
     * of every page (links to /people/ and /research/; the link home stays), the people
     * directory (faculty and student lists linking every person), and extra links that jump into
     * another research community or into the middle of a gap chain. All on by default (real department sites have them); with all
     * off and directGroupShare 0, no community reaches another in fewer than gapMin off-topic
     * pages (sim:stats measures it).
     */
    bypass: { navBar: boolean; peopleDirectory: boolean; extraLinks: boolean };
    /** Lecture pages per course, uniform in [min, max] (topical dead ends one hop from a course). */
    lecturesMin: number;
    lecturesMax: number;
    /** Share of courses (with their lectures) on a computing sub-topic; the rest are on campus matters. */
    lectureTopicality: number;
  };
  links: {
    /** Mixing mu (LFR): share of a page's random links that leave its community. */
    mu: number;
    /** Share of leaving links that go to another site. */
    crossSiteShare: number;
    /** Power-law exponent of page attractiveness, hence of in-degree (Broder et al.: 2.1). */
    inDegreeExponent: number;
    /** Power-law exponent of the number of extra (non-structural) links (reference: 2.4-2.7). */
    outDegreeExponent: number;
    /** Minimum extra links per HTML page; sets the mean out-degree with the exponent. */
    extraMin: number;
    /** Cap on extra links per page. */
    extraMax: number;
    /** Share of links that point to a page that does not exist (404). */
    brokenShare: number;
    /** Share of internal links written in a form that redirects (301/302). */
    redirectShare: number;
  };
  anchors: {
    /** Probability that a topical anchor is replaced by generic words. */
    noise: number;
    /** Probability that the words around a link come from the source page, not the target. */
    aroundNoise: number;
    /** Words on each side of a link. */
    aroundWords: number;
  };
  text: {
    zipfExponent: number;
    wordsMin: number;
    wordsMax: number;
    /** Share of a topical page's words drawn from its own sub-topic. */
    topicShare: number;
  };
  faults: {
    transientErrorRate: number;
    /** Retry-After of a transient 503, whole seconds (HTTP delta-seconds; 0 = retry at once). */
    retryAfterSec: number;
    slowRate: number;
    slowMs: number;
    malformedRate: number;
    oversizedRate: number;
    oversizedBytes: number;
  };
  /**
   * Vertical search sites behind forms (deep-web experiments). Each is linked from the home
   * pages of the background directory sites, so crawling finds its form.
   */
  deepweb: { sites: DeepSiteConfig[] };
  /**
   * Geography: every site sits in a region; a request that declares its crawler's region (header
   * x-crawler-region) is answered after the round trip between the two regions plus the body's
   * transfer time at the pair's bandwidth. Requests that declare nothing are not delayed.
   * Defaults: approximate public-cloud inter-region round trips (cloudping.co, AWS us-east-1 /
   * eu-west-1 / ap-northeast-1) and per-connection throughput.
   */
  geo: {
    regions: string[];
    /** Round trip between regions, ms (row: crawler region, column: site region). */
    rttMs: number[][];
    /** Throughput of one connection between regions, MB/s. */
    bandwidthMBps: number[][];
    /** Share of sites in each region (hosts are assigned by a hash of their name). */
    siteShares: number[];
    /** Multiplies every geographic delay (experiments shrink time to run faster). */
    timeScale: number;
  };
  /** Bands the generated web's statistics must fall in (checked by sim:stats and the tests). */
  targets: {
    inDegreeExponent: [number, number];
    meanOutDegree: [number, number];
    outDegreeTailExponent: [number, number];
    muTolerance: number;
    /** Topical locality must be at least this multiple of the random-pair baseline. */
    localityLift: number;
    anchorNamesTopic: [number, number];
  };
}

/** Defaults of one search site: 10 result pages of 20 (a top-200 cap), no rate limit. */
const DEEP_SITE_DEFAULTS: Omit<DeepSiteConfig, 'host'> = {
  kind: 'jobs',
  records: 10_000,
  pageSize: 20,
  topK: 200,
  minGapMs: 0,
};

const dept = (
  host: string,
  name: string,
  pages: number,
  groups: number,
  extra: Partial<DepartmentConfig> = {},
): DepartmentConfig => ({
  host,
  name,
  pages,
  groups,
  robots: 'standard',
  charset: 'utf-8',
  sessionIds: false,
  minGapMs: 0,
  ...extra,
});

/**
 * Every scalar numeric field of a web config, once: default, range and help (the interface
 * above says more, and docs/web.md gives the sources). DEFAULTS'
 * numbers, validate()'s ranges and `npm run sim -- --help` derive from this table. Numbers in
 * lists (departments, search sites, geography matrices) and the statistics' target bands are
 * checked where they are read.
 */
export const WEB_NUMBERS: readonly NumberField[] = [
  {
    path: 'background.sites',
    default: 240,
    min: 0,
    max: 100_000,
    integer: true,
    help: 'background sites (off-topic, mixed, directories, conferences, publishers, personal)',
  },
  {
    path: 'background.pagesMin',
    default: 10,
    min: 1,
    max: 100_000,
    integer: true,
    help: 'pages of a background site, at least',
  },
  {
    path: 'background.pagesMax',
    default: 80,
    min: 1,
    max: 100_000,
    integer: true,
    help: 'pages of a background site, at most (>= pagesMin)',
  },
  {
    path: 'background.rateLimitedShare',
    default: 0.05,
    min: 0,
    max: 1,
    help: 'share of background hosts that rate-limit (429) at minGapMs',
  },
  {
    path: 'background.minGapMs',
    default: 50,
    min: 0,
    max: 60_000,
    help: "the rate-limited background hosts' minimum gap, ms",
  },
  { path: 'structure.facultyPerK', default: 8, min: 0, max: 500, help: 'faculty per 1,000 department pages' },
  { path: 'structure.studentsPerK', default: 30, min: 0, max: 500, help: 'students per 1,000 department pages' },
  { path: 'structure.coursesPerK', default: 8, min: 0, max: 500, help: 'courses per 1,000 department pages' },
  { path: 'structure.newsPerK', default: 40, min: 0, max: 500, help: 'news pages per 1,000 department pages' },
  {
    path: 'structure.adminPerK',
    default: 40,
    min: 0,
    max: 500,
    help: 'administrative pages per 1,000 department pages',
  },
  { path: 'structure.papersPerFaculty', default: 8, min: 0, max: 200, help: 'mean research papers per faculty member' },
  {
    path: 'structure.studentPublishShare',
    default: 0.5,
    min: 0,
    max: 1,
    help: 'share of students with their own publication list',
  },
  {
    path: 'structure.papersPerStudent',
    default: 3,
    min: 0,
    max: 200,
    help: 'mean research papers per publishing student',
  },
  {
    path: 'structure.postscriptShare',
    default: 0.3,
    min: 0,
    max: 1,
    help: 'share of papers served as .ps (the rest .pdf)',
  },
  {
    path: 'structure.gapMin',
    default: 1,
    min: 0,
    max: 20,
    integer: true,
    help: 'off-topic pages between the research index and a group, at least (a condition: the paper gives no length)',
  },
  {
    path: 'structure.gapMax',
    default: 3,
    min: 0,
    max: 20,
    integer: true,
    help: 'off-topic pages between the research index and a group, at most (>= gapMin; a condition)',
  },
  {
    path: 'structure.directGroupShare',
    default: 0.3,
    min: 0,
    max: 1,
    help: 'share of groups also linked straight from the research index',
  },
  {
    path: 'structure.conventions',
    default: 1,
    min: 0,
    max: 1,
    help: '0: one template for every department; 1: each draws its own conventions',
  },
  {
    path: 'structure.documentForms',
    default: 0,
    min: 0,
    max: 1,
    help: 'share of departments with their own document forms (.ps.gz, abstract pages)',
  },
  {
    path: 'structure.papersFrom.ownerHomeShare',
    default: 0.15,
    min: 0,
    max: 1,
    help: "share of a faculty member's papers also linked from the home page",
  },
  {
    path: 'structure.papersFrom.projectLinks',
    default: 4,
    min: 0,
    max: 50,
    integer: true,
    help: 'papers linked from each project page',
  },
  {
    path: 'structure.papersFrom.extraWeight',
    default: 0.1,
    min: 0,
    max: 10,
    help: "a paper's weight as the target of extra links (1 = like any page)",
  },
  {
    path: 'structure.lecturesMin',
    default: 5,
    min: 0,
    max: 100,
    integer: true,
    help: 'lecture pages per course, at least',
  },
  {
    path: 'structure.lecturesMax',
    default: 15,
    min: 0,
    max: 100,
    integer: true,
    help: 'lecture pages per course, at most (>= lecturesMin)',
  },
  {
    path: 'structure.lectureTopicality',
    default: 1,
    min: 0,
    max: 1,
    help: "share of courses on a computing sub-topic (a condition: a CS department's courses are on computing)",
  },
  {
    path: 'links.mu',
    default: 0.2,
    min: 0,
    max: 1,
    help: "mixing mu (LFR): share of a page's random links that leave its community",
  },
  {
    path: 'links.crossSiteShare',
    default: 0.05,
    min: 0,
    max: 1,
    help: 'share of leaving links that go to another site',
  },
  {
    path: 'links.inDegreeExponent',
    default: 2.1,
    min: 1.5,
    max: 4,
    help: 'power-law exponent of page attractiveness, hence of in-degree (Broder et al.: 2.1)',
  },
  {
    path: 'links.outDegreeExponent',
    default: 2.3,
    min: 1.5,
    max: 4,
    help: 'power-law exponent of the number of extra links per page',
  },
  { path: 'links.extraMin', default: 3, min: 0, max: 100, integer: true, help: 'extra links per HTML page, at least' },
  {
    path: 'links.extraMax',
    default: 200,
    min: 0,
    max: 10_000,
    integer: true,
    help: 'extra links per page, at most (>= extraMin)',
  },
  {
    path: 'links.brokenShare',
    default: 0.01,
    min: 0,
    max: 0.5,
    help: 'share of links to a page that does not exist (404)',
  },
  {
    path: 'links.redirectShare',
    default: 0.03,
    min: 0,
    max: 0.5,
    help: 'share of internal links written in a form that redirects',
  },
  {
    path: 'anchors.noise',
    default: 0.25,
    min: 0,
    max: 1,
    help: 'probability that a topical anchor is replaced by generic words',
  },
  {
    path: 'anchors.aroundNoise',
    default: 0.3,
    min: 0,
    max: 1,
    help: 'probability that the words around a link come from the source page',
  },
  { path: 'anchors.aroundWords', default: 6, min: 0, max: 50, integer: true, help: 'words on each side of a link' },
  { path: 'text.zipfExponent', default: 1, min: 0, max: 3, help: 'Zipf exponent of word frequencies' },
  { path: 'text.wordsMin', default: 120, min: 1, max: 100_000, integer: true, help: 'words of a page, at least' },
  {
    path: 'text.wordsMax',
    default: 320,
    min: 1,
    max: 100_000,
    integer: true,
    help: 'words of a page, at most (>= wordsMin)',
  },
  {
    path: 'text.topicShare',
    default: 0.45,
    min: 0,
    max: 1,
    help: "share of a topical page's words drawn from its own sub-topic",
  },
  {
    path: 'faults.transientErrorRate',
    default: 0.01,
    min: 0,
    max: 0.5,
    help: 'share of attempts answered 500/502/503',
  },
  {
    path: 'faults.retryAfterSec',
    default: 1,
    min: 0,
    max: 3600,
    integer: true,
    help: 'Retry-After of a transient 503, whole seconds (tests of timing-free logs set 0)',
  },
  { path: 'faults.slowRate', default: 0.005, min: 0, max: 0.5, help: 'share of pages answered slowly' },
  { path: 'faults.slowMs', default: 150, min: 0, max: 60_000, integer: true, help: 'delay of a slow response, ms' },
  { path: 'faults.malformedRate', default: 0.03, min: 0, max: 0.5, help: 'share of pages with malformed HTML' },
  { path: 'faults.oversizedRate', default: 0.001, min: 0, max: 0.5, help: 'share of oversized pages' },
  {
    path: 'faults.oversizedBytes',
    default: 3_000_000,
    min: 1000,
    max: 100_000_000,
    integer: true,
    help: 'size of an oversized page, bytes',
  },
  { path: 'geo.timeScale', default: 1, min: 0, max: 100, help: 'multiplies every geographic delay' },
];

/** Fields whose maximum is another field (min <= max). */
const MIN_MAX: [string, string][] = [
  ['background.pagesMin', 'background.pagesMax'],
  ['structure.gapMin', 'structure.gapMax'],
  ['structure.lecturesMin', 'structure.lecturesMax'],
  ['links.extraMin', 'links.extraMax'],
  ['text.wordsMin', 'text.wordsMax'],
];

const N = numberDefaults(WEB_NUMBERS) as {
  background: Pick<WebConfig['background'], 'sites' | 'pagesMin' | 'pagesMax' | 'rateLimitedShare' | 'minGapMs'>;
  structure: Omit<WebConfig['structure'], 'papersFrom' | 'bypass'> & {
    papersFrom: Omit<WebConfig['structure']['papersFrom'], 'groupList'>;
  };
  links: WebConfig['links'];
  anchors: WebConfig['anchors'];
  text: WebConfig['text'];
  faults: WebConfig['faults'];
  geo: Pick<WebConfig['geo'], 'timeScale'>;
};

export const DEFAULTS: WebConfig = {
  name: 'default',
  departments: [
    dept('cs.alpha-university.test', 'Alpha University', 6000, 7),
    dept('cs.beta-university.test', 'Beta University', 5000, 6, { robots: 'tricky', charset: 'iso-8859-1' }),
    dept('cs.gamma-university.test', 'Gamma University', 7000, 8, { sessionIds: true }),
    dept('cs.delta-university.test', 'Delta University', 5500, 6, { robots: 'trap-blocked', charset: 'windows-1252' }),
  ],
  background: {
    ...N.background,
    kinds: { offtopic: 0.35, mixed: 0.15, directory: 0.1, conference: 0.15, publisher: 0.1, personal: 0.15 },
    robots: {
      standard: 0.6,
      'trap-blocked': 0.1,
      tricky: 0.1,
      'crawl-delay': 0.04,
      'crawl-delay-long': 0.01,
      missing: 0.1,
      error: 0.03,
      redirect: 0.02,
    },
  },
  structure: {
    ...N.structure,
    papersFrom: { ...N.structure.papersFrom, groupList: true },
    bypass: { navBar: true, peopleDirectory: true, extraLinks: true },
  },
  links: N.links,
  anchors: N.anchors,
  text: N.text,
  faults: N.faults,
  deepweb: { sites: [] },
  geo: {
    regions: ['us', 'eu', 'asia'],
    rttMs: [
      [2, 70, 150],
      [70, 2, 210],
      [150, 210, 2],
    ],
    bandwidthMBps: [
      [100, 20, 10],
      [20, 100, 8],
      [10, 8, 100],
    ],
    siteShares: [0.45, 0.35, 0.2],
    ...N.geo,
  },
  targets: {
    inDegreeExponent: [1.8, 2.6],
    meanOutDegree: [8, 15],
    outDegreeTailExponent: [2.2, 2.9],
    muTolerance: 0.05,
    localityLift: 3,
    anchorNamesTopic: [0.4, 0.9],
  },
};

export class ConfigError extends Error {
  readonly code = 'SIM_ERR_CONFIG';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConfigError';
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep-merge `over` onto `base`; arrays and scalars replace, unknown keys are errors. */
function merge(base: unknown, over: unknown, path: string): unknown {
  if (over === undefined) return base;
  if (isObject(base) && !Array.isArray(base)) {
    if (!isObject(over)) throw new ConfigError(`${path || 'config'}: expected an object`);
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(over)) {
      if (k.startsWith('_')) continue; // _doc and other comments
      const p = path ? `${path}.${k}` : k;
      // open maps (kinds, robots shares) take any known key of their own
      if (!(k in base) && !OPEN_MAPS.has(path)) throw new ConfigError(`${p}: unknown field`);
      out[k] = merge((base as Record<string, unknown>)[k], v, p);
    }
    return out;
  }
  return over;
}
const OPEN_MAPS = new Set(['background.robots']);

/** Every robots.txt profile a site can have (the server's tests serve one department of each). */
export const ROBOTS_PROFILES: readonly RobotsProfile[] = [
  'standard',
  'trap-blocked',
  'tricky',
  'crawl-delay',
  'crawl-delay-long',
  'missing',
  'error',
  'redirect',
];
const CHARSETS: Charset[] = ['utf-8', 'iso-8859-1', 'windows-1252'];
const HOST_RE = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.test$/;

/** A number in a list (departments, search sites, geography), checked as a table's field would be. */
function num(v: unknown, path: string, min: number, max: number, integer = false): void {
  const why = numberProblem({ min, max, integer }, v);
  if (why) throw new ConfigError(`${path}: ${why}`);
}

/** Checks every field of a merged config; throws ConfigError naming the first bad one. */
export function validate(c: WebConfig): WebConfig {
  if (typeof c.name !== 'string' || !c.name) throw new ConfigError('name: expected a non-empty string');
  if (!Array.isArray(c.departments) || c.departments.length < 1 || c.departments.length > 64)
    throw new ConfigError('departments: expected a list of 1 to 64 departments');
  const hosts = new Set<string>();
  c.departments.forEach((d0, i) => {
    const p = `departments[${i}]`;
    if (!isObject(d0)) throw new ConfigError(`${p}: expected an object`);
    const d = { ...dept('x.test', 'x', 1000, 4), ...d0 } as DepartmentConfig;
    c.departments[i] = d;
    for (const k of Object.keys(d0))
      if (!(k in d) || k.startsWith('_')) if (!k.startsWith('_')) throw new ConfigError(`${p}.${k}: unknown field`);
    if (typeof d.host !== 'string' || !HOST_RE.test(d.host))
      throw new ConfigError(`${p}.host: "${d.host}" must be a lowercase hostname ending in .test`);
    if (hosts.has(d.host)) throw new ConfigError(`${p}.host: "${d.host}" is used twice`);
    hosts.add(d.host);
    num(d.pages, `${p}.pages`, 200, 2_000_000, true);
    num(d.groups, `${p}.groups`, 1, 200, true);
    if (!ROBOTS_PROFILES.includes(d.robots))
      throw new ConfigError(`${p}.robots: "${d.robots}" is not one of ${ROBOTS_PROFILES.join(', ')}`);
    if (!CHARSETS.includes(d.charset))
      throw new ConfigError(`${p}.charset: "${d.charset}" is not one of ${CHARSETS.join(', ')}`);
    if (typeof d.sessionIds !== 'boolean') throw new ConfigError(`${p}.sessionIds: expected true or false`);
    num(d.minGapMs, `${p}.minGapMs`, 0, 60_000);
  });
  for (const [k, v] of Object.entries(c.background.kinds)) num(v, `background.kinds.${k}`, 0, 1);
  for (const [k, v] of Object.entries(c.background.robots)) {
    if (!ROBOTS_PROFILES.includes(k as RobotsProfile))
      throw new ConfigError(`background.robots.${k}: not one of ${ROBOTS_PROFILES.join(', ')}`);
    num(v, `background.robots.${k}`, 0, 1);
  }
  const numbers = checkNumbers(WEB_NUMBERS, c);
  if (numbers) throw new ConfigError(numbers);
  for (const [lo, hi] of MIN_MAX)
    if ((getPath(c, hi) as number) < (getPath(c, lo) as number))
      throw new ConfigError(`${hi}: expected at least ${lo} (${getPath(c, lo)}), got ${getPath(c, hi)}`);
  const s = c.structure;
  if (typeof s.papersFrom.groupList !== 'boolean')
    throw new ConfigError('structure.papersFrom.groupList: expected true or false');
  for (const k of ['navBar', 'peopleDirectory', 'extraLinks'] as const)
    if (typeof s.bypass[k] !== 'boolean') throw new ConfigError(`structure.bypass.${k}: expected true or false`);
  const g = c.geo;
  const R = Array.isArray(g.regions) ? g.regions.length : 0;
  if (R < 1 || R > 32 || g.regions.some((r) => typeof r !== 'string' || !/^[a-z0-9-]+$/.test(r)))
    throw new ConfigError('geo.regions: expected 1 to 32 region names (lowercase letters, digits, -)');
  for (const k of ['rttMs', 'bandwidthMBps'] as const) {
    if (!Array.isArray(g[k]) || g[k].length !== R || g[k].some((row) => !Array.isArray(row) || row.length !== R))
      throw new ConfigError(`geo.${k}: expected a ${R} x ${R} matrix (one row and column per region)`);
    g[k].forEach((row, i) =>
      row.forEach((x, j) =>
        num(x, `geo.${k}[${i}][${j}]`, k === 'rttMs' ? 0 : 0.001, k === 'rttMs' ? 10_000 : 100_000),
      ),
    );
  }
  if (!Array.isArray(g.siteShares) || g.siteShares.length !== R)
    throw new ConfigError(`geo.siteShares: expected ${R} shares, one per region`);
  g.siteShares.forEach((x, i) => num(x, `geo.siteShares[${i}]`, 0, 1));
  if (!g.siteShares.some((x) => x > 0)) throw new ConfigError('geo.siteShares: at least one share must be above 0');
  if (!isObject(c.deepweb) || !Array.isArray(c.deepweb.sites))
    throw new ConfigError('deepweb.sites: expected a list of search sites');
  c.deepweb.sites.forEach((d0, i) => {
    const p = `deepweb.sites[${i}]`;
    if (!isObject(d0)) throw new ConfigError(`${p}: expected an object`);
    const d = { ...DEEP_SITE_DEFAULTS, ...(d0 as object) } as DeepSiteConfig;
    c.deepweb.sites[i] = d;
    for (const k of Object.keys(d0))
      if (!['kind', 'host', 'records', 'pageSize', 'topK', 'minGapMs'].includes(k) && !k.startsWith('_'))
        throw new ConfigError(`${p}.${k}: unknown field`);
    if (!DEEP_KINDS.includes(d.kind))
      throw new ConfigError(`${p}.kind: "${d.kind}" is not one of ${DEEP_KINDS.join(', ')}`);
    if (typeof d.host !== 'string' || !HOST_RE.test(d.host))
      throw new ConfigError(`${p}.host: "${d.host}" must be a lowercase hostname ending in .test`);
    if (hosts.has(d.host)) throw new ConfigError(`${p}.host: "${d.host}" is used twice`);
    hosts.add(d.host);
    num(d.records, `${p}.records`, 1_000, 1_000_000, true);
    num(d.pageSize, `${p}.pageSize`, 1, 500, true);
    num(d.topK, `${p}.topK`, 0, 1_000_000, true);
    num(d.minGapMs, `${p}.minGapMs`, 0, 60_000);
  });
  return c;
}

/** Merges a partial config (parsed JSON) onto DEFAULTS and validates it. */
export function resolveConfig(partial: unknown): WebConfig {
  if (!isObject(partial)) throw new ConfigError('config: expected a JSON object');
  const merged = merge(structuredClone(DEFAULTS), partial as Json, '') as WebConfig;
  return validate(merged);
}

export function loadConfig(file: string): WebConfig {
  let text: string;
  try {
    text = readFileSync(resource(file), 'utf8');
  } catch (e) {
    throw new ConfigError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  try {
    return resolveConfig(json);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`${file}: ${e.message}`, { cause: e });
    throw e;
  }
}
