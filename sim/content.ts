/**
 * Renders pages lazily from (seed, page id): paths, titles, HTML with links, anchor and
 * around-text, and the synthetic paper format of .pdf/.ps documents. Nothing here is stored;
 * the same web and id always give byte-identical output.
 *
 * Synthetic document format (what a crawler must extract text from):
 *   PDF: "%PDF-1.4", "%SYNTH-DOC", then "Key: value" and plain text lines, then "%%EOF".
 *        Research papers carry Title, Authors, Abstract, Keywords, numbered sections and a
 *        References list; non-paper PDFs (syllabi, forms) carry Title and body text only.
 *   PS:  "%!PS-Adobe-3.0", "%%Title: ...", then one "(text) show" line per text line, "showpage".
 */
import { gzipSync } from 'node:zlib';
import { fastRng, hash32, makeRng, seedNumber, unit, type Rng } from './rng.ts';
import { Anchor, Kind, LinkFlag, SECTIONS, sectionName, Target, type Web } from './web.ts';
import {
  ASSIGNMENT_ANCHORS,
  COURSE_DIRS,
  COURSE_NAMES,
  CV_ANCHORS,
  CV_FILES,
  DOC_ABBR,
  DOC_NAME_POOLS,
  DOC_NAMES,
  FILE_ANCHORS,
  FORM_DIRS,
  GROUP_DIRS,
  GROUP_PUBLIST_TITLES,
  HOME_DIRS,
  HOME_DOCS,
  PAPER_ANCHORS,
  PAPER_DIRS,
  PAPER_FILES,
  PAPER_HOMES,
  POSTSCRIPT_SHARES,
  PUBLIST_FILES,
  PUBLIST_HEADINGS,
  PUBLIST_TITLES,
  SLIDES_ANCHORS,
  SYLLABUS_ANCHORS,
  TALK_ANCHORS,
  TEACHING_DOCS,
  type Conventions,
} from './conventions.ts';

/** Words per text snippet and snippets per (topic, share) pool. */
const SNIPPET = 6;
const POOL = 1024;

/**
 * Text pools (Renderer.pool) are a function of the seed and the vocabulary alone (the vocabulary of
 * a Zipf exponent), so every web of one seed and exponent shares them: the server, the training
 * data and the truth renderers of one web, and the webs a process generates again (each test's
 * server, a sweep's points, the CLI crawls of one process). Building them took about 120 ms per web.
 * The pools of the last POOL_SEEDS (seed, exponent) pairs are kept, about 10 MB each (measured).
 */
const POOL_SEEDS = 4;
const POOLS = new Map<string, Map<number, string[]>>();

function poolsOf(web: Web): Map<number, string[]> {
  const id = `${web.seed}:${web.config.text.zipfExponent}`;
  const pools = POOLS.get(id) ?? new Map<number, string[]>();
  // (re-)inserted last: the first key is then the least recently used pair, the one dropped
  POOLS.delete(id);
  POOLS.set(id, pools);
  if (POOLS.size > POOL_SEEDS) POOLS.delete(POOLS.keys().next().value as string);
  return pools;
}

/** The convention that words the link to a teaching document, by its aux (syllabus, slides, assignment). */
const SYLLABUS_KEYS = ['syllabusAnchors', 'slidesAnchors', 'assignmentAnchors'] as const;

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** Middle sections of a paper (issue #52: papers do not all carry the same ones). */
const PAPER_SECTIONS = [
  'Background',
  'Related Work',
  'Model',
  'Method',
  'Approach',
  'Algorithm',
  'Analysis',
  'Experiments',
  'Evaluation',
  'Results',
  'Discussion',
  'Future Work',
];

/** n distinct entries of a list, in the list's order, drawn by r. */
function pick<T>(r: Rng, from: readonly T[], n: number): T[] {
  const idx = from.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => from[i]);
}
const slug = (w: string): string =>
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
const flat = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

/** Per-page memo in a dense array (titles and paths are asked for once per link rendered). */
class Memo<V> {
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

export interface RenderedPage {
  status: number;
  contentType: string;
  body: string | Buffer;
}

export class Renderer {
  private readonly titles: Memo<string>;
  private readonly paths: Memo<string>;
  /** Extra list items per page id (links into the deep-web search sites). */
  readonly extraItems = new Map<number, string[]>();
  /** The web's text pools, shared by every renderer of its seed and vocabulary (poolsOf). */
  private readonly pools: Map<number, string[]>;

  constructor(readonly web: Web) {
    this.titles = new Memo(web.n);
    this.paths = new Memo(web.n);
    this.pools = poolsOf(web);
  }

  private rng(id: number, what: number): Rng {
    return fastRng(this.web.seed, id, what, 0x5eed);
  }

  /**
   * Builds the text pools and lets the JIT compile the render path before serving, so the first
   * requests are not held up by one-off work (which would also skew the politeness audit's gaps).
   */
  warm(): void {
    const v = this.web.vocab;
    const base = this.web.config.text.topicShare;
    const shares = [base, base * 0.6, base * 0.5, base * 0.4, 0.6, 0.55, 0.5, 0.25];
    for (let t = 0; t < v.topics.length; t++) for (const sh of shares) this.pool(t, sh);
    const n = Math.min(this.web.n, 400);
    const step = Math.max(1, Math.floor(this.web.n / n));
    for (let id = 0; id < this.web.n; id += step) this.render(id);
  }

  /** Person name of a Faculty/Student page (or of a page's owner). */
  name(id: number): { first: string; last: string } {
    const v = this.web.vocab;
    const s = this.web.seed;
    return { first: v.first[hash32(s, id, 1) % v.first.length], last: v.last[hash32(s, id, 2) % v.last.length] };
  }

  login(id: number): string {
    return `${slug(this.name(id).last).replace(/-/g, '')}${this.web.local(id)}`;
  }

  courseNumber(courseId: number): number {
    return 100 + (hash32(this.web.seed, courseId, 3) % 800);
  }

  /** Words from a topic's Zipf distribution. */
  topicWords(rng: Rng, topic: number, n: number): string[] {
    const t = this.web.vocab.topics[topic];
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(t.words[t.zipf.sample(rng.next())]);
    return out;
  }

  title(id: number): string {
    return this.titles.get(id, () => flat(this.makeTitle(id)));
  }

  private makeTitle(id: number): string {
    const w = this.web;
    const site = w.sites[w.siteOf[id]];
    const topic = w.topic[id];
    const r = this.rng(id, 1);
    const words = (n: number): string => this.topicWords(r, topic, n).map(cap).join(' ');
    const person = (p: number): string => {
      const n = this.name(p);
      return `${n.first} ${n.last}`;
    };
    switch (w.kind[id]) {
      case Kind.Home:
        return `${site.name} - Department of Computer Science`;
      case Kind.Index:
        return `${cap(sectionName(site.conventions, w.aux[id]))} - ${site.name} Computer Science`;
      case Kind.Faculty:
        return `Prof. ${person(id)}`;
      case Kind.Student:
        return person(id);
      case Kind.Group:
        return `${cap(w.vocab.topics[topic].label)} Research Group: ${words(2)}`;
      case Kind.Project:
        return `${words(r.range(2, 3))} Project`;
      case Kind.Publist:
        return w.kind[w.owner[id]] === Kind.Group
          ? GROUP_PUBLIST_TITLES[site.conventions.groupPublistTitle]
          : PUBLIST_TITLES[site.conventions.publistTitle].replace('NAME', person(w.owner[id]));
      case Kind.Paper:
        return words(r.range(4, 7));
      case Kind.Course:
        return `CS ${this.courseNumber(id)}: ${words(r.range(2, 3))}`;
      case Kind.Lecture:
        return `Lecture ${w.aux[id]}: ${words(r.range(2, 3))}`;
      case Kind.Syllabus:
        // slides and assignments are titled by their subject alone, as a course's files were
        return w.aux[id] === 0 ? `Syllabus CS ${this.courseNumber(w.owner[id])}` : words(r.range(2, 4));
      case Kind.Form:
        return w.aux[id] === 0 ? `${words(1)} Form` : w.aux[id] === 1 ? person(w.owner[id]) : words(r.range(3, 5));
      case Kind.BgHome:
        return `${cap(site.name)}`;
      case Kind.Image:
        return `Photo ${words(1)}`;
      case Kind.Abstract:
        return `Abstract: ${this.title(w.aux[id])}`;
      default:
        return words(r.range(2, 5));
    }
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
    return HOME_DIRS[this.conv(person).homeDir].replace('LOGIN', this.login(person));
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
      .replace('LOGIN', owner >= 0 ? this.login(owner) : 'pub')
      .replace('COURSE', course >= 0 ? `/${COURSE_DIRS[c.courseDir]}/${this.courseName(course)}/` : '/')
      .replace('CNAME', course >= 0 ? this.courseName(course) : 'course');
  }

  /** Folder name of a course by the site's convention ("cs123" in the template). */
  private courseName(course: number): string {
    return COURSE_NAMES[this.conv(course).courseName].replace('NUM', String(this.courseNumber(course)));
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
    // the tokens are upper case, the values lower case: no value is read as a token
    return scheme
      .replace('WORD', word)
      .replace('ABBR', abbr)
      .replace('LOGIN', login)
      .replace('ID', String(this.web.local(id)));
  }

  /**
   * Where a department whose papers a CGI serves by number (and which names its documents from a
   * pool) serves half of its other documents: the same CGI, so a bare number marks no kind; else null.
   */
  private cgiPath(id: number): string | null {
    const at = PAPER_HOMES[this.conv(id).paperHome];
    if (!at.startsWith('/htbin/') || !this.web.sites[this.web.siteOf[id]].docNames) return null;
    return unit(this.web.seed, id, 61) < 0.5 ? `${at}${this.web.local(id)}` : null;
  }

  private makePath(id: number): string {
    const w = this.web;
    const local = w.local(id);
    const c = this.conv(id);
    const groups = GROUP_DIRS[c.groupDir];
    const courses = COURSE_DIRS[c.courseDir];
    const first = (): string =>
      slug(
        this.title(id)
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
      case Kind.Paper: {
        const ext = w.aux[id] === 2 ? 'ps.gz' : w.aux[id] === 1 ? 'ps' : 'pdf';
        if (owner === id)
          return `/papers/${this.pooledName(id, DOC_ABBR.paper, first(), 'papers') ?? `${first()}-${local}`}.${ext}`;
        const at = PAPER_HOMES[c.paperHome];
        // the CGI serves papers by number: no file name, no extension
        if (at.startsWith('/htbin/')) return `${at}${local}`;
        const file =
          this.pooledName(id, DOC_ABBR.paper, first(), this.login(owner)) ??
          PAPER_FILES[c.paperFile]
            .replace('FIRST', first())
            .replace('LOGIN', this.login(owner))
            .replace('ID', String(local));
        return `${this.folder(at, id, owner)}${file}.${ext}`;
      }
      case Kind.Course:
        return `/${courses}/${this.courseName(id)}-${local}/`;
      case Kind.Lecture:
        return `/${courses}/${this.courseName(owner)}/lecture${w.aux[id]}-${local}.html`;
      case Kind.Syllabus: {
        const instructor = w.aux[owner];
        const cgi = this.cgiPath(id);
        if (cgi) return cgi;
        const by = instructor >= 0 ? this.login(instructor) : this.courseName(owner);
        if (w.aux[id] === 0)
          return `/${courses}/${this.courseName(owner)}/${this.pooledName(id, DOC_ABBR.syllabus, 'syllabus', by) ?? `syllabus-${local}`}.pdf`;
        const at = TEACHING_DOCS[c.teachingDocs].dir;
        // a teaching document kept in the instructor's home needs one; without, the course's folder
        const dir = at.startsWith('HOME') && instructor < 0 ? 'COURSE' : at;
        const abbr = w.aux[id] === 1 ? DOC_ABBR.slides : DOC_ABBR.assignment;
        return `${this.folder(dir, id, at.startsWith('HOME') ? instructor : -1, owner)}${this.pooledName(id, abbr, first(), by) ?? `${first()}-${local}`}.${this.docExt(id)}`;
      }
      case Kind.News:
        return `/news/${first()}-${local}.html`;
      case Kind.Admin:
        return `/admin/${first()}-${local}.html`;
      case Kind.Form: {
        const cgi = this.cgiPath(id);
        if (cgi) return cgi;
        if (w.aux[id] === 0)
          return `${FORM_DIRS[c.formDir]}${this.pooledName(id, DOC_ABBR.form, first(), 'forms') ?? `${first()}-${local}`}.pdf`;
        const word = w.aux[id] === 1 ? CV_FILES[c.cvAnchors] : first();
        const name = this.pooledName(id, w.aux[id] === 1 ? DOC_ABBR.cv : DOC_ABBR.talk, word, this.login(owner));
        return `${this.folder(HOME_DOCS[c.homeDocs].dir, id, owner)}${name ?? `${word}-${local}`}.${this.docExt(id)}`;
      }
      case Kind.Gap:
        return `/info/${first()}-${local}.html`;
      case Kind.Personal:
        return `${this.home(owner)}${first()}-${local}.html`;
      case Kind.Image:
        return `/images/${slug(this.title(id).split(' ')[1] ?? 'photo')}-${local}.jpg`;
      default:
        return `/${first()}/${slug(this.title(id).split(' ')[1] ?? 'page')}-${local}.html`;
    }
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

  // ---- text ----

  /**
   * Text of about n words from the page's topic mixture: own topic with probability `share`,
   * another computing sub-topic 0.06, an off-topic vocabulary 0.10, common words otherwise.
   * For speed the mixture is realised in snippets of SNIPPET words drawn from a pool made once
   * per (topic, share) from the seed, so a page costs a few dozen lookups, not hundreds of draws.
   */
  mixture(r: Rng, id: number, n: number, share: number): string {
    const pool = this.pool(this.web.topic[id], share);
    const k = Math.max(1, Math.round(n / SNIPPET));
    let out = pool[(r.next() * POOL) | 0];
    for (let i = 1; i < k; i++) out += ` ${pool[(r.next() * POOL) | 0]}`;
    return out;
  }

  private pool(topic: number, share: number): string[] {
    const key = topic * 1000 + Math.round(share * 100);
    let p = this.pools.get(key);
    if (!p) {
      const r = makeRng(`${this.web.seed}:pool:${key}`);
      const v = this.web.vocab;
      const own = v.topics[topic];
      const a = share,
        b = share + 0.06,
        c = share + 0.16;
      p = [];
      for (let i = 0; i < POOL; i++) {
        const words: string[] = [];
        for (let j = 0; j < SNIPPET; j++) {
          const u = r.next();
          let t = own;
          if (u >= a && u < b) t = v.topics[r.int(v.computingCount)];
          else if (u >= b && u < c) t = v.topics[v.computingCount + r.int(v.topics.length - v.computingCount)];
          words.push(u >= c ? v.common[v.commonZipf.sample(r.next())] : t.words[t.zipf.sample(r.next())]);
        }
        p.push(words.join(' '));
      }
      this.pools.set(key, p);
    }
    return p;
  }

  private topicShare(id: number): number {
    const w = this.web;
    const s = w.config.text.topicShare;
    switch (w.kind[id]) {
      case Kind.Faculty:
        return s * 0.6;
      case Kind.Student:
        return s * 0.4;
      case Kind.Syllabus:
      case Kind.Index:
      case Kind.Home:
        return s * 0.5;
      default:
        return s;
    }
  }

  anchorText(src: number, e: number, target: number, flags: number): string {
    const w = this.web;
    const g = w.vocab.generic;
    const h = hash32(w.seed, src, e, 11);
    const a = flags & 7;
    if (a === Anchor.Nav) {
      if (target >= 0 && w.kind[target] === Kind.Home) return 'Home';
      if (target >= 0 && w.kind[target] === Kind.Index) return cap(sectionName(this.conv(target), w.aux[target]));
      return g.nav[h % g.nav.length];
    }
    if (a === Anchor.Papers) {
      const own = PAPER_ANCHORS[this.conv(src).paperAnchors] ?? g.papers;
      return own[h % own.length];
    }
    if (a === Anchor.Research) return g.research[h % g.research.length];
    if (a === Anchor.Misc) {
      const c = this.conv(src);
      if (target >= 0 && w.kind[target] === Kind.Syllabus) {
        const pool = [SYLLABUS_ANCHORS, SLIDES_ANCHORS, ASSIGNMENT_ANCHORS][w.aux[target]][
          c[SYLLABUS_KEYS[w.aux[target]]]
        ];
        return pool[h % pool.length];
      }
      if (target >= 0 && w.kind[target] === Kind.Form && w.aux[target] > 0) {
        const pool = w.aux[target] === 1 ? CV_ANCHORS[c.cvAnchors] : TALK_ANCHORS[c.talkAnchors];
        return pool[h % pool.length];
      }
      // an abstract page's link to its file names the file's type, or the department's words for it
      if (target >= 0 && w.kind[target] === Kind.Paper) {
        const own = FILE_ANCHORS[c.fileAnchors];
        if (own) return own[h % own.length];
        return w.aux[target] === 2 ? 'gzipped PostScript' : w.aux[target] === 1 ? 'PostScript' : 'PDF';
      }
      return g.misc[h % g.misc.length];
    }
    if (a === Anchor.People) {
      if (target >= 0 && (w.kind[target] === Kind.Faculty || w.kind[target] === Kind.Student)) {
        const n = this.name(target);
        return h % 4 === 0 ? `~${this.login(target)}` : `${n.first} ${n.last}`;
      }
      return g.people[h % g.people.length];
    }
    // Title: the target's title, or generic words with probability anchors.noise
    if (unit(w.seed, src, e, 12) < w.config.anchors.noise) return g.misc[h % g.misc.length];
    if (target < 0) return this.topicWords(fastRng(w.seed, src, e, 4), w.topic[src], 3).join(' ');
    return this.title(target);
  }

  /** The host and path link e of page src leads to: a special target, or the target's own (moved) path. */
  private place(src: number, e: number, target: number, flags: number): { host: string; path: string } {
    const w = this.web;
    const host = w.sites[w.siteOf[src]].host;
    if (target === Target.Calendar) return { host, path: '/events/calendar/2026/11/' };
    if (target === Target.RedirectLoop) return { host, path: '/loop/a.html' };
    if (target === Target.Broken)
      return {
        host,
        path: `/${SECTIONS[hash32(w.seed, src, e) % SECTIONS.length]}/missing-${9_000_000 + (hash32(w.seed, src, e, 5) % 1_000_000)}.html`,
      };
    let path = this.path(target);
    if (flags & LinkFlag.Redirect) {
      const k = w.kind[target];
      path = k === Kind.Faculty || k === Kind.Student ? path.slice(0, -1) : `/old${path}`;
    }
    return { host: w.sites[w.siteOf[target]].host, path };
  }

  /**
   * The absolute URL link e of page src leads to as a crawler fetches it (session ids stripped):
   * what a collection of the rendered pages would see linked, without rendering them.
   */
  linkUrl(src: number, e: number): string {
    const { host, path } = this.place(src, e, this.web.outTarget[e], this.web.outFlags[e]);
    return `http://${host}${path}`;
  }

  private href(src: number, e: number, target: number, flags: number): string {
    const w = this.web;
    const site = w.sites[w.siteOf[src]];
    const to = this.place(src, e, target, flags);
    if (target < 0) return to.path;
    let path = to.path;
    if (to.host !== site.host) return `http://${to.host}${path}`;
    if (site.sessionIds) path += `${path.includes('?') ? '&' : '?'}sid=${hash32(w.seed, src, e, 9).toString(16)}`;
    return hash32(w.seed, src, e, 13) % 5 === 0 ? `http://${site.host}${path}` : path;
  }

  private around(r: Rng, src: number, target: number): [string, string] {
    const w = this.web;
    const n = w.config.anchors.aroundWords;
    if (n === 0) return ['', ''];
    const fromTarget = target >= 0 && r.next() >= w.config.anchors.aroundNoise;
    const id = fromTarget ? target : src;
    const share = fromTarget ? 0.6 : this.topicShare(src);
    return [this.mixture(r, id, n, share), this.mixture(r, id, n, share)];
  }

  /** Full response for a page id. */
  render(id: number): RenderedPage {
    const w = this.web;
    const k = w.kind[id];
    if (k === Kind.Paper) return this.paper(id);
    if (k === Kind.Syllabus || k === Kind.Form) return this.pdfDoc(id);
    if (k === Kind.Image) return this.image(id);
    return this.html(id);
  }

  private html(id: number): RenderedPage {
    const w = this.web;
    const cfg = w.config;
    const site = w.sites[w.siteOf[id]];
    const r = this.rng(id, 2);
    const title = this.title(id);
    const malformed = unit(w.seed, id, 21) < cfg.faults.malformedRate;
    const half = r.range(cfg.text.wordsMin, cfg.text.wordsMax) / 2;
    const intro = this.mixture(r, id, half, this.topicShare(id));
    const outro = this.mixture(r, id, half, this.topicShare(id));
    const heading = this.heading(id);
    const items: string[] = [];
    for (let e = w.outStart[id]; e < w.outStart[id + 1]; e++) {
      const t = w.outTarget[e];
      const f = w.outFlags[e];
      const href = this.href(id, e, t, f);
      const anchor = this.anchorText(id, e, t, f);
      const [before, after] = this.around(r, id, t);
      items.push(
        malformed && e % 3 === 0
          ? `<LI>${before} <A HREF=${href}>${anchor}</A> ${after}`
          : `<li>${before} <a href="${href}">${anchor}</a> ${after}</li>`,
      );
    }
    const extra = this.extraItems.get(id);
    if (extra) items.push(...extra);
    if (w.kind[id] === Kind.Personal && unit(w.seed, id, 22) < 0.5)
      items.push(`<li><img src="/images/portrait-${w.local(id)}.jpg" alt="me"></li>`);
    const meta =
      site.charset === 'utf-8'
        ? '<meta charset="utf-8">'
        : `<meta http-equiv="Content-Type" content="text/html; charset=${site.charset}">`;
    // one join at the end gives a flat string, which sockets write far faster than a rope
    let body = (
      malformed
        ? [
            `<HTML><HEAD>${meta}<TITLE>${title}</TITLE><BODY><H1>${title}<P>${intro}<H2>${heading}</H2><UL>`,
            ...items,
            `<P>${outro}<div><span>`,
          ]
        : [
            `<!DOCTYPE html>\n<html><head>${meta}<title>${title}</title></head>\n<body>\n<h1>${title}</h1>\n<p>${intro}</p>\n<h2>${heading}</h2>\n<ul>`,
            ...items,
            `</ul>\n<p>${outro}</p>\n</body></html>\n`,
          ]
    ).join('\n');
    if (unit(w.seed, id, 23) < cfg.faults.oversizedRate) {
      const filler = `<p>${intro}</p>\n`;
      body = body.replace('</body>', `${filler.repeat(Math.ceil(cfg.faults.oversizedBytes / filler.length))}</body>`);
    }
    return this.encodeHtml(site.charset, body);
  }

  private heading(id: number): string {
    switch (this.web.kind[id]) {
      case Kind.Publist:
        return PUBLIST_HEADINGS[this.conv(id).publistHeading];
      case Kind.Faculty:
      case Kind.Student:
        return 'Links';
      case Kind.Group:
        return 'Projects and People';
      case Kind.Course:
        return 'Lectures';
      default:
        return 'See also';
    }
  }

  private encodeHtml(charset: string, body: string): RenderedPage {
    if (charset === 'utf-8') return { status: 200, contentType: 'text/html; charset=utf-8', body };
    // legacy pages: characters outside Latin-1 become '?', as a legacy editor would save them
    // biome-ignore lint/suspicious/noControlCharactersInRegex: Latin-1 starts at NUL
    const buf = Buffer.from(body.replace(/[^\u0000-\u00ff]/g, '?'), 'latin1');
    return {
      status: 200,
      contentType: charset === 'iso-8859-1' ? 'text/html; charset=iso-8859-1' : 'text/html',
      body: buf,
    };
  }

  /** A research paper in the synthetic .pdf or .ps format. */
  paper(id: number): RenderedPage {
    const w = this.web;
    const r = this.rng(id, 3);
    const owner = w.owner[id];
    const authors = [
      owner === id ? this.name(hash32(w.seed, id) % w.n) : this.name(owner),
      this.name(hash32(w.seed, id, 1) % w.n),
    ]
      .map((n) => `${n.first} ${n.last}`)
      .join(', ');
    const abstract = this.mixture(r, id, r.range(60, 110), 0.55);
    const keywords = this.topicWords(r, w.topic[id], 5).join(', ');
    const structured = w.config.structure.documentBodies === 1;
    // structured: 3-7 sections (an introduction, a pool's middle, a conclusion), 25-110 words each
    const names = structured
      ? ['Introduction', ...pick(r, PAPER_SECTIONS, r.range(1, 5)), 'Conclusion']
      : ['Introduction', 'Related Work', 'Approach', 'Evaluation', 'Conclusion'];
    const sections = names.map(
      (s, i) => `${i + 1} ${s}\n${this.mixture(r, id, structured ? r.range(25, 110) : r.range(40, 90), 0.5)}`,
    );
    const refs = Array.from(
      { length: r.range(4, 10) },
      (_, i) =>
        `[${i + 1}] ${this.topicWords(r, w.topic[id], r.range(4, 7)).map(cap).join(' ')}. ${r.range(1980, 2026)}.`,
    );
    // structured: a workshop paper or a scanned report now and then has no abstract heading (its
    // summary opens the text) and no keywords line
    const headed = !structured || r.next() >= 0.1;
    const lines = [
      `Title: ${this.title(id)}`,
      `Authors: ${authors}`,
      headed ? `Abstract: ${abstract}` : abstract,
      ...(headed ? [`Keywords: ${keywords}`] : []),
      ...sections,
      'References',
      ...refs,
    ];
    if (w.aux[id] === 2) {
      // gzipped PostScript, as departments served it; gzip output is deterministic (no timestamp)
      const ps = this.ps(this.title(id), lines);
      return { status: 200, contentType: 'application/gzip', body: gzipSync(Buffer.from(ps.body as string, 'utf8')) };
    }
    return w.aux[id] === 1 ? this.ps(this.title(id), lines) : this.pdf(lines);
  }

  /**
   * A non-paper document (syllabus, slides, assignment, form, CV, talk slides): no abstract, no
   * references. Slides, assignments and talks are as topical as a lecture page; a PostScript path
   * is served as PostScript.
   */
  private pdfDoc(id: number): RenderedPage {
    const w = this.web;
    const r = this.rng(id, 3);
    const aux = w.aux[id];
    const topical = aux === 2 || (w.kind[id] === Kind.Syllabus && aux === 1);
    const share = topical ? w.config.text.topicShare : 0.25;
    const lines =
      w.config.structure.documentBodies === 1
        ? [`Title: ${this.title(id)}`, ...this.docBody(id, r, share)]
        : [`Title: ${this.title(id)}`, this.mixture(r, id, r.range(80, 200), share)];
    if (aux > 0 && this.path(id).endsWith('.ps')) return this.ps(this.title(id), lines);
    return this.pdf(lines);
  }

  /**
   * The body of a document other than a paper, structured as its kind is (issue #52), at sizes that
   * overlap a paper's (about 150-900 words against 250-900): lecture slides an outline, numbered
   * parts and often references; talk slides often an abstract and references, as a talk announced
   * from a paper; a CV its sections and a publication list (references, in all but name); a
   * syllabus its readings; an assignment its problems; a form its fields.
   */
  private docBody(id: number, r: Rng, share: number): string[] {
    const w = this.web;
    const topic = w.topic[id];
    const text = (lo: number, hi: number): string => this.mixture(r, id, r.range(lo, hi), share);
    const refs = (lo: number, hi: number): string[] =>
      Array.from(
        { length: r.range(lo, hi) },
        (_, i) => `[${i + 1}] ${this.topicWords(r, topic, r.range(4, 7)).map(cap).join(' ')}. ${r.range(1980, 2026)}.`,
      );
    const parts = (n: number, lo: number, hi: number): string[] =>
      Array.from({ length: n }, (_, i) => `${i + 1} ${cap(this.topicWords(r, topic, 1)[0])}\n${text(lo, hi)}`);
    const kind = w.kind[id];
    const aux = w.aux[id];
    if (kind === Kind.Syllabus && aux === 0)
      return [
        `Description: ${text(60, 160)}`,
        `Schedule\n${text(60, 200)}`,
        ...(r.next() < 0.6 ? ['Readings', ...refs(3, 10)] : []),
      ];
    if (kind === Kind.Syllabus && aux === 1)
      return [
        `Outline\n${text(15, 40)}`,
        ...parts(r.range(4, 10), 20, 70),
        ...(r.next() < 0.4 ? ['References', ...refs(2, 8)] : []),
      ];
    if (kind === Kind.Syllabus)
      return [...parts(r.range(2, 6), 30, 110), ...(r.next() < 0.2 ? ['References', ...refs(1, 4)] : [])];
    if (kind === Kind.Form && aux === 1)
      return [
        `Education\n${text(20, 60)}`,
        `Employment\n${text(30, 100)}`,
        `Research Interests\n${text(30, 90)}`,
        'Publications',
        ...refs(5, 25),
        ...(r.next() < 0.5 ? ['References available upon request.'] : []),
      ];
    if (kind === Kind.Form && aux === 2)
      return [
        ...(r.next() < 0.6 ? [`Abstract: ${text(50, 110)}`] : []),
        ...parts(r.range(4, 9), 20, 80),
        ...(r.next() < 0.5 ? ['References', ...refs(2, 8)] : []),
      ];
    return [text(80, 260)];
  }

  private pdf(lines: string[]): RenderedPage {
    return { status: 200, contentType: 'application/pdf', body: `%PDF-1.4\n%SYNTH-DOC\n${lines.join('\n')}\n%%EOF\n` };
  }

  private ps(title: string, lines: string[]): RenderedPage {
    const esc = (s: string): string => s.replace(/[()\\]/g, (c) => `\\${c}`);
    return {
      status: 200,
      contentType: 'application/postscript',
      body: `%!PS-Adobe-3.0\n%%Title: ${esc(title)}\n%%Creator: synthetic-web\n%%EndComments\n${lines.map((l) => `(${esc(l)}) show`).join('\n')}\nshowpage\n%%EOF\n`,
    };
  }

  private image(id: number): RenderedPage {
    const buf = Buffer.alloc(512 + (hash32(this.web.seed, id) % 2048));
    let x = hash32(this.web.seed, id, 4) | 1;
    for (let i = 0; i < buf.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      buf[i] = x & 0xff;
    }
    buf[0] = 0xff;
    buf[1] = 0xd8;
    buf[2] = 0xff; // JPEG magic
    return { status: 200, contentType: 'image/jpeg', body: buf };
  }

  /** The infinite calendar (a spider trap): every month links to the next and previous one. */
  calendar(host: string, year: number, month: number): RenderedPage {
    const site = this.web.siteByHost(host);
    const r = fastRng(this.web.seed, seedNumber(host), year, month);
    const next = month === 12 ? [year + 1, 1] : [year, month + 1];
    const prev = month === 1 ? [year - 1, 12] : [year, month - 1];
    const events = this.topicWords(r, site ? this.web.topic[site.first] : 0, 40).join(' ');
    const body =
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Events ${year}-${month}</title></head><body><h1>Calendar ${year}-${String(month).padStart(2, '0')}</h1><p>${events}</p>` +
      `<a href="/events/calendar/${prev[0]}/${prev[1]}/">previous month</a> <a href="/events/calendar/${next[0]}/${next[1]}/">next month</a></body></html>\n`;
    return { status: 200, contentType: 'text/html; charset=utf-8', body };
  }
}
