/**
 * Builds a synthetic web in place from its config and seed: the departments (people, groups,
 * projects, courses, papers and the gaps to them, by each site's conventions), the background
 * sites, the heavy-tailed extra links, then the compact arrays of web.ts. One seeded generator
 * drives every draw, in this order: the same config and seed give the same web.
 */
import type { WebConfig } from './config.ts';
import {
  DOC_FORMS,
  drawConventions,
  drawDocForms,
  drawDocNames,
  drawCues,
  HOME_DOCS,
  POSTSCRIPT_SHARES,
  TEACHING_DOCS,
  TEMPLATE,
} from './conventions.ts';
import { makeRng, type Rng, unit } from './web-rng.ts';
import { topicByKey } from './vocab.ts';
import type { NewSite, WebData, WebDraft } from './web-draft.ts';
import { Anchor, Kind, SECTIONS, type Site, sectionName, Target } from './web-kinds.ts';
import { IntList } from '../lib/typed-arrays.ts';
import { addBackground } from './web-background.ts';
import { addExtraLinks } from './web-links.ts';

/** A research group as the builder fills it: its topic, community, home and list, members, papers, projects. */
interface Group {
  topic: number;
  comm: number;
  ghome: number;
  gpub: number;
  faculty: number[];
  papers: number[];
  projects: number[];
}

/** What a department's people draw from: its groups, communities, document generator and forms. */
interface People {
  /** the computing topics, shuffled (a paper off its group's topic draws from them) */
  order: number[];
  groups: Group[];
  cAdmin: number;
  cLife: number;
  /** the teaching and home documents' own generator */
  docs: Rng;
  /** the share of papers in PostScript, and how their files and abstracts are formed */
  psShare: number;
  forms: (typeof DOC_FORMS)[number];
}

/** Builds a Web in place: pages and communities first, then structural links, then extra links. */
export class WebBuilder implements WebDraft {
  readonly w: WebData;
  readonly rng: Rng;
  readonly kinds = new IntList();
  private readonly topics = new IntList();
  readonly sitesOf = new IntList();
  readonly comms = new IntList();
  private readonly owners = new IntList();
  private readonly auxs = new IntList();
  private readonly src = new IntList(1 << 16);
  private readonly dst = new IntList(1 << 16);
  private readonly flg = new IntList(1 << 16);
  private readonly campus: number;
  readonly news: number;
  readonly lifeTopics: number[];
  readonly offTopics: number[];

  constructor(w: WebData) {
    this.w = w;
    this.rng = makeRng(`web:${w.seed}`);
    const v = w.vocab;
    this.campus = topicByKey(v, 'campus').id;
    this.news = topicByKey(v, 'news').id;
    this.lifeTopics = ['sports', 'food', 'travel', 'arts', 'family'].map((k) => topicByKey(v, k).id);
    this.offTopics = v.topics.filter((t) => !t.computing).map((t) => t.id);
  }

  page(kind: number, topic: number, community: number, owner = -1, aux = 0): number {
    const id = this.kinds.length;
    this.kinds.push(kind);
    this.topics.push(topic);
    this.sitesOf.push(this.w.sites.length - 1);
    this.comms.push(community);
    this.owners.push(owner < 0 ? id : owner);
    this.auxs.push(aux);
    return id;
  }

  link(from: number, to: number, anchor: number, flags = 0): void {
    this.src.push(from);
    this.dst.push(to);
    this.flg.push(anchor | flags);
  }

  community(topic: number, topical: boolean): number {
    this.w.communities.push({ site: this.w.sites.length - 1, topic, topical });
    return this.w.communities.length - 1;
  }

  addSite(s: NewSite): Site {
    const dept = s.kind === 'department';
    const conventions = dept
      ? drawConventions(this.w.seed, s.host, this.w.sites.length, this.w.config.structure.conventions)
      : TEMPLATE;
    const docForms = dept ? drawDocForms(this.w.seed, s.host, this.w.config.structure.documentForms) : 0;
    const { documentNames, conventions: heterogeneity } = this.w.config.structure;
    const docNames = dept ? drawDocNames(this.w.seed, s.host, documentNames, heterogeneity) : 0;
    const cues = dept && drawCues(this.w.seed, s.host, this.w.config.structure.cues);
    const site: Site = {
      ...s,
      index: this.w.sites.length,
      first: this.kinds.length,
      count: 0,
      sections: new Map(),
      conventions,
      docForms,
      docNames,
      cues,
    };
    this.w.sites.push(site);
    this.w.hosts.set(site.host, site);
    return site;
  }

  /** Geometric count with the given mean (at least 1), capped at 6 x mean. */
  private geometric(mean: number): number {
    if (mean <= 0) return 0;
    return Math.min(Math.ceil(mean * 6), 1 + Math.floor(-(mean - 0.5) * Math.log(1 - this.rng.next())));
  }

  run(): void {
    const c = this.w.config;
    for (const d of c.departments) this.department(d);
    addBackground(this);
    addExtraLinks(this);
    this.finish();
  }

  /**
   * A department's frame: its communities (administration, news, teaching, personal life), its
   * homepage, and the section indexes the homepage and the people page link.
   */
  private frame(site: Site) {
    const cAdmin = this.community(this.campus, false);
    const cNews = this.community(this.news, false);
    const cTeach = this.community(this.campus, false);
    const cLife = this.community(this.lifeTopics[0], false);

    const home = this.page(Kind.Home, this.campus, cAdmin);
    const idx: number[] = SECTIONS.map((name, i) => {
      const id = this.page(
        Kind.Index,
        name === 'news' ? this.news : this.campus,
        name === 'news' ? cNews : name === 'courses' ? cTeach : cAdmin,
        -1,
        i,
      );
      site.sections.set(`/${sectionName(site.conventions, i)}/`, id);
      return id;
    });
    const [people, facultyList, studentList, research, courses, newsIdx, adminIdx] = idx;
    this.link(home, people, Anchor.People);
    this.link(home, research, Anchor.Research);
    this.link(home, courses, Anchor.Nav);
    this.link(home, newsIdx, Anchor.Nav);
    this.link(home, adminIdx, Anchor.Nav);
    this.link(people, facultyList, Anchor.People);
    this.link(people, studentList, Anchor.People);

    return { cAdmin, cNews, cTeach, cLife, idx };
  }

  private department(d: WebConfig['departments'][number]): void {
    const s = this.w.config.structure;
    const site = this.addSite({
      host: d.host,
      name: d.name,
      kind: 'department',
      robots: d.robots,
      charset: d.charset,
      sessionIds: d.sessionIds,
      minGapMs: d.minGapMs,
    });
    const per = (k: number): number => Math.max(1, Math.round((d.pages / 1000) * k));
    const { cAdmin, cNews, cTeach, cLife, idx } = this.frame(site);
    const [, facultyList, studentList, research, courses, newsIdx, adminIdx] = idx;
    const { order, groups } = this.addGroups(d.groups, research, cAdmin, cNews);
    // teaching and home documents: their own generator, so a department without them (the
    // template) draws exactly what it drew before they existed
    const docs = makeRng(`docs:${this.w.seed}:${d.host}`);
    const people: People = {
      order,
      groups,
      cAdmin,
      cLife,
      docs,
      psShare: POSTSCRIPT_SHARES[site.conventions.postscript] ?? s.postscriptShare,
      forms: DOC_FORMS[site.docForms],
    };
    const faculty = this.addFaculty(per(s.facultyPerK), facultyList, people, HOME_DOCS[site.conventions.homeDocs]);
    this.addProjects(groups);
    this.addStudents(per(s.studentsPerK), studentList, people);
    const teachDocs = TEACHING_DOCS[site.conventions.teachingDocs];
    this.addCourses(d, per(s.coursesPerK), { order, cTeach, courses, faculty, docs, teachDocs });
    this.addNewsAndAdmin(per(s.newsPerK), per(s.adminPerK), { cNews, cAdmin, newsIdx, adminIdx });
    this.fillWithPersonalPages(site.first, d.pages, (home, n) => this.personalChain(home, n, cLife));
    site.count = this.kinds.length - site.first;
  }

  /** The faculty: a homepage each in a group, a publication list of papers, a CV and talks, personal pages. */
  private addFaculty(count: number, facultyList: number, p: People, homeDocs: (typeof HOME_DOCS)[number]): number[] {
    const { rng } = this;
    const s = this.w.config.structure;
    const faculty: number[] = [];
    for (let f = 0; f < count; f++) {
      const g = p.groups[f % p.groups.length];
      const fh = this.page(Kind.Faculty, g.topic, g.comm);
      faculty.push(fh);
      g.faculty.push(fh);
      if (s.bypass.peopleDirectory) this.link(facultyList, fh, Anchor.People);
      this.link(g.ghome, fh, Anchor.People);
      this.link(fh, g.ghome, Anchor.Title);
      const pub = this.page(Kind.Publist, g.topic, g.comm, fh);
      this.link(fh, pub, Anchor.Papers);
      const n = this.geometric(s.papersPerFaculty);
      for (let i = 0; i < n; i++) {
        const paper = this.paper(fh, g, pub, p);
        if (rng.chance(s.papersFrom.ownerHomeShare)) this.link(fh, paper, Anchor.Title); // "selected papers" on the homepage
      }
      if (homeDocs.cv > 0 && p.docs.next() < homeDocs.cv)
        this.link(fh, this.page(Kind.Form, this.campus, p.cAdmin, fh, 1), Anchor.Misc);
      for (let t = homeDocs.talks > 0 ? p.docs.int(homeDocs.talks + 1) : 0; t > 0; t--)
        this.link(fh, this.page(Kind.Form, g.topic, g.comm, fh, 2), Anchor.Misc);
      this.personalChain(fh, rng.range(0, 3), p.cLife);
    }
    return faculty;
  }

  /** Each group's projects (linking its faculty and papers), and its publication list. */
  private addProjects(groups: Group[]): void {
    const { rng } = this;
    const s = this.w.config.structure;
    for (const g of groups) {
      for (let j = rng.range(2, 6); j > 0; j--) {
        const pr = this.page(Kind.Project, g.topic, g.comm, g.ghome);
        g.projects.push(pr);
        this.link(g.ghome, pr, Anchor.Title);
        this.link(pr, g.ghome, Anchor.Nav);
        for (let k = 0; k < 3 && g.faculty.length; k++) this.link(pr, rng.pick(g.faculty), Anchor.People);
        for (let k = 0; k < s.papersFrom.projectLinks && g.papers.length; k++)
          this.link(pr, rng.pick(g.papers), Anchor.Title);
      }
      // the group's publication list repeats up to 60 of its members' papers
      if (s.papersFrom.groupList)
        for (let k = 0; k < Math.min(60, g.papers.length); k++) this.link(g.gpub, g.papers[k], Anchor.Title);
    }
  }

  /** The students: most in a group (some publishing papers), the rest off topic; personal pages each. */
  private addStudents(count: number, studentList: number, p: People): void {
    const { rng } = this;
    const s = this.w.config.structure;
    for (let st = 0; st < count; st++) {
      const inGroup = rng.chance(0.75);
      const g = rng.pick(p.groups);
      const sh = this.page(Kind.Student, inGroup ? g.topic : rng.pick(this.lifeTopics), inGroup ? g.comm : p.cLife);
      if (s.bypass.peopleDirectory) this.link(studentList, sh, Anchor.People);
      if (inGroup && g.faculty.length) this.link(rng.pick(g.faculty), sh, Anchor.People);
      if (inGroup && rng.chance(s.studentPublishShare)) {
        const pub = this.page(Kind.Publist, g.topic, g.comm, sh);
        this.link(sh, pub, Anchor.Papers);
        for (let i = this.geometric(s.papersPerStudent); i > 0; i--) this.paper(sh, g, pub, p);
      }
      this.personalChain(sh, rng.range(1, 5), p.cLife);
    }
  }

  /** A paper of `ownerHome` in group g, listed on `list` (through its abstract page, for some). */
  private paper(ownerHome: number, g: Group, list: number, p: People): number {
    const { rng } = this;
    const topic = rng.chance(0.85) ? g.topic : p.order[rng.int(p.order.length)];
    // the document form is decided by hashes of the page id, never by rng, so forms off change nothing
    const next = this.kinds.length;
    const ps = rng.chance(p.psShare);
    const paper = this.page(
      Kind.Paper,
      topic,
      g.comm,
      ownerHome,
      ps ? (unit(this.w.seed, next, 42) < p.forms.gzip ? 2 : 1) : 0,
    );
    if (unit(this.w.seed, paper, 41) < p.forms.abstract) {
      const a = this.page(Kind.Abstract, topic, g.comm, ownerHome, paper);
      this.link(list, a, Anchor.Title);
      this.link(a, paper, Anchor.Misc);
    } else this.link(list, paper, Anchor.Title);
    g.papers.push(paper);
    return paper;
  }

  /** A chain of `length` personal pages (some with an image) from a person's homepage. */
  private personalChain(ownerHome: number, length: number, cLife: number): void {
    const { rng } = this;
    let prev = ownerHome;
    for (let j = 0; j < length; j++) {
      const pp = this.page(Kind.Personal, rng.pick(this.lifeTopics), cLife, ownerHome);
      this.link(prev, pp, rng.chance(0.5) ? Anchor.Title : Anchor.Misc);
      if (rng.chance(0.3))
        this.link(pp, this.page(Kind.Image, rng.pick(this.lifeTopics), cLife, ownerHome), Anchor.Misc);
      prev = pp;
    }
  }

  /** Fills a department up to its configured size with personal pages of its students and faculty. */
  private fillWithPersonalPages(
    first: number,
    pages: number,
    personalChain: (owner: number, length: number) => void,
  ): void {
    const { rng } = this;
    const owners = this.kinds.length;
    const people0: number[] = [];
    for (let id = first; id < owners; id++)
      if (this.kinds.data[id] === Kind.Student || this.kinds.data[id] === Kind.Faculty) people0.push(id);
    while (this.kinds.length - first < pages) personalChain(rng.pick(people0), rng.range(1, 4));
  }

  /** The news chain (and the calendar trap) and the administrative pages (and a redirect loop). */
  private addNewsAndAdmin(
    newsCount: number,
    adminCount: number,
    c: { cNews: number; cAdmin: number; newsIdx: number; adminIdx: number },
  ): void {
    const { rng } = this;
    const v = this.w.vocab;
    const { cNews, cAdmin, newsIdx, adminIdx } = c;
    const chain = (kind: number, topic: () => number, comm: number, index: number, count: number): number[] => {
      const ids: number[] = [];
      for (let i = 0; i < count; i++) {
        const id = this.page(kind, topic(), comm);
        if (i < 25) this.link(index, id, Anchor.Title);
        if (i > 0) this.link(ids[i - 1], id, Anchor.Nav);
        ids.push(id);
      }
      return ids;
    };
    chain(Kind.News, () => this.news, cNews, newsIdx, newsCount);
    this.link(newsIdx, Target.Calendar, Anchor.Misc);
    const admins = chain(
      Kind.Admin,
      () => (rng.chance(0.7) ? this.campus : topicByKey(v, 'finance').id),
      cAdmin,
      adminIdx,
      adminCount,
    );
    for (let i = 0; i < Math.ceil(admins.length / 4); i++)
      this.link(rng.pick(admins), this.page(Kind.Form, this.campus, cAdmin), Anchor.Misc);
    this.link(adminIdx, Target.RedirectLoop, Anchor.Misc);
  }

  /**
   * The research groups: one topical community each, sub-topics drawn without replacement, each
   * reached from the research index through a chain of off-topic pages (the gap to tunnel through).
   */
  private addGroups(
    count: number,
    research: number,
    cAdmin: number,
    cNews: number,
  ): { order: number[]; groups: Group[] } {
    const { rng } = this;
    const s = this.w.config.structure;
    const v = this.w.vocab;
    // research groups: one topical community each, sub-topics drawn without replacement
    const order = v.topics.filter((t) => t.computing).map((t) => t.id);
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const groups = Array.from({ length: count }, (_, g) => {
      const topic = order[g % order.length];
      const comm = this.community(topic, true);
      const ghome = this.page(Kind.Group, topic, comm);
      // the way in: a chain of off-topic pages from the research index (the gap to tunnel through)
      const len = rng.range(s.gapMin, s.gapMax);
      let prev = research;
      for (let j = 0; j < len; j++) {
        const gap = this.page(Kind.Gap, rng.chance(0.5) ? this.campus : this.news, rng.chance(0.5) ? cAdmin : cNews);
        this.link(prev, gap, j === 0 ? Anchor.Research : Anchor.Misc);
        prev = gap;
      }
      this.link(prev, ghome, len > 0 ? Anchor.Research : Anchor.Title);
      if (len > 0 && rng.chance(s.directGroupShare)) this.link(research, ghome, Anchor.Title);
      const gpub = this.page(Kind.Publist, topic, comm, ghome);
      this.link(ghome, gpub, Anchor.Papers);
      return { topic, comm, ghome, gpub, faculty: [], papers: [], projects: [] } as Group;
    });
    return { order, groups };
  }

  /**
   * The department's courses, each on a computing sub-topic or not (by its own generator, so the
   * knob moves nothing else): its syllabus, lectures (with slides, by the site's conventions) and
   * assignments; an instructor from the faculty links it.
   */
  private addCourses(
    d: WebConfig['departments'][number],
    count: number,
    c: {
      order: readonly number[];
      cTeach: number;
      courses: number;
      faculty: readonly number[];
      docs: Rng;
      teachDocs: (typeof TEACHING_DOCS)[number];
    },
  ): void {
    const { rng } = this;
    const s = this.w.config.structure;
    const { order, cTeach, courses, faculty, docs, teachDocs } = c;
    const courseList: number[] = [];
    // which courses are on a computing sub-topic: its own generator, so the knob moves nothing else
    const teach = makeRng(`teaching:${this.w.seed}:${d.host}`);
    for (let ci = 0; ci < count; ci++) {
      const computing = rng.pick(order);
      const topic = teach.next() < s.lectureTopicality ? computing : this.campus;
      // a course's aux is its instructor (-1: none), where its documents may live
      const ch = this.page(Kind.Course, topic, cTeach, -1, -1);
      courseList.push(ch);
      this.link(courses, ch, Anchor.Title);
      if (faculty.length) {
        const instructor = rng.pick(faculty);
        this.link(instructor, ch, Anchor.Title);
        this.auxs.data[ch] = instructor;
      }
      this.link(ch, this.page(Kind.Syllabus, topic, cTeach, ch), Anchor.Misc);
      let prev = ch;
      for (let l = 1, n = rng.range(s.lecturesMin, s.lecturesMax); l <= n; l++) {
        const lec = this.page(Kind.Lecture, topic, cTeach, ch, l);
        this.link(ch, lec, Anchor.Title);
        if (prev !== ch) this.link(prev, lec, Anchor.Nav);
        this.link(lec, ch, Anchor.Nav);
        if (teachDocs.slides > 0 && docs.next() < teachDocs.slides)
          this.link(lec, this.page(Kind.Syllabus, topic, cTeach, ch, 1), Anchor.Misc);
        prev = lec;
      }
      for (let a = teachDocs.assignments; a > 0; a--)
        this.link(ch, this.page(Kind.Syllabus, topic, cTeach, ch, 2), Anchor.Misc);
    }
  }

  /** Copies the buffers into the Web and sorts edges by source into CSR (stable). */
  private finish(): void {
    const w = this.w;
    const n = (w.n = this.kinds.length);
    w.kind = Uint8Array.from(this.kinds.view());
    w.topic = Uint8Array.from(this.topics.view());
    w.siteOf = Uint16Array.from(this.sitesOf.view());
    w.community = this.comms.view().slice();
    w.owner = this.owners.view().slice();
    w.aux = this.auxs.view().slice();
    const m = this.src.length;
    const start = new Uint32Array(n + 1);
    const src = this.src.data;
    for (let e = 0; e < m; e++) start[src[e] + 1]++;
    for (let i = 0; i < n; i++) start[i + 1] += start[i];
    const pos = start.slice(0, n);
    const tgt = new Int32Array(m);
    const fl = new Uint8Array(m);
    for (let e = 0; e < m; e++) {
      const p = pos[src[e]]++;
      tgt[p] = this.dst.data[e];
      fl[p] = this.flg.data[e];
    }
    w.outStart = start;
    w.outTarget = tgt;
    w.outFlags = fl;
  }
}
