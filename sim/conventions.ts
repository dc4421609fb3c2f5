/**
 * Site conventions: how a department names and words the places where its research and its
 * teaching live.
 * Real departments differ (the four WebKB departments use four URL layouts; home directories,
 * paper folders and the words of their links vary), and a link classifier trained on three
 * departments can only transfer what they share. Each department draws each convention from a
 * pool with probability structure.conventions, else takes entry 0 of the pool: the one template
 * every department used before this knob existed (so conventions 0 reproduces that web byte for
 * byte). The draw uses its own seeded generator, so it changes nothing else of the web.
 */
import { makeRng } from './web-rng.ts';

/** Home directory of a person (faculty, student); LOGIN is replaced by the person's login. */
export const HOME_DIRS = [
  '/~LOGIN/',
  '/people/LOGIN/',
  '/faculty/LOGIN/',
  '/users/LOGIN/',
  '/homes/LOGIN/',
  '/u/LOGIN/',
];
/** Folder of a person's papers inside the home directory. */
export const PAPER_DIRS = ['papers', 'pubs', 'publications', 'docs', 'reports', 'tr'];
/** File name (before "-ID.html") of a publication list. */
export const PUBLIST_FILES = ['publications', 'pubs', 'papers', 'bibliography', 'biblio', 'writing'];
/** Folder of the research groups. */
export const GROUP_DIRS = ['groups', 'research', 'labs', 'projects', 'areas', 'centers'];
/** Title of a person's publication list; NAME is replaced by the person's name. */
export const PUBLIST_TITLES = [
  'Publications of NAME',
  'NAME: Papers',
  'Bibliography - NAME',
  'Selected Writings of NAME',
  'Technical Reports by NAME',
  'NAME - Recent Work',
];
/** Heading above a publication list's links. */
export const PUBLIST_HEADINGS = ['Publications', 'Papers', 'Bibliography', 'Reports', 'Writings', 'Recent work'];
/**
 * Words of generic links to a publication list. Entry 0 (null) is the shared vocabulary's whole
 * list (data/vocab/topics.json generic.papers); the others are a department's own habits.
 */
export const PAPER_ANCHORS: (readonly string[] | null)[] = [
  null,
  ['papers', 'selected papers'],
  ['bibliography', 'full bibliography'],
  ['technical reports', 'reports'],
  ['writings', 'articles'],
  ['recent work', 'my work'],
];
/** Share of papers served as PostScript (the rest PDF); entry 0 is structure.postscriptShare. */
export const POSTSCRIPT_SHARES: (number | null)[] = [null, 0, 0.6, 0.9, 0.1];

/**
 * Where a department keeps its papers. HOME: the owner's home directory; PDIR: the paper folder
 * (PAPER_DIRS); GROUPS/GROUP: the group's folder; LOGIN: the owner's login. Entry 3 is a 1990s
 * CGI that serves a paper by number (PATH_INFO, no file extension: only the Content-Type says it
 * is a PDF), in CERN httpd's /htbin/ rather than /cgi-bin/, which every robots profile of the
 * synthetic web disallows (sim/robots-profiles.ts): papers no polite crawler may fetch would measure
 * nothing. Entry 0 is the template.
 */
export const PAPER_HOMES = [
  'HOMEPDIR/',
  '/techreports/',
  '/GROUPS/GROUP/pubs/',
  '/htbin/getpaper/',
  '/ftp/pub/LOGIN/',
  'HOME',
];
/** File name of a paper (extension added); FIRST: first title word, ID: the page number, LOGIN: the owner's. */
export const PAPER_FILES = ['FIRST-ID', 'tr-ID', 'LOGIN-ID', 'paperID', 'FIRST_ID'];
/** Folder (and section) of the department's courses. */
export const COURSE_DIRS = ['courses', 'teaching', 'classes', 'academics', 'edu', 'class'];
/** Folder name of one course; NUM: its number. */
export const COURSE_NAMES = ['csNUM', 'cseNUM', 'cNUM', 'compNUM', 'cisNUM', 'csciNUM'];
/** Folder of administrative forms. */
export const FORM_DIRS = ['/admin/forms/', '/forms/', '/office/docs/', '/grad/handbook/', '/admin/'];
/**
 * Teaching documents beyond the syllabus: the share of lectures with slides as a document, the
 * number of assignment documents per course, and where they are kept (COURSE: the course's folder,
 * HOME: the instructor's home directory, PDIR: the department's paper folder name (PAPER_DIRS)).
 * Entry 0 is the template: a syllabus only.
 */
export const TEACHING_DOCS: readonly { slides: number; assignments: number; dir: string }[] = [
  { slides: 0, assignments: 0, dir: 'COURSE' },
  { slides: 0.8, assignments: 2, dir: 'COURSE' },
  { slides: 0.5, assignments: 4, dir: 'HOMECNAME/' },
  { slides: 0.3, assignments: 6, dir: 'COURSEhandouts/' },
  { slides: 1, assignments: 1, dir: 'HOMEPDIR/' },
  { slides: 0.6, assignments: 3, dir: 'COURSEPDIR/' },
];
/**
 * Documents on faculty home pages that are not papers: a CV and the slides of talks, with the
 * share of faculty who put them up. Entry 0: none (the template).
 */
export const HOME_DOCS: readonly { cv: number; talks: number; dir: string }[] = [
  { cv: 0, talks: 0, dir: 'HOME' },
  { cv: 0.7, talks: 2, dir: 'HOME' },
  { cv: 0.5, talks: 1, dir: 'HOMEtalks/' },
  { cv: 0.9, talks: 3, dir: 'HOMEPDIR/' },
  { cv: 0.3, talks: 0, dir: 'HOME' },
];
/** Anchor words of links to a syllabus, slides, assignments, a CV and talk slides. */
export const SYLLABUS_ANCHORS = [['syllabus'], ['course outline'], ['course information'], ['overview'], ['handout']];
export const SLIDES_ANCHORS = [['slides'], ['lecture notes'], ['notes'], ['transparencies'], ['overheads']];
export const ASSIGNMENT_ANCHORS = [['assignment'], ['homework'], ['problem set'], ['exercises'], ['project']];
export const CV_ANCHORS = [['CV'], ['curriculum vitae'], ['resume'], ['vita']];
/** File name of a CV, by the same convention as its link's words. */
export const CV_FILES = ['cv', 'vitae', 'resume', 'vita'];
export const TALK_ANCHORS = [['talk slides'], ['slides'], ['presentation'], ['talk']];
/** Anchor words of an abstract page's link to its file; entry 0 (null): the file's type, as before. */
export const FILE_ANCHORS: (readonly string[] | null)[] = [null, ['full text'], ['download'], ['paper'], ['get it']];
/** Title of a group's publication list. */
export const GROUP_PUBLIST_TITLES = [
  'Group Publications',
  'Papers of the Group',
  'Technical Reports',
  'Selected Publications',
  'Bibliography',
];

export interface Conventions {
  homeDir: number;
  paperDir: number;
  publistFile: number;
  groupDir: number;
  publistTitle: number;
  publistHeading: number;
  paperAnchors: number;
  postscript: number;
  // added by #35; drawn after the ones above, so those draws are unchanged
  paperHome: number;
  paperFile: number;
  courseDir: number;
  teachingDocs: number;
  homeDocs: number;
  syllabusAnchors: number;
  slidesAnchors: number;
  assignmentAnchors: number;
  cvAnchors: number;
  talkAnchors: number;
  fileAnchors: number;
  groupPublistFile: number;
  groupPublistTitle: number;
  courseName: number;
  formDir: number;
}

/** The template: entry 0 of every pool. */
export const TEMPLATE: Conventions = {
  homeDir: 0,
  paperDir: 0,
  publistFile: 0,
  groupDir: 0,
  publistTitle: 0,
  publistHeading: 0,
  paperAnchors: 0,
  postscript: 0,
  paperHome: 0,
  paperFile: 0,
  courseDir: 0,
  teachingDocs: 0,
  homeDocs: 0,
  syllabusAnchors: 0,
  slidesAnchors: 0,
  assignmentAnchors: 0,
  cvAnchors: 0,
  talkAnchors: 0,
  fileAnchors: 0,
  groupPublistFile: 0,
  groupPublistTitle: 0,
  courseName: 0,
  formDir: 0,
};

const SIZES: Record<keyof Conventions, number> = {
  homeDir: HOME_DIRS.length,
  paperDir: PAPER_DIRS.length,
  publistFile: PUBLIST_FILES.length,
  groupDir: GROUP_DIRS.length,
  publistTitle: PUBLIST_TITLES.length,
  publistHeading: PUBLIST_HEADINGS.length,
  paperAnchors: PAPER_ANCHORS.length,
  postscript: POSTSCRIPT_SHARES.length,
  paperHome: PAPER_HOMES.length,
  paperFile: PAPER_FILES.length,
  courseDir: COURSE_DIRS.length,
  teachingDocs: TEACHING_DOCS.length,
  homeDocs: HOME_DOCS.length,
  syllabusAnchors: SYLLABUS_ANCHORS.length,
  slidesAnchors: SLIDES_ANCHORS.length,
  assignmentAnchors: ASSIGNMENT_ANCHORS.length,
  cvAnchors: CV_ANCHORS.length,
  talkAnchors: TALK_ANCHORS.length,
  fileAnchors: FILE_ANCHORS.length,
  groupPublistFile: PUBLIST_FILES.length,
  groupPublistTitle: GROUP_PUBLIST_TITLES.length,
  courseName: COURSE_NAMES.length,
  formDir: FORM_DIRS.length,
};

/**
 * Department `index`'s conventions: with probability `heterogeneity` per convention, its own. The
 * departments' own choices are dealt from a seeded shuffle of the pool without the template, in
 * department order, so departments differ from the template and from each other as far as the
 * pool allows (as the four WebKB departments use four URL layouts), and repeat only past the
 * pool's size. Conventions 1: no department keeps any part of the template.
 */
export function drawConventions(seed: number, host: string, index: number, heterogeneity: number): Conventions {
  const r = makeRng(`conventions:${seed}:${host}`);
  const out = { ...TEMPLATE };
  for (const k of Object.keys(SIZES) as (keyof Conventions)[]) {
    const own = r.next() < heterogeneity;
    if (!own) continue;
    const deal = makeRng(`conventions:${seed}:deal:${k}`);
    const pool = Array.from({ length: SIZES[k] - 1 }, (_, i) => i + 1);
    for (let i = pool.length - 1; i > 0; i--) {
      const j = deal.int(i + 1);
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    out[k] = pool[index % pool.length];
  }
  return out;
}

/**
 * Document forms of a department's papers (a pool of its own, drawn with probability
 * structure.documentForms from the generator "docforms:SEED:HOST", so it moves nothing else):
 * the share of PostScript papers served gzipped (.ps.gz, application/gzip) and the share of
 * papers whose owner's publication list links an HTML abstract page, which links the file.
 * Entry 0: neither, the former template.
 */
export const DOC_FORMS: readonly { gzip: number; abstract: number }[] = [
  { gzip: 0, abstract: 0 },
  { gzip: 0.8, abstract: 0 },
  { gzip: 0, abstract: 0.7 },
  { gzip: 0.5, abstract: 0.5 },
];

export function drawDocForms(seed: number, host: string, share: number): number {
  const r = makeRng(`docforms:${seed}:${host}`);
  const own = r.next() < share;
  const pick = r.int(DOC_FORMS.length);
  return own ? pick : 0;
}

/**
 * How a department names its document files, issue #52: one pool of schemes for every kind of
 * document (papers, syllabi, slides, assignments, CVs, talk slides, forms), each document drawing
 * its scheme from the pool by a hash of its number, so that no file-name shape tells a paper from
 * another document (before, every non-paper was WORD-N and papers used tr-N, LOGIN-N, paperN,
 * WORD_N: "a document not named WORD-N" found the papers with precision 0.92-0.96 and recall 1 on
 * paper.json). WORD: a word of the document (a paper's first title word, "syllabus", the CV's
 * name, a subject word); ABBR: its kind's prefix (DOC_ABBR); LOGIN: its owner's login (a course
 * document: its instructor's, else the course's name); ID: its number. A department whose papers a
 * CGI serves by number serves half of its other documents that way too.
 */
export const DOC_NAMES = ['WORD-ID', 'ABBR-ID', 'LOGIN-ID', 'WORDID', 'WORD_ID'] as const;

/** Pools of DOC_NAMES entries. 0: off, the names before #52 (papers by PAPER_FILES, the rest WORD-ID); 1: the template. */
export const DOC_NAME_POOLS: readonly (readonly number[])[] = [
  [],
  [0],
  [0, 1],
  [2, 3],
  [1, 4, 0],
  [3, 1],
  [4, 2],
  [0, 3, 2],
];

/**
 * Prefixes of a department's one document series: where its cues are drawn (structure.cues,
 * issue #66) a department numbers every kind of document in one series with one prefix (picked by
 * a hash of the seed and the department), so "tr-12" is as likely a handout as a paper; else each
 * kind has its own prefix (DOC_ABBR), a mark of the kind a crawler reads before fetching.
 */
export const DOC_SERIES = ['tr', 'doc', 'file', 'pub', 'd'] as const;

/** Each kind's prefix in the ABBR scheme (a paper's is the technical report's). */
export const DOC_ABBR = {
  paper: 'tr',
  syllabus: 'syl',
  slides: 'sl',
  assignment: 'hw',
  cv: 'cv',
  talk: 'tk',
  form: 'fm',
} as const;

/**
 * Department `host`'s naming pool (a generator of its own, "docnames:SEED:HOST", so it moves
 * nothing else): with probability `share` a pool, else 0 (the former names); a department that
 * keeps the conventions' template (probability 1 - heterogeneity) keeps the template pool.
 */
/**
 * Headings above a page's links, one pool every page kind draws from (structure.cues, issue #66):
 * the fixed headings by kind and the publication lists' ones among others a 1997 page used.
 */
export const HEADINGS = [
  'See also',
  'Links',
  'Lectures',
  'Projects and People',
  ...PUBLIST_HEADINGS,
  'Papers and Reports',
  'Readings',
  'Materials',
  'Resources',
  'Pointers',
  'Documents',
  'More information',
  'Related pages',
  'Online',
] as const;

/** Whether a department's cues are drawn (structure.cues share), from a stream of its own. */
export function drawCues(seed: number, host: string, share: number): boolean {
  return share > 0 && makeRng(`cues:${seed}:${host}`).next() < share;
}

export function drawDocNames(seed: number, host: string, share: number, heterogeneity: number): number {
  const r = makeRng(`docnames:${seed}:${host}`);
  const named = r.next() < share;
  const own = r.next() < heterogeneity;
  const pick = 2 + r.int(DOC_NAME_POOLS.length - 2);
  return !named ? 0 : own ? pick : 1;
}
