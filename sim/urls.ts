/**
 * Where each page of a synthetic web lives: its canonical path and URL on its host, by its site's
 * conventions (sim/conventions.ts), and the page a path names. A file name takes the first word
 * of the page's title and a home directory its owner's login, so the renderer's text is asked for
 * both (content.ts). Paths are memoised per page; the same web and id always give the same path.
 */
import type { Conventions } from './conventions.ts';
import {
  COURSE_DIRS,
  COURSE_NAMES,
  CV_FILES,
  DOC_ABBR,
  DOC_NAME_POOLS,
  DOC_NAMES,
  DOC_SERIES,
  FORM_DIRS,
  GROUP_DIRS,
  HOME_DIRS,
  HOME_DOCS,
  PAPER_DIRS,
  PAPER_FILES,
  PAPER_HOMES,
  POSTSCRIPT_SHARES,
  PUBLIST_FILES,
  TEACHING_DOCS,
} from './conventions.ts';
import { hash32, unit } from './web-rng.ts';
import { Kind, sectionName, type Web } from './web.ts';

export const slug = (w: string): string =>
  w
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'x';

/**
 * A sequential copy of a string. Memoised strings built by concatenation are trees of fragments
 * that V8 flattens again, into fresh old-space memory, whenever a page reads them as a whole
 * (profiled: page faults and copies on every render). Lossless here: titles and paths hold
 * letters, digits and punctuation only (the vocabulary is validated), no lone surrogates.
 */
export const flat = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

/** Per-page memo in a dense array (titles and paths are asked for once per link rendered). */
export class Memo<V> {
  private readonly a: (V | undefined)[];
  constructor(n: number) {
    this.a = new Array<V | undefined>(n);
  }
  get(k: number, make: () => V): V {
    let v = this.a[k];
    if (v === undefined) this.a[k] = v = make();
    return v;
  }
}

/** What a path needs of the page's text. */
export interface PathText {
  title(id: number): string;
  login(id: number): string;
  courseNumber(courseId: number): number;
}

export class PageUrls {
  private readonly paths: Memo<string>;
  constructor(
    private readonly web: Web,
    private readonly text: PathText,
  ) {
    this.paths = new Memo(web.n);
  }

  /** Canonical path of a page on its own host. */
  path(id: number): string {
    return this.paths.get(id, () => flat(this.makePath(id)));
  }

  /** The site's conventions for page id. */
  private conv(id: number): Conventions {
    return this.web.sites[this.web.siteOf[id]].conventions;
  }

  /** Home directory of a person, by the site's convention ("/~login/" in the template). */
  private home(person: number): string {
    return HOME_DIRS[this.conv(person).homeDir].replace('LOGIN', this.text.login(person));
  }

  /** The extension of a non-paper document: PostScript by the department's share, decided by a hash. */
  private docExt(id: number): string {
    const ps = POSTSCRIPT_SHARES[this.conv(id).postscript] ?? this.web.config.structure.postscriptShare;
    return unit(this.web.seed, id, 43) < ps ? 'ps' : 'pdf';
  }

  /** A folder template (HOME, PDIR, GROUPS, GROUP, LOGIN, COURSE, CNAME) filled in for a page's owner and course. */
  private folder(template: string, id: number, owner: number, course = -1): string {
    const w = this.web;
    const c = this.conv(id);
    return template
      .replace('HOME', owner >= 0 ? this.home(owner) : '/')
      .replace('PDIR', PAPER_DIRS[c.paperDir])
      .replace('GROUPS', GROUP_DIRS[c.groupDir])
      .replace('GROUP', slug(w.vocab.topics[w.topic[owner >= 0 ? owner : id]].label))
      .replace('LOGIN', owner >= 0 ? this.text.login(owner) : 'pub')
      .replace('COURSE', course >= 0 ? `/${COURSE_DIRS[c.courseDir]}/${this.courseName(course)}/` : '/')
      .replace('CNAME', course >= 0 ? this.courseName(course) : 'course');
  }

  /** Folder name of a course by the site's convention ("cs123" in the template). */
  private courseName(course: number): string {
    return COURSE_NAMES[this.conv(course).courseName].replace('NUM', String(this.text.courseNumber(course)));
  }

  /**
   * A document's file name (no extension) from its department's naming pool (DOC_NAME_POOLS), or
   * null when the department keeps the former names. The scheme: the pool's entry picked by a hash
   * of the document's number, so a department names all its kinds of document alike.
   */
  private pooledName(id: number, abbr: string, word: string, login: string): string | null {
    const pool = DOC_NAME_POOLS[this.web.sites[this.web.siteOf[id]].docNames];
    if (!pool?.length) return null;
    const scheme = DOC_NAMES[pool[Math.floor(unit(this.web.seed, id, 59) * pool.length)]];
    const site = this.web.sites[this.web.siteOf[id]];
    const prefix = site.cues ? DOC_SERIES[hash32(this.web.seed, site.index, 0x5e41) % DOC_SERIES.length] : abbr;
    // the tokens are upper case, the values lower case: no value is read as a token
    return scheme
      .replace('WORD', word)
      .replace('ABBR', prefix)
      .replace('LOGIN', login)
      .replace('ID', String(this.web.local(id)));
  }

  /**
   * Where a department keeps half of its other documents: beside its papers, so that no folder
   * marks a kind; else null. A CGI that serves papers by number serves them too (a bare number
   * marks no kind) where the department names its documents from a pool (#52); where its cues are
   * drawn (structure.cues, #66) every paper home does: anonymous FTP's /pub holds a site's public
   * files of every kind (RFC 1635), a group's or a person's papers folder its talks, handouts and
   * forms. `owner`: the person whose home or login the folder names (-1: none; a home folder then
   * keeps the document where it was).
   */
  private sharedPath(id: number, owner: number, file: () => string): string | null {
    const site = this.web.sites[this.web.siteOf[id]];
    const at = PAPER_HOMES[site.conventions.paperHome];
    const cgi = at.startsWith('/htbin/');
    if (!(site.cues || (cgi && site.docNames))) return null;
    if (unit(this.web.seed, id, 61) >= 0.5) return null;
    if (cgi) return `${at}${this.web.local(id)}`;
    if (at.startsWith('HOME') && owner < 0) return null;
    return `${this.folder(at, id, owner)}${file()}`;
  }

  private makePath(id: number): string {
    const w = this.web;
    const local = w.local(id);
    const c = this.conv(id);
    const groups = GROUP_DIRS[c.groupDir];
    const courses = COURSE_DIRS[c.courseDir];
    const first = (): string =>
      slug(
        this.text
          .title(id)
          .replace(/^(Lecture \d+|CS \d+): /, '')
          .split(' ')[0],
      );
    const owner = w.owner[id];
    switch (w.kind[id]) {
      case Kind.Home:
      case Kind.BgHome:
        return '/';
      case Kind.Index:
        return `/${sectionName(c, w.aux[id])}/`;
      case Kind.Faculty:
      case Kind.Student:
        return this.home(id);
      case Kind.Group:
        return `/${groups}/${slug(w.vocab.topics[w.topic[id]].label)}-${local}/`;
      case Kind.Project:
        return `/${groups}/${slug(w.vocab.topics[w.topic[id]].label)}/projects/${first()}-${local}.html`;
      case Kind.Publist:
        return w.kind[owner] === Kind.Group
          ? `/${groups}/${slug(w.vocab.topics[w.topic[id]].label)}/${PUBLIST_FILES[c.groupPublistFile]}-${local}.html`
          : `${this.home(owner)}${PUBLIST_FILES[c.publistFile]}-${local}.html`;
      case Kind.Abstract:
        return `${this.home(owner)}${PAPER_DIRS[c.paperDir]}/abstract-${local}.html`;
      case Kind.Paper:
        return this.paperPath(id, c, first);
      case Kind.Course:
        return `/${courses}/${this.courseName(id)}-${local}/`;
      case Kind.Lecture:
        return `/${courses}/${this.courseName(owner)}/lecture${w.aux[id]}-${local}.html`;
      case Kind.Syllabus:
        return this.teachingDocPath(id, c, first, courses);
      case Kind.News:
        return `/news/${first()}-${local}.html`;
      case Kind.Admin:
        return `/admin/${first()}-${local}.html`;
      case Kind.Form:
        return this.formPath(id, c, first);
      case Kind.Gap:
        return `/info/${first()}-${local}.html`;
      case Kind.Personal:
        return `${this.home(owner)}${first()}-${local}.html`;
      case Kind.Image:
        return `/images/${slug(this.text.title(id).split(' ')[1] ?? 'photo')}-${local}.jpg`;
      default:
        return `/${first()}/${slug(this.text.title(id).split(' ')[1] ?? 'page')}-${local}.html`;
    }
  }

  /** A paper: in the shared /papers/ pool (its own owner), under the CGI by number, or in its owner's folder. */
  private paperPath(id: number, c: Conventions, first: () => string): string {
    const w = this.web;
    const local = w.local(id);
    const owner = w.owner[id];
    const ext = w.aux[id] === 2 ? 'ps.gz' : w.aux[id] === 1 ? 'ps' : 'pdf';
    if (owner === id)
      return `/papers/${this.pooledName(id, DOC_ABBR.paper, first(), 'papers') ?? `${first()}-${local}`}.${ext}`;
    const at = PAPER_HOMES[c.paperHome];
    // the CGI serves papers by number: no file name, no extension
    if (at.startsWith('/htbin/')) return `${at}${local}`;
    const file =
      this.pooledName(id, DOC_ABBR.paper, first(), this.text.login(owner)) ??
      PAPER_FILES[c.paperFile]
        .replace('FIRST', first())
        .replace('LOGIN', this.text.login(owner))
        .replace('ID', String(local));
    return `${this.folder(at, id, owner)}${file}.${ext}`;
  }

  /** A syllabus, slides or an assignment: shared, in the course's folder, or in the instructor's home. */
  private teachingDocPath(id: number, c: Conventions, first: () => string, courses: string): string {
    const w = this.web;
    const local = w.local(id);
    const owner = w.owner[id];
    const instructor = w.aux[owner];
    const by = instructor >= 0 ? this.text.login(instructor) : this.courseName(owner);
    const abbr = w.aux[id] === 0 ? DOC_ABBR.syllabus : w.aux[id] === 1 ? DOC_ABBR.slides : DOC_ABBR.assignment;
    const word = w.aux[id] === 0 ? 'syllabus' : first();
    const file = (): string =>
      `${this.pooledName(id, abbr, word, by) ?? `${word}-${local}`}.${w.aux[id] === 0 ? 'pdf' : this.docExt(id)}`;
    const shared = this.sharedPath(id, instructor, file);
    if (shared) return shared;
    if (w.aux[id] === 0) return `/${courses}/${this.courseName(owner)}/${file()}`;
    const at = TEACHING_DOCS[c.teachingDocs].dir;
    // a teaching document kept in the instructor's home needs one; without, the course's folder
    const dir = at.startsWith('HOME') && instructor < 0 ? 'COURSE' : at;
    return `${this.folder(dir, id, at.startsWith('HOME') ? instructor : -1, owner)}${file()}`;
  }

  /** An administrative form (in the forms folder), a CV or talk slides (in the owner's home). */
  private formPath(id: number, c: Conventions, first: () => string): string {
    const w = this.web;
    const local = w.local(id);
    const owner = w.owner[id];
    const form = w.aux[id] === 0;
    const word = form ? first() : w.aux[id] === 1 ? CV_FILES[c.cvAnchors] : first();
    const abbr = form ? DOC_ABBR.form : w.aux[id] === 1 ? DOC_ABBR.cv : DOC_ABBR.talk;
    const file = (): string =>
      `${this.pooledName(id, abbr, word, form ? 'forms' : this.text.login(owner)) ?? `${word}-${local}`}.` +
      (form ? 'pdf' : this.docExt(id));
    const shared = this.sharedPath(id, form ? -1 : owner, file);
    if (shared) return shared;
    return `${form ? FORM_DIRS[c.formDir] : this.folder(HOME_DOCS[c.homeDocs].dir, id, owner)}${file()}`;
  }

  url(id: number): string {
    return `http://${this.web.sites[this.web.siteOf[id]].host}${this.path(id)}`;
  }

  /** Finds the page of a canonical path on a host, or -1. */
  resolve(host: string, path: string): number {
    const site = this.web.siteByHost(host);
    if (!site) return -1;
    if (path === '/') return site.first;
    const sec = site.sections.get(path);
    if (sec !== undefined) return sec;
    const m = /(\d+)(?:\/|\.html|\.pdf|\.ps|\.ps\.gz|\.jpg)?$/.exec(path);
    if (!m) return -1;
    const local = Number(m[1]);
    if (!(local < site.count)) return -1;
    const id = site.first + local;
    return this.path(id) === path ? id : -1;
  }
}
