/**
 * The synthetic web's parameters declared once (lib/schema.ts): every field, its default, its
 * allowed range and its help; the WebConfig type and DEFAULTS derive from it. Where a default
 * comes from the literature, the comment says which figure (docs/web.md lists them with their
 * sources); a default that no source gives is called a condition. Loading and the checks across
 * fields are config.ts's.
 */
import { bool, defaultsOf, list, num, obj, oneOf, type Static, str, Type } from '../lib/schema.ts';
import { DEEP_KINDS } from './deepweb/db.ts';

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
const CHARSETS: readonly Charset[] = ['utf-8', 'iso-8859-1', 'windows-1252'];
const HOST = '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\\.test$';
const host = (help: string) => str({ pattern: HOST, expected: 'a lowercase hostname ending in .test', help });
const share = (d: number, help: string) => num({ default: d, min: 0, max: 1, help });
const band = (d: [number, number], help: string) =>
  Type.Tuple([Type.Number(), Type.Number()], { default: d, description: help });
const matrix = (d: number[][], min: number, max: number, help: string) =>
  list(list(Type.Number({ minimum: min, maximum: max }), { help: 'a row' }), { default: d, help });
const dept = (host: string, name: string, pages: number, groups: number, extra: object = {}) => ({
  host,
  name,
  pages,
  groups,
  robots: 'standard' as const,
  charset: 'utf-8' as const,
  sessionIds: false,
  minGapMs: 0,
  ...extra,
});

/**
 * The web config, declared once (lib/schema.ts): the WebConfig type, DEFAULTS, the checks of each
 * field, `npm run sim -- --help` and schemas/web.schema.json derive from it. Checks across fields
 * (min <= max, hosts used once, matrix sizes) are in validate() below.
 */
export const WebSchema = obj({
  name: str({ default: 'default', minLength: 1, expected: 'a non-empty string', help: "the web's name" }),
  departments: list(
    obj({
      host: host('hostname; must end in .test'),
      name: str({ help: 'display name, e.g. "Alpha University"' }),
      pages: num({
        default: 1000,
        min: 200,
        max: 2_000_000,
        integer: true,
        help: 'approximate number of pages (the generator lands within a few percent)',
      }),
      groups: num({ default: 4, min: 1, max: 200, integer: true, help: 'research groups (topical communities)' }),
      robots: oneOf(ROBOTS_PROFILES, { default: 'standard', help: 'robots.txt profile (sim/robots-profiles.ts)' }),
      charset: oneOf(CHARSETS, { default: 'utf-8', help: 'character set of its pages' }),
      sessionIds: bool({
        default: false,
        help: 'session ids appended to internal links (a spider trap of URL variants)',
      }),
      minGapMs: num({
        default: 0,
        min: 0,
        max: 60_000,
        help: 'server-side rate limit: requests closer than this get 429 + Retry-After (0: none)',
      }),
    }),
    {
      default: [
        dept('cs.alpha-university.test', 'Alpha University', 6000, 7),
        dept('cs.beta-university.test', 'Beta University', 5000, 6, { robots: 'tricky', charset: 'iso-8859-1' }),
        dept('cs.gamma-university.test', 'Gamma University', 7000, 8, { sessionIds: true }),
        dept('cs.delta-university.test', 'Delta University', 5500, 6, {
          robots: 'trap-blocked',
          charset: 'windows-1252',
        }),
      ],
      minItems: 1,
      maxItems: 64,
      expected: 'a list of 1 to 64 departments',
      help: 'the university departments (each: host, name, pages, groups, robots, charset, sessionIds, minGapMs)',
    },
  ),
  background: obj({
    sites: num({
      default: 240,
      min: 0,
      max: 100_000,
      integer: true,
      help: 'background sites (off-topic, mixed, directories, conferences, publishers, personal)',
    }),
    pagesMin: num({ default: 10, min: 1, max: 100_000, integer: true, help: 'pages of a background site, at least' }),
    pagesMax: num({
      default: 80,
      min: 1,
      max: 100_000,
      integer: true,
      help: 'pages of a background site, at most (>= pagesMin)',
    }),
    rateLimitedShare: num({
      default: 0.05,
      min: 0,
      max: 1,
      help: 'share of background hosts that rate-limit (429) at minGapMs',
    }),
    minGapMs: num({ default: 50, min: 0, max: 60_000, help: "the rate-limited background hosts' minimum gap, ms" }),
    /** Share of background sites of each kind (normalised). */
    kinds: obj({
      offtopic: share(0.35, 'share of off-topic sites (normalised with the others)'),
      mixed: share(0.15, 'share of mixed sites'),
      directory: share(0.1, 'share of directory sites (they link the deep-web search sites)'),
      conference: share(0.15, 'share of conference sites'),
      publisher: share(0.1, 'share of publisher sites'),
      personal: share(0.15, 'share of personal sites'),
    }),
    /** Share of background hosts with each robots profile (normalised). */
    robots: obj({
      standard: share(0.6, 'share of background hosts with the standard robots.txt (normalised)'),
      'trap-blocked': share(0.1, 'share with trap-blocked'),
      tricky: share(0.1, 'share with tricky'),
      'crawl-delay': share(0.04, 'share with crawl-delay'),
      'crawl-delay-long': share(0.01, 'share with crawl-delay-long'),
      missing: share(0.1, 'share with no robots.txt'),
      error: share(0.03, 'share whose robots.txt fails'),
      redirect: share(0.02, 'share whose robots.txt redirects'),
    }),
  }),
  structure: obj({
    facultyPerK: num({ default: 8, min: 0, max: 500, help: 'faculty per 1,000 department pages' }),
    studentsPerK: num({ default: 30, min: 0, max: 500, help: 'students per 1,000 department pages' }),
    coursesPerK: num({ default: 8, min: 0, max: 500, help: 'courses per 1,000 department pages' }),
    newsPerK: num({ default: 40, min: 0, max: 500, help: 'news pages per 1,000 department pages' }),
    adminPerK: num({ default: 40, min: 0, max: 500, help: 'administrative pages per 1,000 department pages' }),
    papersPerFaculty: num({ default: 8, min: 0, max: 200, help: 'mean research papers per faculty member' }),
    studentPublishShare: num({
      default: 0.5,
      min: 0,
      max: 1,
      help: 'share of students with their own publication list',
    }),
    papersPerStudent: num({ default: 3, min: 0, max: 200, help: 'mean research papers per publishing student' }),
    postscriptShare: num({ default: 0.3, min: 0, max: 1, help: 'share of papers served as .ps (the rest .pdf)' }),
    gapMin: num({
      default: 1,
      min: 0,
      max: 20,
      integer: true,
      help: 'off-topic pages between the research index and a group, at least (a condition: the paper gives no length)',
    }),
    gapMax: num({
      default: 3,
      min: 0,
      max: 20,
      integer: true,
      help: 'off-topic pages between the research index and a group, at most (>= gapMin; a condition)',
    }),
    directGroupShare: num({
      default: 0.3,
      min: 0,
      max: 1,
      help: 'share of groups also linked straight from the research index',
    }),
    /**
     * Site conventions (sim/conventions.ts: home directories, paper folders, publication list
     * names, titles and headings, generic paper anchors, the .pdf/.ps mix): 0 = every department
     * the same template, 1 = every department draws its own. Default 1: real departments differ
     * (the four WebKB departments use four URL layouts), and with one template a link classifier
     * trained on three departments knows the fourth perfectly.
     */
    conventions: num({
      default: 1,
      min: 0,
      max: 1,
      help: '0: one template for every department; 1: each draws its own conventions',
    }),
    /**
     * Share of departments that draw their own document forms (sim/conventions.ts DOC_FORMS:
     * gzipped PostScript, HTML abstract pages in front of the files); 0 = none, the former
     * template. Default 0, a condition: kept off so the calibrated web stays as measured; a sweep
     * dials it.
     */
    documentForms: num({
      default: 0,
      min: 0,
      max: 1,
      help: 'share of departments with their own document forms (.ps.gz, abstract pages)',
    }),
    /**
     * Share of departments whose cues by page kind are drawn, not fixed (issue #66): the heading
     * above a page's links drawn per department and page kind from one pool every kind shares
     * (sim/conventions.ts HEADINGS: a faculty page may say "Publications", a publication list
     * "Papers and Reports"), and the titles of every kind of document (papers, slides,
     * assignments, talks) from one length distribution, 2-7 words; half of the other documents
     * kept in the papers' folder, and every kind of document numbered in one series (one
     * file-name prefix: sim/conventions.ts DOC_SERIES). 0 = the web before: fixed headings by
     * kind, papers' longer titles, a folder and a "tr-" prefix that only papers have, which a
     * learner with no topic reads (lib/leak-probe.ts). Default 1: no such cue marks papers for free.
     */
    cues: num({
      default: 1,
      min: 0,
      max: 1,
      help: "share of departments whose headings, document title lengths, papers' folder and file prefix do not mark the page kind (0: they do, a leak)",
    }),
    /**
     * Share of departments that name every kind of document from one pool of file-name schemes
     * (sim/conventions.ts DOC_NAME_POOLS, issue #52); 0 = the names before, where a paper's file
     * name shape alone told it from every other document. Default 1: no shape marks papers for free.
     */
    documentNames: num({
      default: 1,
      min: 0,
      max: 1,
      help: "share of departments naming every document kind by one pool of schemes (0: papers' own names, a leak)",
    }),
    /**
     * Whether document bodies have their own structure by kind with sizes that overlap (issue #52):
     * papers with 3-7 sections from a pool, slides with an outline and often references, talk
     * slides often with an abstract, CVs with publications, syllabi with readings. 0: the bodies
     * before, where only papers had an abstract, sections and references and were 3-5 times larger
     * than any other document, so "a PDF with an abstract and references" judged papers almost free.
     */
    documentBodies: num({
      default: 1,
      min: 0,
      max: 1,
      integer: true,
      help: '1: every kind of document structured, sizes overlapping; 0: the former bodies (only papers structured)',
    }),
    /** Where relevant documents are linked from, besides their owner's publication list. */
    papersFrom: obj({
      ownerHomeShare: num({
        default: 0.15,
        min: 0,
        max: 1,
        help: "share of a faculty member's papers also linked from the home page",
      }),
      projectLinks: num({ default: 4, min: 0, max: 50, integer: true, help: 'papers linked from each project page' }),
      /**
       * A relevant document's weight as the target of extra (random) links, relative to other
       * pages: 1 = like any page (75% of links to papers were such extras), 0 = never. Default
       * 0.1, a condition: papers are linked from their lists, seldom from news or lecture pages;
       * no published figure gives this share. sim:stats measures the resulting share.
       */
      extraWeight: num({
        default: 0.1,
        min: 0,
        max: 10,
        help: "a paper's weight as the target of extra links (1 = like any page)",
      }),
      groupList: bool({ default: true, help: "the group's publication page lists up to 60 of its members' papers" }),
    }),
    lecturesMin: num({ default: 5, min: 0, max: 100, integer: true, help: 'lecture pages per course, at least' }),
    lecturesMax: num({
      default: 15,
      min: 0,
      max: 100,
      integer: true,
      help: 'lecture pages per course, at most (>= lecturesMin)',
    }),
    lectureTopicality: num({
      default: 1,
      min: 0,
      max: 1,
      help: "share of courses on a computing sub-topic (a condition: a CS department's courses are on computing)",
    }),
    /**
     * Shortcuts between research communities that bypass the off-topic gap chains: the nav bar
     * of every page (links to /people/ and /research/; the link home stays), the people
     * directory (faculty and student lists linking every person), and extra links that jump into
     * another research community or into the middle of a gap chain. All on by default (real
     * department sites have them); with all off and directGroupShare 0, no community reaches
     * another in fewer than gapMin off-topic pages (sim:stats measures it).
     */
    bypass: obj({
      navBar: bool({ default: true, help: 'every page links /people/ and /research/' }),
      peopleDirectory: bool({ default: true, help: 'faculty and student lists link every person' }),
      extraLinks: bool({ default: true, help: 'extra links jump into other communities and gap chains' }),
    }),
  }),
  links: obj({
    mu: num({
      default: 0.2,
      min: 0,
      max: 1,
      help: "mixing mu (LFR): share of a page's random links that leave its community",
    }),
    crossSiteShare: num({ default: 0.05, min: 0, max: 1, help: 'share of leaving links that go to another site' }),
    inDegreeExponent: num({
      default: 2.1,
      min: 1.5,
      max: 4,
      help: 'power-law exponent of page attractiveness, hence of in-degree (Broder et al.: 2.1)',
    }),
    outDegreeExponent: num({
      default: 2.3,
      min: 1.5,
      max: 4,
      help: 'power-law exponent of the number of extra links per page',
    }),
    extraMin: num({ default: 3, min: 0, max: 100, integer: true, help: 'extra links per HTML page, at least' }),
    extraMax: num({
      default: 200,
      min: 0,
      max: 10_000,
      integer: true,
      help: 'extra links per page, at most (>= extraMin)',
    }),
    brokenShare: num({ default: 0.01, min: 0, max: 0.5, help: 'share of links to a page that does not exist (404)' }),
    redirectShare: num({
      default: 0.03,
      min: 0,
      max: 0.5,
      help: 'share of internal links written in a form that redirects',
    }),
  }),
  anchors: obj({
    noise: num({
      default: 0.25,
      min: 0,
      max: 1,
      help: 'probability that a topical anchor is replaced by generic words',
    }),
    aroundNoise: num({
      default: 0.3,
      min: 0,
      max: 1,
      help: 'probability that the words around a link come from the source page',
    }),
    aroundWords: num({ default: 6, min: 0, max: 50, integer: true, help: 'words on each side of a link' }),
  }),
  text: obj({
    zipfExponent: num({ default: 1, min: 0, max: 3, help: 'Zipf exponent of word frequencies' }),
    wordsMin: num({ default: 120, min: 1, max: 100_000, integer: true, help: 'words of a page, at least' }),
    wordsMax: num({
      default: 320,
      min: 1,
      max: 100_000,
      integer: true,
      help: 'words of a page, at most (>= wordsMin)',
    }),
    topicShare: num({
      default: 0.45,
      min: 0,
      max: 1,
      help: "share of a topical page's words drawn from its own sub-topic",
    }),
  }),
  faults: obj({
    transientErrorRate: num({ default: 0.01, min: 0, max: 0.5, help: 'share of attempts answered 500/502/503' }),
    retryAfterSec: num({
      default: 1,
      min: 0,
      max: 3600,
      integer: true,
      help: 'Retry-After of a transient 503, whole seconds (tests of timing-free logs set 0)',
    }),
    slowRate: num({ default: 0.005, min: 0, max: 0.5, help: 'share of pages answered slowly' }),
    slowMs: num({ default: 150, min: 0, max: 60_000, integer: true, help: 'delay of a slow response, ms' }),
    malformedRate: num({ default: 0.03, min: 0, max: 0.5, help: 'share of pages with malformed HTML' }),
    oversizedRate: num({ default: 0.001, min: 0, max: 0.5, help: 'share of oversized pages' }),
    /**
     * Share of HTML pages whose first link is given only as a refresh (issue #84; a moved page's
     * "you will be taken to ..."): half by `<meta http-equiv="refresh" content="30; url=...">`,
     * half by a `Refresh` response header, drawn by a hash of the page (so it moves nothing
     * else). The link stays in the web's graph and its ground truth: a crawler that follows
     * refreshes (the default) reaches it without anchor words, one that does not never sees it.
     * Default 0, a condition: off so the measured webs stay as measured; test/refresh-web.test.ts
     * turns it on.
     */
    refreshRate: num({
      default: 0,
      min: 0,
      max: 0.5,
      help: 'share of HTML pages whose first link is only a meta refresh or Refresh header',
    }),
    oversizedBytes: num({
      default: 3_000_000,
      min: 1000,
      max: 100_000_000,
      integer: true,
      help: 'size of an oversized page, bytes',
    }),
  }),
  /**
   * Vertical search sites behind forms (deep-web experiments). Each is linked from the home
   * pages of the background directory sites, so crawling finds its form.
   */
  deepweb: obj({
    sites: list(
      obj({
        kind: oneOf(DEEP_KINDS, { default: 'jobs', help: 'what the database holds' }),
        records: num({ default: 10_000, min: 1_000, max: 1_000_000, integer: true, help: 'database size, records' }),
        pageSize: num({ default: 20, min: 1, max: 500, integer: true, help: 'default results per page' }),
        topK: num({
          default: 200,
          min: 0,
          max: 1_000_000,
          integer: true,
          help: 'most records one query can show (200: 10 pages of 20); 0: every match',
        }),
        minGapMs: num({
          default: 0,
          min: 0,
          max: 60_000,
          help: 'server-side rate limit (429 + Retry-After below this gap); 0: none',
        }),
        host: host('hostname; must end in .test'),
      }),
      { default: [], help: 'search sites (each: kind, host, records, pageSize, topK, minGapMs)' },
    ),
  }),
  /**
   * Geography: every site sits in a region; a request that declares its crawler's region (header
   * x-crawler-region) is answered after the round trip between the two regions plus the body's
   * transfer time at the pair's bandwidth. Requests that declare nothing are not delayed.
   * Defaults: approximate public-cloud inter-region round trips (cloudping.co, AWS us-east-1 /
   * eu-west-1 / ap-northeast-1) and per-connection throughput.
   */
  geo: obj({
    regions: list(
      str({ pattern: '^[a-z0-9-]+$', expected: 'a region name (lowercase letters, digits, -)', help: 'a region' }),
      {
        default: ['us', 'eu', 'asia'],
        minItems: 1,
        maxItems: 32,
        expected: '1 to 32 region names (lowercase letters, digits, -)',
        help: 'region names',
      },
    ),
    rttMs: matrix(
      [
        [2, 70, 150],
        [70, 2, 210],
        [150, 210, 2],
      ],
      0,
      10_000,
      'round trip between regions, ms (row: crawler region, column: site region)',
    ),
    bandwidthMBps: matrix(
      [
        [100, 20, 10],
        [20, 100, 8],
        [10, 8, 100],
      ],
      0.001,
      100_000,
      'throughput of one connection between regions, MB/s',
    ),
    siteShares: list(Type.Number({ minimum: 0, maximum: 1 }), {
      default: [0.45, 0.35, 0.2],
      help: 'share of sites in each region (hosts are assigned by a hash of their name)',
    }),
    timeScale: num({ default: 1, min: 0, max: 100, help: 'multiplies every geographic delay' }),
  }),
  /** Bands the generated web's statistics must fall in (checked by sim:stats and the tests). */
  targets: obj({
    inDegreeExponent: band([1.8, 2.6], 'band of the in-degree exponent'),
    meanOutDegree: band([8, 15], 'band of the mean out-degree'),
    outDegreeTailExponent: band([2.2, 2.9], 'band of the out-degree tail exponent'),
    muTolerance: num({ default: 0.05, min: 0, max: 1, help: 'how far the measured mixing may be from links.mu' }),
    localityLift: num({
      default: 3,
      min: 0,
      max: 1000,
      help: 'topical locality must be at least this multiple of the random-pair baseline',
    }),
    anchorNamesTopic: band([0.4, 0.9], 'band of the share of topical anchors that name their topic'),
  }),
});

export type WebConfig = Static<typeof WebSchema>;
export type DepartmentConfig = WebConfig['departments'][number];

export const DEFAULTS: WebConfig = defaultsOf(WebSchema) as WebConfig;
