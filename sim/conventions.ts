/**
 * Site conventions: how a department names and words the places where its research lives.
 * Real departments differ (the four WebKB departments use four URL layouts; home directories,
 * paper folders and the words of their links vary), and a link classifier trained on three
 * departments can only transfer what they share. Each department draws each convention from a
 * pool with probability structure.conventions, else takes entry 0 of the pool: the one template
 * every department used before this knob existed (so conventions 0 reproduces that web byte for
 * byte). The draw uses its own seeded generator, so it changes nothing else of the web.
 */
import { makeRng } from './rng.ts';

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

export interface Conventions {
  homeDir: number;
  paperDir: number;
  publistFile: number;
  groupDir: number;
  publistTitle: number;
  publistHeading: number;
  paperAnchors: number;
  postscript: number;
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
};

/** A department's conventions: each its own draw from the pool with probability `heterogeneity`. */
export function drawConventions(seed: number, host: string, heterogeneity: number): Conventions {
  const r = makeRng(`conventions:${seed}:${host}`);
  const out = { ...TEMPLATE };
  for (const k of Object.keys(SIZES) as (keyof Conventions)[]) {
    const own = r.next() < heterogeneity;
    const pick = r.int(SIZES[k]);
    if (own) out[k] = pick;
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
