/**
 * The vocabulary of the synthetic web's ground truth: page kinds, link anchors and flags, the
 * special link targets, a department's sections, and the site and community records. Shared by
 * the web (web.ts), its builder (web-builder.ts) and everything that reads a web.
 */
import type { BackgroundKind, Charset, RobotsProfile } from './config.ts';
import { COURSE_DIRS, type Conventions } from './conventions.ts';

/**
 * Page kinds. Paper is the only relevant kind; Syllabus and Form are non-paper documents:
 * Syllabus holds every teaching document (aux: 0 syllabus, 1 lecture slides, 2 assignment; owner:
 * the course), Form the others (aux: 0 an administrative form, 1 a CV, 2 talk slides; owner: the
 * faculty member for 1 and 2).
 */
export const Kind = {
  Home: 0,
  Index: 1,
  Faculty: 2,
  Student: 3,
  Group: 4,
  Project: 5,
  Publist: 6,
  Paper: 7,
  Course: 8,
  Lecture: 9,
  Syllabus: 10,
  News: 11,
  Admin: 12,
  Form: 13,
  Personal: 14,
  Gap: 15,
  BgHome: 16,
  BgPage: 17,
  Image: 18,
  Abstract: 19,
} as const;
export type KindId = (typeof Kind)[keyof typeof Kind];
export const KIND_NAMES = Object.keys(Kind) as (keyof typeof Kind)[];

/** How a link's anchor text is written. */
export const Anchor = { Nav: 0, Title: 1, Papers: 2, Research: 3, People: 4, Misc: 5 } as const;
/** Link flags (high bits of the per-edge byte; the low 3 bits hold the Anchor kind). */
export const LinkFlag = { Redirect: 8, Extra: 16 } as const;
/** Special targets: links that lead to no page of the graph. */
export const Target = { Broken: -1, RedirectLoop: -2, Calendar: -3 } as const;

/** Index sections of a department, in the order of Index pages' aux value. */
export const SECTIONS = ['people', 'faculty', 'students', 'research', 'courses', 'news', 'admin'] as const;

/** The folder (and nav label) of section i on a site: the courses' folder is a site convention. */
export function sectionName(c: Conventions, i: number): string {
  return i === 4 ? COURSE_DIRS[c.courseDir] : SECTIONS[i];
}

export type SiteKind = 'department' | BackgroundKind;

export interface Site {
  index: number;
  host: string;
  name: string;
  kind: SiteKind;
  /** Global id of the site's first page (its homepage). */
  first: number;
  count: number;
  robots: RobotsProfile;
  charset: Charset;
  sessionIds: boolean;
  minGapMs: number;
  /** Section index paths ("/people/") to page ids. */
  sections: Map<string, number>;
  /** How the site names and words its research pages (departments; the template elsewhere). */
  conventions: Conventions;
  /** Index into DOC_FORMS (0: plain .pdf/.ps files linked directly). */
  docForms: number;
  /** Index into DOC_NAME_POOLS (0: the names before issue #52). */
  docNames: number;
  /** Whether its headings and document title lengths are drawn, not fixed by page kind (structure.cues). */
  cues: boolean;
}

export interface Community {
  site: number;
  topic: number;
  topical: boolean;
}
