/**
 * Renders pages lazily from (seed, page id): titles, text, HTML with links, anchor and
 * around-text; paths and URLs are urls.ts's, papers and other documents document-bodies.ts's. Nothing
 * here is stored; the same web and id always give byte-identical output.
 *
 * Synthetic document format (what a crawler must extract text from):
 *   PDF: "%PDF-1.4", "%SYNTH-DOC", then "Key: value" and plain text lines, then "%%EOF".
 *        Research papers carry Title, Authors, Abstract, Keywords, numbered sections and a
 *        References list; non-paper PDFs (syllabi, forms) carry Title and body text only.
 *   PS:  "%!PS-Adobe-3.0", "%%Title: ...", then one "(text) show" line per text line, "showpage".
 */
import { cap, DocumentPages, type DocumentText, type RenderedPage } from './document-bodies.ts';
import { flat, Memo, PageUrls, slug } from './urls.ts';
import { fastRng, hash32, makeRng, seedNumber, unit, type Rng } from './web-rng.ts';
import { Anchor, Kind, LinkFlag, SECTIONS, sectionName, Target, type Web } from './web.ts';
import {
  ASSIGNMENT_ANCHORS,
  CV_ANCHORS,
  FILE_ANCHORS,
  GROUP_PUBLIST_TITLES,
  PAPER_ANCHORS,
  HEADINGS,
  PUBLIST_HEADINGS,
  PUBLIST_TITLES,
  SLIDES_ANCHORS,
  SYLLABUS_ANCHORS,
  TALK_ANCHORS,
  type Conventions,
} from './conventions.ts';
import { append } from '../lib/arrays.ts';

/** Words per text snippet and snippets per (topic, share) pool. */
const SNIPPET = 6;
const POOL = 1024;

/**
 * Text pools (Renderer.pool) are a function of the seed and the vocabulary alone (the vocabulary of
 * a Zipf exponent), so every web of one seed and exponent shares them: the server, the training
 * data and the truth renderers of one web, and the webs a process generates again (each test's
 * server, a sweep's points, the CLI crawls of one process), instead of building them for each web.
 * The pools of the last POOL_SEEDS (seed, exponent) pairs are kept.
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

export type { RenderedPage } from './document-bodies.ts';

export class Renderer implements DocumentText {
  private readonly titles: Memo<string>;
  /** Where each page lives (paths and URLs by the site's conventions). */
  private readonly urls: PageUrls;
  /** Papers, other documents and images. */
  private readonly documents: DocumentPages;
  /** Extra list items per page id (links into the deep-web search sites). */
  readonly extraItems = new Map<number, string[]>();
  /** The web's text pools, shared by every renderer of its seed and vocabulary (poolsOf). */
  private readonly pools: Map<number, string[]>;

  constructor(readonly web: Web) {
    this.titles = new Memo(web.n);
    this.urls = new PageUrls(web, this);
    this.documents = new DocumentPages(web, this);
    this.pools = poolsOf(web);
  }

  /** The generator of a page's draws of one kind (`what`): the same for a page whoever asks. */
  rng(id: number, what: number): Rng {
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
    // documents' titles from one length distribution where the department's cues are drawn
    const cues = site.cues;
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
        return words(cues ? r.range(2, 7) : r.range(4, 7));
      case Kind.Course:
        return `CS ${this.courseNumber(id)}: ${words(r.range(2, 3))}`;
      case Kind.Lecture:
        return `Lecture ${w.aux[id]}: ${words(r.range(2, 3))}`;
      case Kind.Syllabus:
        // slides and assignments are titled by their subject alone, as a course's files were
        return w.aux[id] === 0
          ? `Syllabus CS ${this.courseNumber(w.owner[id])}`
          : words(cues ? r.range(2, 7) : r.range(2, 4));
      case Kind.Form:
        return w.aux[id] === 0
          ? `${words(1)} Form`
          : w.aux[id] === 1
            ? person(w.owner[id])
            : words(cues ? r.range(2, 7) : r.range(3, 5));
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

  /** Canonical path of a page on its own host (urls.ts). */
  path(id: number): string {
    return this.urls.path(id);
  }

  url(id: number): string {
    return this.urls.url(id);
  }

  /** Finds the page of a canonical path on a host, or -1. */
  resolve(host: string, path: string): number {
    return this.urls.resolve(host, path);
  }

  /** The site's conventions for page id. */
  private conv(id: number): Conventions {
    return this.web.sites[this.web.siteOf[id]].conventions;
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
    if (k === Kind.Syllabus || k === Kind.Form) return this.documents.pdfDoc(id);
    if (k === Kind.Image) return this.documents.image(id);
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
    // faults.refreshRate: the first link given only as a refresh, by meta tag or by header (hashes 24, 25)
    const first = w.outStart[id] < w.outStart[id + 1] ? w.outStart[id] : -1;
    const refreshTo =
      first >= 0 && unit(w.seed, id, 24) < cfg.faults.refreshRate
        ? this.href(id, first, w.outTarget[first], w.outFlags[first])
        : null;
    const byHeader = refreshTo !== null && unit(w.seed, id, 25) < 0.5;
    const items: string[] = [];
    for (let e = w.outStart[id]; e < w.outStart[id + 1]; e++) {
      if (e === first && refreshTo !== null) continue;
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
    if (extra) append(items, extra);
    if (w.kind[id] === Kind.Personal && unit(w.seed, id, 22) < 0.5)
      items.push(`<li><img src="/images/portrait-${w.local(id)}.jpg" alt="me"></li>`);
    const charsetMeta =
      site.charset === 'utf-8'
        ? '<meta charset="utf-8">'
        : `<meta http-equiv="Content-Type" content="text/html; charset=${site.charset}">`;
    const meta =
      refreshTo !== null && !byHeader
        ? `${charsetMeta}<meta http-equiv="refresh" content="30; url=${refreshTo}">`
        : charsetMeta;
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
    const page = this.encodeHtml(site.charset, body);
    return byHeader ? { ...page, refresh: `30; url=${refreshTo}` } : page;
  }

  /** The heading above a page's list of links (its one h2). */
  heading(id: number): string {
    const w = this.web;
    const site = w.sites[w.siteOf[id]];
    // drawn per department and page kind from the pool every kind shares (structure.cues)
    if (site.cues) return HEADINGS[hash32(w.seed, site.index, w.kind[id], 0x4ead) % HEADINGS.length];
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

  /** A research paper in the synthetic .pdf or .ps format (document-bodies.ts). */
  paper(id: number): RenderedPage {
    return this.documents.paper(id);
  }

  /** The infinite calendar (a spider trap): every month links to the next and previous one. */
  calendar(host: string, year: number, month: number): RenderedPage {
    const site = this.web.siteByHost(host);
    const r = fastRng(this.web.seed, seedNumber(host), year, month);
    const next = month === 12 ? [year + 1, 1] : [year, month + 1];
    const prev = month === 1 ? [year - 1, 12] : [year, month - 1];
    const events = this.topicWords(r, site ? this.web.topic[site.first] : 0, 40).join(' ');
    const body =
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Events ` +
      `${year}-${month}</title></head><body><h1>Calendar ` +
      `${year}-${String(month).padStart(2, '0')}</h1><p>${events}</p>` +
      `<a href="/events/calendar/${prev[0]}/${prev[1]}/">previous month</a> <a href="/events/calendar/${next[0]}/${next[1]}/">next month</a></body></html>\n`;
    return { status: 200, contentType: 'text/html; charset=utf-8', body };
  }
}
